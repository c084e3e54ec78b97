//! Tracepoint samples as markers: perf script prints a tracepoint's payload after its name
//! (`sched:sched_switch: prev_comm=bash prev_pid=15257 … ==> next_comm=node next_pid=15242 next_prio=120`).
//! Each one with a time is an instant at that time on its thread, named by its event — `sched:sched_switch`
//! with the two tasks, `sched:sched_switch bash → node` —, its payload kept as the field `payload`. They are
//! markers beside the samples whatever event a view shows (the samples of the tracepoint are still samples).

use crate::model::Marker;

/// The text between ` KEY=` and the next ` NEXT=` (a comm may hold spaces), the last such pair.
fn between<'a>(s: &'a [u8], key: &[u8], next: &[u8]) -> Option<&'a [u8]> {
    let at = memchr::memmem::rfind(s, key)?;
    let v = s.get(at + key.len()..)?;
    let end = memchr::memmem::rfind(v, next)?;
    v.get(..end)
}

/// The marker name of a tracepoint sample: its event, and for `sched:sched_switch` the tasks switched.
pub(super) fn name(event: &[u8], payload: &[u8]) -> String {
    let event = String::from_utf8_lossy(event);
    if event == super::sched::SCHED_SWITCH {
        // `prev_comm=A prev_pid=… ==> next_comm=B next_pid=…`: a comm may hold anything, so each is cut at its
        // own side's last ` …_pid=`.
        let arrow = memchr::memmem::rfind(payload, b" ==> ");
        let prev = arrow
            .and_then(|a| payload.get(..a))
            .and_then(|p| between(p, b"prev_comm=", b" prev_pid="));
        let next = arrow
            .and_then(|a| payload.get(a..))
            .and_then(|p| between(p, b"next_comm=", b" next_pid="));
        if let (Some(p), Some(n)) = (prev, next) {
            return format!(
                "{event} {} → {}",
                String::from_utf8_lossy(p),
                String::from_utf8_lossy(n)
            );
        }
    }
    event.into_owned()
}

/// The marker of a tracepoint sample at `time_ns` on thread (`comm`, `pid`, `tid`).
pub(super) fn marker(
    event: &[u8],
    payload: &[u8],
    comm: &[u8],
    pid: Option<u32>,
    tid: u32,
    time_ns: u64,
) -> Marker {
    let text = |b: &[u8]| crate::import::safe_text(&String::from_utf8_lossy(b));
    Marker {
        name: crate::import::safe_text(&name(event, payload)),
        category: "tracepoint".to_string(),
        pid,
        tid: Some(tid),
        thread: text(comm),
        start_ns: time_ns,
        end_ns: None,
        fields: vec![("payload".to_string(), text(payload))],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switch_names_its_tasks() {
        let p = b"prev_comm=a b prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=kworker/0:1H next_pid=44 next_prio=100";
        assert_eq!(
            name(b"sched:sched_switch", p),
            "sched:sched_switch a b → kworker/0:1H"
        );
        assert_eq!(name(b"sched:sched_wakeup", b"comm=x pid=1"), "sched:sched_wakeup");
        assert_eq!(name(b"sched:sched_switch", b"garbled"), "sched:sched_switch");
    }
}
