//! Build script: compiles the Gemini v1beta proto snapshot with protox into a
//! FileDescriptorSet in OUT_DIR (decoded once at runtime by `engine::gemini_proto`), and
//! exports the locked versions of the engine crates so that every observation names the exact
//! engine that produced it.

use std::path::Path;

const PROTO_DIR: &str = "src/engine/proto";
const PROTO_FILE: &str = "gemini_v1beta.proto";
/// Crates whose locked version is exported as `TOOLWIRE_VERSION_<NAME>` (dashes become
/// underscores, upper case).
const VERSIONED: &[&str] = &["jsonschema", "llguidance", "prost-reflect", "protox"];

fn main() {
    println!("cargo:rerun-if-changed={PROTO_DIR}/{PROTO_FILE}");
    println!("cargo:rerun-if-changed=Cargo.lock");
    let out = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");

    let mut compiler = match protox::Compiler::new([PROTO_DIR]) {
        Ok(c) => c,
        Err(e) => panic!("cannot set up protox for {PROTO_DIR}: {e}"),
    };
    compiler.include_imports(true);
    if let Err(e) = compiler.open_file(PROTO_FILE) {
        panic!("{PROTO_DIR}/{PROTO_FILE} does not compile: {e:?}");
    }
    let set = compiler.encode_file_descriptor_set();
    let dest = Path::new(&out).join("gemini_v1beta.fds");
    std::fs::write(&dest, set).unwrap_or_else(|e| panic!("cannot write {}: {e}", dest.display()));

    let lock = std::fs::read_to_string("Cargo.lock").unwrap_or_default();
    for name in VERSIONED {
        let version = locked_version(&lock, name).unwrap_or_else(|| "unknown".into());
        let var = name.replace('-', "_").to_uppercase();
        println!("cargo:rustc-env=TOOLWIRE_VERSION_{var}={version}");
    }
}

/// The version of `name` in a Cargo.lock (`[[package]]` blocks of `name = ".."` then
/// `version = ".."`); the first one when several versions are locked.
fn locked_version(lock: &str, name: &str) -> Option<String> {
    let wanted = format!("name = \"{name}\"");
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == wanted {
            let next = lines.next()?;
            let v = next
                .trim()
                .strip_prefix("version = \"")?
                .strip_suffix('"')?;
            return Some(v.to_string());
        }
    }
    None
}
