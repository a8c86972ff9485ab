fn main() -> std::process::ExitCode {
    if stdout::was_closed() {
        // Every command's result is on standard output: written to a closed one it would be
        // lost while the exit status says all went well (a CI step passing on no output).
        eprintln!(
            "toolwire: cannot write to stdout: it is closed (`>&-`); send it to a file or to \
             /dev/null instead"
        );
        return std::process::ExitCode::from(toolwire::cli::EXIT_BAD_INPUT);
    }
    toolwire::cli::main()
}

/// Whether file descriptor 1 was closed when the process started. It cannot be asked in
/// `main`: before `main` runs, std opens `/dev/null` on a closed standard stream (so later
/// files never land on fd 1), and that `/dev/null` is indistinguishable from one a parent
/// gave on purpose (Python's `subprocess.DEVNULL` opens it the same way). So the question is
/// asked earlier, by a constructor the loader runs before the Rust runtime starts; ELF
/// `.init_array` on Linux, nothing elsewhere (the output is then lost as before).
mod stdout {
    use std::sync::atomic::{AtomicBool, Ordering};

    static CLOSED: AtomicBool = AtomicBool::new(false);

    #[cfg(target_os = "linux")]
    extern "C" fn look() {
        // SAFETY: F_GETFD reads fd 1's flags and touches no memory; it fails only with EBADF.
        let closed = unsafe { libc::fcntl(1, libc::F_GETFD) } == -1;
        CLOSED.store(closed, Ordering::Relaxed);
    }

    #[cfg(target_os = "linux")]
    #[used]
    #[unsafe(link_section = ".init_array")]
    static LOOK: extern "C" fn() = look;

    pub fn was_closed() -> bool {
        CLOSED.load(Ordering::Relaxed)
    }
}
