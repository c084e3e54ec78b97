//! The streaming entry point: feed bytes in chunks of any size, get a [`Profile`] or an [`ImportError`].
//!
//! Pipeline: gzip is detected by its magic bytes (never the file name) and inflated on the fly; the
//! decompressed stream is sniffed for its format; the chosen importer receives the rest chunk by chunk.
//! Nothing here holds the whole input; memory follows the profile's distinct content.

use super::importer::{Parse, SNIFF_WINDOW};
use super::options::ImportOptions;
use super::sniff::{find, tried, Found};
use crate::model::{Format, ImportError, ImportErrorKind, Imported, Profile};
use std::io::Write;

/// The chosen format's parser.
struct Parser {
    format: Format,
    inner: Box<dyn Parse>,
}

impl Parser {
    fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        self.inner.feed(chunk)
    }
    fn finish(self) -> Result<Profile, ImportError> {
        self.inner.finish()
    }
    fn samples(&self) -> usize {
        self.inner.samples()
    }
    fn format(&self) -> Format {
        self.format
    }
}

/// Receives decompressed bytes: sniffs the format, then hands everything to the importer.
struct Sink {
    opts: ImportOptions,
    utf16: Option<Utf16>,
    head: Vec<u8>,
    parser: Option<Parser>,
    bytes: u64,
    err: Option<ImportError>,
}

impl Sink {
    fn accept(&mut self, data: &[u8]) -> Result<(), ImportError> {
        self.bytes += data.len() as u64;
        if self.bytes > self.opts.max_decompressed {
            return Err(ImportError::new(
                self.parser.as_ref().map(Parser::format),
                ImportErrorKind::LimitExceeded,
                self.opts.max_decompressed,
                None,
                format!(
                    "the input is larger than the limit of {} bytes",
                    self.opts.max_decompressed
                ),
            ));
        }
        if let Some(u) = &mut self.utf16 {
            let utf8 = u.decode(data);
            return self.accept_utf8(&utf8);
        }
        if self.bytes == data.len() as u64 {
            // First bytes: a UTF-16 byte order mark switches to transcoding.
            let le = data.starts_with(b"\xFF\xFE");
            if le || data.starts_with(b"\xFE\xFF") {
                let mut u = Utf16 {
                    le,
                    odd: None,
                    high: None,
                };
                let utf8 = u.decode(data.get(2..).unwrap_or_default());
                self.utf16 = Some(u);
                return self.accept_utf8(&utf8);
            }
        }
        self.accept_utf8(data)
    }

    fn accept_utf8(&mut self, data: &[u8]) -> Result<(), ImportError> {
        if let Some(p) = &mut self.parser {
            return p.feed(data);
        }
        // Nothing kept yet: sniffed in place, and copied only if that is not enough (an input given in one
        // piece is not copied whole before it is parsed).
        if self.head.is_empty() {
            if !self.decide(data, false)? {
                self.head.extend_from_slice(data);
            }
            return Ok(());
        }
        self.head.extend_from_slice(data);
        let head = std::mem::take(&mut self.head);
        if !self.decide(&head, false)? {
            self.head = head;
        }
        Ok(())
    }

    /// Sniffs `input` (every byte so far); once the format is known, a parser takes `input` (`true`).
    fn decide(&mut self, input: &[u8], at_end: bool) -> Result<bool, ImportError> {
        let window = input.get(..SNIFF_WINDOW).unwrap_or(input);
        match find(window, at_end || input.len() >= SNIFF_WINDOW) {
            Found::NeedMore => Ok(false),
            Found::No => {
                let what = describe_unknown(input);
                Err(ImportError::new(
                    None,
                    ImportErrorKind::UnknownFormat,
                    0,
                    Some(1),
                    what,
                ))
            }
            Found::Yes(r) => {
                let mut parser = Parser {
                    format: r.importer.format(),
                    inner: (r.parser)(&self.opts),
                };
                parser.feed(input)?;
                self.parser = Some(parser);
                Ok(true)
            }
        }
    }

    fn finish(mut self) -> Result<(Profile, u64), ImportError> {
        if self.parser.is_none() {
            if self.head.iter().all(|b| b.is_ascii_whitespace()) {
                return Err(ImportError::new(
                    None,
                    ImportErrorKind::Empty,
                    0,
                    None,
                    "the input is empty",
                ));
            }
            let head = std::mem::take(&mut self.head);
            if !self.decide(&head, true)? {
                self.head = head;
            }
        }
        match self.parser {
            Some(p) => Ok((p.finish()?, self.bytes)),
            None => Err(ImportError::new(
                None,
                ImportErrorKind::UnknownFormat,
                0,
                Some(1),
                describe_unknown(&self.head),
            )),
        }
    }
}

/// Streaming UTF-16 to UTF-8 (speedscope reads UTF-16 files with a byte order mark; so does scorch).
struct Utf16 {
    le: bool,
    odd: Option<u8>,
    high: Option<u16>,
}

impl Utf16 {
    fn decode(&mut self, data: &[u8]) -> Vec<u8> {
        let mut out = Vec::with_capacity(data.len() / 2 + 4);
        let mut bytes = data.iter().copied();
        let mut buf = [0u8; 4];
        loop {
            let (a, b) = match self.odd.take() {
                Some(a) => match bytes.next() {
                    Some(b) => (a, b),
                    None => {
                        self.odd = Some(a);
                        break;
                    }
                },
                None => match (bytes.next(), bytes.next()) {
                    (Some(a), Some(b)) => (a, b),
                    (Some(a), None) => {
                        self.odd = Some(a);
                        break;
                    }
                    _ => break,
                },
            };
            let unit = if self.le {
                u16::from_le_bytes([a, b])
            } else {
                u16::from_be_bytes([a, b])
            };
            let units: Vec<u16> = match self.high.take() {
                Some(h) => vec![h, unit],
                None if (0xD800..0xDC00).contains(&unit) => {
                    self.high = Some(unit);
                    continue;
                }
                None => vec![unit],
            };
            for c in char::decode_utf16(units) {
                let c = c.unwrap_or(char::REPLACEMENT_CHARACTER);
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            }
        }
        out
    }
}

fn describe_unknown(head: &[u8]) -> String {
    let kind = if head.starts_with(b"\x1f\x8b") {
        "gzip data inside the gzip (scorch inflates one layer: gunzip the file once first)"
    } else if head.starts_with(b"\x89PNG") {
        "a PNG image"
    } else if head.starts_with(b"\xFF\xFE") || head.starts_with(b"\xFE\xFF") {
        "UTF-16 text"
    } else if matches!(head.first(), Some(0x0a | 0x12)) && head.get(1).is_some_and(|&b| b >= 0x80) {
        "a broken or truncated pprof (profile.proto) message: its first field claims more bytes than the input has"
    } else if head.iter().take(512).any(|&b| b == 0) {
        "binary data"
    } else if matches!(super::json::first_significant(head), Some((_, b'{' | b'['))) {
        "JSON, but not a speedscope file (a top-level object with \"$schema\" naming speedscope's \
         file-format-schema, or \"shared\" and \"profiles\"), a Firefox Profiler profile (\"meta\" and \"threads\"), a V8 .cpuprofile (a top-level object whose \"nodes\" \
         have a \"callFrame\") or a Chrome trace (a \"traceEvents\" array, or a top-level array of events with a \
         \"ph\")"
    } else {
        "text"
    };
    // A first line past the sniffing window was judged on its start only: say so, and what the window is.
    let long = if (kind == "text" || kind.starts_with("JSON"))
        && head.len() >= SNIFF_WINDOW
        && memchr::memchr(b'\n', head.get(..SNIFF_WINDOW).unwrap_or(head)).is_none()
    {
        format!(
            " (its first line is longer than the {} KiB the format is judged on)",
            SNIFF_WINDOW >> 10
        )
    } else {
        String::new()
    };
    format!(
        "not a profile scorch reads: the input looks like {kind}{long}; tried {} (folded: `frame;frame COUNT` lines)",
        tried().join(", ")
    )
}

/// Adapter that lets flate2 push inflated bytes into the sink, keeping the sink's own error.
impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.accept(buf) {
            Ok(()) => Ok(buf.len()),
            Err(e) => {
                self.err = Some(e);
                Err(std::io::Error::other("import failed"))
            }
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

enum Stage {
    /// Fewer than two bytes seen: cannot tell gzip from plain yet.
    Start(Vec<u8>),
    Plain(Box<Sink>),
    Gzip(Box<flate2::write::MultiGzDecoder<Sink>>),
    Failed,
}

/// Streaming importer. Feed chunks of any size, then [`Loader::finish`].
pub struct Loader {
    stage: Stage,
    opts: ImportOptions,
    fed: u64,
}

impl Loader {
    pub fn new(opts: ImportOptions) -> Self {
        Loader {
            stage: Stage::Start(Vec::new()),
            opts,
            fed: 0,
        }
    }

    /// Bytes fed so far (compressed, as read from the file).
    pub fn bytes_fed(&self) -> u64 {
        self.fed
    }

    /// Samples read so far (for progress; pprof decodes its message at the end, so 0 until then).
    pub fn samples_so_far(&self) -> usize {
        let sink = match &self.stage {
            Stage::Plain(sink) => sink,
            Stage::Gzip(dec) => dec.get_ref(),
            Stage::Start(_) | Stage::Failed => return 0,
        };
        sink.parser.as_ref().map_or(0, Parser::samples)
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        self.fed += chunk.len() as u64;
        let stage = std::mem::replace(&mut self.stage, Stage::Failed);
        let r = self.feed_stage(stage, chunk);
        if r.is_err() {
            self.stage = Stage::Failed;
        }
        r
    }

    fn feed_stage(&mut self, stage: Stage, chunk: &[u8]) -> Result<(), ImportError> {
        match stage {
            // The first two bytes say whether it is gzip; only what completes them is kept (the first chunk
            // usually holds both: it goes on whole, not copied).
            Stage::Start(head) if head.is_empty() && chunk.len() >= 2 => {
                self.stage = self.open(chunk.starts_with(&[0x1f, 0x8b]));
                self.feed_stage_inner(chunk)
            }
            Stage::Start(mut head) => {
                let (first, rest) = chunk.split_at(2usize.saturating_sub(head.len()).min(chunk.len()));
                head.extend_from_slice(first);
                if head.len() < 2 {
                    self.stage = Stage::Start(head);
                    return Ok(());
                }
                self.stage = self.open(head.starts_with(&[0x1f, 0x8b]));
                self.feed_stage_inner(&head)?;
                self.feed_stage_inner(rest)
            }
            other => {
                self.stage = other;
                self.feed_stage_inner(chunk)
            }
        }
    }

    fn open(&self, gzip: bool) -> Stage {
        let sink = Sink {
            opts: self.opts.clone(),
            utf16: None,
            head: Vec::new(),
            parser: None,
            bytes: 0,
            err: None,
        };
        if gzip {
            Stage::Gzip(Box::new(flate2::write::MultiGzDecoder::new(sink)))
        } else {
            Stage::Plain(Box::new(sink))
        }
    }

    fn feed_stage_inner(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        match &mut self.stage {
            Stage::Plain(sink) => sink.accept(chunk),
            Stage::Gzip(dec) => match dec.write_all(chunk) {
                Ok(()) => Ok(()),
                Err(e) => Err(dec
                    .get_mut()
                    .err
                    .take()
                    .unwrap_or_else(|| gzip_error(&e, self.fed))),
            },
            Stage::Start(_) => Ok(()),
            Stage::Failed => Err(ImportError::new(
                None,
                ImportErrorKind::Malformed,
                self.fed,
                None,
                "the import already failed",
            )),
        }
    }

    pub fn finish(self) -> Result<Imported, ImportError> {
        let fed = self.fed;
        match self.stage {
            Stage::Start(head) => {
                let stage = Loader {
                    stage: Stage::Failed,
                    opts: self.opts.clone(),
                    fed,
                }
                .open(false);
                let mut l = Loader {
                    stage,
                    opts: self.opts,
                    fed,
                };
                l.feed_stage_inner(&head)?;
                l.finish()
            }
            Stage::Plain(sink) => {
                let (profile, bytes) = sink.finish()?;
                Ok(Imported {
                    profile,
                    gzip: false,
                    bytes,
                })
            }
            Stage::Gzip(mut dec) => {
                if let Err(e) = dec.try_finish() {
                    return Err(dec.get_mut().err.take().unwrap_or_else(|| gzip_error(&e, fed)));
                }
                let sink = match dec.finish() {
                    Ok(s) => s,
                    Err(e) => return Err(gzip_error(&e, fed)),
                };
                let (profile, bytes) = sink.finish()?;
                Ok(Imported {
                    profile,
                    gzip: true,
                    bytes,
                })
            }
            Stage::Failed => Err(ImportError::new(
                None,
                ImportErrorKind::Malformed,
                fed,
                None,
                "the import already failed",
            )),
        }
    }
}

fn gzip_error(e: &std::io::Error, fed: u64) -> ImportError {
    ImportError::new(
        None,
        ImportErrorKind::Gzip,
        fed,
        None,
        format!("the gzip stream is corrupt or truncated ({e})"),
    )
}

/// Imports a whole input held in memory.
pub fn import_bytes(input: &[u8], opts: ImportOptions) -> Result<Imported, ImportError> {
    let mut l = Loader::new(opts);
    l.feed(input)?;
    l.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gz(data: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    #[test]
    fn gzip_is_detected_by_magic_and_chunking_does_not_matter() {
        let text = b"main;a;b 3\nmain;a;c 4\nmain;d 5\n";
        let z = gz(text);
        for chunk in [1, 2, 3, 7, 1 << 16] {
            let mut l = Loader::new(ImportOptions::default());
            for c in z.chunks(chunk) {
                l.feed(c).unwrap();
            }
            let imp = l.finish().unwrap();
            assert!(imp.gzip);
            assert_eq!(imp.profile.total(), 12);
            assert_eq!(imp.bytes, text.len() as u64);
        }
    }

    /// Given whole (sniffed in place, not copied) or cut anywhere around the gzip check and the sniffing
    /// window: the same profile, or the same error at the same place.
    #[test]
    fn an_input_in_one_piece_reads_as_in_chunks() {
        let folded: String = (0..3000)
            .map(|i| format!("main;f{};g{} {}\n", i % 7, i % 13, 1 + i % 5))
            .collect();
        // A line skipped with a warning in the middle, and a gzip stream cut short (an error at an offset).
        let skipped = format!("{folded}main;x nope\n{folded}");
        let z = gz(folded.as_bytes());
        let perf =
            "prog 1 [000] 1.000000: 1 cpu-clock:\n\tffff work (/bin/prog)\n\tffff main (/bin/prog)\n\n"
                .repeat(400);
        let unknown = "\u{1}".repeat(2 * SNIFF_WINDOW);
        let inputs = [
            folded.as_bytes().to_vec(),
            gz(folded.as_bytes()),
            skipped.as_bytes().to_vec(),
            z[..z.len() / 2].to_vec(),
            perf.as_bytes().to_vec(),
            unknown.as_bytes().to_vec(),
        ];
        let read = |r: Result<Imported, ImportError>| {
            r.map(|i| {
                let m = &i.profile.meta;
                let folded = crate::export::to_folded(&i.profile);
                (folded, m.records, m.warnings.clone(), i.gzip, i.bytes)
            })
            .map_err(|e| e.to_string())
        };
        for input in &inputs {
            let whole = read(import_bytes(input, ImportOptions::default()));
            for first in [1, 2, 3, SNIFF_WINDOW - 1, SNIFF_WINDOW, SNIFF_WINDOW + 1] {
                let mut l = Loader::new(ImportOptions::default());
                let (a, b) = input.split_at(first.min(input.len()));
                let fed = l
                    .feed(a)
                    .and_then(|()| b.chunks(1000).try_for_each(|c| l.feed(c)));
                let cut = match fed {
                    Ok(()) => read(l.finish()),
                    Err(e) => Err(e.to_string()),
                };
                assert_eq!(cut, whole, "first chunk of {first} bytes");
            }
        }
        let with_warning = read(import_bytes(&inputs[2], ImportOptions::default()));
        assert!(with_warning.is_ok_and(|(.., w, _, _)| w.count == 1));
        assert!(read(import_bytes(&inputs[3], ImportOptions::default())).is_err());
        assert!(read(import_bytes(&inputs[5], ImportOptions::default())).is_err());
    }

    #[test]
    fn truncated_gzip_is_an_error() {
        let z = gz(&b"main;a;b 3\n".repeat(1000));
        let e = import_bytes(&z[..z.len() / 2], ImportOptions::default()).unwrap_err();
        assert_eq!(e.kind, ImportErrorKind::Gzip, "{e}");
    }

    #[test]
    fn decompressed_limit() {
        let z = gz(&vec![b'a'; 1 << 20]);
        let e = import_bytes(
            &z,
            ImportOptions {
                max_decompressed: 1000,
                ..Default::default()
            },
        )
        .unwrap_err();
        assert_eq!(e.kind, ImportErrorKind::LimitExceeded);
    }

    #[test]
    fn utf16_with_bom_is_transcoded() {
        let text = "main;函数 3\nmain;b 4\n";
        for le in [true, false] {
            let mut bytes = if le { vec![0xFF, 0xFE] } else { vec![0xFE, 0xFF] };
            for u in text.encode_utf16() {
                bytes.extend_from_slice(&if le { u.to_le_bytes() } else { u.to_be_bytes() });
            }
            for chunk in [1, 3, 1000] {
                let mut l = Loader::new(ImportOptions::default());
                for c in bytes.chunks(chunk) {
                    l.feed(c).unwrap();
                }
                let p = l.finish().unwrap().profile;
                assert_eq!(crate::export::to_folded(&p), "main;b 4\nmain;函数 3\n");
            }
        }
    }

    #[test]
    fn a_first_line_longer_than_the_sniffing_window() {
        // One frame whose name is longer than the window: folded, whatever its length up to the line limit.
        let mut name = "n".repeat(3 * SNIFF_WINDOW);
        name.push_str(" 5\n");
        let p = import_bytes(name.as_bytes(), ImportOptions::default())
            .unwrap()
            .profile;
        assert_eq!((p.total(), p.frames.len()), (5, 1));
        assert_eq!(crate::export::to_folded(&p), name);
        // Past the line limit, the error names the limit.
        let small = ImportOptions {
            max_line: 2 << 20,
            ..ImportOptions::default()
        };
        let huge = format!("{} 1\n", "n".repeat(3 << 20));
        let Err(e) = import_bytes(huge.as_bytes(), small) else {
            panic!("a line over the limit was read");
        };
        assert_eq!(e.kind, ImportErrorKind::LimitExceeded);
        assert!(
            e.to_string()
                .contains("a line is longer than the limit of 2 MiB (2097152 bytes)"),
            "{e}"
        );
        // A long JSON document is not folded, and the message says its first line was judged on its start.
        let json = format!("{{\"x\": \"{}\"}}\n", "v".repeat(2 * SNIFF_WINDOW));
        let Err(e) = import_bytes(json.as_bytes(), ImportOptions::default()) else {
            panic!("a JSON document was read as a profile");
        };
        assert_eq!(e.kind, ImportErrorKind::UnknownFormat);
        assert!(
            e.to_string().contains("its first line is longer than the 64 KiB"),
            "{e}"
        );
    }

    #[test]
    fn unknown_and_empty() {
        assert_eq!(
            import_bytes(b"", ImportOptions::default()).unwrap_err().kind,
            ImportErrorKind::Empty
        );
        assert_eq!(
            import_bytes(b"x", ImportOptions::default()).unwrap_err().kind,
            ImportErrorKind::UnknownFormat
        );
        let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";
        let e = import_bytes(png, ImportOptions::default()).unwrap_err();
        assert_eq!(e.kind, ImportErrorKind::UnknownFormat);
        assert!(e.message.contains("PNG"), "{e}");
    }
}
