//! Property tests: totals are conserved, trees add up, layout nests, and no input panics the importer.

use proptest::prelude::*;
use scorch_core::view::calltree::{CallTree, NodeId, Order};
use scorch_core::{export::to_folded, import_bytes, FlameLayout, ImportOptions};

fn folded_input() -> impl Strategy<Value = String> {
    let frame = prop::sample::select(vec!["main", "a", "b", "c", "d", "run", "poll", "x_[k]", "y_[j]"]);
    let stack = prop::collection::vec(frame, 1..8).prop_map(|f| f.join(";"));
    prop::collection::vec((stack, 0u64..1000), 1..40)
        .prop_map(|lines| lines.into_iter().map(|(s, w)| format!("{s} {w}\n")).collect())
}

proptest! {
    #[test]
    fn totals_are_conserved(input in folded_input()) {
        let p = import_bytes(input.as_bytes(), ImportOptions::default()).unwrap().profile;
        p.validate().unwrap();
        let sum: u64 = input.lines().map(|l| l.rsplit_once(' ').unwrap().1.parse::<u64>().unwrap()).sum();
        prop_assert_eq!(p.total(), sum);
        for order in [Order::Alphabetical, Order::Weight] {
            let t = CallTree::from_profile(&p, order);
            prop_assert_eq!(t.total[0], sum);
            for n in 0..t.len() {
                let kids: u64 = t.children(NodeId(n as u32)).iter().map(|c| t.total[c.idx()]).sum();
                prop_assert_eq!(t.total[n], t.self_w[n] + kids, "node {}", n);
            }
            let l = FlameLayout::new(&t);
            for n in 1..t.len() {
                let par = t.parent[n] as usize;
                prop_assert!(l.x0[par] <= l.x0[n] + 1e-12 && l.x1[n] <= l.x1[par] + 1e-12, "node {} inside its parent", n);
                prop_assert!(l.x0[n] <= l.x1[n]);
            }
            for row in l.rows() {
                for w in row.windows(2) {
                    prop_assert!(l.x1[w[0].idx()] <= l.x0[w[1].idx()] + 1e-12, "siblings do not overlap");
                }
            }
        }
    }

    #[test]
    fn export_round_trips(input in folded_input()) {
        let p = import_bytes(input.as_bytes(), ImportOptions::default()).unwrap().profile;
        let once = to_folded(&p);
        let again = import_bytes(once.as_bytes(), ImportOptions::default()).unwrap().profile;
        prop_assert_eq!(to_folded(&again), once);
    }

    #[test]
    fn arbitrary_bytes_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..2048)) {
        if let Ok(imp) = import_bytes(&bytes, ImportOptions::default()) {
            imp.profile.validate().unwrap();
            let _ = to_folded(&imp.profile);
            let t = CallTree::from_profile(&imp.profile, Order::Alphabetical);
            let _ = FlameLayout::new(&t);
        }
    }

    #[test]
    fn mutated_folded_never_panics(input in folded_input(), flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..16)) {
        let mut bytes = input.into_bytes();
        for (i, b) in flips {
            let i = i.index(bytes.len());
            bytes[i] = b;
        }
        if let Ok(imp) = import_bytes(&bytes, ImportOptions::default()) {
            imp.profile.validate().unwrap();
        }
    }
}

fn perf_seed() -> Vec<u8> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/perf");
    let mut out = Vec::new();
    for f in [
        "inf-java-inline.txt",
        "fg-perf-dd-stacks-01.txt",
        "inf-single-line-stacks.txt",
        "inf-cpp-stacks-std-function.txt",
    ] {
        out.extend(std::fs::read(dir.join(f)).unwrap());
        out.push(b'\n');
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn mutated_perf_never_panics(flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..64),
                                 cut in any::<prop::sample::Index>()) {
        let mut bytes = perf_seed();
        for (i, b) in flips {
            let i = i.index(bytes.len());
            bytes[i] = b;
        }
        let end = cut.index(bytes.len() + 1);
        for opts in [ImportOptions::default(), ImportOptions {
            perf_naming: scorch_core::import::perf::Naming::Inferno(scorch_core::import::perf::InfernoFlags { pid: true, addrs: true, ..Default::default() }),
            ..Default::default()
        }] {
            if let Ok(imp) = import_bytes(&bytes[..end], opts) {
                imp.profile.validate().unwrap();
                let v = scorch_core::ViewOptions::default_for(&imp.profile);
                let t = CallTree::build(&imp.profile, &v, Order::Weight);
                let _ = FlameLayout::new(&t);
                let _ = scorch_core::export::to_folded_view(&imp.profile, &v);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn mutated_pprof_never_panics(flips in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..16),
                                  cut in any::<prop::sample::Index>()) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/pprof");
        let mut bytes = std::fs::read(dir.join("gp-sample.cpu.pb")).unwrap();
        for (i, b) in flips {
            let i = i.index(bytes.len());
            bytes[i] = b;
        }
        let end = cut.index(bytes.len() + 1);
        if let Ok(imp) = import_bytes(&bytes[..end], ImportOptions::default()) {
            imp.profile.validate().unwrap();
            let v = scorch_core::ViewOptions::default_for(&imp.profile);
            let t = CallTree::build(&imp.profile, &v, Order::Weight);
            let _ = FlameLayout::new(&t);
            let _ = scorch_core::analysis::top::top(&imp.profile, &v);
            let _ = scorch_core::export::to_folded_signed(&imp.profile, &v);
        }
    }
}
