//! What the CLI's integration tests share: running the built `scorch` and finding the core's test data.
#![allow(dead_code)] // each test file uses part of it

use std::io::Write;
use std::process::{Command, Stdio};

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

/// Runs `scorch ARGS` with `stdin` (or nothing) on its standard input: (exit code, stdout's bytes, stderr).
pub fn scorch_bytes(args: &[&str], stdin: Option<&[u8]>) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_scorch"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or_default()).unwrap();
    drop(input);
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// [`scorch_bytes`] with stdout as text.
pub fn scorch_input(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    let (code, out, err) = scorch_bytes(args, stdin);
    (code, String::from_utf8_lossy(&out).into_owned(), err)
}

/// A file under `crates/core/tests/data/`.
pub fn core_data(rel: &str) -> String {
    format!("{}/../core/tests/data/{rel}", env!("CARGO_MANIFEST_DIR"))
}
