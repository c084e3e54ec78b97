//! `scorch`: the same core as the viewer, on the command line.
//!
//! Thin by design: argument parsing, reading files in chunks, printing. All logic lives in scorch-core.

use scorch_core::calltree::{CallTree, Order};
use scorch_core::perf::{InfernoFlags, Naming};
use scorch_core::units::{format_value, group_thousands, Weight};
use scorch_core::view::{RootMode, ViewOptions, WeightMode};
use scorch_core::{export, ImportOptions, Imported, Loader, Profile};
use std::io::{Read, Write};
use std::process::ExitCode;

const USAGE: &str = "\
scorch — read profiles (perf script, pprof, folded stacks; plain or gzip'd) on the command line

USAGE:
    scorch fold [OPTIONS] FILE   canonical folded stacks: one line per distinct stack, sorted, weights summed
    scorch top [OPTIONS] FILE    functions by flat and cumulative weight, like `go tool pprof -top`
    scorch search [OPTIONS] FILE PATTERN
                                 the share of samples whose stack has a matching frame (each sample once):
                                 prints MATCHED TOTAL PERCENT; --regex, --case (default: substring, any case)
    scorch info FILE             format, samples, total, events, distinct stacks, maximum depth
    scorch heatmap [OPTIONS] FILE
                                 FlameScope's subsecond-offset heatmap: sample counts per second (column)
                                 and offset within it (row)
    scorch link [--base-url URL] [--max N] [--no-times] FILE
                                 a link that carries the profile itself (compressed) to a scorch viewer,
                                 with its timestamps when it has them and they fit (the heatmap comes along)
    scorch diff [OPTIONS] BASE TARGET
                                 what changed from BASE (before) to TARGET (after): functions by change in
                                 their share of each profile's total

FOLD OPTIONS:
    --event NAME          perf: fold this event (default: the first one in the file)
    --sample-type NAME    pprof: fold this sample type (default: default_sample_type, else the last)
    --root MODE           perf: process root frame: comm (default), pid (comm-pid), tid (comm-pid/tid), none
    --count               weigh each sample 1 instead of its period
    --tagfilter KEY=VALUE pprof: only samples with this label (numbers: KEY=LO:HI, units like 4kb, 10ms)
    --tagroot KEY         pprof: group samples by this label's value (a KEY=VALUE root frame)
    --transform T         apply a transform (repeatable, in order): focus:F, merge:F, rec:F (collapse
                          recursion), drec:F (direct only), ignore:FLAGS:TEXT, hide:FLAGS:TEXT,
                          from:FLAGS:TEXT (show from); FLAGS: r = regex, c = case-sensitive (may be empty)
    --invert              the inverted (bottom-up) stacks: leaf function first
    --callers F / --callees F   the sandwich's sides for function F
    --compat inferno      write exactly what inferno-collapse-perf writes; then also:
        --pid --tid --kernel --jit --addrs --all --event-filter EVENT   (inferno's own flags)

TOP OPTIONS:
    --sample-type NAME / --event NAME   as for fold
    -n N                  show N functions (default 20; 0 = all)
    --tsv                 exact integers: flat<TAB>cum<TAB>name, all functions

HEATMAP OPTIONS:
    --rows N              rows per second: 10, 25, 49, 50 (default), 99 or 100
    --all-events          count samples of every event (default: the shown event only)
    --no-idle-filter      keep idle (swapper) samples
    --json                JSON: origin_ns, rows, columns, max, counts (per column, row 0 first)
    (fold takes --range START_S END_S: only samples in [START, END) seconds after the heatmap origin)

DIFF OPTIONS:
    --sample-type NAME / --event NAME   for both profiles
    --absolute            compare raw values instead of shares (only for runs known to be comparable)
    -n N                  show N functions (default 20; 0 = all)
    --folded              `stack BASE TARGET` lines, as inferno-diff-folded writes them
    --normalize           with --folded: scale BASE counts to TARGET's total (difffolded.pl -n)
    --fail-if-grows PCT   exit with status 2 when any function's self share grew by more than PCT
                          percentage points (a regression gate for CI)

FILE may be `-` for standard input. The format is recognised from the content; gzip by its magic bytes.
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) if msg.starts_with("regression:") => {
            eprintln!("scorch: {msg}");
            ExitCode::from(EXIT_GREW)
        }
        Err(msg) => {
            eprintln!("scorch: {msg}");
            ExitCode::from(1)
        }
    }
}

/// Flags and positional arguments, parsed by hand (the CLI has few options).
struct Args {
    flags: Vec<(String, Option<String>)>,
    positional: Vec<String>,
    /// `--range START END` (two values).
    range: Option<(String, String)>,
}

const VALUED: [&str; 15] = [
    "--transform",
    "--callers",
    "--callees",
    "--event",
    "--root",
    "--compat",
    "--event-filter",
    "--sample-type",
    "-n",
    "--tagfilter",
    "--tagroot",
    "--fail-if-grows",
    "--rows",
    "--base-url",
    "--max",
];

impl Args {
    fn parse(rest: &[String]) -> Result<Args, String> {
        let mut flags = Vec::new();
        let mut positional = Vec::new();
        let mut range = None;
        let mut it = rest.iter();
        while let Some(a) = it.next() {
            if a == "--range" {
                let (s, e) = (it.next(), it.next());
                match (s, e) {
                    (Some(s), Some(e)) => range = Some((s.clone(), e.clone())),
                    _ => return Err("--range takes START_S END_S".into()),
                }
                flags.push((a.clone(), None));
                continue;
            }
            if a.starts_with("--") || a == "-n" {
                let (name, inline) = match a.split_once('=') {
                    Some((n, v)) => (n.to_string(), Some(v.to_string())),
                    None => (a.clone(), None),
                };
                if VALUED.contains(&name.as_str()) {
                    let v = match inline {
                        Some(v) => v,
                        None => it
                            .next()
                            .cloned()
                            .ok_or_else(|| format!("{name} needs a value"))?,
                    };
                    flags.push((name, Some(v)));
                } else {
                    flags.push((name, None));
                }
            } else {
                positional.push(a.clone());
            }
        }
        Ok(Args {
            flags,
            positional,
            range,
        })
    }

    fn has(&self, name: &str) -> bool {
        self.flags.iter().any(|(n, _)| n == name)
    }

    fn value(&self, name: &str) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .and_then(|(_, v)| v.as_deref())
    }

    fn values(&self, name: &str) -> Vec<&str> {
        self.flags
            .iter()
            .filter(|(n, _)| n == name)
            .filter_map(|(_, v)| v.as_deref())
            .collect()
    }

    fn only(&self, allowed: &[&str]) -> Result<(), String> {
        match self.flags.iter().find(|(n, _)| !allowed.contains(&n.as_str())) {
            Some((n, _)) => Err(format!("unknown option {n}")),
            None => Ok(()),
        }
    }

    fn file(&self) -> Result<&str, String> {
        match self.positional.as_slice() {
            [f] => Ok(f.as_str()),
            [] => Err("missing FILE".into()),
            more => Err(format!("unexpected arguments: {}", more[1..].join(" "))),
        }
    }
}

/// Exit status of `scorch diff --fail-if-grows` when a function grew too much.
const EXIT_GREW: u8 = 2;

fn run(args: &[String]) -> Result<(), String> {
    let (cmd, rest) = match args.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => {
            eprint!("{USAGE}");
            return Err("no command given".into());
        }
    };
    match cmd {
        "-h" | "--help" | "help" => {
            print!("{USAGE}");
            Ok(())
        }
        "fold" => fold(&Args::parse(rest)?),
        "top" => top(&Args::parse(rest)?),
        "search" => search(&Args::parse(rest)?),
        "diff" => diff(&Args::parse(rest)?),
        "heatmap" => heatmap(&Args::parse(rest)?),
        "link" => link(&Args::parse(rest)?),
        "info" => {
            let a = Args::parse(rest)?;
            a.only(&[])?;
            info(a.file()?)
        }
        other => {
            eprint!("{USAGE}");
            Err(format!("unknown command `{other}`"))
        }
    }
}

fn fold(a: &Args) -> Result<(), String> {
    let file = a.file()?;
    match a.value("--compat") {
        None => {
            a.only(&[
                "--event",
                "--sample-type",
                "--root",
                "--count",
                "--tagfilter",
                "--tagroot",
                "--range",
                "--transform",
                "--invert",
                "--callers",
                "--callees",
            ])?;
            let imp = load(file, ImportOptions::default())?;
            warn(&imp);
            let explored = explore(a, &imp.profile)?;
            let p = explored.as_ref().unwrap_or(&imp.profile);
            let mut v = ViewOptions::default_for(p);
            if let Some(name) = a.value("--event").or(a.value("--sample-type")) {
                v.event = Some(event_index(p, name)?);
            }
            if let Some(mode) = a.value("--root") {
                v.root = RootMode::parse(mode)
                    .ok_or_else(|| format!("--root takes comm, pid, tid or none, not {mode}"))?;
            }
            if a.has("--count") {
                v.weight = WeightMode::Count;
            }
            apply_labels(a, p, &mut v)?;
            if let Some((start, end)) = a.range.clone() {
                let h =
                    scorch_core::heatmap::heatmap(p, &v, &scorch_core::heatmap::HeatmapOptions::default())
                        .ok_or("this profile has no timestamps, so it has no time range to select")?;
                let s = scorch_core::heatmap::parse_seconds(&start)
                    .ok_or(format!("--range: {start:?} is not seconds"))?;
                let e = scorch_core::heatmap::parse_seconds(&end)
                    .ok_or(format!("--range: {end:?} is not seconds"))?;
                v.time_range = Some((h.origin_ns + s, h.origin_ns + e));
            }
            let text = if v.time_range.is_none()
                && explored.is_none()
                && p.events.is_empty()
                && p.samples.thread.is_none()
                && v.weight == WeightMode::Weight
            {
                export::to_folded(p) // keeps zero-count stacks of folded input
            } else {
                export::to_folded_signed(p, &v)
            };
            write_out(text.as_bytes())
        }
        Some("inferno") => {
            a.only(&[
                "--compat",
                "--pid",
                "--tid",
                "--kernel",
                "--jit",
                "--addrs",
                "--all",
                "--event-filter",
            ])?;
            let all = a.has("--all");
            let flags = InfernoFlags {
                pid: a.has("--pid"),
                tid: a.has("--tid"),
                kernel: a.has("--kernel") || all,
                jit: a.has("--jit") || all,
                addrs: a.has("--addrs"),
            };
            let opts = ImportOptions {
                perf_naming: Naming::Inferno(flags),
                ..ImportOptions::default()
            };
            let imp = match load(file, opts) {
                Ok(imp) => imp,
                // inferno writes nothing for an input without samples; so does its compat mode.
                Err(e) if e.contains("no samples") || e.contains("input is empty") => return Ok(()),
                Err(e) => return Err(e),
            };
            warn(&imp);
            let p = &imp.profile;
            let mut v = ViewOptions {
                root: RootMode::None,
                ..ViewOptions::default_for(p)
            };
            if let Some(name) = a.value("--event-filter") {
                match p.events.iter().position(|e| e.name == name) {
                    Some(i) => v.event = Some(i as u16),
                    None => return Ok(()), // inferno: no sample matches, empty output
                }
            }
            write_out(export::to_folded_view(p, &v).as_bytes())
        }
        Some(other) => Err(format!("--compat takes `inferno`, not `{other}`")),
    }
}

/// `--transform T` (repeatable, in order; `focus:F`, `merge:F`, `rec:F`, `drec:F`, `ignore:FLAGS:TEXT`,
/// `hide:FLAGS:TEXT`, `from:FLAGS:TEXT`), then `--invert`, `--callers F` or `--callees F`: the same transforms
/// and views as the app's. `None` when none is asked for.
fn explore(a: &Args, p: &Profile) -> Result<Option<Profile>, String> {
    use scorch_core::explore;
    let mut ts = Vec::new();
    for t in a.values("--transform") {
        ts.push(explore::Transform::from_text(t).ok_or_else(|| {
            format!("--transform {t:?}: expected focus:F, merge:F, rec:F, drec:F, ignore:FLAGS:TEXT, hide:FLAGS:TEXT or from:FLAGS:TEXT")
        })?);
    }
    let mut out = explore::apply_all(p, &ts)?;
    let cur = |o: &Option<Profile>| -> Profile { o.clone().unwrap_or_else(|| p.clone()) };
    if a.has("--invert") {
        out = Some(explore::invert(&cur(&out))?);
    }
    if let Some(f) = a.value("--callers") {
        out = Some(explore::callers(&cur(&out), f)?);
    }
    if let Some(f) = a.value("--callees") {
        out = Some(explore::callees(&cur(&out), f)?);
    }
    Ok(out)
}

/// `scorch search FILE PATTERN`: the weight of the samples whose stack has a matching frame (each sample once,
/// as flamegraph.pl's "Matched"), of the view's total. Prints `MATCHED TOTAL PERCENT`.
fn search(a: &Args) -> Result<(), String> {
    a.only(&[
        "--event",
        "--sample-type",
        "--regex",
        "--case",
        "--transform",
        "--tagfilter",
    ])?;
    let (file, text) = match a.positional.as_slice() {
        [f, t] => (f.as_str(), t.as_str()),
        _ => return Err("usage: scorch search FILE PATTERN [--regex] [--case]".into()),
    };
    let (imp, mut v) = load_with_view(a, file)?;
    apply_labels(a, &imp.profile, &mut v)?;
    let explored = explore(a, &imp.profile)?;
    let p = explored.as_ref().unwrap_or(&imp.profile);
    let pat = scorch_core::explore::Pattern {
        text: text.to_string(),
        regex: a.has("--regex"),
        case_sensitive: a.has("--case"),
    };
    let m = pat.compile()?;
    let tree = scorch_core::CallTree::build(p, &v, scorch_core::calltree::Order::Alphabetical);
    let matched = scorch_core::explore::matched_total(&tree, &m.frame_mask(p));
    let total = tree.total.first().copied().unwrap_or(0);
    let pct = if total == 0 {
        0.0
    } else {
        matched as f64 / total as f64 * 100.0
    };
    write_out(format!("{matched} {total} {pct}\n").as_bytes())
}

fn top(a: &Args) -> Result<(), String> {
    a.only(&["--event", "--sample-type", "-n", "--tsv", "--tagfilter"])?;
    let (imp, mut v) = load_with_view(a, a.file()?)?;
    let p = &imp.profile;
    apply_labels(a, p, &mut v)?;
    let (rows, total) = scorch_core::top::top(p, &v);
    if a.has("--tsv") {
        let text: String = rows
            .iter()
            .map(|r| format!("{}\t{}\t{}\n", r.flat, r.cum, r.name))
            .collect();
        return write_out(text.as_bytes());
    }
    let n: usize = match a.value("-n") {
        Some(s) => s.parse().map_err(|_| format!("-n takes a number, not {s}"))?,
        None => 20,
    };
    let shown = if n == 0 { rows.len() } else { n.min(rows.len()) };
    let unit = v.unit(p);
    let fmt = |x: i128| format_value(x as f64 / 10f64.powi(p.meta.decimals as i32), &unit);
    let pct = |x: i128| {
        if total == 0 {
            0.0
        } else {
            x as f64 * 100.0 / total as f64
        }
    };
    let kind = v
        .event
        .and_then(|e| p.events.get(e as usize))
        .map(|e| e.name.clone())
        .unwrap_or_default();
    let mut text = format!(
        "Showing {shown} of {} functions, {} total{}\n{:>16} {:>7} {:>7} {:>16} {:>7}  function\n",
        rows.len(),
        fmt(total),
        if kind.is_empty() {
            String::new()
        } else {
            format!(" ({kind})")
        },
        "flat",
        "flat%",
        "sum%",
        "cum",
        "cum%"
    );
    let mut sum = 0i128;
    for r in rows.iter().take(shown) {
        sum += r.flat;
        text.push_str(&format!(
            "{:>16} {:>6.2}% {:>6.2}% {:>16} {:>6.2}%  {}\n",
            fmt(r.flat),
            pct(r.flat),
            pct(sum),
            fmt(r.cum),
            pct(r.cum),
            r.name
        ));
    }
    write_out(text.as_bytes())
}

/// `--tagfilter key=value|key=LO:HI` and `--tagroot key` (pprof's names).
fn apply_labels(a: &Args, p: &Profile, v: &mut ViewOptions) -> Result<(), String> {
    if let Some(f) = a.value("--tagfilter") {
        v.label = Some(scorch_core::view::LabelFilter::parse(p, f)?);
    }
    if let Some(key) = a.value("--tagroot") {
        let k = scorch_core::view::label_key(p, key)
            .ok_or_else(|| format!("no label {key:?} in this profile"))?;
        v.root = RootMode::Label(k);
    }
    Ok(())
}

fn diff(a: &Args) -> Result<(), String> {
    a.only(&[
        "--event",
        "--sample-type",
        "--absolute",
        "-n",
        "--folded",
        "--normalize",
        "--fail-if-grows",
    ])?;
    let (base_file, target_file) = match a.positional.as_slice() {
        [b, t] => (b.as_str(), t.as_str()),
        // A two-count (difffolded) file holds both sides.
        [f] => (f.as_str(), f.as_str()),
        _ => return Err("diff takes two files: BASE (before) and TARGET (after)".into()),
    };
    let one_file = target_file == base_file;
    let base = load(base_file, ImportOptions::default())?;
    let target = if one_file {
        base.clone()
    } else {
        load(target_file, ImportOptions::default())?
    };
    let two_counts = |p: &Profile| p.events.iter().map(|e| e.name.as_str()).eq(["base", "target"]);
    if one_file && !two_counts(&base.profile) {
        return Err(
            "diff takes two files: BASE (before) and TARGET (after), or one two-count (difffolded) file"
                .into(),
        );
    }
    warn(&base);
    if !one_file {
        warn(&target);
    }
    let view_of = |p: &Profile, side: u16| -> Result<ViewOptions, String> {
        let mut v = ViewOptions::default_for(p);
        if let Some(name) = a.value("--event").or(a.value("--sample-type")) {
            v.event = Some(event_index(p, name)?);
        }
        if one_file {
            v.event = Some(side);
        }
        Ok(v)
    };
    let bside = scorch_core::diff::Side {
        profile: &base.profile,
        view: view_of(&base.profile, 0)?,
    };
    let tside = scorch_core::diff::Side {
        profile: &target.profile,
        view: view_of(&target.profile, 1)?,
    };
    if a.has("--folded") {
        return write_out(scorch_core::diff::diff_folded(bside, tside, a.has("--normalize")).as_bytes());
    }
    let d = scorch_core::diff::Diff::new(bside, tside);
    let movers = d.movers();
    let absolute = a.has("--absolute");
    let n: usize = match a.value("-n") {
        Some(s) => s.parse().map_err(|_| format!("-n takes a number, not {s}"))?,
        None => 20,
    };
    let shown = if n == 0 { movers.len() } else { n.min(movers.len()) };
    let mut text = format!(
        "base (before):  {base_file}, total {}\ntarget (after): {target_file}, total {}\n{}\n{:>12} {:>12} {:>10} {:>12} {:>12} {:>10}  function\n",
        format_value(d.base_sum as f64, &d.base_unit),
        format_value(d.target_sum as f64, &d.target_unit),
        if absolute {
            "absolute values: the two runs are assumed comparable; Δ = target - base"
        } else {
            "shares of each profile's own total (normalised); Δ in percentage points, + = larger share in target"
        },
        "base self",
        "target self",
        "Δ self",
        "base total",
        "target total",
        "Δ total"
    );
    for m in movers.iter().take(shown) {
        if absolute {
            let bt = (m.base_total * d.base_sum as f64).round();
            let tt = (m.target_total * d.target_sum as f64).round();
            text.push_str(&format!(
                "{:>12} {:>12} {:>+10} {:>12} {:>12} {:>+10}  {}\n",
                m.base_self_raw,
                m.target_self_raw,
                m.target_self_raw as i128 - m.base_self_raw as i128,
                bt,
                tt,
                tt - bt,
                m.name
            ));
        } else {
            text.push_str(&format!(
                "{:>11.2}% {:>11.2}% {:>+8.2}pp {:>11.2}% {:>11.2}% {:>+8.2}pp  {}\n",
                m.base_self * 100.0,
                m.target_self * 100.0,
                m.self_delta(),
                m.base_total * 100.0,
                m.target_total * 100.0,
                m.total_delta(),
                m.name
            ));
        }
    }
    write_out(text.as_bytes())?;
    if let Some(limit) = a.value("--fail-if-grows") {
        let limit: f64 = limit
            .parse()
            .map_err(|_| format!("--fail-if-grows takes percentage points, not {limit}"))?;
        let grown: Vec<String> = movers
            .iter()
            .filter(|m| m.self_delta() > limit)
            .map(|m| format!("{} ({:+.2} pp)", m.name, m.self_delta()))
            .collect();
        if !grown.is_empty() {
            return Err(format!(
                "regression: {} function(s) grew by more than {limit} percentage points of self share: {}",
                grown.len(),
                grown.join(", ")
            ));
        }
    }
    Ok(())
}

fn heatmap(a: &Args) -> Result<(), String> {
    a.only(&["--rows", "--all-events", "--no-idle-filter", "--json", "--event"])?;
    let file = a.file()?;
    let (imp, mut v) = load_with_view(a, file)?;
    let p = &imp.profile;
    if a.has("--all-events") {
        v.event = None;
    }
    let rows: u32 = match a.value("--rows") {
        Some(r) => r
            .parse()
            .ok()
            .filter(|r| scorch_core::heatmap::ROW_CHOICES.contains(r))
            .ok_or(format!(
                "--rows takes one of {:?}, not {r}",
                scorch_core::heatmap::ROW_CHOICES
            ))?,
        None => 50,
    };
    let o = scorch_core::heatmap::HeatmapOptions {
        rows,
        idle_filter: !a.has("--no-idle-filter"),
    };
    let h = scorch_core::heatmap::heatmap(p, &v, &o).ok_or_else(|| {
        format!(
            "{file}: no heatmap: the profile has no timestamps ({} input carries none)",
            p.meta.format
        )
    })?;
    let text = if a.has("--json") {
        let cols: Vec<String> = (0..h.columns)
            .map(|c| {
                let cells: Vec<String> = (0..h.rows).map(|r| h.count(c, r).to_string()).collect();
                format!("[{}]", cells.join(","))
            })
            .collect();
        format!(
            "{{\"origin_ns\":{},\"rows\":{},\"columns\":{},\"max\":{},\"counts\":[{}]}}\n",
            h.origin_ns,
            h.rows,
            h.columns,
            h.max,
            cols.join(",")
        )
    } else {
        let mut t = format!(
            "origin {:.6} s · {} columns (seconds) × {} rows ({} ms each) · max {} samples per cell\n",
            h.origin_ns as f64 / 1e9,
            h.columns,
            h.rows,
            1000.0 / f64::from(h.rows),
            h.max
        );
        for r in (0..h.rows).rev() {
            t.push_str(&format!(
                "{:>7.1} ms |",
                f64::from(r) * 1000.0 / f64::from(h.rows)
            ));
            for c in 0..h.columns {
                t.push_str(&format!("{:>4}", h.count(c, r)));
            }
            t.push('\n');
        }
        t
    };
    write_out(text.as_bytes())
}

/// Loads FILE (printing its warnings) with its default view and `--event` / `--sample-type` applied.
fn load_with_view(a: &Args, file: &str) -> Result<(Imported, ViewOptions), String> {
    let imp = load(file, ImportOptions::default())?;
    warn(&imp);
    let mut v = ViewOptions::default_for(&imp.profile);
    if let Some(name) = a.value("--event").or(a.value("--sample-type")) {
        v.event = Some(event_index(&imp.profile, name)?);
    }
    Ok((imp, v))
}

fn link(a: &Args) -> Result<(), String> {
    a.only(&["--base-url", "--max", "--event", "--sample-type", "--no-times"])?;
    let (imp, v) = load_with_view(a, a.file()?)?;
    let max: usize = match a.value("--max") {
        Some(m) => m
            .parse()
            .map_err(|_| format!("--max takes a number of characters, not {m}"))?,
        None => scorch_core::share::DEFAULT_MAX,
    };
    // As the app: with every timestamp when the profile has them and they fit (the receiver gets the heatmap).
    let timed = if a.has("--no-times") {
        None
    } else {
        scorch_core::share::encode_timed(&imp.profile, &v, max)
    };
    let s = timed.unwrap_or_else(|| scorch_core::share::encode(&imp.profile, &v, max));
    let base = a.value("--base-url").unwrap_or("http://127.0.0.1:8080/");
    let base = base.split('#').next().unwrap_or(base);
    let url = format!("{base}#p={}", s.payload);
    eprintln!(
        "link: {} characters, {} distinct stacks{}{}",
        group_thousands(url.len() as u64),
        group_thousands(s.stacks as u64),
        if s.times { ", with timestamps" } else { "" },
        if s.dropped_stacks > 0 {
            format!(
                "; {} smaller stacks ({:.2} % of the total) dropped to stay under {max} characters",
                group_thousands(s.dropped_stacks as u64),
                s.dropped_ppm as f64 / 1e4
            )
        } else {
            String::new()
        }
    );
    write_out(format!("{url}\n").as_bytes())
}

fn event_index(p: &Profile, name: &str) -> Result<u16, String> {
    p.events
        .iter()
        .position(|e| e.name == name)
        .map(|i| i as u16)
        .ok_or_else(|| {
            let names: Vec<_> = p.events.iter().map(|e| e.name.as_str()).collect();
            if names.is_empty() {
                "this profile has no events to choose from".to_string()
            } else {
                format!("no event `{name}`; the profile has: {}", names.join(", "))
            }
        })
}

fn info(file: &str) -> Result<(), String> {
    let imp = load(file, ImportOptions::default())?;
    warn(&imp);
    let p = &imp.profile;
    let v = ViewOptions::default_for(p);
    let tree = CallTree::build(p, &v, Order::Alphabetical);
    let used_stacks = {
        let mut seen = vec![false; p.stacks.len()];
        for s in &p.samples.stack {
            if let Some(x) = seen.get_mut(s.idx()) {
                *x = true;
            }
        }
        seen.iter().filter(|&&b| b).count()
    };
    let unit = v.unit(p);
    let shown = Weight {
        raw: tree.total.first().copied().unwrap_or(0),
        decimals: p.meta.decimals,
    };
    let mut text = format!(
        "format:          {}{}\nsamples:         {}\ntotal:           {} ({})\nunit:            {}\n",
        p.meta.format,
        if imp.gzip { " (gzip)" } else { "" },
        p.meta.records,
        shown,
        format_value(shown.as_f64(), &unit),
        unit.name(),
    );
    if !p.events.is_empty() {
        text.push_str("events:\n");
        for (i, e) in p.events.iter().enumerate() {
            text.push_str(&format!(
                "  {}{}: {} samples, total {} {}\n",
                e.name,
                if Some(i as u16) == v.event { " (shown)" } else { "" },
                group_thousands(e.samples),
                group_thousands(e.total),
                e.unit.name()
            ));
        }
    }
    if let Some(times) = &p.samples.time_ns {
        if let (Some(a), Some(b)) = (times.iter().min(), times.iter().max()) {
            text.push_str(&format!("time span:       {:.6} s\n", (b - a) as f64 / 1e9));
        }
    }
    if !p.threads.is_empty() {
        text.push_str(&format!(
            "threads:         {}\n",
            group_thousands(p.threads.len() as u64)
        ));
    }
    text.push_str(&format!(
        "distinct stacks: {}\nframes:          {}\ncall-tree nodes: {}\nmax depth:       {}\nwarnings:        {}\n",
        group_thousands(used_stacks as u64),
        group_thousands(p.frames.len() as u64),
        group_thousands(tree.len() as u64 - 1),
        p.max_depth(),
        p.meta.warnings.count,
    ));
    write_out(text.as_bytes())
}

/// Reads the file in 128 KiB chunks into the streaming loader (small enough to stay in cache).
fn load(path: &str, opts: ImportOptions) -> Result<Imported, String> {
    let mut input: Box<dyn Read> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| format!("{path}: {e}"))?)
    };
    let mut loader = Loader::new(opts);
    let mut buf = vec![0u8; 128 << 10];
    loop {
        let n = match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(format!("{path}: {e}")),
        };
        loader.feed(&buf[..n]).map_err(|e| format!("{path}: {e}"))?;
    }
    loader.finish().map_err(|e| format!("{path}: {e}"))
}

fn warn(imp: &Imported) {
    let w = &imp.profile.meta.warnings;
    for x in &w.first {
        eprintln!("warning: {x}");
    }
    if w.count > w.first.len() as u64 {
        eprintln!("warning: … and {} more", w.count - w.first.len() as u64);
    }
}

fn write_out(bytes: &[u8]) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        // A closed pipe (`scorch fold f | head`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(format!("writing output: {e}")),
    }
}
