//! Reading profiles in chunks into the streaming loader, printing warnings, writing output.

use crate::error::{CliError, Result};
use scorch_core::{ImportOptions, Imported, Loader};
use std::io::{Read, Write};

/// Reads the file (`-`: standard input) in 128 KiB chunks into the streaming loader (small enough to stay in
/// cache).
pub fn load(path: &str, opts: ImportOptions) -> Result<Imported> {
    let fail = |e: &dyn std::fmt::Display| CliError::Input(format!("{path}: {e}"));
    let mut input: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| fail(&e))?)
    };
    let mut loader = Loader::new(opts);
    let mut buf = vec![0u8; 128 << 10];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(fail(&e)),
        };
        loader.feed(&buf[..n]).map_err(|e| fail(&e))?;
    }
    loader.finish().map_err(|e| fail(&e))
}

/// Prints the loader's warnings (the first few, then how many more) to standard error.
pub fn warn(imp: &Imported) {
    let w = &imp.profile.meta.warnings;
    for x in &w.first {
        eprintln!("warning: {x}");
    }
    if w.count > w.first.len() as u64 {
        eprintln!("warning: … and {} more", w.count - w.first.len() as u64);
    }
}

/// Loads the file and prints its warnings.
pub fn load_warn(path: &str, opts: ImportOptions) -> Result<Imported> {
    let imp = load(path, opts)?;
    warn(&imp);
    Ok(imp)
}

pub fn write_out(bytes: &[u8]) -> Result<()> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`scorch fold f | head`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::Input(format!("writing output: {e}"))),
    }
}
