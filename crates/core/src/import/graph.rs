//! A weighted call graph turned into stacks, for the formats that state a graph and not stacks (callgrind,
//! cProfile). Below every format: they hand it nodes (functions, each with its self cost) and edges (a caller,
//! a callee and the inclusive cost of those calls), and it adds samples to their builder.
//!
//! The graph does not say which caller's calls did which work below a shared callee, so, as speedscope's
//! callgrind importer does, every arrival at a function is assumed to spend its weight as the function does on
//! average: split between its self cost and its calls in proportion to them. What it keeps exactly:
//!
//! - every function's self cost (the samples of a function add up to it, to the unit) and the total;
//! - every call edge's cost, as the sum over the paths through that edge;
//! - a function's inclusive cost (its total, each stack once) when no cycle lies below it and its callers'
//!   costs agree with its own (self + calls), as a consistent recording's do.
//!
//! How: the root weight of a function is its own cost (self + every call it makes) minus the calls into it,
//! when positive (speedscope's rule); a depth-first walk from the roots, in the order the functions came,
//! marks the calls that close a cycle (recursion) and leaves them out; the functions are then visited in
//! topological order, each splitting every path that reaches it (scaled so that the paths add up to its
//! self cost plus the calls it keeps) between its self cost and its calls. The split is in integers: the
//! paths in turn take shares of what remains of each part, rounded by largest remainder, so the last path
//! takes exactly what is left and no part is ever over- or under-spent.
//!
//! Paths can multiply (each shared callee doubles them); the work is capped ([`Budget`]): a function whose
//! paths would pass the cap gets one path instead, `ROOT;[call graph cut];FUNCTION` (ROOT the outermost frame
//! of its first path), its self cost and calls still exact.

use crate::model::{
    Format, FrameId, FrameKind, FullSample, ImportError, ImportErrorKind, ProfileBuilder, StackId,
};

/// The frame that the one path of a function cut by the [`Budget`] passes through, under its first path's root.
pub(crate) const CUT_FRAME: &str = "[call graph cut]";

/// How much expansion one import may do, across its events: path × part steps, paths made, and the frames of
/// the paths made (their depths added up: what every later walk over each sample's stack costs).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Budget {
    pub work: u64,
    pub paths: u64,
    pub frames: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            work: 32_000_000,
            paths: 500_000,
            frames: 8_000_000,
        }
    }
}

/// What an expansion did, for the import's facts and warnings.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Expanded {
    /// Calls left out because they close a cycle (recursion).
    pub back_edges: u64,
    /// Functions whose arriving paths did not add up to their own cost and were scaled to it.
    pub scaled: u64,
    /// Functions whose paths were cut by the budget (one path under [`CUT_FRAME`]).
    pub cut: u64,
}

/// One path reaching a function: its stack, its weight, the stack of its outermost frame, its depth.
#[derive(Debug, Clone, Copy)]
struct Row {
    stack: StackId,
    weight: u64,
    root: StackId,
    depth: u32,
}

/// A call graph: `self_cost[i]` is node `i`'s self cost; `edges` hold (caller, callee, inclusive cost), each
/// pair once, in the order they came. `roots`, when the format knows them (cProfile: the functions nobody
/// called), are the only nodes that get a root weight, instead of every node whose own cost passes the calls
/// into it: inside a cycle the calls' inclusive costs count nested levels again, which can make a callee look
/// like a root.
pub(crate) struct Graph<'a> {
    pub self_cost: &'a [u64],
    pub edges: &'a [(u32, u32, u64)],
    pub roots: Option<&'a [bool]>,
}

fn overflow(format: Format) -> ImportError {
    ImportError::new(
        Some(format),
        ImportErrorKind::Overflow,
        0,
        None,
        "a function's costs add up to more than 2^64-1",
    )
}

/// Adds the graph's samples to `b`, each node as `frames[i]`, with `event`.
pub(crate) fn expand(
    g: &Graph,
    b: &mut ProfileBuilder,
    frames: &[FrameId],
    event: Option<u16>,
    budget: &mut Budget,
    format: Format,
) -> Result<Expanded, ImportError> {
    let n = g.self_cost.len().min(frames.len());
    let mut done = Expanded::default();
    let edges: Vec<(usize, usize, u64)> = g
        .edges
        .iter()
        .map(|&(a, c, w)| (a as usize, c as usize, w))
        .filter(|&(a, c, w)| a < n && c < n && w > 0)
        .collect();
    // Out-edges per node (compressed rows), in input order.
    let mut start = vec![0usize; n + 1];
    for &(a, _, _) in &edges {
        if let Some(s) = start.get_mut(a + 1) {
            *s += 1;
        }
    }
    for i in 0..n {
        let prev = start.get(i).copied().unwrap_or(0);
        if let Some(s) = start.get_mut(i + 1) {
            *s += prev;
        }
    }
    let mut fill = start.clone();
    let mut out = vec![0usize; edges.len()];
    for (e, &(a, _, _)) in edges.iter().enumerate() {
        if let Some(f) = fill.get_mut(a) {
            if let Some(slot) = out.get_mut(*f) {
                *slot = e;
            }
            *f += 1;
        }
    }
    let out_of = |v: usize| -> &[usize] {
        let (s, e) = (
            start.get(v).copied().unwrap_or(0),
            start.get(v + 1).copied().unwrap_or(0),
        );
        out.get(s..e).unwrap_or_default()
    };
    // Root weights: own cost (self + every call) minus the calls into it.
    let mut own: Vec<u128> = g.self_cost.iter().take(n).map(|&s| u128::from(s)).collect();
    let mut into = vec![0u128; n];
    for &(a, c, w) in &edges {
        if let Some(x) = own.get_mut(a) {
            *x += u128::from(w);
        }
        if let Some(x) = into.get_mut(c) {
            *x += u128::from(w);
        }
    }
    // Depth-first from the roots (then from whatever is left: cycles nobody calls), marking back edges.
    let mut state = vec![0u8; n];
    let mut back = vec![false; edges.len()];
    let mut post = Vec::with_capacity(n);
    let is_root = |v: usize| match g.roots {
        Some(r) => r.get(v) == Some(&true),
        None => own.get(v) > into.get(v),
    };
    let roots = (0..n).filter(|&v| is_root(v));
    let mut walk: Vec<(usize, usize)> = Vec::new();
    for s in roots.chain(0..n) {
        if state.get(s) != Some(&0) {
            continue;
        }
        walk.push((s, 0));
        if let Some(x) = state.get_mut(s) {
            *x = 1;
        }
        while let Some(&mut (v, ref mut next)) = walk.last_mut() {
            if let Some(&e) = out_of(v).get(*next) {
                *next += 1;
                let c = edges.get(e).map_or(v, |x| x.1);
                match state.get(c) {
                    Some(0) => {
                        if let Some(x) = state.get_mut(c) {
                            *x = 1;
                        }
                        walk.push((c, 0));
                    }
                    Some(1) => {
                        if let Some(x) = back.get_mut(e) {
                            *x = true;
                        }
                        done.back_edges += 1;
                    }
                    _ => {}
                }
            } else {
                if let Some(x) = state.get_mut(v) {
                    *x = 2;
                }
                post.push(v);
                walk.pop();
            }
        }
    }
    let cut_frame = b.frame(CUT_FRAME, FrameKind::Process);
    // Per node, the paths that reach it.
    let mut paths: Vec<Vec<Row>> = vec![Vec::new(); n];
    for &v in post.iter().rev() {
        let frame = frames.get(v).copied().unwrap_or(FrameId(0));
        // The parts: self, then the calls kept.
        let mut caps: Vec<u64> = vec![g.self_cost.get(v).copied().unwrap_or(0)];
        let mut to: Vec<usize> = vec![usize::MAX];
        for &e in out_of(v) {
            if back.get(e) == Some(&false) {
                if let Some(&(_, c, w)) = edges.get(e) {
                    caps.push(w);
                    to.push(c);
                }
            }
        }
        let parts: u128 = caps.iter().map(|&c| u128::from(c)).sum();
        if parts == 0 {
            continue;
        }
        let parts = u64::try_from(parts).map_err(|_| overflow(format))?;
        let mut rows = std::mem::take(paths.get_mut(v).unwrap_or(&mut Vec::new()));
        let root = if is_root(v) {
            own.get(v)
                .copied()
                .unwrap_or(0)
                .saturating_sub(into.get(v).copied().unwrap_or(0))
        } else {
            0
        };
        let arrived: u128 = rows.iter().map(|r| u128::from(r.weight)).sum();
        let root = if root == 0 && arrived == 0 {
            u128::from(parts)
        } else {
            root
        };
        if root > 0 {
            let w = u64::try_from(root).map_err(|_| overflow(format))?;
            let s = b.stack(None, frame);
            rows.insert(
                0,
                Row {
                    stack: s,
                    weight: w,
                    root: s,
                    depth: 1,
                },
            );
        }
        let inflow = arrived + root;
        if u64::try_from(inflow).is_err() {
            return Err(overflow(format));
        }
        if inflow != u128::from(parts) {
            done.scaled += 1;
            rows = scale(&rows, inflow, parts);
        }
        let k = caps.len() as u64;
        let cost = (rows.len() as u64).saturating_mul(k);
        let made = (rows.len() as u64).saturating_mul(k - 1);
        let frames_made = rows
            .iter()
            .fold(0u64, |a, r| a.saturating_add(u64::from(r.depth) + 1))
            .saturating_mul(k - 1);
        if cost > budget.work || made > budget.paths || frames_made > budget.frames {
            done.cut += 1;
            let root = rows.first().map(|r| r.root);
            let Some(root) = root else { continue };
            let cut = b.stack(Some(root), cut_frame);
            let stack = b.stack(Some(cut), frame);
            rows = vec![Row {
                stack,
                weight: parts,
                root,
                depth: 3,
            }];
        } else {
            budget.work -= cost;
        }
        let mut left = parts;
        let mut shares = vec![0u64; caps.len()];
        for Row {
            stack,
            weight: w,
            root,
            depth,
        } in rows
        {
            split(w, left, &caps, &mut shares);
            left -= w.min(left);
            for (j, (&share, cap)) in shares.iter().zip(caps.iter_mut()).enumerate() {
                if share == 0 {
                    continue;
                }
                *cap -= share.min(*cap);
                if j == 0 {
                    let s = FullSample {
                        stack,
                        weight: share,
                        time_ns: None,
                        thread: None,
                        event,
                        cpu: None,
                        labels: None,
                    };
                    b.push_full_sample(s, 0)?;
                } else if let Some(&c) = to.get(j) {
                    let child = b.stack(Some(stack), frames.get(c).copied().unwrap_or(FrameId(0)));
                    budget.paths = budget.paths.saturating_sub(1);
                    budget.frames = budget.frames.saturating_sub(u64::from(depth) + 1);
                    if let Some(p) = paths.get_mut(c) {
                        p.push(Row {
                            stack: child,
                            weight: share,
                            root,
                            depth: depth.saturating_add(1),
                        });
                    }
                }
            }
        }
    }
    Ok(done)
}

/// The rows' weights scaled to add up to `parts` exactly: row `i` gets ⌊parts·Wᵢ/inflow⌋ − ⌊parts·Wᵢ₋₁/inflow⌋
/// (Wᵢ the running sum); rows that get nothing are dropped.
fn scale(rows: &[Row], inflow: u128, parts: u64) -> Vec<Row> {
    let mut out = Vec::with_capacity(rows.len());
    let (mut run, mut prev) = (0u128, 0u128);
    for r in rows {
        run += u128::from(r.weight);
        let at = mul_div(u128::from(parts), run, inflow);
        let share = u64::try_from(at.saturating_sub(prev)).unwrap_or(u64::MAX);
        prev = at;
        if share > 0 {
            out.push(Row { weight: share, ..*r });
        }
    }
    out
}

/// ⌊a·b/c⌋; a and b are below 2⁶⁴ (the caller checks), so a·b fits.
fn mul_div(a: u128, b: u128, c: u128) -> u128 {
    a.saturating_mul(b).checked_div(c).unwrap_or(0)
}

/// Splits `w` of what is `left` among the parts `caps` (which add up to `left`): each part's share of
/// `w·cap/left`, floors first, then one more to the largest remainders (ties: the earlier part) until `w` is
/// given out. Every share is at most its cap; `w == left` takes every cap whole.
fn split(w: u64, left: u64, caps: &[u64], shares: &mut [u64]) {
    if w >= left {
        shares.copy_from_slice(caps);
        return;
    }
    let mut given = 0u64;
    let mut rem: Vec<(u64, usize)> = Vec::new();
    for (j, (&cap, share)) in caps.iter().zip(shares.iter_mut()).enumerate() {
        let p = u128::from(w) * u128::from(cap);
        let (q, r) = (p / u128::from(left), p % u128::from(left));
        *share = q as u64;
        given += *share;
        if r > 0 {
            rem.push((r as u64, j));
        }
    }
    let deficit = (w - given) as usize;
    if deficit > 0 {
        if deficit < rem.len() {
            rem.select_nth_unstable_by(deficit - 1, |a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        }
        for &(_, j) in rem.iter().take(deficit) {
            if let Some(s) = shares.get_mut(j) {
                *s += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Unit, Warnings};

    /// Expands `self_cost`/`edges` with nodes named `names` and returns the folded stacks.
    fn fold(
        names: &[&str],
        self_cost: &[u64],
        edges: &[(u32, u32, u64)],
        budget: Budget,
    ) -> (String, Expanded) {
        let mut b = ProfileBuilder::new(Format::Folded);
        let frames: Vec<FrameId> = names.iter().map(|n| b.frame(n, FrameKind::User)).collect();
        let mut budget = budget;
        let g = Graph {
            self_cost,
            edges,
            roots: None,
        };
        let e = b.event("x", Unit::Samples);
        let done = expand(&g, &mut b, &frames, Some(e), &mut budget, Format::Folded).unwrap();
        let p = b.build(Unit::Samples, 0, 0, Warnings::default());
        p.validate().unwrap();
        let mut sums = std::collections::BTreeMap::<String, u64>::new();
        for i in 0..p.samples.len() {
            let names: Vec<&str> = p
                .stack_frames(p.samples.stack[i])
                .iter()
                .map(|&f| p.frame_name(f))
                .collect();
            *sums.entry(names.join(";")).or_default() += p.samples.weight[i];
        }
        (sums.iter().map(|(s, w)| format!("{s} {w}\n")).collect(), done)
    }

    /// speedscope's example: start and end both call backup, which reads or writes; the graph cannot tell
    /// which, so each caller gets backup's average split.
    #[test]
    fn a_shared_callee_splits_by_its_average() {
        let names = ["start", "end", "backup", "read", "write"];
        let edges = [(0, 2, 4), (1, 2, 4), (2, 3, 4), (2, 4, 4)];
        let (f, done) = fold(&names, &[0, 0, 0, 4, 4], &edges, Budget::default());
        assert_eq!(
            f,
            "end;backup;read 2\nend;backup;write 2\nstart;backup;read 2\nstart;backup;write 2\n"
        );
        assert_eq!(done.back_edges, 0);
        assert_eq!(done.scaled, 0);
    }

    /// Odd weights: the integer split keeps every self cost and the total exact.
    #[test]
    fn integer_shares_keep_self_costs_exact() {
        let names = ["a", "b", "c", "d", "e"];
        let edges = [(0, 2, 7), (1, 2, 4), (2, 3, 5), (2, 4, 3)];
        let (f, _) = fold(&names, &[1, 2, 3, 5, 3], &edges, Budget::default());
        let mut selfs = std::collections::BTreeMap::<String, u64>::new();
        for line in f.lines() {
            let (stack, w) = line.rsplit_once(' ').unwrap();
            *selfs.entry(stack.rsplit(';').next().unwrap().into()).or_default() += w.parse::<u64>().unwrap();
        }
        let want: Vec<(String, u64)> = [("a", 1), ("b", 2), ("c", 3), ("d", 5), ("e", 3)]
            .iter()
            .map(|&(n, w)| (n.into(), w))
            .collect();
        assert_eq!(selfs.into_iter().collect::<Vec<_>>(), want, "{f}");
    }

    /// Recursion: the call that closes the cycle is left out; the inner cost stays the function's self.
    #[test]
    fn recursion_is_cut_at_the_back_edge() {
        // main → fib (inclusive 10), fib → fib (inclusive 6, counted again at each level), fib self 10.
        let (f, done) = fold(
            &["main", "fib"],
            &[1, 10],
            &[(0, 1, 10), (1, 1, 6)],
            Budget::default(),
        );
        assert_eq!(f, "main 1\nmain;fib 10\n");
        assert_eq!(done.back_edges, 1);
        // A cycle nobody calls still keeps its self costs.
        let (f, _) = fold(&["a", "b"], &[3, 4], &[(0, 1, 9), (1, 0, 9)], Budget::default());
        let total: u64 = f
            .lines()
            .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, 7, "{f}");
    }

    /// Over the budget, a function's paths become one, under the cut root; the costs stay exact.
    #[test]
    fn the_budget_cuts_paths_not_costs() {
        let names = ["start", "end", "backup", "read", "write"];
        let edges = [(0, 2, 4), (1, 2, 4), (2, 3, 4), (2, 4, 4)];
        let (f, done) = fold(
            &names,
            &[0, 0, 0, 4, 4],
            &edges,
            Budget {
                work: 4,
                paths: 100,
                frames: 1000,
            },
        );
        assert!(done.cut > 0);
        assert!(f.contains(";[call graph cut];"), "{f}");
        assert!(
            f.lines()
                .all(|l| l.starts_with("start;") || l.starts_with("end;")),
            "{f}"
        );
        let total: u64 = f
            .lines()
            .map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap())
            .sum();
        assert_eq!(total, 8);
    }

    #[test]
    fn split_gives_out_exactly() {
        let mut s = [0u64; 3];
        split(5, 9, &[3, 3, 3], &mut s);
        assert_eq!(s.iter().sum::<u64>(), 5);
        assert!(s.iter().all(|&x| x <= 3));
        split(9, 9, &[3, 3, 3], &mut s);
        assert_eq!(s, [3, 3, 3]);
        split(1, u64::MAX, &[u64::MAX - 1, 1, 0], &mut s);
        assert_eq!(s, [1, 0, 0]);
    }
}
