//! The per-function numbers of `scorch top`, the function table and the diff's movers come from one
//! aggregation and agree: a function that appears more than once in one stack — here `f` and its inlined copy
//! `f_[i]`, recursion through an inlined frame — counts once for its total, so no share exceeds 100 %.

use scorch_core::analysis::diff::{Diff, Side};
use scorch_core::analysis::functions::functions;
use scorch_core::analysis::top::top;
use scorch_core::{import_bytes, ImportOptions, Profile, ViewOptions};

const BASE: &[u8] = b"main;f;f_[i] 1\nmain;g 1\n";
const TARGET: &[u8] = b"main;f;f_[i] 3\nmain;g 1\n";

fn load(text: &[u8]) -> Profile {
    import_bytes(text, ImportOptions::default()).unwrap().profile
}

fn side(p: &Profile) -> Side<'_> {
    Side {
        profile: p,
        view: ViewOptions::default_for(p),
    }
}

#[test]
fn shares_never_exceed_the_whole_and_the_three_agree() {
    let (base, target) = (load(BASE), load(TARGET));

    // The movers (scorch diff).
    let movers = Diff::new(side(&base), side(&target)).movers();
    for m in &movers {
        for share in [m.base_self, m.target_self, m.base_total, m.target_total] {
            assert!(
                (0.0..=1.0).contains(&share),
                "{}: share {share} is over 100 %",
                m.name
            );
        }
    }
    let mf = movers.iter().find(|m| m.name == "f").expect("f is a mover");

    // The function table (explore).
    let (rows, total_w, _) = functions(&target, &ViewOptions::default_for(&target));
    for r in &rows {
        assert!(r.self_w <= total_w && r.total_w <= total_w, "{r:?} of {total_w}");
    }
    let ff = rows.iter().find(|r| r.name == "f").expect("f is a function");

    // scorch top.
    let (top_rows, top_total) = top(&target, &ViewOptions::default_for(&target));
    for r in &top_rows {
        assert!(r.flat <= top_total && r.cum <= top_total, "{r:?} of {top_total}");
    }
    let tf = top_rows.iter().find(|r| r.name == "f").expect("f is in top");

    // f in the target: self 3 of 4 (its inlined copy is the leaf), total 3 of 4, everywhere.
    assert_eq!((tf.flat, tf.cum, top_total), (3, 3, 4));
    assert_eq!((ff.self_w, ff.total_w, total_w), (3, 3, 4));
    assert_eq!((mf.target_self, mf.target_total), (0.75, 0.75));
    assert_eq!((mf.base_self, mf.base_total), (0.5, 0.5));
    assert_eq!(mf.target_self_raw, 3);
}
