fn main() -> std::process::ExitCode {
    toolwire::cli::main()
}
