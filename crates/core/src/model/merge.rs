//! Appending one profile to another: every table of the appended profile (strings, frames, stacks, threads,
//! events, label sets) is remapped into the first one's, interning what the first already holds and adding the
//! rest in the appended profile's order; its samples follow the first one's.
//!
//! Used by the parallel parse (profiles of consecutive slices of one input, appended in input order, give the
//! tables a single parse gives: first-appearance orders are kept) and meant for merging several inputs.
//! [`Merger::new`] costs O(the first profile's tables) once; each [`Merger::append`] costs O(the appended
//! profile's tables and samples).
//!
//! Every column of [`SampleTable`], [`Profile`] and [`Meta`] is named below by destructuring, so a new column
//! does not compile until this file says how it is merged.

use super::error::{ImportError, ImportErrorKind, Warnings};
use super::intern::{StackIndex, StrIndex};
use super::{
    EventInfo, FrameId, FrameKind, Label, LabelValue, Lost, Meta, Profile, SampleTable, StackId, StrId,
    ThreadTable, EMPTY_STACK, NO_PARENT,
};
use rustc_hash::FxHashMap as HashMap;

/// A profile being appended to, with the interning maps of its tables.
#[derive(Debug)]
pub struct Merger {
    p: Profile,
    string_ids: StrIndex,
    frame_ids: HashMap<(StrId, FrameKind), FrameId>,
    stack_ids: StackIndex,
    /// Stack rows below this index are in `stack_ids`; rows an append added are indexed only when another
    /// append (or [`Merger::finish_indexed`]) needs them.
    stacks_indexed: usize,
    thread_ids: HashMap<(StrId, Option<u32>, u32), u32>,
    event_ids: HashMap<String, u16>,
    label_ids: HashMap<Vec<(StrId, LabelValue)>, u32>,
}

fn overflow(p: &Profile, what: &str) -> ImportError {
    ImportError::new(
        Some(p.meta.format),
        ImportErrorKind::Overflow,
        0,
        None,
        format!("merging profiles: {what} exceeds 2^64-1"),
    )
}

/// `10^k`, checked.
fn pow10(k: u32) -> Option<u64> {
    10u64.checked_pow(k)
}

impl Merger {
    /// Starts from a profile with its builder's maps: only its threads and events are indexed here.
    pub fn from_indexed(first: super::Indexed) -> Self {
        let mut m = Merger {
            string_ids: first.string_ids,
            frame_ids: first.frame_ids,
            stack_ids: first.stack_ids,
            thread_ids: HashMap::default(),
            event_ids: HashMap::default(),
            label_ids: first.label_set_ids,
            stacks_indexed: first.profile.stacks.len(),
            p: first.profile,
        };
        m.index_small();
        m
    }

    /// Starts from `first`, indexing its tables (the first occurrence of a repeated entry wins).
    pub fn new(first: Profile) -> Self {
        let mut m = Merger {
            string_ids: StrIndex::default(),
            frame_ids: HashMap::default(),
            stack_ids: StackIndex::default(),
            thread_ids: HashMap::default(),
            event_ids: HashMap::default(),
            label_ids: HashMap::default(),
            stacks_indexed: 0,
            p: first,
        };
        m.index_small();
        let p = &m.p;
        m.string_ids = StrIndex::of(&p.strings);
        for (i, (&n, &k)) in p.frames.name.iter().zip(&p.frames.kind).enumerate() {
            m.frame_ids.entry((n, k)).or_insert(FrameId(i as u32));
        }
        m.index_stacks();
        let p = &m.p;
        for (i, set) in p.label_sets.iter().enumerate() {
            let key: Vec<_> = set.iter().map(|l| (l.key, l.value)).collect();
            m.label_ids.entry(key).or_insert(i as u32);
        }
        m
    }

    /// Indexes the threads and events (no builder keeps maps of these).
    fn index_small(&mut self) {
        let t = &self.p.threads;
        for (i, ((&c, &pid), &tid)) in t.comm.iter().zip(&t.pid).zip(&t.tid).enumerate() {
            self.thread_ids.entry((c, pid, tid)).or_insert(i as u32);
        }
        for (i, e) in self.p.events.iter().enumerate() {
            self.event_ids.entry(e.name.clone()).or_insert(i as u16);
        }
    }

    /// The merged profile.
    pub fn finish(self) -> Profile {
        self.p
    }

    /// Puts the stack rows not yet in `stack_ids` there.
    fn index_stacks(&mut self) {
        self.stack_ids.extend(&self.p.stacks, self.stacks_indexed);
        self.stacks_indexed = self.p.stacks.len();
    }

    /// The merged profile with the interning maps (to merge it further later).
    pub fn finish_indexed(mut self) -> super::Indexed {
        self.index_stacks();
        super::Indexed {
            profile: self.p,
            string_ids: self.string_ids,
            frame_ids: self.frame_ids,
            stack_ids: self.stack_ids,
            label_set_ids: self.label_ids,
        }
    }

    /// The profile so far.
    pub fn profile(&self) -> &Profile {
        &self.p
    }

    fn string(&mut self, s: &str) -> StrId {
        self.string_ids.intern(&mut self.p.strings, s)
    }

    fn frame(&mut self, name: StrId, kind: FrameKind) -> FrameId {
        let frames = &mut self.p.frames;
        *self.frame_ids.entry((name, kind)).or_insert_with(|| {
            frames.name.push(name);
            frames.kind.push(kind);
            FrameId((frames.name.len() - 1) as u32)
        })
    }

    /// The row of (parent, frame) for one row of an appended profile. Rows this append adds are not put in
    /// `stack_ids`: the appended table holds each (parent, frame) once and the remap is one-to-one, so no
    /// later row of the same append can ask for them; and a row under a row this append added is new without
    /// a lookup (`added` is the first row of this append).
    ///
    /// When two frames of the appended profile map to one (its strings were not interned), the remap is not
    /// one-to-one and every added row is indexed at once (`eager`).
    fn stack(&mut self, parent: u32, frame: FrameId, added: usize, eager: bool) -> StackId {
        let fresh = !eager && parent != NO_PARENT && parent as usize >= added;
        if !fresh {
            if let Some(s) = self.stack_ids.get(&self.p.stacks, parent, frame) {
                return s;
            }
        }
        if eager {
            let s = self.stack_ids.push(&mut self.p.stacks, parent, frame);
            self.stacks_indexed = self.p.stacks.len();
            return s;
        }
        let stacks = &mut self.p.stacks;
        stacks.parent.push(parent);
        stacks.frame.push(frame);
        StackId((stacks.frame.len() - 1) as u32)
    }

    /// Scales every weight of the merged profile to `decimals` (weights are `value × 10^decimals`).
    fn rescale(&mut self, decimals: u32) -> Result<(), ImportError> {
        let by = decimals
            .checked_sub(self.p.meta.decimals)
            .and_then(pow10)
            .ok_or_else(|| overflow(&self.p, "a rescaled weight"))?;
        if by == 1 {
            return Ok(());
        }
        let err = overflow(&self.p, "a rescaled weight");
        for w in &mut self.p.samples.weight {
            *w = w.checked_mul(by).ok_or_else(|| err.clone())?;
        }
        for e in &mut self.p.events {
            e.total = e.total.saturating_mul(by);
        }
        self.p.total = self.p.total.checked_mul(by).ok_or(err)?;
        self.p.meta.decimals = decimals;
        Ok(())
    }

    /// Appends `b`: its tables remapped into the merged ones, its samples after the merged ones, its counts
    /// and warnings added, its meta merged (see [`merge_meta`]). Fails on a weight sum over 2^64-1 or more than
    /// 65,535 events, leaving the merged profile unusable (drop it).
    pub fn append(&mut self, mut b: Profile) -> Result<(), ImportError> {
        // Weights on one scale.
        if b.meta.decimals > self.p.meta.decimals {
            self.rescale(b.meta.decimals)?;
        }
        let by = pow10(self.p.meta.decimals.saturating_sub(b.meta.decimals))
            .ok_or_else(|| overflow(&self.p, "a rescaled weight"))?;

        let str_map: Vec<StrId> = (0..b.strings.len())
            .map(|i| self.string(b.strings.get(StrId(i as u32))))
            .collect();
        let smap = |s: StrId| str_map.get(s.idx()).copied().unwrap_or(s);
        let frame_map: Vec<FrameId> = b
            .frames
            .name
            .iter()
            .zip(&b.frames.kind)
            .map(|(&n, &k)| self.frame(smap(n), k))
            .collect();
        let fmap = |f: FrameId| frame_map.get(f.idx()).copied().unwrap_or(f);
        let mut seen = vec![false; self.p.frames.len()];
        let eager = frame_map.iter().any(|f| match seen.get_mut(f.idx()) {
            Some(x) => std::mem::replace(x, true),
            None => true,
        });
        self.index_stacks();
        let added = self.p.stacks.len();
        // At most every row of `b` is new: room for them at once, not a column grown (and copied) twice as it
        // fills (a folded 400 MB file's merge spent 14 ms in those copies, Chromium profile).
        self.p.stacks.parent.reserve(b.stacks.len());
        self.p.stacks.frame.reserve(b.stacks.len());
        let mut stack_map: Vec<StackId> = Vec::with_capacity(b.stacks.len());
        for (&par, &f) in b.stacks.parent.iter().zip(&b.stacks.frame) {
            // Topological: a parent row comes before its children, so it is mapped already.
            let p = if par == NO_PARENT {
                NO_PARENT
            } else {
                stack_map.get(par as usize).map_or(NO_PARENT, |s| s.0)
            };
            let s = self.stack(p, fmap(f), added, eager);
            stack_map.push(s);
        }

        let ThreadTable {
            comm,
            pid,
            tid,
            roots,
        } = std::mem::take(&mut b.threads);
        let mut thread_map: Vec<u32> = Vec::with_capacity(comm.len());
        for (((c, pid), tid), roots) in comm.into_iter().zip(pid).zip(tid).zip(roots) {
            let key = (smap(c), pid, tid);
            let t = match self.thread_ids.get(&key) {
                Some(&t) => t,
                None => {
                    let th = &mut self.p.threads;
                    th.comm.push(key.0);
                    th.pid.push(pid);
                    th.tid.push(tid);
                    th.roots.push(roots.map(fmap));
                    let t = (th.comm.len() - 1) as u32;
                    self.thread_ids.insert(key, t);
                    t
                }
            };
            thread_map.push(t);
        }

        let mut event_map: Vec<u16> = Vec::with_capacity(b.events.len());
        for e in &b.events {
            let id = match self.event_ids.get(&e.name) {
                Some(&id) => {
                    // An event's unit is `samples` until a period says otherwise (perf).
                    if let Some(have) = self.p.events.get_mut(id as usize) {
                        if have.unit == super::Unit::Samples {
                            have.unit = e.unit.clone();
                        }
                    }
                    id
                }
                None => {
                    if self.p.events.len() >= usize::from(u16::MAX) {
                        return Err(ImportError::new(
                            Some(self.p.meta.format),
                            ImportErrorKind::LimitExceeded,
                            0,
                            None,
                            "merging profiles: more than 65,535 distinct events",
                        ));
                    }
                    self.p.events.push(EventInfo {
                        name: e.name.clone(),
                        unit: e.unit.clone(),
                        samples: 0,
                        total: 0,
                        negative_of: None,
                        derived: e.derived,
                    });
                    let id = (self.p.events.len() - 1) as u16;
                    self.event_ids.insert(e.name.clone(), id);
                    id
                }
            };
            event_map.push(id);
        }
        let emap = |e: u16| event_map.get(e as usize).copied().unwrap_or(e);
        for (i, e) in b.events.iter().enumerate() {
            if let Some(have) = self.p.events.get_mut(emap(i as u16) as usize) {
                have.samples += e.samples;
                have.total = have.total.saturating_add(e.total.saturating_mul(by));
                if have.negative_of.is_none() {
                    have.negative_of = e.negative_of.map(emap);
                }
            }
        }

        let mut label_map: Vec<u32> = Vec::with_capacity(b.label_sets.len());
        for set in &b.label_sets {
            let map_value = |v: LabelValue| match v {
                LabelValue::Str(s) => LabelValue::Str(smap(s)),
                LabelValue::Num(n, u) => LabelValue::Num(n, u.map(smap)),
            };
            let key: Vec<(StrId, LabelValue)> =
                set.iter().map(|l| (smap(l.key), map_value(l.value))).collect();
            let id = match self.label_ids.get(&key) {
                Some(&id) => id,
                None => {
                    let labels = set
                        .iter()
                        .map(|l| Label {
                            key: smap(l.key),
                            value: map_value(l.value),
                            root: fmap(l.root),
                        })
                        .collect();
                    self.p.label_sets.push(labels);
                    let id = (self.p.label_sets.len() - 1) as u32;
                    self.label_ids.insert(key, id);
                    id
                }
            };
            label_map.push(id);
        }

        let (a_samples, b_samples) = (self.p.samples.len(), b.samples.len());
        super::sites::append(
            &mut self.p.sites,
            a_samples,
            b.sites.take(),
            b_samples,
            smap,
            fmap,
        );
        self.append_samples(
            std::mem::take(&mut b.samples),
            by,
            &stack_map,
            &thread_map,
            &event_map,
            &label_map,
        )?;
        merge_meta(&mut self.p.meta, b.meta, emap);
        Ok(())
    }

    fn append_samples(
        &mut self,
        b: SampleTable,
        by: u64,
        stack_map: &[StackId],
        thread_map: &[u32],
        event_map: &[u16],
        label_map: &[u32],
    ) -> Result<(), ImportError> {
        let SampleTable {
            stack,
            weight,
            time_ns,
            thread,
            event,
            cpu,
            labels,
        } = b;
        let (a_empty, b_empty) = (self.p.samples.is_empty(), stack.is_empty());
        let (a_len, b_len) = (self.p.samples.len(), stack.len());
        // A side without a labels column has no label on any sample: the empty set there, never a reason to
        // drop the other side's labels (a perf slice without `sched_switch` samples beside one with them,
        // whose labels the off-CPU derivation reads after the merge).
        let empty_set = (!a_empty && !b_empty && self.p.samples.labels.is_some() != labels.is_some())
            .then(|| self.empty_label_set());
        let mut total = self.p.total;
        let err = overflow(&self.p, "the sum of the weights");
        let a = &mut self.p.samples;
        a.stack.extend(stack.iter().map(|&s| {
            if s == EMPTY_STACK {
                EMPTY_STACK
            } else {
                stack_map.get(s.idx()).copied().unwrap_or(EMPTY_STACK)
            }
        }));
        a.weight.reserve(weight.len());
        for w in weight {
            let w = w.checked_mul(by).ok_or_else(|| err.clone())?;
            total = total.checked_add(w).ok_or_else(|| err.clone())?;
            a.weight.push(w);
        }
        self.p.total = total;
        let a = &mut self.p.samples;
        // A column is kept when both sides have it (or one side has no samples at all).
        fn join<T: Copy>(
            a: &mut Option<Vec<T>>,
            b: Option<Vec<T>>,
            a_empty: bool,
            b_empty: bool,
            f: impl Fn(T) -> T,
        ) {
            if b_empty {
                return;
            }
            match (a.as_mut(), b) {
                (Some(av), Some(bv)) => av.extend(bv.into_iter().map(f)),
                (None, Some(bv)) if a_empty => *a = Some(bv.into_iter().map(f).collect()),
                _ => *a = None,
            }
        }
        join(&mut a.time_ns, time_ns, a_empty, b_empty, |t| t);
        join(&mut a.thread, thread, a_empty, b_empty, |t| {
            thread_map.get(t as usize).copied().unwrap_or(t)
        });
        join(&mut a.event, event, a_empty, b_empty, |e| {
            event_map.get(e as usize).copied().unwrap_or(e)
        });
        join(&mut a.cpu, cpu, a_empty, b_empty, |c| c);
        let map_label = |l: u32| label_map.get(l as usize).copied().unwrap_or(l);
        match (empty_set, labels) {
            (Some(e), None) => {
                if let Some(av) = a.labels.as_mut() {
                    av.extend(std::iter::repeat_n(e, b_len));
                }
            }
            (Some(e), Some(bv)) => {
                let mut av = vec![e; a_len];
                av.extend(bv.into_iter().map(map_label));
                a.labels = Some(av);
            }
            (None, labels) => join(&mut a.labels, labels, a_empty, b_empty, map_label),
        }
        Ok(())
    }

    /// The empty label set's index, added when the merged profile has none yet.
    fn empty_label_set(&mut self) -> u32 {
        if let Some(&id) = self.label_ids.get(&Vec::new()) {
            return id;
        }
        self.p.label_sets.push(Vec::new());
        let id = (self.p.label_sets.len() - 1) as u32;
        self.label_ids.insert(Vec::new(), id);
        id
    }
}

/// Merges `b`'s facts into `a`'s: records and warnings added (the first [`Warnings::keep`] kept, `a`'s first),
/// lost events added, info entries not already present appended, markers appended; format, unit, decimals (already rescaled),
/// default event and duration are `a`'s when `a` states them.
fn merge_meta(a: &mut Meta, b: Meta, emap: impl Fn(u16) -> u16) {
    let Meta {
        format: _,
        unit: _,
        decimals: _,
        records,
        warnings,
        default_event,
        info,
        duration_ns,
        lost,
        markers,
    } = b;
    a.markers.extend(markers);
    a.records += records;
    merge_warnings(&mut a.warnings, warnings);
    if a.default_event == 0 && default_event != 0 {
        a.default_event = emap(default_event);
    }
    for kv in info {
        if !a.info.contains(&kv) {
            a.info.push(kv);
        }
    }
    a.duration_ns = a.duration_ns.or(duration_ns);
    a.lost = match (a.lost.take(), lost) {
        (Some(x), Some(y)) => Some(merge_lost(x, y)),
        (x, y) => x.or(y),
    };
}

/// `a`'s warnings then `b`'s: counts added, texts kept up to `a`'s [`Warnings::keep`].
pub fn merge_warnings(a: &mut Warnings, b: Warnings) {
    a.append(b);
}

/// Lost events of two parts of a recording, as one.
pub fn merge_lost(mut a: Lost, b: Lost) -> Lost {
    a.events = a.events.saturating_add(b.events);
    a.records += b.records;
    a.per_second.extend(b.per_second);
    a.finish();
    a
}

/// `a` with `b` appended (see [`Merger::append`]).
pub fn merge(a: Profile, b: Profile) -> Result<Profile, ImportError> {
    let mut m = Merger::new(a);
    m.append(b)?;
    Ok(m.finish())
}

/// One sample per stack that has samples, weights summed, in stack-table order, then the empty stack's:
/// the shape of a profile read from an input without per-sample columns (folded). Only for profiles without
/// optional sample columns and without locations (returns `false`, changing nothing, otherwise). O(samples + stacks).
pub fn collapse_by_stack(p: &mut Profile) -> bool {
    let s = &p.samples;
    if s.time_ns.is_some()
        || s.thread.is_some()
        || s.event.is_some()
        || s.cpu.is_some()
        || s.labels.is_some()
        || p.sites.is_some()
    {
        return false;
    }
    let n = p.stacks.len();
    let mut weight = vec![0u64; n];
    let mut named = vec![false; n];
    let mut empty: Option<u64> = None;
    for (&st, &w) in s.stack.iter().zip(&s.weight) {
        // The sum of all weights fits (checked when they were added), so no partial sum overflows.
        if st == EMPTY_STACK {
            empty = Some(empty.unwrap_or(0).saturating_add(w));
        } else if let (Some(x), Some(f)) = (weight.get_mut(st.idx()), named.get_mut(st.idx())) {
            *x = x.saturating_add(w);
            *f = true;
        }
    }
    let mut out = SampleTable::default();
    for (i, (&w, &f)) in weight.iter().zip(&named).enumerate() {
        if f {
            out.stack.push(StackId(i as u32));
            out.weight.push(w);
        }
    }
    if let Some(w) = empty {
        out.stack.push(EMPTY_STACK);
        out.weight.push(w);
    }
    p.samples = out;
    true
}
