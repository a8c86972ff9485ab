//! CLI cases (trycmd): each `tests/cli/<command>/*.toml` pins args, exit code and output.
//! They run with the repository root as the working directory.

#[test]
fn cli_cases() {
    trycmd::TestCases::new().case("tests/cli/*/*.toml");
}

/// A reader that goes away (`toolwire rule | head -1`) ends the output quietly with the
/// status a shell gives SIGPIPE, for every command that prints a lot: never a panic.
#[test]
fn a_closed_standard_output_ends_quietly() {
    use std::process::{Command, Stdio};
    let explain =
        "function_declarations[15].parameters.properties[deliverables].items: missing field";
    let commands: [&[&str]; 3] = [
        &["rule"],
        &["explain", explain, "--format", "json"],
        &["repair", "tests/cli/repair/gemini-types.json"],
    ];
    for args in commands {
        let mut child = Command::new(env!("CARGO_BIN_EXE_toolwire"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("toolwire starts");
        // Close the read end before the command writes.
        drop(child.stdout.take());
        let out = child.wait_with_output().expect("toolwire ends");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_ne!(out.status.code(), Some(101), "{args:?}: {stderr}");
    }
}
