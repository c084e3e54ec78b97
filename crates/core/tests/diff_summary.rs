//! The diff bar's one-line summary of both sides' facts (issue #40, item 7d): values within the 1.5× tolerance
//! are not "agree"; the line names what is equal and gives both values of what is only within 1.5×.

use scorch_core::analysis::compare::{fact_rows, facts_summary, Facts};
use scorch_core::Unit;

fn side(samples: u64, hz: f64) -> Facts {
    Facts {
        sample_type: Some("cpu-clock".into()),
        unit: Unit::Nanoseconds,
        period: None,
        rate_hz: Some(hz),
        duration_ns: Some(7_000_000_000),
        samples,
        labels: Vec::new(),
    }
}

#[test]
fn within_tolerance_is_not_agreement() {
    // The sides: 1,280 against 1,586 samples, 181 against 225 Hz (both within 1.5×).
    let rows = fact_rows(&[side(1280, 181.0)], &[side(1586, 225.0)], false);
    assert!(rows.iter().all(|r| !r.differs));
    let s = facts_summary(&rows);
    assert!(!s.contains("agree"), "{s}");
    assert!(
        s.contains("within 1.5×: sample rate 181 Hz per CPU → 225 Hz per CPU, samples 1280 → 1586"),
        "{s}"
    );
    assert!(s.contains("equal: sample type, unit, duration"), "{s}");
    assert!(!s.contains("labels"), "neither side states labels: {s}");

    // Over 1.5×: marked as differing, with both values.
    let rows = fact_rows(&[side(1000, 181.0)], &[side(1586, 181.0)], false);
    let s = facts_summary(&rows);
    assert!(s.starts_with("≠ samples: 1000 → 1586"), "{s}");
    assert!(
        s.contains("equal: sample type, unit, sample rate, duration"),
        "{s}"
    );
}
