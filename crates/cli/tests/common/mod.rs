//! What the CLI's integration tests share: running the built `scorch` and finding the core's test data.
#![allow(dead_code)] // each test file uses part of it

use std::process::Command;

/// Runs `scorch ARGS`: (exit code, stdout, stderr).
pub fn scorch(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_scorch"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A file under `crates/core/tests/data/`.
pub fn core_data(rel: &str) -> String {
    format!("{}/../core/tests/data/{rel}", env!("CARGO_MANIFEST_DIR"))
}
