//! CLI cases (trycmd): each `tests/cli/<command>/*.toml` pins args, exit code and output.
//! They run with the repository root as the working directory.

#[test]
fn cli_cases() {
    trycmd::TestCases::new().case("tests/cli/*/*.toml");
}
