//! The view state in the URL fragment (`#key=value&…`, the part a web server never receives): every key the
//! fragment has, how each is spelled, read and written, in this one file.
//!
//! Keys, in the order they are written: the source (`url`, or `base` + `target`, or `p` = a profile carried in
//! the link with `pb` its diff base), `view=icicle`, `zoom` (frame names from the root, `;`-joined), `ev` (event
//! or sample type by name), `w=count`, `root` (`comm|pid|tid|none|label:KEY`), `tf` (label filter text), `th` (the
//! chosen threads: their tids, `,`-joined), `btf` (the base slice of a slice diff: a filter text as `tf`, or
//! `all`), `rows`,
//! `idle=0`, `range` and `a` (time ranges as `START-END` nanoseconds after the heatmap origin), `off` and `aoff` (a
//! band's offsets within each second of `range` and of `a`, as `FROM-TO` nanoseconds), `q` (search text)
//! with `qf` (`r` regex, `c` case-sensitive), `tx` (transforms, one per line, as
//! `scorch_core::analysis::transforms::Transform::to_text`), `mode` (`inverted|sandwich|functions|calltree|chart|graph`), `cw`
//! (the stack chart's zoom window, `START-END` nanoseconds after the heatmap origin), `gf` (the call graph's
//! focus, a regular expression as pprof's `-focus`), `gn`, `gnf`, `gef` (its pruning: pprof's `-nodecount`,
//! `-nodefraction`, `-edgefraction`; written when not pprof's defaults), `sel` (selected
//! function), `order=heavy`, `color` (`module|kind|self`), `widths=base`, `abs=1`; then `note` once per note
//! (`scorch_core::view::notes`: its value is URL-safe as it is and read before any percent-decoding, capped).
//!
//! Versions: `v` is the format's version. Links without it are version 1, today's format, and it is written only
//! when it is not 1 (so today's links are byte for byte what older scorch wrote, and open in it). A key this
//! version does not know is kept while reading (an unknown key never stops a link from opening) and dropped
//! when the view writes its own fragment.

use crate::render::graph::GraphPrune;
use crate::render::{ColorScheme, Orientation};
use crate::state::view::Mode;
use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use scorch_core::analysis::diff::Widths;
use scorch_core::analysis::{search::Pattern, transforms::Transform};
use scorch_core::import::many::PROFILE_LABEL;
use scorch_core::model::DeclaredUnit;
use scorch_core::view::calltree::Order;
use scorch_core::view::notes::{notes_fragment, read_notes, Note};
use scorch_core::view::Granularity;
use scorch_core::{Profile, RootMode, WeightMode};

/// The fragment format this build writes.
pub const VERSION: u32 = 1;

/// Rows of the heatmap when the link does not say.
pub const DEFAULT_ROWS: u32 = 50;

/// An enum the fragment (or the page's controls) carries as a word: one spelling, both ways.
pub trait UrlKey: Sized + Copy + 'static {
    const ALL: &'static [Self];
    fn key(self) -> &'static str;
    fn from_key(k: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|x| x.key() == k)
    }
}

impl UrlKey for Order {
    const ALL: &'static [Order] = &[Order::Alphabetical, Order::Weight];
    fn key(self) -> &'static str {
        match self {
            Order::Alphabetical => "alpha",
            Order::Weight => "heavy",
        }
    }
}

impl UrlKey for WeightMode {
    const ALL: &'static [WeightMode] = &[WeightMode::Weight, WeightMode::Count];
    fn key(self) -> &'static str {
        match self {
            WeightMode::Weight => "weight",
            WeightMode::Count => "count",
        }
    }
}

impl UrlKey for Widths {
    const ALL: &'static [Widths] = &[Widths::Target, Widths::Base];
    fn key(self) -> &'static str {
        match self {
            Widths::Target => "target",
            Widths::Base => "base",
        }
    }
}

impl UrlKey for Orientation {
    const ALL: &'static [Orientation] = &[Orientation::Flame, Orientation::Icicle];
    fn key(self) -> &'static str {
        match self {
            Orientation::Flame => "flame",
            Orientation::Icicle => "icicle",
        }
    }
}

impl UrlKey for Mode {
    const ALL: &'static [Mode] = &Mode::ALL;
    fn key(self) -> &'static str {
        match self {
            Mode::Flame => "flame",
            Mode::Inverted => "inverted",
            Mode::Sandwich => "sandwich",
            Mode::Functions => "functions",
            Mode::CallTree => "calltree",
            Mode::Chart => "chart",
            Mode::Graph => "graph",
        }
    }
}

impl UrlKey for ColorScheme {
    const ALL: &'static [ColorScheme] = &ColorScheme::ALL;
    fn key(self) -> &'static str {
        match self {
            ColorScheme::Name => "name",
            ColorScheme::Module => "module",
            ColorScheme::Kind => "kind",
            ColorScheme::SelfTime => "self",
            ColorScheme::Health => "health",
            ColorScheme::OnOffCpu => "oncpu",
        }
    }
}

const LABEL_ROOT: &str = "label:";

/// The root selector's word for a label key (`label:KEY`).
pub fn label_root_key(key: &str) -> String {
    format!("{LABEL_ROOT}{key}")
}

/// Does the word name a label root (`label:KEY`)?
pub fn is_label_root(key: &str) -> bool {
    key.starts_with(LABEL_ROOT)
}

/// The word for a root mode (`comm|pid|tid|none|label:KEY`), as the fragment and the root selector spell it.
pub fn root_key(root: RootMode, p: &Profile) -> String {
    match root {
        RootMode::Label(k) => label_root_key(p.strings.get(k)),
        r => r.name().to_string(),
    }
}

/// The root mode a word names in this profile; `None` for a label key the profile does not have, or no mode.
pub fn root_from_key(key: &str, p: &Profile) -> Option<RootMode> {
    match key.strip_prefix(LABEL_ROOT) {
        Some(k) => scorch_core::view::label_key(p, k).map(RootMode::Label),
        None => RootMode::parse(key),
    }
}

/// The most profiles a `series` link opens (the rest of its list is ignored).
pub const MAX_SERIES: usize = 200;

/// Where the open profile came from, as the fragment names it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Source {
    /// A local file or pasted text (or nothing yet): the fragment names nothing.
    #[default]
    None,
    /// `url`: a hosted profile.
    Url(String),
    /// `base` + `target`: a diff of two hosted profiles.
    Pair { base: String, target: String },
    /// `p` (with `pb`, a diff): profiles carried in the link itself (`scorch_core::share`).
    Embedded { profile: String, base: Option<String> },
    /// `series`: several hosted profiles opened merged, `,`-separated (each as `url` names one).
    Series(Vec<String>),
    /// `ps`, once per profile: several profiles carried in the link itself, each `NAME:PAYLOAD` (a `p=`
    /// payload, which has no `:`), opened merged under their names — a merge of local files shared.
    Carried(Vec<(String, String)>),
}

/// Everything the fragment says, typed. Defaults are what a fragment without the key means.
#[derive(Debug, Clone, PartialEq)]
pub struct UrlState {
    /// `v`: the format version (absent: 1).
    pub version: u32,
    pub source: Source,
    /// `view`
    pub orientation: Orientation,
    /// `zoom`: frame names from the root to the zoomed frame.
    pub zoom: Vec<String>,
    /// `ev`: the event (or sample type) by name.
    pub event: Option<String>,
    /// `w`
    pub weight: WeightMode,
    /// `unit`: the unit declared for a unit-less input (folded counts), as [`DeclaredUnit::short`] spells it.
    pub unit: Option<DeclaredUnit>,
    /// `root`: as [`root_key`] spells it.
    pub root: Option<String>,
    /// `mean`: values shown as the mean per profile of a merge of this many (0: the sum).
    pub mean_of: u32,
    /// `tf`: the label filter as typed.
    pub label_filter: Option<String>,
    /// `th`: the chosen threads by tid (sorted, distinct; empty: all threads).
    pub threads: Vec<u32>,
    /// `btf`: the base of a slice diff (the same profile under another filter): a filter text, or empty for
    /// all samples (written `all`).
    pub base_filter: Option<String>,
    /// `rows`
    pub rows: u32,
    /// `idle=0` turns the heatmap's idle filter off.
    pub idle: bool,
    /// `range`: the selected time range, ns after the heatmap origin.
    pub range: Option<(u64, u64)>,
    /// `a`: range A of a range comparison.
    pub range_a: Option<(u64, u64)>,
    /// `off`: the band's offsets within each second of `range` (ns, half-open).
    pub offsets: Option<(u64, u64)>,
    /// `aoff`: the offsets of range A when it is a band.
    pub offsets_a: Option<(u64, u64)>,
    /// `q` and `qf`.
    pub search: Pattern,
    /// `gran`: what one node stands for (`scorch_core::view::Granularity`; absent: functions).
    pub granularity: Granularity,
    /// `tx`
    pub transforms: Vec<Transform>,
    /// `mode`
    pub mode: Mode,
    /// `cw`: the stack chart's time window, ns after the heatmap origin (`None`: the whole chart).
    pub chart_window: Option<(u64, u64)>,
    /// `gf`: the call graph's focus (a regular expression).
    pub graph_focus: Option<String>,
    /// `gn`, `gnf`, `gef`: the call graph's pruning.
    pub graph_prune: GraphPrune,
    /// `sel`: the selected function.
    pub selected: Option<String>,
    /// `order`
    pub order: Order,
    /// `color`
    pub scheme: ColorScheme,
    /// `widths`
    pub widths: Widths,
    /// `abs=1`: absolute diff values.
    pub absolute: bool,
    /// `embed=1`: the viewer framed in another page, without its toolbar, driven by messages (docs/SHARING.md).
    pub embed: bool,
    /// `note`, once per note (`scorch_core::view::notes`): notes on the view, a frame or a range, as read
    /// (capped in number and length).
    pub notes: Vec<Note>,
    /// What reading the notes left out or cut (for the receiver's message area; never written).
    pub note_messages: Vec<String>,
    /// Keys this version does not know, as read.
    pub unknown: Vec<(String, String)>,
}

impl Default for UrlState {
    fn default() -> UrlState {
        UrlState {
            version: VERSION,
            source: Source::None,
            orientation: Orientation::Flame,
            zoom: Vec::new(),
            event: None,
            weight: WeightMode::Weight,
            granularity: Granularity::Functions,
            unit: None,
            root: None,
            mean_of: 0,
            label_filter: None,
            threads: Vec::new(),
            base_filter: None,
            rows: DEFAULT_ROWS,
            idle: true,
            range: None,
            range_a: None,
            offsets: None,
            offsets_a: None,
            search: Pattern::default(),
            transforms: Vec::new(),
            mode: Mode::Flame,
            chart_window: None,
            graph_focus: None,
            graph_prune: GraphPrune::default(),
            selected: None,
            order: Order::Alphabetical,
            scheme: ColorScheme::Name,
            widths: Widths::Target,
            absolute: false,
            embed: false,
            notes: Vec::new(),
            note_messages: Vec::new(),
            unknown: Vec::new(),
        }
    }
}

/// Percent-encoding that keeps the fragment readable: unreserved characters and `;:/,` stay as they are.
const FRAGMENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'~')
    .remove(b';')
    .remove(b':')
    .remove(b'/')
    .remove(b',');

fn encode(s: &str) -> String {
    utf8_percent_encode(s, FRAGMENT).to_string()
}

/// `%XX` escapes, and `+` as a space (as forms and some tools write it).
fn decode(s: &str) -> String {
    percent_decode_str(&s.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}

/// `START-END` as a pair of numbers.
fn range(v: &str) -> Option<(u64, u64)> {
    let (a, b) = v.split_once('-')?;
    Some((a.parse().ok()?, b.parse().ok()?))
}

/// `FROM-TO` offsets within a second: a non-empty half-open interval of at most one second.
fn offsets(v: &str) -> Option<(u64, u64)> {
    range(v).filter(|&(a, b)| a < b && b <= 1_000_000_000)
}

/// `btf`'s word for a base slice of all samples.
const ALL_SAMPLES: &str = "all";

/// `12,13`: tids, sorted and distinct; what is not a number is skipped.
fn tids(v: &str) -> Vec<u32> {
    let mut t: Vec<u32> = v.split(',').filter_map(|x| x.trim().parse().ok()).collect();
    t.sort_unstable();
    t.dedup();
    t
}

impl UrlState {
    /// Reads a fragment (with or without its `#`). Never fails: what it cannot read keeps its default.
    pub fn parse(hash: &str) -> UrlState {
        let hash = hash.strip_prefix('#').unwrap_or(hash);
        let pairs: Vec<(String, String)> = hash
            .split('&')
            .filter(|kv| !kv.is_empty())
            .map(|kv| {
                let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
                (decode(k), decode(v))
            })
            .collect();
        // The first value of a key counts.
        let get = |key: &str| pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str());
        let mut s = UrlState {
            version: get("v").and_then(|v| v.parse().ok()).unwrap_or(1),
            ..UrlState::default()
        };
        s.source = match (get("p"), get("pb"), get("base"), get("target"), get("url")) {
            (Some(p), pb, _, _, _) => Source::Embedded {
                profile: p.to_string(),
                base: pb.map(str::to_string),
            },
            (_, _, Some(b), Some(t), _) => Source::Pair {
                base: b.to_string(),
                target: t.to_string(),
            },
            (_, _, _, _, Some(u)) => Source::Url(u.to_string()),
            _ if pairs.iter().any(|(k, _)| k == "ps") => Source::Carried(
                pairs
                    .iter()
                    .filter(|(k, _)| k == "ps")
                    .filter_map(|(_, v)| v.rsplit_once(':'))
                    .take(MAX_SERIES)
                    .map(|(n, p)| (n.to_string(), p.to_string()))
                    .collect(),
            ),
            _ => match get("series") {
                Some(list) => Source::Series(
                    list.split(',')
                        .map(str::trim)
                        .filter(|u| !u.is_empty())
                        .take(MAX_SERIES)
                        .map(str::to_string)
                        .collect(),
                ),
                None => Source::None,
            },
        };
        s.orientation = get("view").and_then(Orientation::from_key).unwrap_or_default();
        s.zoom = get("zoom")
            .map(|z| {
                z.split(';')
                    .filter(|n| !n.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        s.event = get("ev").map(str::to_string);
        s.weight = get("w")
            .and_then(WeightMode::from_key)
            .unwrap_or(WeightMode::Weight);
        s.granularity = get(scorch_core::view::granularity::LINK_KEY)
            .and_then(Granularity::parse)
            .unwrap_or_default();
        s.unit = get("unit").and_then(DeclaredUnit::parse);
        s.root = get("root").map(str::to_string);
        s.mean_of = get("mean").and_then(|m| m.parse().ok()).unwrap_or(0);
        s.label_filter = get("tf").filter(|t| !t.is_empty()).map(str::to_string);
        s.threads = get("th").map(tids).unwrap_or_default();
        s.base_filter = get("btf").filter(|t| !t.is_empty()).map(|t| {
            if t == ALL_SAMPLES {
                String::new()
            } else {
                t.to_string()
            }
        });
        s.rows = get("rows").and_then(|r| r.parse().ok()).unwrap_or(DEFAULT_ROWS);
        s.idle = get("idle") != Some("0");
        s.range = get("range").and_then(range);
        s.range_a = get("a").and_then(range);
        s.offsets = get("off").and_then(offsets);
        s.offsets_a = get("aoff").and_then(offsets);
        let flags = get("qf").unwrap_or_default();
        s.search = Pattern {
            text: get("q").unwrap_or_default().to_string(),
            regex: flags.contains('r'),
            case_sensitive: flags.contains('c'),
        };
        s.transforms = scorch_core::analysis::transforms::transforms_from_text(get("tx").unwrap_or_default());
        s.mode = get("mode").and_then(Mode::from_key).unwrap_or(Mode::Flame);
        s.chart_window = get("cw").and_then(range).filter(|&(a, b)| a < b);
        s.graph_focus = get("gf").filter(|x| !x.is_empty()).map(str::to_string);
        let d = GraphPrune::default();
        s.graph_prune = GraphPrune {
            node_fraction: get("gnf")
                .and_then(GraphPrune::fraction)
                .unwrap_or(d.node_fraction),
            edge_fraction: get("gef")
                .and_then(GraphPrune::fraction)
                .unwrap_or(d.edge_fraction),
            node_count: get("gn")
                .and_then(|n| n.trim().parse().ok())
                .unwrap_or(d.node_count),
        };
        s.selected = get("sel").filter(|x| !x.is_empty()).map(str::to_string);
        s.order = get("order")
            .and_then(Order::from_key)
            .unwrap_or(Order::Alphabetical);
        s.scheme = get("color").and_then(ColorScheme::from_key).unwrap_or_default();
        s.widths = get("widths").and_then(Widths::from_key).unwrap_or(Widths::Target);
        s.absolute = get("abs") == Some("1");
        s.embed = get("embed") == Some("1");
        // Read before the fragment's percent-decoding (a note's value is URL-safe as it is), capped.
        let (notes, note_messages) = read_notes(hash.split('&').filter_map(|kv| kv.strip_prefix("note=")));
        s.notes = notes;
        s.note_messages = note_messages;
        const KNOWN: [&str; 42] = [
            "v", "url", "base", "target", "p", "pb", "view", "zoom", "ev", "w", "gran", "unit", "root", "tf",
            "th", "btf", "rows", "idle", "range", "a", "off", "aoff", "q", "qf", "tx", "mode", "cw", "gf",
            "gn", "gnf", "gef", "sel", "order", "color", "widths", "abs", "embed", "series", "mean", "ps",
            "note", "",
        ];
        s.unknown = pairs
            .into_iter()
            .filter(|(k, _)| !KNOWN.contains(&k.as_str()))
            .collect();
        s
    }

    /// The keys and values to write, in order; what equals its default is left out.
    fn pairs(&self) -> Vec<(&str, String)> {
        let mut out: Vec<(&str, String)> = Vec::new();
        match &self.source {
            Source::None => {}
            Source::Url(u) => out.push(("url", u.clone())),
            Source::Pair { base, target } => {
                out.push(("base", base.clone()));
                out.push(("target", target.clone()));
            }
            Source::Series(urls) => out.push(("series", urls.join(","))),
            Source::Carried(list) => {
                for (name, payload) in list {
                    out.push(("ps", format!("{name}:{payload}")));
                }
            }
            Source::Embedded { profile, base } => {
                if let Some(b) = base {
                    out.push(("pb", b.clone()));
                }
                out.push(("p", profile.clone()));
            }
        }
        if self.orientation != Orientation::Flame {
            out.push(("view", self.orientation.key().to_string()));
        }
        if !self.zoom.is_empty() {
            out.push(("zoom", self.zoom.join(";")));
        }
        if let Some(e) = &self.event {
            out.push(("ev", e.clone()));
        }
        if self.weight != WeightMode::Weight {
            out.push(("w", self.weight.key().to_string()));
        }
        if self.granularity != Granularity::Functions {
            out.push((
                scorch_core::view::granularity::LINK_KEY,
                self.granularity.name().to_string(),
            ));
        }
        if let Some(u) = self.unit {
            out.push(("unit", u.short().to_string()));
        }
        if let Some(r) = &self.root {
            out.push(("root", r.clone()));
        }
        if self.mean_of > 1 {
            out.push(("mean", self.mean_of.to_string()));
        }
        if let Some(tf) = &self.label_filter {
            out.push(("tf", tf.clone()));
        }
        if !self.threads.is_empty() {
            let t: Vec<String> = self.threads.iter().map(u32::to_string).collect();
            out.push(("th", t.join(",")));
        }
        if let Some(b) = &self.base_filter {
            out.push((
                "btf",
                if b.is_empty() {
                    ALL_SAMPLES.to_string()
                } else {
                    b.clone()
                },
            ));
        }
        if self.rows != DEFAULT_ROWS {
            out.push(("rows", self.rows.to_string()));
        }
        if !self.idle {
            out.push(("idle", "0".to_string()));
        }
        let rel = |(s, e): (u64, u64)| format!("{s}-{e}");
        if let Some(r) = self.range {
            out.push(("range", rel(r)));
        }
        if let Some(a) = self.range_a {
            out.push(("a", rel(a)));
        }
        if let Some(o) = self.offsets {
            out.push(("off", rel(o)));
        }
        if let Some(o) = self.offsets_a {
            out.push(("aoff", rel(o)));
        }
        if !self.search.text.is_empty() {
            out.push(("q", self.search.text.clone()));
            let flags = format!(
                "{}{}",
                if self.search.regex { "r" } else { "" },
                if self.search.case_sensitive { "c" } else { "" }
            );
            if !flags.is_empty() {
                out.push(("qf", flags));
            }
        }
        if !self.transforms.is_empty() {
            out.push((
                "tx",
                scorch_core::analysis::transforms::transforms_to_text(&self.transforms),
            ));
        }
        if self.mode != Mode::Flame {
            out.push(("mode", self.mode.key().to_string()));
        }
        if let Some(w) = self.chart_window {
            out.push(("cw", rel(w)));
        }
        if let Some(f) = &self.graph_focus {
            out.push(("gf", f.clone()));
        }
        let (g, d) = (self.graph_prune, GraphPrune::default());
        if g.node_count != d.node_count {
            out.push(("gn", g.node_count.to_string()));
        }
        if g.node_fraction != d.node_fraction {
            out.push(("gnf", g.node_fraction.to_string()));
        }
        if g.edge_fraction != d.edge_fraction {
            out.push(("gef", g.edge_fraction.to_string()));
        }
        if let Some(sel) = &self.selected {
            out.push(("sel", sel.clone()));
        }
        if self.order != Order::Alphabetical {
            out.push(("order", self.order.key().to_string()));
        }
        if self.scheme != ColorScheme::Name {
            out.push(("color", self.scheme.key().to_string()));
        }
        if self.widths != Widths::Target {
            out.push(("widths", self.widths.key().to_string()));
        }
        if self.absolute {
            out.push(("abs", "1".to_string()));
        }
        if self.version != 1 {
            out.push(("v", self.version.to_string()));
        }
        if self.embed {
            out.push(("embed", "1".to_string()));
        }
        for (k, v) in &self.unknown {
            out.push((k.as_str(), v.clone()));
        }
        out
    }

    /// The fragment, `#…`; `None` when it would be empty.
    pub fn render(&self) -> Option<String> {
        let parts: Vec<String> = self
            .pairs()
            .into_iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(&v)))
            .chain((!self.notes.is_empty()).then(|| notes_fragment(&self.notes)))
            .collect();
        (!parts.is_empty()).then(|| format!("#{}", parts.join("&")))
    }

    /// Does going from `self` to `other` deserve a history entry (Back returns to it): another profile, zoom,
    /// time range, transforms, view mode or selection. Everything else replaces the entry.
    pub fn is_step_from(&self, other: &UrlState) -> bool {
        self.source != other.source
            || self.zoom != other.zoom
            || self.range != other.range
            || self.range_a != other.range_a
            || self.offsets != other.offsets
            || self.offsets_a != other.offsets_a
            || self.threads != other.threads
            || self.base_filter != other.base_filter
            || self.transforms != other.transforms
            || self.mode != other.mode
            || self.graph_focus != other.graph_focus
            || self.selected != other.selected
    }

    /// The state for a link that carries the profile itself: event, weight, root and label filter are baked into
    /// the carried stacks, and so is the time range unless the stacks keep their timestamps (`timed`).
    pub fn for_embedded(self, profile: String, base: Option<String>, timed: bool) -> UrlState {
        let d = UrlState::default();
        let mut s = UrlState {
            source: Source::Embedded { profile, base },
            event: None,
            weight: d.weight,
            // The carried stacks are the shown granularity's nodes already.
            granularity: d.granularity,
            // The carried stacks state their unit (`# scorch-unit:`).
            unit: None,
            root: None,
            label_filter: None,
            // The carried stacks are the chosen threads' already, and hold no threads to slice by.
            threads: Vec::new(),
            base_filter: None,
            unknown: Vec::new(),
            ..self
        };
        if !timed {
            s.range = None;
            s.range_a = None;
            s.offsets = None;
            s.offsets_a = None;
            s.chart_window = None;
            s.rows = d.rows;
            s.idle = d.idle;
        }
        s
    }

    /// The state for a link that carries several profiles (a merge of local files), each its own view's stacks
    /// under its name ([`Source::Carried`]): as [`Self::for_embedded`], except that what names the profiles
    /// stays view state — grouping by profile, a filter to one profile, a slice diff of two, the mean.
    pub fn for_carried(self, profiles: Vec<(String, String)>, timed: bool) -> UrlState {
        let of_profiles = |f: &Option<String>| {
            f.as_deref()
                .is_some_and(|t| t.is_empty() || t.starts_with(&format!("{PROFILE_LABEL}=")))
        };
        let root = self.root.clone().filter(|r| r == &label_root_key(PROFILE_LABEL));
        let label_filter = self
            .label_filter
            .clone()
            .filter(|_| of_profiles(&self.label_filter));
        let base_filter = self
            .base_filter
            .clone()
            .filter(|_| of_profiles(&self.base_filter));
        UrlState {
            source: Source::Carried(profiles),
            root,
            label_filter,
            base_filter,
            ..self.for_embedded(String::new(), None, timed)
        }
    }
}

#[cfg(test)]
mod tests;
