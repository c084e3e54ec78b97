//! The `p=` link payload decoder (input from a URL anyone can craft): an error or bytes that import or fail
//! cleanly; and any profile encoded into a link decodes back to the same folded text (with and without
//! timestamps). The `note=` reader keeps its caps on any input; a scrub by every text rule keeps the view's
//! total and marks the link.
#![no_main]
use libfuzzer_sys::fuzz_target;
use scorch_core::export::{self, links as share};
use scorch_core::export::scrub;
use scorch_core::view::notes;
use scorch_core::{ImportOptions, ViewOptions};

fn memchr_scrubbed(text: &[u8]) -> bool {
    text.windows(18).any(|w| w == b"# scorch-scrubbed:")
}

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let (notes, _) = notes::read_notes(text.split('&').map(|p| p.strip_prefix("note=").unwrap_or(p)));
        assert!(notes.len() <= notes::MAX_NOTES);
        assert!(notes.iter().all(|n| n.text.chars().count() <= notes::MAX_NOTE_CHARS));
        let (back, _) = notes::read_notes(
            notes::notes_fragment(&notes).split('&').filter_map(|p| p.strip_prefix("note=")),
        );
        assert_eq!(back, notes, "own notes read back");
        if let Ok(bytes) = share::decode(text) {
            let _ = scorch_core::import_bytes(&bytes, ImportOptions::default());
        }
    }
    if let Ok(imp) = scorch_core::import_bytes(data, ImportOptions::default()) {
        let v = ViewOptions::default_for(&imp.profile);
        let s = share::encode(&imp.profile, &v, share::DEFAULT_MAX);
        // A profile with nothing in the view (every sample filtered out) has nothing to carry. (Samples with no
        // frames are carried: their folded line is ` WEIGHT`.)
        if export::to_folded_view(&imp.profile, &v).is_empty() {
            return;
        }
        let rules = scrub::Rules {
            users: true,
            redact: Some("a[b-z]".into()),
            ..scrub::Rules::parse("paths,header,labels,threads,timestamps").expect("rules")
        };
        let (sp, sv) = scrub::scrub(&imp.profile, &v, &rules).expect("scrub");
        let weight = |p: &scorch_core::Profile, v: &ViewOptions| -> u128 {
            (0..p.samples.len()).filter_map(|i| v.weigh(p, i)).map(u128::from).sum()
        };
        assert_eq!(weight(&sp, &sv), weight(&imp.profile, &v), "a scrub keeps the view's total");
        assert!(sp.samples.time_ns.is_none() && sp.label_sets.is_empty());
        let marked = share::encode(&sp, &sv, share::DEFAULT_MAX);
        let text = share::decode(&marked.payload).expect("own link decodes");
        assert!(text.starts_with(b"# scorch-unit:") && memchr_scrubbed(&text), "the link is marked");
        if s.dropped_stacks == 0 {
            let back = scorch_core::import_bytes(&share::decode(&s.payload).expect("own link decodes"), ImportOptions::default())
                .expect("own link imports");
            let v2 = ViewOptions::default_for(&back.profile);
            assert_eq!(export::to_folded_view(&back.profile, &v2), export::to_folded_view(&imp.profile, &v));
        }
        // A link with timestamps brings back every sample at its time.
        if let Some(t) = share::encode_timed(&imp.profile, &v, share::DEFAULT_MAX) {
            let back = scorch_core::import_bytes(&share::decode(&t.payload).expect("own link decodes"), ImportOptions::default())
                .expect("own timed link imports");
            let v2 = ViewOptions::default_for(&back.profile);
            assert_eq!(export::to_folded_view(&back.profile, &v2), export::to_folded_view(&imp.profile, &v));
            let mut a: Vec<u64> = imp.profile.samples.time_ns.clone().unwrap_or_default();
            let mut b: Vec<u64> = back.profile.samples.time_ns.clone().unwrap_or_default();
            a.sort_unstable();
            b.sort_unstable();
            assert!(b.len() <= a.len());
        }
    }
});
