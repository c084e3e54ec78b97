//! The option groups several subcommands share, and the one place they become core's [`ViewOptions`] and
//! explored profiles.

use crate::error::{CliError, Result};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::Args;
use scorch_core::analysis::heatmap::{heatmap, HeatmapOptions};
use scorch_core::analysis::sandwich;
use scorch_core::analysis::transforms::{self, Transform};
use scorch_core::model::DeclaredUnit;
use scorch_core::view::{
    label_key, parse_offsets_ms, takes_declared_unit, Granularity, RootMode, SampleFilter, ViewOptions,
    WeightMode,
};
use scorch_core::Profile;

/// `--event` / `--sample-type`: which of the profile's events (perf) or sample types (pprof) to show.
#[derive(Args, Debug, Clone, Default)]
pub struct EventArgs {
    /// perf: show this event (default: the first one in the file); `offcpu` is the off-CPU time derived from
    /// sched:sched_switch (or perf --off-cpu's offcpu-time), `wall-clock` on-CPU plus off-CPU time
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
    /// pprof: show this sample type (default: default_sample_type, else the last)
    #[arg(long, value_name = "NAME")]
    pub sample_type: Option<String>,
    #[command(flatten)]
    pub unit: UnitArgs,
}

/// `--unit`: what a unit-less input's counts are.
#[derive(Args, Debug, Clone, Default)]
pub struct UnitArgs {
    /// folded: what the counts are, when the file does not say: samples, ns, us, ms, s, bytes, count
    #[arg(long, value_name = "UNIT", value_parser = parse_unit)]
    pub unit: Option<DeclaredUnit>,
}

fn parse_unit(s: &str) -> Result<DeclaredUnit, String> {
    DeclaredUnit::parse(s).ok_or_else(|| "expected samples, ns, us, ms, s, bytes or count".to_string())
}

/// The declared unit on a view; an error for a profile that states its own unit.
pub fn declare(p: &Profile, v: &mut ViewOptions, unit: Option<DeclaredUnit>) -> Result<()> {
    let Some(d) = unit else { return Ok(()) };
    if !takes_declared_unit(p) {
        return Err(CliError::Input(format!(
            "--unit is for folded counts whose file does not say what they are; this profile's unit is {}",
            v.unit(p).name()
        )));
    }
    v.declared = Some(d);
    Ok(())
}

impl EventArgs {
    /// The name asked for; `--event` wins over `--sample-type`.
    pub fn name(&self) -> Option<&str> {
        self.event.as_deref().or(self.sample_type.as_deref())
    }
}

/// `--tagfilter`: only the samples with a label, or of some threads.
#[derive(Args, Debug, Clone, Default)]
pub struct TagFilterArgs {
    /// Only samples with this label (pprof; numbers: KEY=LO:HI, units like 4kb, 10ms), or of these threads
    /// (perf: comm=NAME, pid=N, tid=N; several values: tid=12,13)
    #[arg(long, value_name = "KEY=VALUE")]
    pub tagfilter: Option<String>,
}

/// `--root`, `--tagroot` and `--count`: what stands at the root of each stack and how samples weigh.
#[derive(Args, Debug, Clone, Default)]
pub struct RootArgs {
    /// perf: the process root frame: comm (default), pid (comm-pid), tid (comm-pid/tid), none
    #[arg(long, value_name = "MODE", value_parser = root_mode(), hide_possible_values = true)]
    pub root: Option<RootMode>,
    /// pprof: group samples by this label's value (a KEY=VALUE root frame)
    #[arg(long, value_name = "KEY")]
    pub tagroot: Option<String>,
    /// Weigh each sample 1 instead of its period
    #[arg(long)]
    pub count: bool,
}

/// `--granularity`: what one row or node stands for.
#[derive(Args, Debug, Clone, Default)]
pub struct GranularityArgs {
    /// What a row stands for: functions (default), lines (`function file:line`), files or addresses, as
    /// `go tool pprof -lines|-files|-addresses` (profiles with locations: pprof; others stay functions)
    #[arg(long, value_name = "G", value_parser = granularity(), default_value = "functions")]
    pub granularity: Granularity,
}

fn granularity() -> impl TypedValueParser<Value = Granularity> {
    PossibleValuesParser::new(Granularity::ALL.map(Granularity::name))
        .map(|s| Granularity::parse(&s).expect("a possible value"))
}

impl GranularityArgs {
    /// The profile at this granularity (the profile itself for functions or without locations).
    pub fn apply<'p>(&self, p: &'p Profile) -> std::borrow::Cow<'p, Profile> {
        scorch_core::view::granularity::at(p, self.granularity)
    }

    /// What a row is called: `functions`, `lines`, `files`, `addresses`.
    pub fn noun(&self) -> &'static str {
        self.granularity.name()
    }

    /// One row: `function`, `line`, `file`, `address`.
    pub fn singular(&self) -> &'static str {
        match self.granularity {
            Granularity::Functions => "function",
            Granularity::Lines => "line",
            Granularity::Files => "file",
            Granularity::Addresses => "address",
        }
    }
}

fn root_mode() -> impl TypedValueParser<Value = RootMode> {
    PossibleValuesParser::new(["comm", "pid", "tid", "none"])
        .map(|s| RootMode::parse(&s).expect("a possible value"))
}

/// `--transform` (repeatable).
#[derive(Args, Debug, Clone, Default)]
pub struct TransformArgs {
    /// Apply a transform (repeatable, in order): focus:F, merge:F, rec:F (collapse recursion), drec:F (direct
    /// only), ignore:FLAGS:TEXT, hide:FLAGS:TEXT, from:FLAGS:TEXT (show from), truncated: (stacks that reach
    /// no entry point under a [truncated stack] root); FLAGS: r = regex, c = case-sensitive (may be empty)
    #[arg(long, value_name = "T", value_parser = parse_transform)]
    pub transform: Vec<Transform>,
}

fn parse_transform(t: &str) -> Result<Transform, String> {
    Transform::from_text(t).ok_or_else(|| {
        "expected focus:F, merge:F, rec:F, drec:F, ignore:FLAGS:TEXT, hide:FLAGS:TEXT, from:FLAGS:TEXT or truncated:"
            .to_string()
    })
}

/// `--transform`, then `--invert`, `--callers` or `--callees`: the app's transforms and views.
#[derive(Args, Debug, Clone, Default)]
pub struct ExploreArgs {
    #[command(flatten)]
    pub transforms: TransformArgs,
    /// The inverted (bottom-up) stacks: leaf function first
    #[arg(long)]
    pub invert: bool,
    /// The sandwich's callers side for function F
    #[arg(long, value_name = "F")]
    pub callers: Option<String>,
    /// The sandwich's callees side for function F
    #[arg(long, value_name = "F")]
    pub callees: Option<String>,
}

/// The options of a command that writes a whole view out (`fold`, `export`): which samples, how rooted, which
/// slice of time, and the transforms and sandwich sides.
#[derive(Args, Debug, Clone, Default)]
pub struct WholeViewArgs {
    #[command(flatten)]
    pub event: EventArgs,
    #[command(flatten)]
    pub root: RootArgs,
    #[command(flatten)]
    pub filter: TagFilterArgs,
    /// Only samples in [START, END) seconds after the heatmap origin
    #[arg(long, num_args = 2, value_names = ["START_S", "END_S"], value_parser = parse_seconds)]
    pub range: Option<Vec<u64>>,
    /// Only samples whose offset within their second is in [FROM, TO) milliseconds (the heatmap's rows: a band,
    /// the same offsets in every second of --range or of the whole profile)
    #[arg(long, num_args = 2, value_names = ["FROM_MS", "TO_MS"])]
    pub offsets: Option<Vec<String>>,
    #[command(flatten)]
    pub granularity: GranularityArgs,
    #[command(flatten)]
    pub explore: ExploreArgs,
}

impl WholeViewArgs {
    /// The explored profile (`None` when no transform or side is asked for: then the view is of `profile`) and
    /// the view.
    pub fn apply(&self, profile: &Profile) -> Result<(Option<Profile>, ViewOptions)> {
        // The granularity first: the transforms and sides then work on its nodes.
        let gran = self.granularity.apply(profile);
        let explored = match (explore(&gran, &self.explore)?, gran) {
            (Some(x), _) => Some(x),
            (None, std::borrow::Cow::Owned(g)) => Some(g),
            (None, std::borrow::Cow::Borrowed(_)) => None,
        };
        let p = explored.as_ref().unwrap_or(profile);
        let offsets = match self.offsets.as_deref() {
            Some([from, to]) => Some(parse_offsets_ms(from, to).map_err(CliError::Usage)?),
            _ => None,
        };
        let spec = ViewSpec {
            root: Some(&self.root),
            range: self.range.as_deref().map(|r| (r[0], r[1])),
            offsets,
            ..ViewSpec::new(&self.event).tagfilter(&self.filter)
        };
        let mut v = view(p, &spec)?;
        v.granularity = self.granularity.granularity;
        Ok((explored, v))
    }
}

fn parse_seconds(s: &str) -> Result<u64, String> {
    scorch_core::analysis::heatmap::parse_seconds(s).ok_or_else(|| format!("{s:?} is not seconds"))
}

/// Percentage points, a finite number >= 0 (a threshold).
pub fn parse_pct(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x >= 0.0 => Ok(x),
        _ => Err("takes percentage points, a number >= 0".to_string()),
    }
}

/// `-n N`: how many rows to show.
#[derive(Args, Debug, Clone)]
pub struct LimitArgs {
    /// Show N functions (0 = all)
    #[arg(short = 'n', value_name = "N", default_value_t = 20)]
    pub n: usize,
}

impl LimitArgs {
    /// How many of `len` rows to show.
    pub fn shown(&self, len: usize) -> usize {
        if self.n == 0 {
            len
        } else {
            self.n.min(len)
        }
    }
}

/// What a subcommand asks of the view; every field is optional and maps onto [`ViewOptions`] in [`view`].
#[derive(Debug, Clone, Copy, Default)]
pub struct ViewSpec<'a> {
    pub event: Option<&'a str>,
    pub root: Option<&'a RootArgs>,
    pub tagfilter: Option<&'a str>,
    /// `[start, end)` nanoseconds after the heatmap's origin.
    pub range: Option<(u64, u64)>,
    /// The unit declared for unit-less counts.
    pub unit: Option<DeclaredUnit>,
    /// A band: `[from, to)` nanoseconds within each second (of the range, or of the whole profile).
    pub offsets: Option<(u64, u64)>,
}

impl<'a> ViewSpec<'a> {
    pub fn new(event: &'a EventArgs) -> ViewSpec<'a> {
        ViewSpec {
            event: event.name(),
            unit: event.unit.unit,
            ..ViewSpec::default()
        }
    }

    pub fn tagfilter(self, f: &'a TagFilterArgs) -> ViewSpec<'a> {
        ViewSpec {
            tagfilter: f.tagfilter.as_deref(),
            ..self
        }
    }
}

/// The profile's default view with the options applied, in order: event, root, count, tag filter, tag root,
/// time range (relative to the heatmap of the view so far), offsets within each second.
pub fn view(p: &Profile, spec: &ViewSpec) -> Result<ViewOptions> {
    let mut v = ViewOptions::default_for(p);
    declare(p, &mut v, spec.unit)?;
    if let Some(name) = spec.event {
        v.event = Some(event_index(p, name)?);
    }
    if let Some(r) = spec.root {
        if let Some(mode) = r.root {
            v.root = mode;
        }
        if r.count {
            v.weight = WeightMode::Count;
        }
    }
    if let Some(f) = spec.tagfilter {
        SampleFilter::parse(p, f)?.apply(&mut v);
    }
    if let Some(key) = spec.root.and_then(|r| r.tagroot.as_deref()) {
        let k = label_key(p, key).ok_or_else(|| format!("no label {key:?} in this profile"))?;
        v.root = RootMode::Label(k);
    }
    if let Some((start, end)) = spec.range {
        let h = heatmap(p, &v, &HeatmapOptions::default())
            .ok_or("this profile has no timestamps, so it has no time range to select")?;
        v.time_range = Some((h.origin_ns + start, h.origin_ns + end));
    }
    if let Some(o) = spec.offsets {
        if p.samples.time_ns.is_none() {
            return Err(
                "this profile has no timestamps, so it has no offsets within a second to select".into(),
            );
        }
        v.offsets = Some(o);
    }
    Ok(v)
}

/// The index of the event (or sample type) `name`, chosen by the core (`scorch_core::import::event`); the
/// error names the ones the profile has, or the candidates of an ambiguous name.
pub fn event_index(p: &Profile, name: &str) -> Result<u16> {
    scorch_core::import::event::find_event(p, name).map_err(|e| CliError::Input(e.to_string()))
}

/// The transforms in order, then the inverted stacks, then the callers' or callees' side. `None` when none is
/// asked for.
pub fn explore(p: &Profile, x: &ExploreArgs) -> Result<Option<Profile>> {
    let mut out = transforms::apply_all(p, &x.transforms.transform)?;
    let cur = |o: &Option<Profile>| -> Profile { o.clone().unwrap_or_else(|| p.clone()) };
    if x.invert {
        out = Some(sandwich::invert(&cur(&out))?);
    }
    if let Some(f) = &x.callers {
        out = Some(sandwich::callers(&cur(&out), f)?);
    }
    if let Some(f) = &x.callees {
        out = Some(sandwich::callees(&cur(&out), f)?);
    }
    Ok(out)
}
