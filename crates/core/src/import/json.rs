//! JSON plumbing shared by the JSON formats, below every format (like `lines.rs`): a lexical look at the first
//! bytes for sniffing ([`keys`]), an incremental scanner that cuts a top-level array of records out of a stream
//! of any size across chunk boundaries without building a tree ([`ArrayScanner`]), and typed parsing of one
//! record with its JSON path and byte offset in errors ([`parse`]).
//!
//! Nothing here builds a `serde_json::Value`: records are parsed straight into the format's own typed structs,
//! whose unknown fields serde skips without allocating.

use crate::import::importer::Applicable;
use crate::model::{Format, ImportError, ImportErrorKind};

/// A UTF-8 byte order mark, which some tools write before JSON.
pub(crate) const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The first byte that is not whitespace (after an optional byte order mark), with its index.
pub(crate) fn first_significant(prefix: &[u8]) -> Option<(usize, u8)> {
    let skip = if prefix.starts_with(BOM) { BOM.len() } else { 0 };
    prefix
        .iter()
        .enumerate()
        .skip(skip)
        .find(|(_, b)| !b.is_ascii_whitespace())
        .map(|(i, &b)| (i, b))
}

/// A sniffer's answer while nothing significant has come: wait for more, or no at the end.
pub(crate) fn undecided(at_end: bool) -> Applicable {
    if at_end {
        Applicable::No
    } else {
        Applicable::NeedMore
    }
}

/// A sniffer's answer from what it has seen: no when the text rules the format out, yes when it names it,
/// else [`undecided`].
pub(crate) fn verdict(ruled_out: bool, named: bool, at_end: bool) -> Applicable {
    if ruled_out {
        Applicable::No
    } else if named {
        Applicable::Yes
    } else {
        undecided(at_end)
    }
}

/// The JSON object formats' first sniffing step: `None` when the input opens with `{` (read its keys on), else
/// the answer now — not this format, or [`undecided`] while only whitespace has come.
pub(crate) fn object_or_answer(prefix: &[u8], at_end: bool) -> Option<Applicable> {
    match first_significant(prefix) {
        None => Some(undecided(at_end)),
        Some((_, b'{')) => None,
        Some(_) => Some(Applicable::No),
    }
}

/// Walks the JSON text in `prefix` lexically and calls `f(depth, key)` for each object key, where `depth` counts
/// the open objects and arrays around the key (the keys of a top-level object are at depth 1). Stops when `f`
/// returns true or the prefix ends; keys longer than 64 bytes are passed cut. Returns false when the text is
/// not JSON as far as it goes (a byte outside any string that JSON does not allow).
pub(crate) fn keys(prefix: &[u8], mut f: impl FnMut(u32, &[u8]) -> bool) -> bool {
    let mut depth = 0u32;
    let mut i = first_significant(prefix).map_or(prefix.len(), |(i, _)| i);
    let mut last_string: Option<(usize, usize)> = None;
    while let Some(&c) = prefix.get(i) {
        match c {
            b'"' => {
                let start = i + 1;
                let mut j = start;
                let mut esc = false;
                loop {
                    match prefix.get(j) {
                        None => return true,
                        Some(b'\\') if !esc => esc = true,
                        Some(b'"') if !esc => break,
                        Some(_) => esc = false,
                    }
                    j += 1;
                }
                last_string = Some((start, j));
                i = j + 1;
                continue;
            }
            b':' => {
                if let Some((a, b)) = last_string.take() {
                    let key = prefix.get(a..b.min(a + 64)).unwrap_or_default();
                    if f(depth, key) {
                        return true;
                    }
                }
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' => {}
            b'-' | b'+' | b'.' | b'0'..=b'9' | b'a'..=b'z' | b'A'..=b'Z' => {}
            c if c.is_ascii_whitespace() => {}
            _ => return false,
        }
        if c != b':' && !c.is_ascii_whitespace() {
            last_string = None;
        }
        i += 1;
    }
    true
}

/// One complete record of the array.
pub(crate) struct Record<'a> {
    pub bytes: &'a [u8],
    /// Its index in the array.
    pub index: u64,
    /// Its first byte's offset in the input.
    pub offset: u64,
    /// The key of the array in the top-level object, or `None` for a top-level array.
    pub key: Option<&'static [u8]>,
}

impl Record<'_> {
    /// Its JSON path: `traceEvents[12]`, or `[12]`.
    pub(crate) fn path(&self) -> String {
        match self.key {
            Some(k) => format!("{}[{}]", String::from_utf8_lossy(k), self.index),
            None => format!("[{}]", self.index),
        }
    }
}

/// Where the scanner is in the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the first significant byte.
    Start,
    /// Inside the top-level object, looking for the key that holds the records.
    TopObject,
    /// After that key's `:`, before its value.
    AwaitArray,
    /// Inside the array of records, whose own depth is `array_depth`.
    Array,
    /// Past the array: the rest is only tracked for nesting.
    After,
}

/// Cuts the records (objects) of a top-level array — `[ {...}, ... ]`, or the array under `key` in a top-level
/// object, `{"key": [ {...}, ... ], ...}` — out of a stream fed in chunks of any size. Each complete record is
/// handed to the callback as one byte slice with its index and byte offset; bytes outside the array are only
/// tracked for nesting (strings and escapes included), never kept. A record is held only until it is complete,
/// and never beyond `max_record` bytes.
pub(crate) struct ArrayScanner {
    format: Format,
    key: &'static [u8],
    max_record: usize,
    state: State,
    depth: u32,
    array_depth: u32,
    in_str: bool,
    esc: bool,
    /// The string at depth 1 being read, while it can still equal `key` (for the object form).
    key_buf: Vec<u8>,
    key_match: bool,
    /// The record being read, when it started in an earlier chunk.
    record: Vec<u8>,
    in_record: bool,
    record_start: u64,
    index: u64,
    offset: u64,
}

impl ArrayScanner {
    pub(crate) fn new(format: Format, key: &'static [u8], max_record: usize) -> Self {
        ArrayScanner {
            format,
            key,
            max_record,
            state: State::Start,
            depth: 0,
            array_depth: 0,
            in_str: false,
            esc: false,
            key_buf: Vec::new(),
            key_match: false,
            record: Vec::new(),
            in_record: false,
            record_start: 0,
            index: 0,
            offset: 0,
        }
    }

    fn err(&self, kind: ImportErrorKind, offset: u64, msg: String) -> ImportError {
        ImportError::new(Some(self.format), kind, offset, None, msg)
    }

    fn path(&self) -> String {
        if self.array_depth == 2 {
            format!("{}[{}]", String::from_utf8_lossy(self.key), self.index)
        } else {
            format!("[{}]", self.index)
        }
    }

    /// Feeds the next bytes; calls `on_record` for each record completed in them.
    pub(crate) fn feed(
        &mut self,
        chunk: &[u8],
        on_record: &mut dyn FnMut(Record<'_>) -> Result<(), ImportError>,
    ) -> Result<(), ImportError> {
        let base = self.offset;
        let mut i = 0usize;
        // Where the current record starts in this chunk, when it started here.
        let mut here: Option<usize> = None;
        let n = chunk.len();
        while i < n {
            if self.in_str {
                // Jump to the next quote or backslash.
                if self.esc {
                    self.esc = false;
                    self.push_key_byte(chunk, i);
                    i += 1;
                    continue;
                }
                let rest = chunk.get(i..).unwrap_or_default();
                match memchr::memchr2(b'"', b'\\', rest) {
                    None => {
                        self.push_key_bytes(rest);
                        i = n;
                    }
                    Some(k) => {
                        self.push_key_bytes(rest.get(..k).unwrap_or_default());
                        i += k;
                        if chunk.get(i) == Some(&b'\\') {
                            self.esc = true;
                            self.push_key_byte(chunk, i);
                        } else {
                            self.in_str = false;
                            if self.state == State::TopObject && self.depth == 1 {
                                self.key_match = self.key_buf.as_slice() == self.key;
                            }
                        }
                        i += 1;
                    }
                }
                continue;
            }
            let Some(&c) = chunk.get(i) else { break };
            let at = base + i as u64;
            match self.state {
                State::Start => match c {
                    b'[' => {
                        self.state = State::Array;
                        self.depth = 1;
                        self.array_depth = 1;
                    }
                    b'{' => {
                        self.state = State::TopObject;
                        self.depth = 1;
                    }
                    0xEF | 0xBB | 0xBF if at < 3 => {}
                    c if c.is_ascii_whitespace() => {}
                    _ => {
                        return Err(self.err(
                            ImportErrorKind::Malformed,
                            at,
                            "expected a JSON array or object".into(),
                        ))
                    }
                },
                State::TopObject | State::After => match c {
                    b'"' => {
                        self.in_str = true;
                        self.key_buf.clear();
                    }
                    b'{' | b'[' => {
                        self.depth += 1;
                        self.key_match = false;
                    }
                    b'}' | b']' => {
                        self.depth = self.depth.saturating_sub(1);
                        self.key_match = false;
                    }
                    b':' if self.state == State::TopObject && self.depth == 1 && self.key_match => {
                        self.state = State::AwaitArray;
                    }
                    c if c.is_ascii_whitespace() => {}
                    _ => self.key_match = false,
                },
                State::AwaitArray => match c {
                    b'[' => {
                        self.state = State::Array;
                        self.depth = 2;
                        self.array_depth = 2;
                    }
                    c if c.is_ascii_whitespace() => {}
                    _ => {
                        return Err(self.err(
                            ImportErrorKind::Malformed,
                            at,
                            format!("{}: expected an array", String::from_utf8_lossy(self.key)),
                        ))
                    }
                },
                State::Array if !self.in_record => match c {
                    b'{' => {
                        self.in_record = true;
                        self.record_start = at;
                        self.depth += 1;
                        here = Some(i);
                    }
                    b']' => {
                        self.depth = self.depth.saturating_sub(1);
                        self.state = State::After;
                    }
                    b',' => {}
                    c if c.is_ascii_whitespace() => {}
                    _ => {
                        return Err(self.err(
                            ImportErrorKind::Malformed,
                            at,
                            format!("{}: expected an object", self.path()),
                        ))
                    }
                },
                State::Array => match c {
                    b'"' => self.in_str = true,
                    b'{' | b'[' => self.depth += 1,
                    b'}' | b']' => {
                        self.depth = self.depth.saturating_sub(1);
                        if self.depth == self.array_depth {
                            // The record is complete.
                            let bytes = match here.take() {
                                Some(s) => chunk.get(s..=i).unwrap_or_default(),
                                None => {
                                    self.record.extend_from_slice(chunk.get(..=i).unwrap_or_default());
                                    self.record.as_slice()
                                }
                            };
                            if bytes.len() > self.max_record {
                                return Err(self.too_long());
                            }
                            on_record(Record {
                                bytes,
                                index: self.index,
                                offset: self.record_start,
                                key: (self.array_depth == 2).then_some(self.key),
                            })?;
                            self.record.clear();
                            self.in_record = false;
                            self.index += 1;
                        }
                    }
                    _ => {}
                },
            }
            i += 1;
        }
        if self.in_record {
            let from = here.unwrap_or(0);
            self.record
                .extend_from_slice(chunk.get(from..).unwrap_or_default());
            if self.record.len() > self.max_record {
                return Err(self.too_long());
            }
        }
        self.offset = base + n as u64;
        Ok(())
    }

    fn too_long(&self) -> ImportError {
        self.err(
            ImportErrorKind::LimitExceeded,
            self.record_start,
            format!(
                "{} is longer than the limit of {} bytes for one record",
                self.path(),
                self.max_record
            ),
        )
    }

    fn push_key_bytes(&mut self, bytes: &[u8]) {
        if self.state == State::TopObject && self.depth == 1 && self.key_buf.len() <= self.key.len() {
            let room = self.key.len() + 1 - self.key_buf.len();
            self.key_buf.extend_from_slice(bytes.get(..room).unwrap_or(bytes));
        }
    }

    fn push_key_byte(&mut self, chunk: &[u8], i: usize) {
        if let Some(b) = chunk.get(i..=i) {
            self.push_key_bytes(b);
        }
    }

    /// Records read so far.
    pub(crate) fn records(&self) -> u64 {
        self.index
    }

    /// Ends the input: fine when the array was found and no record is cut off (a trace's closing `]` is
    /// optional, as the Trace Event Format allows).
    pub(crate) fn finish(&self) -> Result<(), ImportError> {
        if self.in_record || self.in_str && self.state == State::Array {
            return Err(self.err(
                ImportErrorKind::Malformed,
                self.record_start,
                format!("{} is cut off: the input ends inside it", self.path()),
            ));
        }
        match self.state {
            State::Array | State::After => Ok(()),
            State::Start => Err(self.err(
                ImportErrorKind::Empty,
                self.offset,
                "the input holds no JSON".into(),
            )),
            State::TopObject | State::AwaitArray => Err(self.err(
                ImportErrorKind::Malformed,
                self.offset,
                format!(
                    "the top-level object has no \"{}\" array",
                    String::from_utf8_lossy(self.key)
                ),
            )),
        }
    }
}

/// A format read as one JSON document (a `.cpuprofile`, a speedscope file, a Firefox Profiler profile): the
/// input is collected up to `max` bytes (over it, an error naming the limit and `what` — "profile" or "file"),
/// then parsed whole, past a UTF-8 byte order mark, into typed structs (never a `Value` tree).
pub(crate) struct WholeJson {
    format: Format,
    buf: Vec<u8>,
    max: usize,
    what: &'static str,
}

impl WholeJson {
    pub(crate) fn new(format: Format, max: usize, what: &'static str) -> Self {
        WholeJson {
            format,
            buf: Vec::new(),
            max,
            what,
        }
    }

    pub(crate) fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        if self.buf.len().saturating_add(chunk.len()) > self.max {
            return Err(ImportError::new(
                Some(self.format),
                ImportErrorKind::LimitExceeded,
                self.max as u64,
                None,
                format!("the {} is larger than the limit of {} bytes", self.what, self.max),
            ));
        }
        self.buf.extend_from_slice(chunk);
        Ok(())
    }

    /// The collected bytes, for a format that walks the document itself.
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.buf
    }

    /// The document as `T` (the collected bytes are dropped before `T` is returned).
    pub(crate) fn parse<T: serde::de::DeserializeOwned>(self) -> Result<T, ImportError> {
        let text = self.buf.strip_prefix(BOM).unwrap_or(&self.buf);
        let base = (self.buf.len() - text.len()) as u64;
        parse(self.format, text, base, "")
    }
}

/// Parses one JSON value of `bytes` (which start at byte `base` of the input) into `T`. An error names the
/// JSON path (`prefix` and the path inside the value) and the byte offset where serde stopped.
pub(crate) fn parse<'de, T: serde::Deserialize<'de>>(
    format: Format,
    bytes: &'de [u8],
    base: u64,
    prefix: &str,
) -> Result<T, ImportError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    match serde_path_to_error::deserialize::<_, T>(&mut de) {
        Ok(v) => Ok(v),
        Err(e) => {
            let inner = e.inner();
            let at = base + offset_of(bytes, inner.line(), inner.column());
            let path = e.path().to_string();
            let path = match (prefix.is_empty(), path.as_str()) {
                (true, ".") => "the document".to_string(),
                (false, ".") => prefix.to_string(),
                (_, p) if p.starts_with('[') => format!("{prefix}{p}"),
                (true, p) => p.to_string(),
                (false, p) => format!("{prefix}.{p}"),
            };
            let kind = ImportErrorKind::Malformed;
            // serde_json appends " at line L column C"; the offset says it instead.
            let msg = inner.to_string();
            let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
            let msg = if inner.is_eof() {
                format!("{path}: the input ends early ({msg})")
            } else {
                format!("{path}: {msg}")
            };
            Err(ImportError::new(Some(format), kind, at, None, msg))
        }
    }
}

/// The byte offset of serde_json's 1-based (line, column) in `bytes` (column 0 means "before the line").
fn offset_of(bytes: &[u8], line: usize, column: usize) -> u64 {
    let mut start = 0usize;
    for _ in 1..line {
        match memchr::memchr(b'\n', bytes.get(start..).unwrap_or_default()) {
            Some(k) => start += k + 1,
            None => break,
        }
    }
    (start + column.saturating_sub(1)).min(bytes.len()) as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn records(
        input: &[u8],
        key: &'static [u8],
        chunk: usize,
    ) -> Result<Vec<(String, u64, u64)>, ImportError> {
        let mut s = ArrayScanner::new(Format::Folded, key, 1 << 20);
        let mut out = Vec::new();
        for c in input.chunks(chunk.max(1)) {
            s.feed(c, &mut |r| {
                out.push((String::from_utf8(r.bytes.to_vec()).unwrap(), r.index, r.offset));
                Ok(())
            })?;
        }
        s.finish()?;
        Ok(out)
    }

    #[test]
    fn records_across_any_chunking() {
        let doc = br#" {"meta": {"traceEvents": [1]}, "s": "traceEvents\"]", "traceEvents": [ {"a": "}\"{["}, {"b": [1, {"c": 2}]} ], "x": [{}]}"#;
        for chunk in 1..doc.len() {
            let r = records(doc, b"traceEvents", chunk).unwrap();
            assert_eq!(r.len(), 2, "chunk {chunk}");
            assert_eq!(r[0].0, r#"{"a": "}\"{["}"#);
            assert_eq!(r[1].0, r#"{"b": [1, {"c": 2}]}"#);
            assert_eq!(&doc[r[1].2 as usize..r[1].2 as usize + 4], br#"{"b""#);
        }
        // The array form, without its closing bracket (allowed by the Trace Event Format).
        let r = records(b"[{\"a\":1},\n{\"b\":2},\n", b"traceEvents", 3).unwrap();
        assert_eq!(r.iter().map(|x| x.1).collect::<Vec<_>>(), vec![0, 1]);
    }

    #[test]
    fn cut_off_and_wrong_shapes() {
        let e = records(br#"[{"a":1},{"b":"#, b"k", 4).unwrap_err();
        assert!(e.message.contains("[1] is cut off"), "{e}");
        assert_eq!(e.offset, 9);
        let e = records(br#"{"k": [1]}"#, b"k", 2).unwrap_err();
        assert!(e.message.contains("k[0]: expected an object"), "{e}");
        let e = records(br#"{"j": []}"#, b"k", 2).unwrap_err();
        assert!(e.message.contains("no \"k\" array"), "{e}");
        let e = records(br#"{"k": 3}"#, b"k", 2).unwrap_err();
        assert!(e.message.contains("k: expected an array"), "{e}");
    }

    #[test]
    fn keys_and_depths() {
        let mut seen = Vec::new();
        assert!(keys(
            br#"{"nodes":[{"id":1,"callFrame":{"url":"a:b"}}],"x"#,
            |d, k| {
                seen.push((d, String::from_utf8_lossy(k).into_owned()));
                false
            }
        ));
        assert_eq!(
            seen,
            vec![
                (1, "nodes".into()),
                (3, "id".into()),
                (3, "callFrame".into()),
                (4, "url".into())
            ]
        );
        assert!(!keys(b"main;a 1\n", |_, _| false));
    }

    #[test]
    fn parse_errors_name_the_path_and_offset() {
        #[derive(serde::Deserialize, Debug)]
        struct N {
            #[allow(dead_code)]
            id: u32,
        }
        #[derive(serde::Deserialize, Debug)]
        struct D {
            #[allow(dead_code)]
            nodes: Vec<N>,
        }
        let text = br#"{"nodes": [{"id": 1}, {"id": "x"}]}"#;
        let e = parse::<D>(Format::Folded, text, 100, "traceEvents[3]").unwrap_err();
        assert!(
            e.message.starts_with("traceEvents[3].nodes[1].id: invalid type"),
            "{e}"
        );
        // serde stops at the end of the bad value: the closing quote of "x" (byte 31 of the text).
        assert_eq!(e.offset, 100 + 31);
    }
}
