//! The idle import worker's warm-up on a made-up input ([`start`]). V8 compiles a wasm function with its
//! baseline compiler (Liftoff) on its first call, and with its optimising one (TurboFan, in the background) only
//! once it has run a while in an instance; a call already running keeps its baseline code. A large profile's
//! merge and first view are single long passes, run once per load, so on a fresh page they ran in baseline code
//! (the import worker's last task of folded 100 MB: 120 ms on a fresh page, 60 on a page that had loaded it
//! once, Chromium trace). Running the large-input path on a small made-up input first, several times, gets that
//! code optimised before the user's file comes; the workers share the compiled module, so the parse workers gain
//! too (docs/BENCHMARKS.md, "A fresh page's first large file").

use scorch_core::import::split::{merge_slices, SliceParser, SlicePart};
use scorch_core::view::calltree::Order;
use scorch_core::{Format, ImportError, ImportOptions, Imported};
use std::cell::RefCell;

/// Lines of the made-up folded input (stacks 6 to 29 frames deep): small enough that the first round's steps,
/// in baseline code, are tasks of 10–35 ms here (the later ones 1–13 ms).
const FOLDED_LINES: usize = 1_000;

/// The warm-up's state between its tasks.
#[derive(Default)]
struct Warm {
    /// The made-up input, and where its second slice starts.
    input: Vec<u8>,
    cut: usize,
    first: Option<Result<SlicePart, ImportError>>,
    imported: Option<Imported>,
}

thread_local! {
    static WARM: RefCell<Warm> = RefCell::new(Warm::default());
}

/// Starts the warm-up: a made-up folded input parsed in two slices as a large input is (the second's part
/// encoded and decoded as a parse worker's is), merged, and its first view cut and answered, [`ROUNDS`] times —
/// one step per task, so a request waits for at most one. `asked`: whether a request came (the warm-up stops
/// there and lets its input go); `answer`: builds a load's answer of a profile (the import worker's).
///
/// Folded stacks only: the merge, the cut and the answer are the same code for perf script, and perf script's own
/// parse is optimised early in its load (it runs in chunks). A perf script input too gained a perf script file
/// from a file another 60 ms at 100 MB, but the renderer's peak with that file grew by ~5 MB (its code; halving the
/// inputs did not shrink it), which took it over a tenth of speedscope's memory (docs/BENCHMARKS.md).
pub(super) fn start(asked: fn() -> bool, answer: fn(Imported)) {
    super::after(0.0, move || step(0, asked, answer));
}

/// How many times the input goes through: V8 optimises a function once it has run a while in one instance, and
/// several small runs count as one large one would, in tasks a request need not wait long for. ~150 ms of the
/// worker's time in all, here.
const ROUNDS: usize = 6;

/// Step `n`: 0 makes the input; then per round three: the first slice parsed, the second parsed and the two
/// merged, the first view built.
fn step(n: usize, asked: fn() -> bool, answer: fn(Imported)) {
    if asked() || n > ROUNDS * 3 {
        WARM.with(|w| *w.borrow_mut() = Warm::default());
        return;
    }
    let more = WARM.with(|w| {
        let mut w = w.borrow_mut();
        if n == 0 {
            w.input = folded(FOLDED_LINES);
            w.cut = slice_cut(&w.input);
            return true;
        }
        match (n - 1) % 3 {
            0 => {
                let first = parse(w.input.get(..w.cut).unwrap_or_default());
                w.first = Some(first);
                true
            }
            1 => {
                let second = parse(w.input.get(w.cut..).unwrap_or_default());
                // As a parse worker's part comes: encoded, then decoded.
                let second = SlicePart::encode_result(second)
                    .ok()
                    .and_then(|b| SlicePart::decode_result(&b).ok());
                let (Some(first), Some(second)) = (w.first.take(), second) else {
                    return false;
                };
                let bytes = w.input.len() as u64;
                w.imported = merge_slices(vec![first, second])
                    .ok()
                    .flatten()
                    .map(|profile| Imported {
                        profile,
                        gzip: false,
                        bytes,
                    });
                w.imported.is_some()
            }
            _ => {
                let Some(imported) = w.imported.take() else {
                    return false;
                };
                drop(w);
                let p = &imported.profile;
                let view = scorch_core::ViewOptions::default_for(p);
                // The cut a large tree's first view is (it is built whole below `CUT_ABOVE` nodes).
                if let Some(weights) = scorch_core::CallTree::stack_weights(p, &view) {
                    let _ = scorch_core::view::cut::cut_stacks_above(p, &weights, Order::Alphabetical, 0);
                }
                answer(imported);
                true
            }
        }
    });
    if more {
        super::after(0.0, move || step(n + 1, asked, answer));
    } else {
        WARM.with(|w| *w.borrow_mut() = Warm::default());
    }
}

/// A slice's part, fed in chunks as a file's slice is.
fn parse(slice: &[u8]) -> Result<SlicePart, ImportError> {
    let format = Format::Folded;
    let Some(mut parser) = SliceParser::new(format, &ImportOptions::default()) else {
        return Err(ImportError::new(
            Some(format),
            scorch_core::ImportErrorKind::Malformed,
            0,
            None,
            "not parsed in slices",
        ));
    };
    for chunk in slice.chunks(64 << 10) {
        parser.feed(chunk)?;
    }
    parser.finish()
}

/// Where the second of two slices starts: after the line that crosses the middle.
fn slice_cut(bytes: &[u8]) -> usize {
    let mid = bytes.len() / 2;
    let rest = bytes.get(mid..).unwrap_or_default();
    rest.iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |i| mid + i + 1)
}

/// A small linear congruential generator: the made-up stacks only need to vary.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, below: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % below.max(1)
    }
}

/// `n` in decimal, at least `width` digits.
fn num(out: &mut Vec<u8>, n: u64, width: usize) {
    let mut digits = [b'0'; 20];
    let (mut n, mut i) = (n, digits.len());
    while n > 0 || digits.len() - i < width.max(1) {
        i -= 1;
        if let Some(d) = digits.get_mut(i) {
            *d = b'0' + (n % 10) as u8;
        }
        n /= 10;
    }
    out.extend_from_slice(digits.get(i..).unwrap_or_default());
}

/// A made-up stack's frames, root first: 6 to 29, each one of three children of its parent, so stacks share
/// prefixes as real ones do. A frame is a number; [`name`] writes its name.
fn stack(r: &mut Lcg) -> Vec<u64> {
    let depth = 6 + r.next(24);
    let mut node = 0u64;
    (0..depth)
        .map(|_| {
            node = (node * 3 + 1 + r.next(3)) % 1_000_003;
            node
        })
        .collect()
}

/// Frame `f`'s name: `m12::f345` (97 modules, 1,013 functions).
fn name(out: &mut Vec<u8>, f: u64) {
    out.push(b'm');
    num(out, f % 97, 1);
    out.extend_from_slice(b"::f");
    num(out, f % 1013, 1);
}

/// Folded stacks, `lines` lines: one in 40 of weight 200,000, the others 1 to 5, so that the first view is
/// cut (its light stacks under the cut's `1 / FINE` of the total).
fn folded(lines: usize) -> Vec<u8> {
    let mut r = Lcg(7);
    let mut out = Vec::with_capacity(lines * 200);
    for _ in 0..lines {
        for (i, &f) in stack(&mut r).iter().enumerate() {
            if i > 0 {
                out.push(b';');
            }
            name(&mut out, f);
        }
        out.push(b' ');
        num(&mut out, if r.next(40) == 0 { 200_000 } else { 1 + r.next(5) }, 1);
        out.push(b'\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The made-up input is what it stands for (folded stacks, read without a warning, its frames named), and
    /// its two slices merge into what one read of the whole gives.
    #[test]
    fn made_up_input_parses_whole_and_in_slices() {
        let bytes = folded(200);
        let whole = scorch_core::import_bytes(&bytes, ImportOptions::default()).expect("parses");
        assert_eq!(whole.profile.meta.format, Format::Folded);
        assert_eq!(whole.profile.meta.warnings.count, 0);
        assert!(whole.profile.stacks.len() > 100);
        let names: Vec<&str> = (0..whole.profile.frames.len() as u32)
            .map(|f| whole.profile.frame_name(scorch_core::model::FrameId(f)))
            .collect();
        assert!(
            names.iter().any(|n| n.starts_with('m') && n.contains("::f")),
            "{:?}",
            &names[..names.len().min(5)]
        );
        let cut = slice_cut(&bytes);
        assert!(cut > 0 && cut < bytes.len() && bytes[cut - 1] == b'\n');
        let merged = merge_slices(vec![parse(&bytes[..cut]), parse(&bytes[cut..])])
            .expect("merges")
            .expect("mergeable");
        assert_eq!(merged.samples.len(), whole.profile.samples.len());
        assert_eq!(merged.stacks.len(), whole.profile.stacks.len());
        assert_eq!(merged.total(), whole.profile.total());
        let mut out = Vec::new();
        num(&mut out, 7000, 6);
        num(&mut out, 0, 1);
        assert_eq!(out, b"0070000");
    }

    /// The folded warm-up's profile is cut as a large one's first view is (not built whole).
    #[test]
    fn made_up_folded_profile_is_cut() {
        let p = scorch_core::import_bytes(&folded(FOLDED_LINES), ImportOptions::default()).expect("parses");
        let view = scorch_core::ViewOptions::default_for(&p.profile);
        let weights = scorch_core::CallTree::stack_weights(&p.profile, &view).expect("plain");
        assert!(
            scorch_core::view::cut::cut_stacks_above(&p.profile, &weights, Order::Alphabetical, 0).is_some()
        );
    }
}
