//! Reading profiles in chunks into the streaming loader (or, for large plain files, in slices on every core),
//! printing warnings, writing output.

use crate::error::{CliError, Result};
use scorch_core::import::split::{merge_slices, splittable_input, CutSearch, SliceParser, SlicePart};
use scorch_core::{Format, ImportError, ImportOptions, Imported, Loader};
use std::io::{Read, Seek, SeekFrom, Write};
use std::sync::OnceLock;

/// Chunk size of every read: small enough to stay in cache.
const CHUNK: usize = 128 << 10;

/// Files at least this large (plain folded or perf script) are parsed in slices on several threads.
const PARALLEL_MIN: u64 = 8 << 20;

static THREADS: OnceLock<Option<usize>> = OnceLock::new();

/// Which warnings are printed (`--warnings`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum WarningsMode {
    // One line per kind: its first example and how many there are. (Plain comments: a doc comment here would
    // turn `--help` into clap's long form.)
    #[default]
    Kinds,
    // Every warning, one per line (all are kept while reading).
    All,
}

static WARNINGS: OnceLock<WarningsMode> = OnceLock::new();

static SYMBOLIZE: OnceLock<bool> = OnceLock::new();
static INLINE: OnceLock<bool> = OnceLock::new();

/// Whether perf.data frames get the functions inlined at their addresses as inline frames (`--inline`).
pub fn set_inline(on: bool) {
    let _ = INLINE.set(on);
}

/// Whether perf.data frames are named from the binaries on this machine (not `--no-symbols`).
pub fn set_symbolize(on: bool) {
    let _ = SYMBOLIZE.set(on);
}

/// A perf.data recording's `module+0xOFFSET` frames named from this machine's binaries (`symbols.rs`).
fn symbolized(mut imp: Imported) -> Imported {
    if imp.profile.meta.format == Format::PerfData && SYMBOLIZE.get().copied().unwrap_or(true) {
        let kernel = scorch_core::import::perfdata::recorded_kernel(&imp.profile);
        let mut s = crate::symbols::ElfSymbolizer::new().with_kernel(kernel);
        if INLINE.get().copied().unwrap_or(false) {
            imp.profile = scorch_core::import::perfdata::expand_inlined(&imp.profile, &mut s);
        }
        imp.profile = scorch_core::import::perfdata::symbolize(&imp.profile, &mut s);
    }
    imp
}

/// The warnings asked for on the command line (`--warnings`).
pub fn set_warnings(m: WarningsMode) {
    let _ = WARNINGS.set(m);
}

fn warnings_mode() -> WarningsMode {
    WARNINGS.get().copied().unwrap_or_default()
}

/// The thread count asked for on the command line (`--threads N`), which wins over `SCORCH_THREADS`.
pub fn set_threads(n: Option<usize>) {
    let _ = THREADS.set(n);
}

/// Parse threads: `--threads N`, else `SCORCH_THREADS`, else the cores available.
fn threads() -> usize {
    THREADS
        .get()
        .copied()
        .flatten()
        .or_else(|| std::env::var("SCORCH_THREADS").ok()?.trim().parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// Reads the file (`-`: standard input) in 128 KiB chunks into the streaming loader; a large plain folded or
/// perf script file is parsed in slices on [`threads`] threads instead, with the same result byte for byte.
pub fn load(path: &str, mut opts: ImportOptions) -> Result<Imported> {
    if warnings_mode() == WarningsMode::All {
        opts.keep_warnings = usize::MAX;
    }
    let fail = |e: &dyn std::fmt::Display| CliError::Input(format!("{path}: {e}"));
    if path != "-" {
        if let Some(imp) = load_parallel(path, &opts).map_err(|e| fail(&e))? {
            return Ok(imp);
        }
    }
    let mut input: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| fail(&e))?)
    };
    let mut loader = Loader::new(opts);
    read_chunks(&mut input, |chunk| loader.feed(chunk))
        .map_err(|e| fail(&e))?
        .map_err(|e| fail(&e))?;
    loader.finish().map_err(|e| fail(&e)).map(symbolized)
}

/// Reads `input` to its end in [`CHUNK`]-sized chunks, handing each to `take`; stops at `take`'s first error
/// (the inner result) or a read error (the outer).
fn read_chunks<E>(
    input: &mut dyn Read,
    mut take: impl FnMut(&[u8]) -> std::result::Result<(), E>,
) -> std::io::Result<std::result::Result<(), E>> {
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => return Ok(Ok(())),
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if let Err(e) = take(buf.get(..n).unwrap_or_default()) {
            return Ok(Err(e));
        }
    }
}

/// Why the parallel path failed: the file, or the input.
enum ParError {
    Io(std::io::Error),
    Import(ImportError),
}

impl std::fmt::Display for ParError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ParError::Io(e) => write!(f, "{e}"),
            ParError::Import(e) => write!(f, "{e}"),
        }
    }
}

impl From<std::io::Error> for ParError {
    fn from(e: std::io::Error) -> Self {
        ParError::Io(e)
    }
}

/// Reads up to `len` bytes at `at`.
fn read_at(file: &mut std::fs::File, at: u64, len: usize) -> std::io::Result<Vec<u8>> {
    file.seek(SeekFrom::Start(at))?;
    let mut out = Vec::with_capacity(len);
    file.take(len as u64).read_to_end(&mut out)?;
    Ok(out)
}

/// The parallel parse: `None` when the file is small, compressed, UTF-16, not folded or perf script, or a
/// folded file that must be read whole (then the caller streams it); else the profile a single parse gives.
/// Slices are cut at record boundaries near `size × k / threads`; each thread reads its slice in chunks.
fn load_parallel(path: &str, opts: &ImportOptions) -> std::result::Result<Option<Imported>, ParError> {
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    // Slices of at least 1 MiB, so that an absurd thread count costs no more than one thread per MiB.
    let n = threads().min(usize::try_from(len >> 20).unwrap_or(usize::MAX));
    if n < 2 || len < PARALLEL_MIN || len > opts.max_decompressed {
        return Ok(None);
    }
    let head = read_at(&mut file, 0, scorch_core::import::SNIFF_WINDOW)?;
    let Some(format) = splittable_input(&head) else {
        return Ok(None);
    };
    let trace = std::env::var_os("SCORCH_TRACE_PARSE").is_some();
    let t0 = std::time::Instant::now();
    let cuts = cut_points(&mut file, format, len, n)?;
    if trace {
        eprintln!("scorch: parsing {len} bytes in {} slices", cuts.len() - 1);
    }
    let results: Vec<std::io::Result<std::result::Result<SlicePart, ImportError>>> =
        std::thread::scope(|s| {
            let handles: Vec<_> = cuts
                .windows(2)
                .map(|w| {
                    let (start, end) = (w.first().copied().unwrap_or(0), w.get(1).copied().unwrap_or(0));
                    s.spawn(move || parse_slice(path, format, start, end, opts))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join()
                        .unwrap_or_else(|_| Err(std::io::Error::other("a parse thread panicked")))
                })
                .collect()
        });
    let results = results.into_iter().collect::<std::io::Result<Vec<_>>>()?;
    let t1 = std::time::Instant::now();
    let merged = merge_slices(results).map_err(ParError::Import)?;
    if trace {
        let ms = |d: std::time::Duration| d.as_secs_f64() * 1e3;
        eprintln!(
            "scorch: cut and parse {:.0} ms, merge {:.0} ms",
            ms(t1 - t0),
            ms(t1.elapsed())
        );
    }
    match merged {
        Some(profile) => Ok(Some(Imported {
            profile,
            gzip: false,
            bytes: len,
        })),
        None => {
            if trace {
                eprintln!("scorch: this input is read whole");
            }
            Ok(None)
        }
    }
}

/// `0 = c0 < c1 < … < ck = len`: the core's [`CutSearch`] over the file.
fn cut_points(file: &mut std::fs::File, format: Format, len: u64, n: usize) -> std::io::Result<Vec<u64>> {
    let mut search = CutSearch::new(format, len, n);
    while let Some((at, window)) = search.want() {
        search.feed(&read_at(file, at, window)?);
    }
    Ok(search.finish())
}

/// One thread's work: its slice read in chunks into a slice parser.
fn parse_slice(
    path: &str,
    format: Format,
    start: u64,
    end: u64,
    opts: &ImportOptions,
) -> std::io::Result<std::result::Result<SlicePart, ImportError>> {
    let mut file = std::fs::File::open(path)?;
    file.seek(SeekFrom::Start(start))?;
    let mut input = file.take(end - start);
    let Some(mut parser) = SliceParser::new(format, opts) else {
        return Err(std::io::Error::other("not a format read in slices"));
    };
    if let Err(e) = read_chunks(&mut input, |chunk| parser.feed(chunk))? {
        return Ok(Err(e));
    }
    let part = parser.finish();
    if std::env::var_os("SCORCH_TRACE_PARSE").is_some() {
        // Linux: this thread's time on a CPU and waiting for one (ns), which tell contention from work.
        if let Ok(st) = std::fs::read_to_string("/proc/thread-self/schedstat") {
            let v: Vec<f64> = st.split_whitespace().filter_map(|x| x.parse().ok()).collect();
            if let [run, wait, ..] = v.as_slice() {
                eprintln!(
                    "scorch: slice at {start}: {} bytes, {:.0} ms on a CPU, {:.0} ms waiting for one",
                    end - start,
                    run / 1e6,
                    wait / 1e6
                );
            }
        }
    }
    Ok(part)
}

/// Prints the loader's warnings to standard error: one line per kind (`--warnings kinds`), or every one
/// (`--warnings all`).
pub fn warn(imp: &Imported) {
    let w = &imp.profile.meta.warnings;
    match warnings_mode() {
        WarningsMode::Kinds => {
            for line in w.summary() {
                eprintln!("warning: {line}");
            }
        }
        WarningsMode::All => {
            for x in &w.first {
                eprintln!("warning: {x}");
            }
            if w.count > w.first.len() as u64 {
                eprintln!("warning: … and {} more, not kept", w.count - w.first.len() as u64);
            }
        }
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

/// Writes lines to standard output, each followed by `\n`, dropping each once written (a large output is not
/// also held joined). A closed pipe ends quietly, as in [`write_out`].
pub fn write_lines(lines: Vec<String>) -> Result<()> {
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let r = lines
        .into_iter()
        .try_for_each(|l| out.write_all(l.as_bytes()).and_then(|_| out.write_all(b"\n")))
        .and_then(|_| out.flush());
    match r {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(CliError::Input(format!("writing output: {e}"))),
    }
}

/// Each file's name in a combination: its path as given (`-`: `stdin`), with ` (2)`, ` (3)`, … after a
/// repeated one.
pub fn profile_names(paths: &[String]) -> Vec<String> {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    paths
        .iter()
        .map(|p| {
            let base = if p == "-" { "stdin".to_string() } else { p.clone() };
            let n = seen.entry(base.clone()).or_insert(0);
            *n += 1;
            if *n == 1 {
                base
            } else {
                format!("{base} ({n})")
            }
        })
        .collect()
}

/// Prints which event several files were matched on and why a file was left out (standard error).
pub fn warn_left_out(event: &Option<String>, left_out: &[scorch_core::import::many::LeftOut]) {
    if left_out.is_empty() {
        return;
    }
    for l in left_out {
        eprintln!("warning: {}", l.reason(event));
    }
}

/// Loads several files one at a time into one profile, each sample labelled `profile=NAME` (see
/// `scorch_core::import::many`), printing each file's warnings and the files left out. One file: that file
/// alone, labelled too.
pub fn load_many(
    paths: &[String],
    opts: ImportOptions,
    event: Option<&str>,
) -> Result<scorch_core::import::many::Combined> {
    use scorch_core::import::many::Combiner;
    let mut c = Combiner::new(event);
    for (path, name) in paths.iter().zip(profile_names(paths)) {
        let imp = load_warn(path, opts.clone())?;
        c.add(&name, imp.profile)
            .map_err(|e| CliError::Input(e.to_string()))?;
    }
    let combined = c.finish().map_err(|e| CliError::Input(e.to_string()))?;
    warn_left_out(&combined.event, &combined.left_out);
    Ok(combined)
}
