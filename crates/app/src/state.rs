//! The view state in the URL fragment (`#key=value&…`, the part a web server never receives).
//!
//! Keys: the source (`url`, or `base` + `target`, or `p` = a profile carried in the link, `pb` its diff base),
//! `view=icicle`, `zoom` (frame names from the root, `;`-joined), `ev` (event or sample type by name),
//! `w=count`, `root` (`comm|pid|tid|none|label:KEY`), `tf` (label filter text), `rows`, `idle=0`,
//! `range` and `a` (time ranges as `START-END` nanoseconds after the heatmap origin), `widths=base`, `abs=1`,
//! `q` (search text) with `qf` (`r` regex, `c` case-sensitive), `tx` (transforms, one per line, as
//! `scorch_core::explore::Transform::to_text`), `mode` (`inverted|sandwich|functions`), `sel` (selected
//! function), `order=heavy`, `color` (`module|kind|self`).

/// Parsed fragment parameters, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Fragment(pub Vec<(String, String)>);

impl Fragment {
    pub fn parse(hash: &str) -> Fragment {
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        Fragment(
            hash.split('&')
                .filter(|kv| !kv.is_empty())
                .map(|kv| {
                    let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
                    (decode(k), decode(v))
                })
                .collect(),
        )
    }

    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    pub fn set(&mut self, key: &str, value: impl Into<String>) {
        self.0.retain(|(k, _)| k != key);
        self.0.push((key.to_string(), value.into()));
    }

    pub fn render(&self) -> String {
        let parts: Vec<String> = self
            .0
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect();
        format!("#{}", parts.join("&"))
    }

    /// The part that names the profile(s): a change here means opening something else.
    pub fn source(&self) -> Vec<(String, String)> {
        self.0
            .iter()
            .filter(|(k, _)| matches!(k.as_str(), "url" | "base" | "target" | "p" | "pb"))
            .cloned()
            .collect()
    }

    /// `START-END` as a pair of numbers.
    pub fn range(&self, key: &str) -> Option<(u64, u64)> {
        let (a, b) = self.get(key)?.split_once('-')?;
        Some((a.parse().ok()?, b.parse().ok()?))
    }
}

/// Percent-encoding that keeps the fragment readable: unreserved characters and `;:/,` stay as they are.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z'
            | b'a'..=b'z'
            | b'0'..=b'9'
            | b'-'
            | b'_'
            | b'.'
            | b'~'
            | b';'
            | b':'
            | b'/'
            | b',' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

pub fn decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (bytes[i], bytes.get(i + 1..i + 3)) {
            (b'%', Some(hex)) => match std::str::from_utf8(hex)
                .ok()
                .and_then(|h| u8::from_str_radix(h, 16).ok())
            {
                Some(v) => {
                    out.push(v);
                    i += 3;
                    continue;
                }
                None => out.push(b'%'),
            },
            (b'+', _) => out.push(b' '),
            (c, _) => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}
