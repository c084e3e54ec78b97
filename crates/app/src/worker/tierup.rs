//! The idle import worker's second warm-up: it reads a few MB of made-up perf script and folded stacks the
//! way it reads a large file (two slices, the second one's part encoded and decoded as a parse worker's is,
//! merged, and the first view's answer built), so that V8 has optimised that code before the user's file comes.
//!
//! V8 runs a wasm function first in its baseline code (Liftoff) and optimises it (TurboFan) only once it has run
//! for a while, on a background thread; a parse that starts cold spends its first tens of MB in slow code while
//! that compile competes with it for the machine's cores, and what a load runs once (the merge, the cut, the
//! payload) never leaves the baseline code. Parsing 2 MB first took a single-threaded 100 MB perf script parse
//! from 250–300 ms to 210–217 ms, folded 100 MB from ~123 to ~105 ms (docs/BENCHMARKS.md). The optimised code
//! belongs to the compiled module, which every worker of the page shares (the parse workers, the import workers
//! of later files). The input is made here (nothing is fetched), fed in pieces of a task each; the first
//! request stops it, and nothing is kept.

use super::yield_now;
use scorch_core::import::split::{merge_slices, split, SliceParser, SlicePart};
use scorch_core::{Format, ImportOptions, Imported};

/// How much of each format is parsed.
const PERF_BYTES: usize = 2 << 20;
const FOLDED_BYTES: usize = 1 << 20;
/// Bytes fed per task: a request that comes meanwhile waits for one piece at most (~1–2 ms).
const PIECE: usize = 64 << 10;

/// Runs the warm-up while `asked()` says no request has come: each input is read the way a large file is, in
/// two slices (the second one's part encoded and decoded, as a parse worker's is), merged, and given to
/// `answer` (the first view's cut, its figures and the payload), so that what a large load runs once is warm too.
pub(super) async fn warm(asked: impl Fn() -> bool, answer: impl Fn(Imported)) {
    // The end of a task: whether a request came meanwhile (the warm-up then stops).
    let asked_after_yield = || async {
        yield_now().await;
        asked()
    };
    let opts = ImportOptions::default();
    for format in [Format::PerfScript, Format::Folded] {
        // Made when its turn comes, not both at once: each is a few ms of one task.
        let input = match format {
            Format::PerfScript => Made::perf(PERF_BYTES),
            _ => Made::folded(FOLDED_BYTES),
        };
        let mut parts = Vec::new();
        for range in split(format, &input, 2) {
            let Some(mut parser) = SliceParser::new(format, &opts) else {
                return;
            };
            for piece in input.get(range).unwrap_or_default().chunks(PIECE) {
                if asked_after_yield().await || parser.feed(piece).is_err() {
                    return;
                }
            }
            parts.push(parser.finish());
        }
        if asked_after_yield().await {
            return;
        }
        if let Some(last) = parts.pop() {
            match SlicePart::encode_result(last).map(|bytes| SlicePart::decode_result(&bytes)) {
                Ok(Ok(part)) => parts.push(part),
                _ => return,
            }
        }
        if asked_after_yield().await {
            return;
        }
        let Ok(Some(profile)) = merge_slices(parts) else {
            return;
        };
        if asked_after_yield().await {
            return;
        }
        answer(Imported {
            profile,
            gzip: false,
            bytes: input.len() as u64,
        });
    }
}

/// Made-up profiles: stacks of a few hundred functions in a few libraries, sharing their outer frames as a
/// program's do, each function seen at several offsets (a deterministic sequence, the same on every page).
struct Made {
    seed: u64,
}

impl Made {
    fn next(&mut self, below: usize) -> usize {
        // A 64-bit linear congruential generator (Knuth's MMIX constants); the high bits are the good ones.
        self.seed = self
            .seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.seed >> 33) as usize) % below.max(1)
    }

    /// A stack, outermost first: a walk down a fixed graph of functions (function `f` calls `f * 7 + k`, for k
    /// of 1 to 3, modulo their number).
    fn stack(&mut self, out: &mut Vec<usize>) {
        out.clear();
        let depth = 6 + self.next(30);
        let mut f = self.next(4);
        for _ in 0..depth {
            out.push(f);
            f = (f * 7 + 1 + self.next(3)) % FUNCTIONS;
        }
    }

    fn perf(bytes: usize) -> Vec<u8> {
        use std::fmt::Write;
        let mut m = Made { seed: 0x5c0c };
        let mut text = String::with_capacity(bytes + 4096);
        let mut stack = Vec::new();
        let mut t = 0u64;
        while text.len() < bytes {
            m.stack(&mut stack);
            t += 1 + m.next(20_000) as u64;
            let tid = 4000 + m.next(8);
            let _ = writeln!(
                text,
                "app-worker {tid}/{tid} [{:03}] {}.{:06}: 10101010 cpu-clock:ppp: ",
                m.next(8),
                100 + t / 1_000_000,
                t % 1_000_000
            );
            for &f in stack.iter().rev() {
                let off = 0x10 + 0x10 * m.next(40);
                let _ = writeln!(
                    text,
                    "\t    {:x} {}+{off:#x} ({})",
                    0x55d0_0000_0000_u64 + (f as u64) * 0x1000 + off as u64,
                    name(f),
                    LIBRARIES[f % LIBRARIES.len()]
                );
            }
            text.push('\n');
        }
        text.into_bytes()
    }

    fn folded(bytes: usize) -> Vec<u8> {
        use std::fmt::Write;
        let mut m = Made { seed: 0xf01d };
        let mut text = String::with_capacity(bytes + 4096);
        let mut stack = Vec::new();
        while text.len() < bytes {
            m.stack(&mut stack);
            for (i, &f) in stack.iter().enumerate() {
                if i > 0 {
                    text.push(';');
                }
                let _ = write!(text, "{}", name(f));
            }
            let _ = writeln!(text, " {}", 1 + m.next(50));
        }
        text.into_bytes()
    }
}

const FUNCTIONS: usize = 600;

const LIBRARIES: [&str; 5] = [
    "/opt/app/bin/app",
    "/usr/lib/x86_64-linux-gnu/libc.so.6",
    "/opt/app/lib/libstore.so",
    "[kernel.kallsyms]",
    "/usr/lib/x86_64-linux-gnu/libstdc++.so.6.0.30",
];

const MODULES: [&str; 8] = ["net", "store", "query", "sched", "io", "codec", "cache", "rpc"];
const TYPES: [&str; 6] = ["Worker", "Buffer", "Conn", "Table", "Task", "Frame"];
const METHODS: [&str; 7] = ["run", "poll", "read", "write", "flush", "parse", "drop_slow"];

fn name(f: usize) -> String {
    format!(
        "app::{}::{}<T>::{}_{f}",
        MODULES[f % MODULES.len()],
        TYPES[(f / 8) % TYPES.len()],
        METHODS[(f / 48) % METHODS.len()]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn made_inputs_are_read_as_the_formats_they_imitate_without_warnings() {
        for (bytes, format, min_samples) in [
            (Made::perf(256 << 10), scorch_core::Format::PerfScript, 100),
            (Made::folded(256 << 10), scorch_core::Format::Folded, 300),
        ] {
            let imported = scorch_core::import_bytes(&bytes, ImportOptions::default()).unwrap();
            assert_eq!(imported.profile.meta.format, format);
            assert!(
                imported.profile.samples.len() >= min_samples,
                "{}",
                imported.profile.samples.len()
            );
            assert_eq!(
                imported.profile.meta.warnings.count, 0,
                "{:?}",
                imported.profile.meta.warnings.first
            );
            // Functions at several offsets each, in several libraries: the perf parser's caches see what a real
            // file gives them.
            assert!(
                imported.profile.frames.len() >= 300,
                "{}",
                imported.profile.frames.len()
            );
        }
    }
}
