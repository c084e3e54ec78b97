//! Transforms, the inverted tree, the sandwich, the matched share and the function table, with exact numbers.

use proptest::prelude::*;
use scorch_core::analysis::functions::functions;
use scorch_core::analysis::sandwich::{callees, callers, invert};
use scorch_core::analysis::search::{matched_total, Matcher, Pattern};
use scorch_core::analysis::transforms::{apply, apply_all, Transform};
use scorch_core::export::to_folded_view;
use scorch_core::import::folded::parse;
use scorch_core::view::calltree::{CallTree, Order};
use scorch_core::{import_bytes, ImportOptions, Profile, ViewOptions};

fn fold(p: &Profile) -> String {
    to_folded_view(p, &ViewOptions::default_for(p))
}

fn t(p: &Profile, tr: Transform) -> String {
    let out = apply(p, &tr).unwrap();
    out.validate().unwrap();
    fold(&out)
}

const REC: &[u8] = b"main;f;g;f;h 4\nmain;f;f;f 2\nmain;g;f 3\nmain;x 1\n";

#[test]
fn focus_reroots_at_the_outermost_call() {
    let p = parse(REC).unwrap();
    // In canonical (sorted) order: f 3 (from main;g;f), f;f;f 2, f;g;f;h 4.
    let got = apply(&p, &Transform::Focus("f".into())).unwrap();
    assert_eq!(fold(&got), "f 3\nf;f;f 2\nf;g;f;h 4\n");
    assert_eq!(got.total(), 9);
}

#[test]
fn ignore_drops_samples_through_a_match() {
    let p = parse(REC).unwrap();
    assert_eq!(
        t(&p, Transform::Ignore(Pattern::plain("h"))),
        "main;f;f;f 2\nmain;g;f 3\nmain;x 1\n"
    );
    assert_eq!(
        t(&p, Transform::Ignore(Pattern::regex("^[gx]$"))),
        "main;f;f;f 2\n"
    );
}

#[test]
fn hide_and_merge_move_weight_to_the_caller() {
    let p = parse(REC).unwrap();
    assert_eq!(
        t(&p, Transform::Merge("f".into())),
        "main 2\nmain;g 3\nmain;g;h 4\nmain;x 1\n"
    );
    assert_eq!(
        t(&p, Transform::Hide(Pattern::regex("^(f|g)$"))),
        "main 5\nmain;h 4\nmain;x 1\n"
    );
    // Hiding every frame leaves the weight at the root: the total never changes.
    let all = apply(&p, &Transform::Hide(Pattern::regex("."))).unwrap();
    assert_eq!(all.total(), 10);
    assert_eq!(CallTree::from_profile(&all, Order::Alphabetical).total[0], 10);
}

#[test]
fn collapse_recursion_direct_and_indirect() {
    let p = parse(REC).unwrap();
    assert_eq!(
        t(&p, Transform::CollapseDirect("f".into())),
        "main;f 2\nmain;f;g;f;h 4\nmain;g;f 3\nmain;x 1\n"
    );
    assert_eq!(
        t(&p, Transform::CollapseRecursion("f".into())),
        "main;f 2\nmain;f;h 4\nmain;g;f 3\nmain;x 1\n"
    );
}

#[test]
fn show_from_cuts_above_the_outermost_match() {
    let p = parse(REC).unwrap();
    // pprof's example: [A B C B] with show_from=B gives [B C B]; samples without a match are dropped.
    assert_eq!(
        t(&p, Transform::ShowFrom(Pattern::plain("g"))),
        "g;f 3\ng;f;h 4\n"
    );
    let q = parse(b"A;B;C;B 1\nA;D 2\n").unwrap();
    assert_eq!(t(&q, Transform::ShowFrom(Pattern::plain("B"))), "B;C;B 1\n");
    assert_eq!(t(&q, Transform::ShowFrom(Pattern::plain("C"))), "C;B 1\n");
    assert_eq!(t(&q, Transform::ShowFrom(Pattern::plain("Z"))), "");
}

#[test]
fn transforms_stack_in_order() {
    let p = parse(REC).unwrap();
    let ts = [
        Transform::Focus("f".into()),
        Transform::CollapseRecursion("f".into()),
        Transform::Hide(Pattern::plain("h")),
    ];
    let out = apply_all(&p, &ts).unwrap().unwrap();
    assert_eq!(fold(&out), "f 9\n");
    assert!(apply_all(&p, &[]).unwrap().is_none());
    let bad = apply(&p, &Transform::Hide(Pattern::regex("(")));
    assert!(bad.unwrap_err().contains("regular expression"));
}

#[test]
fn inverted_tree_merges_by_leaf() {
    let p = parse(b"main;a;leaf 3\nmain;b;leaf 2\nmain;a 1\nother;leaf 4\n").unwrap();
    let inv = invert(&p).unwrap();
    inv.validate().unwrap();
    assert_eq!(
        fold(&inv),
        "a;main 1\nleaf;a;main 3\nleaf;b;main 2\nleaf;other 4\n"
    );
    let tree = CallTree::from_profile(&inv, Order::Weight);
    let leaf = tree.find_path(&inv, &["leaf"]).unwrap();
    assert_eq!((tree.total[leaf.idx()], tree.self_w[leaf.idx()]), (9, 0));
    assert_eq!(tree.total[0], 10);
}

#[test]
fn sandwich_callers_and_callees() {
    let p = parse(REC).unwrap();
    let up = callers(&p, "f").unwrap();
    up.validate().unwrap();
    // From the innermost f up to the root, inverted.
    assert_eq!(fold(&up), "f;f;f;main 2\nf;g;f;main 4\nf;g;main 3\n");
    let down = callees(&p, "f").unwrap();
    assert_eq!(up.total(), 9);
    assert_eq!(down.total(), 9);
    let (rows, total, samples) = functions(&p, &ViewOptions::default_for(&p));
    assert_eq!((total, samples), (10, 4));
    let f = rows.iter().find(|r| r.name == "f").unwrap();
    assert_eq!(
        (f.self_w, f.total_w, f.self_samples, f.total_samples),
        (5, 9, 2, 3)
    );
}

#[test]
fn matched_counts_nested_matches_once() {
    let p = parse(REC).unwrap();
    let tree = CallTree::from_profile(&p, Order::Alphabetical);
    let mask = |pat: Pattern| pat.compile().unwrap().frame_mask(&p);
    // f appears nested in f (and under g): each sample once, 9 of 10.
    assert_eq!(matched_total(&tree, &mask(Pattern::plain("f"))), 9);
    // Every frame matches: exactly the total, never more.
    assert_eq!(matched_total(&tree, &mask(Pattern::regex("."))), 10);
    assert_eq!(matched_total(&tree, &mask(Pattern::regex("^(g|h)$"))), 7);
    assert_eq!(matched_total(&tree, &mask(Pattern::plain("nothing"))), 0);
    // Case: plain search ignores case unless asked.
    assert_eq!(matched_total(&tree, &mask(Pattern::plain("MAIN"))), 10);
    let case = Pattern {
        text: "MAIN".into(),
        regex: false,
        case_sensitive: true,
    };
    assert_eq!(matched_total(&tree, &mask(case)), 0);
    assert!(Matcher::Exact("f".into()).is_match("f"));
}

fn corpus(path: &str) -> Profile {
    let bytes = std::fs::read(format!("{}/tests/data/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    import_bytes(&bytes, ImportOptions::default()).unwrap().profile
}

/// All three formats: the transforms and views keep their invariants on real profiles.
#[test]
fn real_profiles_from_every_format() {
    for (file, func) in [
        ("perf/fg-perf-dd-stacks-01.txt", "sys_write"),
        ("pprof/parca-fib.pb.gz", "math/big.nat.add"),
        (
            "folded/inf-base-flames.txt",
            "alloc::vec::Vec<u64>::Integer_encode_all",
        ),
    ] {
        let p = corpus(file);
        let v = ViewOptions::default_for(&p);
        let total = CallTree::build(&p, &v, Order::Alphabetical).total[0];
        let (rows, fw, _) = functions(&p, &v);
        assert_eq!(fw, total, "{file}");
        let row = rows
            .iter()
            .find(|r| r.name == func)
            .unwrap_or_else(|| panic!("{file}: {func}"));
        // The function table agrees with `top`'s independent flat/cum (go tool pprof's numbers).
        let (top, _) = scorch_core::analysis::top::top(&p, &v);
        let cum = top.iter().find(|r| r.name == func).unwrap();
        assert_eq!(
            (cum.flat, cum.cum),
            (row.self_w as i128, row.total_w as i128),
            "{file}"
        );
        // The sandwich's two halves both weigh the function's total.
        for side in [callers(&p, func).unwrap(), callees(&p, func).unwrap()] {
            side.validate().unwrap();
            assert_eq!(
                CallTree::build(&side, &v, Order::Alphabetical).total[0],
                row.total_w,
                "{file}"
            );
        }
        let inv = invert(&p).unwrap();
        inv.validate().unwrap();
        assert_eq!(
            CallTree::build(&inv, &v, Order::Alphabetical).total[0],
            total,
            "{file}"
        );
        let merged = apply(&p, &Transform::Merge(func.into())).unwrap();
        assert_eq!(
            CallTree::build(&merged, &v, Order::Alphabetical).total[0],
            total,
            "{file}"
        );
        let tree = CallTree::build(&p, &v, Order::Alphabetical);
        let m = matched_total(&tree, &Matcher::Exact(func.into()).frame_mask(&p));
        assert_eq!(m, row.total_w, "{file}");
    }
}

fn arb_folded() -> impl Strategy<Value = String> {
    let frame = prop::sample::select(vec!["a", "b", "c", "d", "e"]);
    let stack = prop::collection::vec(frame, 1..8).prop_map(|v| v.join(";"));
    prop::collection::vec((stack, 1u64..100), 1..20).prop_map(|lines| {
        lines
            .into_iter()
            .map(|(s, w)| format!("{s} {w}\n"))
            .collect::<String>()
    })
}

proptest! {
    #[test]
    fn invariants_hold(text in arb_folded(), target in prop::sample::select(vec!["a", "b", "c"])) {
        let p = parse(text.as_bytes()).unwrap();
        let total = p.total();
        let tree = CallTree::from_profile(&p, Order::Alphabetical);
        for pat in [Pattern::plain(target), Pattern::regex("a|b"), Pattern::regex(".")] {
            let m = matched_total(&tree, &pat.compile().unwrap().frame_mask(&p));
            prop_assert!(m <= tree.total[0]);
        }
        for tr in [
            Transform::Merge(target.into()),
            Transform::Hide(Pattern::plain(target)),
            Transform::CollapseRecursion(target.into()),
            Transform::CollapseDirect(target.into()),
        ] {
            let out = apply(&p, &tr).unwrap();
            prop_assert!(out.validate().is_ok());
            prop_assert_eq!(out.total(), total);
            prop_assert_eq!(CallTree::from_profile(&out, Order::Alphabetical).total[0], total);
        }
        for tr in [Transform::Focus(target.into()), Transform::Ignore(Pattern::plain(target)), Transform::ShowFrom(Pattern::plain(target))] {
            let out = apply(&p, &tr).unwrap();
            prop_assert!(out.validate().is_ok());
            prop_assert!(out.total() <= total);
        }
        // Focus keeps exactly the samples through the function; ignore keeps exactly the rest.
        let focus = apply(&p, &Transform::Focus(target.into())).unwrap().total();
        let ignore = apply(&p, &Transform::Ignore(Pattern { text: target.into(), regex: false, case_sensitive: true })).unwrap().total();
        prop_assert_eq!(focus + ignore, total);
        let inv = invert(&p).unwrap();
        prop_assert!(inv.validate().is_ok());
        prop_assert_eq!(inv.total(), total);
        // Collapsing recursion leaves no function twice on a path.
        let rec = apply(&p, &Transform::CollapseRecursion(target.into())).unwrap();
        for s in 0..rec.stacks.len() {
            let frames = rec.stack_frames(scorch_core::StackId(s as u32));
            let n = frames.iter().filter(|&&f| rec.frame_name(f) == target).count();
            prop_assert!(n <= 1);
        }
    }
}

/// The folded lines of `text` with every frame that is `target` taken out (`drop`: every line through it left out), summed
/// per stack: a transform written over strings, independent of the stack tables. Empty stacks are left out.
fn oracle(text: &str, target: impl Fn(&str) -> bool, drop: bool) -> std::collections::BTreeMap<String, u64> {
    let mut out = std::collections::BTreeMap::new();
    for line in text.lines() {
        let (stack, w) = line.rsplit_once(' ').unwrap();
        let frames: Vec<&str> = stack.split(';').collect();
        if drop && frames.iter().any(|f| target(f)) {
            continue;
        }
        let kept: Vec<&str> = frames.into_iter().filter(|f| !target(f)).collect();
        if !kept.is_empty() {
            *out.entry(kept.join(";")).or_insert(0) += w.parse::<u64>().unwrap();
        }
    }
    out
}

/// A profile's folded lines as a map, empty stacks left out.
fn folded_map(p: &Profile) -> std::collections::BTreeMap<String, u64> {
    let mut out = std::collections::BTreeMap::new();
    for line in fold(p).lines() {
        let (stack, w) = line.rsplit_once(' ').unwrap();
        if !stack.is_empty() {
            *out.entry(stack.to_string()).or_insert(0) += w.parse::<u64>().unwrap();
        }
    }
    out
}

proptest! {
    /// Merge, hide and ignore equal the same transform written over the folded text, and their stack tables hold
    /// each (parent, frame) once: the rows they push without a look-up (`Interner::fresh`) are indeed new.
    #[test]
    fn merge_hide_and_ignore_equal_a_text_oracle(
        text in arb_folded(),
        target in prop::sample::select(vec!["a", "b", "c"]),
    ) {
        let p = parse(text.as_bytes()).unwrap();
        let one = |f: &str| f == target;
        let two = |f: &str| f == target || f == "d";
        for (tr, drop, is) in [
            (Transform::Merge(target.into()), false, &one as &dyn Fn(&str) -> bool),
            (Transform::Hide(Pattern::plain(target)), false, &one),
            (Transform::Hide(Pattern::regex(&format!("^({target}|d)$"))), false, &two),
            (Transform::Ignore(Pattern::plain(target)), true, &one),
            (Transform::Ignore(Pattern::regex(&format!("^({target}|d)$"))), true, &two),
        ] {
            let out = apply(&p, &tr).unwrap();
            prop_assert!(out.validate().is_ok());
            prop_assert_eq!(folded_map(&out), oracle(&text, is, drop));
            let mut rows = std::collections::HashSet::new();
            for (parent, frame) in out.stacks.parent.iter().zip(&out.stacks.frame) {
                prop_assert!(rows.insert((*parent, *frame)), "a row twice: {:?}", (parent, frame));
            }
        }
    }
}

/// A row with more children than the interner lists (they are then hashed): a merge whose lifted rows meet
/// forty children, before and after the list turns into a hash, equals the text oracle; so does the inverted tree's
/// total.
#[test]
fn merge_under_a_row_with_many_children() {
    let mut text = String::new();
    for i in 0..40 {
        text += &format!("r;c{i};x 1\nr;h;c{i};y 2\n");
        if i % 3 == 0 {
            text += &format!("r;h;h;c{i};x 4\n");
        }
    }
    let p = parse(text.as_bytes()).unwrap();
    let out = apply(&p, &Transform::Merge("h".into())).unwrap();
    out.validate().unwrap();
    assert_eq!(folded_map(&out), oracle(&text, |f| f == "h", false));
    let rows: std::collections::HashSet<_> = out.stacks.parent.iter().zip(&out.stacks.frame).collect();
    assert_eq!(rows.len(), out.stacks.len());
    let inv = invert(&p).unwrap();
    inv.validate().unwrap();
    assert_eq!(inv.total(), p.total());
}
