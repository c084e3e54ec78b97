//! `scorch`: the same core as the viewer, on the command line.
//!
//! Thin by design: argument parsing, reading files in chunks, printing. All logic lives in scorch-core.

use scorch_core::calltree::{CallTree, Order};
use scorch_core::units::{format_value, group_thousands};
use scorch_core::{export, ImportOptions, Imported, Loader};
use std::io::{Read, Write};
use std::process::ExitCode;

const USAGE: &str = "\
scorch — read profiles (folded stacks; more formats to come) on the command line

USAGE:
    scorch fold FILE      write the canonical folded form: one line per distinct stack, sorted, weights summed
    scorch info FILE      print format, samples, total, distinct stacks and maximum depth

FILE may be `-` for standard input. gzip'd input is detected by its magic bytes.
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("scorch: {msg}");
            ExitCode::from(1)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let (cmd, rest) = match args.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => {
            eprint!("{USAGE}");
            return Err("no command given".into());
        }
    };
    match cmd {
        "-h" | "--help" | "help" => {
            print!("{USAGE}");
            Ok(())
        }
        "fold" => {
            let file = one_file(rest)?;
            let imp = load(file)?;
            warn(&imp);
            write_out(export::to_folded(&imp.profile).as_bytes())
        }
        "info" => {
            let file = one_file(rest)?;
            let imp = load(file)?;
            warn(&imp);
            let p = &imp.profile;
            let tree = CallTree::from_profile(p, Order::Alphabetical);
            let used_stacks = {
                let mut seen = vec![false; p.stacks.len()];
                for s in &p.samples.stack {
                    seen[s.idx()] = true;
                }
                seen.iter().filter(|&&b| b).count()
            };
            let total = p.total_weight();
            let text = format!(
                "format:          {}{}\nsamples:         {}\ntotal:           {} ({})\nunit:            {}\ndistinct stacks: {}\nframes:          {}\ncall-tree nodes: {}\nmax depth:       {}\nwarnings:        {}\n",
                p.meta.format,
                if imp.gzip { " (gzip)" } else { "" },
                p.meta.records,
                total,
                format_value(total.as_f64(), &p.meta.unit),
                p.meta.unit.name(),
                group_thousands(used_stacks as u64),
                group_thousands(p.frames.len() as u64),
                group_thousands(tree.len() as u64 - 1),
                p.max_depth(),
                p.meta.warnings.count,
            );
            write_out(text.as_bytes())
        }
        other => {
            eprint!("{USAGE}");
            Err(format!("unknown command `{other}`"))
        }
    }
}

fn one_file(rest: &[String]) -> Result<&str, String> {
    match rest {
        [f] => Ok(f.as_str()),
        [] => Err("missing FILE".into()),
        _ => Err(format!("unexpected arguments: {}", rest[1..].join(" "))),
    }
}

/// Reads the file in 1 MiB chunks into the streaming loader.
fn load(path: &str) -> Result<Imported, String> {
    let mut input: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?)
    };
    let mut loader = Loader::new(ImportOptions::default());
    let mut buf = vec![0u8; 1 << 20];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("{path}: {e}")),
        };
        loader.feed(&buf[..n]).map_err(|e| format!("{path}: {e}"))?;
    }
    loader.finish().map_err(|e| format!("{path}: {e}"))
}

fn warn(imp: &Imported) {
    let w = &imp.profile.meta.warnings;
    for x in &w.first {
        eprintln!("warning: {x}");
    }
    if w.count > w.first.len() as u64 {
        eprintln!("warning: … and {} more", w.count - w.first.len() as u64);
    }
}

fn write_out(bytes: &[u8]) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`scorch fold f | head`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("writing output: {e}")),
    }
}
