//! DHAT's profile (`valgrind --tool=dhat`, `dhat.out.PID`; also the Rust `dhat` crate's `dhat-heap.json`): one
//! JSON object, `dhatFileVersion` first, with `pps` (program points: the numbers of one allocation stack) and
//! `ftbl` (the frame table: `"0xADDR: function (file:line)"` strings; `fs` index it, innermost first).
//! Held whole (capped by `max_bytes`) and parsed into typed structs (never a `Value` tree).
//!
//! - Every number DHAT writes per program point is an event, when any point has it: `total bytes` (`tb`, the
//!   default), `total blocks` (`tbk`), `t-gmax bytes`/`blocks` (`gb`/`gbk`: live at the global maximum),
//!   `t-end bytes`/`blocks` (`eb`/`ebk`: live at exit), `max bytes`/`blocks` (`mb`/`mbk`: this point's own
//!   maximum), `reads`/`writes` (`rb`/`wb`, bytes), `lifetimes` (`tl`, in the file's time unit `tu`).
//! - A frame is the function of its `ftbl` entry (`make` for `0x1091B1: make (prog.c:7)`); call sites in one
//!   function are one frame. A function DHAT could not name (`???`) keeps its object: `??? (in /lib/x.so)`.

mod sniff;

pub use sniff::DhatFormat;

use crate::import::json;
use crate::model::{
    Format, FrameId, FrameKind, FullSample, ImportError, ImportErrorKind, Profile, ProfileBuilder, StackId,
    Unit, Warnings,
};
use serde::Deserialize;

const F: Format = Format::Dhat;

fn err(kind: ImportErrorKind, offset: u64, msg: impl Into<String>) -> ImportError {
    ImportError::new(Some(F), kind, offset, None, msg)
}

/// Options for the DHAT importer.
#[derive(Debug, Clone)]
pub struct DhatOptions {
    /// Largest file (held whole to parse), in bytes. Default is 1 GiB.
    pub max_bytes: usize,
}

impl Default for DhatOptions {
    fn default() -> Self {
        DhatOptions { max_bytes: 1 << 30 }
    }
}

#[derive(Deserialize)]
struct Dhat {
    #[serde(rename = "dhatFileVersion")]
    version: u64,
    #[serde(default)]
    mode: Option<String>,
    #[serde(default)]
    tu: Option<String>,
    #[serde(default)]
    cmd: Option<String>,
    pps: Vec<Pp>,
    ftbl: Vec<String>,
}

/// One program point; every number is optional (copy and ad-hoc modes write only `tb`/`tbk`).
#[derive(Deserialize)]
struct Pp {
    tb: Option<u64>,
    tbk: Option<u64>,
    tl: Option<u64>,
    mb: Option<u64>,
    mbk: Option<u64>,
    gb: Option<u64>,
    gbk: Option<u64>,
    eb: Option<u64>,
    ebk: Option<u64>,
    rb: Option<u64>,
    wb: Option<u64>,
    fs: Vec<u64>,
}

/// An event: its name, which number of a program point, its unit (`None`: blocks, or for `lifetimes` the
/// file's time unit).
type Event = (&'static str, fn(&Pp) -> Option<u64>, Option<Unit>);

/// The events, in the order shown.
const EVENTS: [Event; 11] = [
    ("total bytes", |p| p.tb, Some(Unit::Bytes)),
    ("total blocks", |p| p.tbk, None),
    ("t-gmax bytes", |p| p.gb, Some(Unit::Bytes)),
    ("t-gmax blocks", |p| p.gbk, None),
    ("t-end bytes", |p| p.eb, Some(Unit::Bytes)),
    ("t-end blocks", |p| p.ebk, None),
    ("max bytes", |p| p.mb, Some(Unit::Bytes)),
    ("max blocks", |p| p.mbk, None),
    ("reads", |p| p.rb, Some(Unit::Bytes)),
    ("writes", |p| p.wb, Some(Unit::Bytes)),
    ("lifetimes", |p| p.tl, None),
];

/// Collects the file, then reads it at [`DhatParser::finish`].
pub struct DhatParser {
    json: json::WholeJson,
}

impl DhatParser {
    pub fn new(opts: &DhatOptions) -> Self {
        DhatParser {
            json: json::WholeJson::new(F, opts.max_bytes, "profile"),
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        self.json.feed(chunk)
    }

    pub fn finish(self) -> Result<Profile, ImportError> {
        let d: Dhat = self.json.parse()?;
        if d.version != 2 {
            return Err(err(
                ImportErrorKind::Malformed,
                0,
                format!("dhatFileVersion {} (scorch reads version 2)", d.version),
            ));
        }
        let mut b = ProfileBuilder::new(F);
        // Frames: each `ftbl` entry's function, made when first used.
        let mut frames: Vec<Option<FrameId>> = vec![None; d.ftbl.len()];
        let mut stacks: Vec<StackId> = Vec::with_capacity(d.pps.len());
        for (i, pp) in d.pps.iter().enumerate() {
            let mut s: Option<StackId> = None;
            for &f in pp.fs.iter().rev() {
                let slot = usize::try_from(f).ok().and_then(|f| frames.get_mut(f));
                let Some(slot) = slot else {
                    return Err(err(
                        ImportErrorKind::Malformed,
                        0,
                        format!("pps[{i}].fs: frame {f} is not in ftbl ({} entries)", d.ftbl.len()),
                    ));
                };
                let frame = match *slot {
                    Some(x) => x,
                    None => {
                        let text = d.ftbl.get(f as usize).map_or("", String::as_str);
                        let x = b.frame(&function(text), FrameKind::User);
                        *slot = Some(x);
                        x
                    }
                };
                s = Some(b.stack(s, frame));
            }
            stacks.push(s.unwrap_or(crate::model::EMPTY_STACK));
        }
        let tu = d.tu.clone().unwrap_or_else(|| "instrs".to_string());
        let mut first = None;
        for (name, get, unit) in EVENTS {
            if !d.pps.iter().any(|p| get(p).is_some()) {
                continue;
            }
            let unit = unit.unwrap_or_else(|| {
                Unit::Other(if name == "lifetimes" {
                    tu.clone()
                } else {
                    "blocks".to_string()
                })
            });
            let e = b.event(name, unit);
            first.get_or_insert(e);
            for (pp, &stack) in d.pps.iter().zip(&stacks) {
                let w = get(pp).unwrap_or(0);
                if w > 0 {
                    b.push_full_sample(
                        FullSample {
                            stack,
                            weight: w,
                            time_ns: None,
                            thread: None,
                            event: Some(e),
                            cpu: None,
                            labels: None,
                        },
                        0,
                    )?;
                }
            }
        }
        let Some(first) = first.filter(|_| b.samples_len() > 0) else {
            return Err(err(
                ImportErrorKind::NoValidRecords,
                0,
                "no program point has a number above 0",
            ));
        };
        b.set_default_event(first);
        if let Some(m) = d.mode {
            b.add_info("mode", m);
        }
        if let Some(c) = d.cmd {
            b.add_info("command", c);
        }
        b.add_info("program points", d.pps.len().to_string());
        let unit = b.event_unit(first).unwrap_or(Unit::Bytes);
        Ok(b.build(unit, 0, d.pps.len() as u64, Warnings::default()))
    }
}

/// The function of an `ftbl` entry: `0x1091B1: make (prog.c:7)` → `make`; `??? (in /lib/x.so)` keeps its
/// object; `[root]` and anything else stays as written.
fn function(text: &str) -> String {
    let rest = match text.split_once(": ") {
        Some((addr, rest))
            if addr.starts_with("0x")
                && addr.len() > 2
                && addr[2..].bytes().all(|c| c.is_ascii_hexdigit()) =>
        {
            rest
        }
        _ => text,
    };
    let name = match rest.rfind(" (") {
        Some(i) if rest.ends_with(')') && !rest.starts_with("???") => &rest[..i],
        _ => rest,
    };
    let out = crate::import::safe_text(name);
    if out.is_empty() {
        "(unnamed)".to_string()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_names() {
        assert_eq!(function("0x1091B1: make (prog.c:7)"), "make");
        assert_eq!(
            function("0x48417B4: malloc (in /usr/libexec/valgrind/x.so)"),
            "malloc"
        );
        assert_eq!(function("0x4: ??? (in /lib/x.so)"), "??? (in /lib/x.so)");
        assert_eq!(
            function("0x5: operator()(int) const (a.cc:3)"),
            "operator()(int) const"
        );
        assert_eq!(function("[root]"), "[root]");
    }

    fn read(text: &str) -> Result<Profile, ImportError> {
        let mut p = DhatParser::new(&DhatOptions::default());
        p.feed(text.as_bytes())?;
        p.finish()
    }

    #[test]
    fn copy_mode_and_errors() {
        let p = read(r#"{"dhatFileVersion":2,"mode":"copy","pps":[{"tb":5,"tbk":1,"fs":[1,2]}],"ftbl":["[root]","0x1: memcpy (in x)","0x2: main (a.c:1)"]}"#).unwrap();
        assert_eq!(p.events.len(), 2);
        let v = crate::view::ViewOptions::default_for(&p);
        assert_eq!(crate::export::to_folded_view(&p, &v), "main;memcpy 5\n");
        let e = read(r#"{"dhatFileVersion":2,"pps":[{"tb":5,"fs":[9]}],"ftbl":["[root]"]}"#).unwrap_err();
        assert!(e.message.contains("pps[0].fs: frame 9 is not in ftbl"), "{e}");
        let e = read(r#"{"dhatFileVersion":1,"pps":[],"ftbl":[]}"#).unwrap_err();
        assert!(e.message.contains("dhatFileVersion 1"), "{e}");
        let e = read(r#"{"dhatFileVersion":2,"pps":[{"tb":-1,"fs":[]}],"ftbl":[]}"#).unwrap_err();
        assert!(e.message.starts_with("pps[0].tb"), "{e}");
        let e = read(r#"{"dhatFileVersion":2,"pps":[{"tb":0,"fs":[]}],"ftbl":[]}"#).unwrap_err();
        assert_eq!(e.kind, ImportErrorKind::NoValidRecords);
    }
}
