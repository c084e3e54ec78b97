//! Slices of one profile: the thread choice (view state, `ViewOptions::threads`) and the slice diff, which
//! compares the same profile under one filter (the base, `DiffState::slice_a`, kept as filter text) with the
//! view's own label filter and thread choice (the target). It mirrors the range comparison (`HeatState::range_a`):
//! the base is the open profile itself.

use super::Actions;
use leptos::prelude::*;
use scorch_core::view::{RootMode, SampleFilter, ThreadSet};
use scorch_core::{Profile, ViewOptions};

/// Joins the parts of a slice's filter text.
const AND: &str = " & ";

/// The tids of a thread set, sorted and distinct (how links and filter texts name threads).
pub fn tids_of(p: &Profile, set: &ThreadSet) -> Vec<u32> {
    let mut t: Vec<u32> = set
        .as_slice()
        .iter()
        .filter_map(|&i| p.threads.tid.get(i as usize).copied())
        .collect();
    t.sort_unstable();
    t.dedup();
    t
}

/// Every thread with one of these tids (a tid renamed during the recording is several threads of the table);
/// one pass over the threads, whatever the length of a link's list.
pub fn threads_of_tids(p: &Profile, tids: &[u32]) -> ThreadSet {
    let mut want = tids.to_vec();
    want.sort_unstable();
    ThreadSet::new(
        p.threads
            .tid
            .iter()
            .enumerate()
            .filter(|(_, t)| want.binary_search(t).is_ok())
            .map(|(i, _)| i as u32),
    )
}

/// `v` with the filters of a slice's text in place of its label filter and thread choice; parts that do not
/// parse on this profile are left out.
pub fn slice_view(p: &Profile, v: &ViewOptions, text: &str) -> ViewOptions {
    let mut out = ViewOptions {
        label: None,
        threads: None,
        ..v.clone()
    };
    for part in text.split(AND).map(str::trim).filter(|t| !t.is_empty()) {
        if let Ok(f) = SampleFilter::parse(p, part) {
            f.apply(&mut out);
        }
    }
    out
}

impl Actions {
    /// The view's slice as filter text: the label filter as typed and the chosen threads (`tid=…`); empty for
    /// all samples.
    pub fn slice_text(&self) -> String {
        let v = self.view.options.get_untracked();
        let mut parts = Vec::new();
        let tf = self.view.label_text.get_untracked();
        if v.label.is_some() && !tf.is_empty() {
            parts.push(tf);
        }
        if let (Some(set), Some(l)) = (&v.threads, self.load.loaded.get_untracked()) {
            let t: Vec<String> = tids_of(&l.imported.profile, set)
                .iter()
                .map(u32::to_string)
                .collect();
            parts.push(format!("tid={}", t.join(",")));
        }
        parts.join(AND)
    }

    /// Shows only these threads (`None`: all).
    pub fn choose_threads(&self, threads: Option<ThreadSet>) {
        self.set_view(ViewOptions {
            threads,
            ..self.view.options.get_untracked()
        });
    }

    /// "Diff against…": the view's slice becomes the base of a slice diff; choosing another label filter or
    /// threads then sets the target. A process or thread root becomes no root (the root menu can bring it back).
    pub fn diff_against_slice(&self) {
        let Some(loaded) = self.load.loaded.get_untracked() else {
            return;
        };
        self.heat.range_a.set(None);
        self.heat.band_a.set(None);
        self.diff.slice_a.set(Some(self.slice_text()));
        // The slices name their threads; a process or thread root would put two threads of different names
        // under different roots, so every frame would look one-sided. Label roots are kept.
        let v = self.view.options.get_untracked();
        if matches!(v.root, RootMode::Comm | RootMode::Pid | RootMode::Tid) {
            self.view.options.set(ViewOptions {
                root: RootMode::None,
                ..v
            });
        }
        self.diff.base.set(Some(loaded));
        self.rebuild();
    }

    /// Swaps the slices of a slice diff: the view takes the base's filters, the base the view's.
    pub fn swap_slices(&self, a: String) {
        let Some(loaded) = self.load.loaded.get_untracked() else {
            return;
        };
        let b = self.slice_text();
        let p = &loaded.imported.profile;
        let v = slice_view(p, &self.view.options.get_untracked(), &a);
        // The label part of A as typed (the thread part travels in `threads`).
        let label_text = a
            .split(AND)
            .find(|t| matches!(SampleFilter::parse(p, t.trim()), Ok(SampleFilter::Label(_))))
            .unwrap_or_default()
            .trim()
            .to_string();
        self.view.label_text.set(label_text);
        self.diff.slice_a.set(Some(b));
        self.view.options.set(v);
        self.rebuild();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use scorch_core::{import_bytes, ImportOptions};

    /// Thread `a` is tid 1; tid 2 was renamed from `b` to `c` during the recording (two rows of the table).
    const TEXT: &[u8] = b"a 1/1 1.0: 10 cpu-clock:\n\t1 f (/x)\n\n\
b 1/2 1.5: 20 cpu-clock:\n\t1 g (/x)\n\n\
c 1/2 2.0: 5 cpu-clock:\n\t1 h (/x)\n\n";

    fn total(p: &Profile, v: &ViewOptions) -> u64 {
        (0..p.samples.len()).filter_map(|i| v.weigh(p, i)).sum()
    }

    #[test]
    fn tids_name_threads_both_ways() {
        let p = import_bytes(TEXT, ImportOptions::default()).unwrap().profile;
        assert_eq!(p.threads.len(), 3);
        let two = threads_of_tids(&p, &[2, 99]);
        assert_eq!(two.len(), 2, "both rows of tid 2; tid 99 is not in the profile");
        assert_eq!(tids_of(&p, &two), [2]);
        assert!(threads_of_tids(&p, &[99]).is_empty());
        let v = ViewOptions::default_for(&p);
        assert_eq!(
            total(
                &p,
                &ViewOptions {
                    threads: Some(two),
                    ..v.clone()
                }
            ),
            25
        );
    }

    #[test]
    fn a_slice_text_replaces_the_views_filters() {
        let p = import_bytes(TEXT, ImportOptions::default()).unwrap().profile;
        let v = ViewOptions {
            threads: Some(threads_of_tids(&p, &[1])),
            ..ViewOptions::default_for(&p)
        };
        assert_eq!(total(&p, &slice_view(&p, &v, "tid=2")), 25);
        assert_eq!(total(&p, &slice_view(&p, &v, "")), 35, "empty: all samples");
        assert_eq!(
            total(&p, &slice_view(&p, &v, "pid=1 & comm=c")),
            5,
            "parts narrow each other"
        );
        assert_eq!(
            total(&p, &slice_view(&p, &v, "tid=2 & nope=1")),
            25,
            "a part that does not parse is left out"
        );
    }
}
