//! Where code lives: the locations an input gives its frames (file, line, column, address, module) and the
//! call paths over them, beside the function-level frame and stack tables.
//!
//! The frame table stays one row per (name, kind) — a function — and the stack table a prefix tree of
//! functions, so every view at function granularity is what it was before locations existed. A location row
//! is a frame (its function) with where the input says that frame's code is; one function has as many rows as
//! the input gives it lines or addresses. The location stacks are the samples' call paths over location rows
//! (a second prefix tree), and each sample points to its location stack as it points to its function stack.
//! `view::granularity` makes the profile of lines, files or addresses from them.
//!
//! [`Sites`] exists only when an importer set a location ([`crate::model::ProfileBuilder::location`]): an input
//! without locations costs one `None`. Samples added before the first location, or without one, have the
//! location stack [`EMPTY_STACK`] (views then fall back to their function stack).

use super::intern::StackIndex;
use super::{FrameId, StackId, StackTable, StrId, EMPTY_STACK, NO_PARENT};
use rustc_hash::FxHashMap;

/// The unknown string of a location column (no file, no module).
pub const NO_STR: StrId = StrId(u32::MAX);

/// One location, as an importer gives it; 0 and [`NO_STR`] are "unknown".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Location {
    /// The function (frame) whose code this is.
    pub frame: FrameId,
    pub file: StrId,
    /// 1-based; 0: unknown.
    pub line: u32,
    /// 1-based; 0: unknown.
    pub column: u32,
    /// The instruction address (pprof `Location.address`, perf's `ip`); 0: unknown.
    pub address: u64,
    /// The binary or mapping the address is in (pprof's mapping file, perf's dso).
    pub module: StrId,
}

impl Location {
    /// A location of `frame` with nothing known yet.
    pub fn of(frame: FrameId) -> Location {
        Location {
            frame,
            file: NO_STR,
            line: 0,
            column: 0,
            address: 0,
            module: NO_STR,
        }
    }
}

/// Location rows as columns, the location stacks, and each sample's location stack.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Sites {
    pub frame: Vec<FrameId>,
    pub file: Vec<StrId>,
    pub line: Vec<u32>,
    pub column: Vec<u32>,
    pub address: Vec<u64>,
    pub module: Vec<StrId>,
    /// Call paths over location rows: its `frame` column holds location row indices.
    pub stacks: StackTable,
    /// Per sample (in step with `SampleTable::stack`): its location stack, or [`EMPTY_STACK`].
    pub sample: Vec<StackId>,
}

impl Sites {
    pub fn len(&self) -> usize {
        self.frame.len()
    }

    pub fn is_empty(&self) -> bool {
        self.frame.is_empty()
    }

    /// Location row `i`.
    pub fn get(&self, i: usize) -> Option<Location> {
        Some(Location {
            frame: *self.frame.get(i)?,
            file: *self.file.get(i)?,
            line: *self.line.get(i)?,
            column: *self.column.get(i)?,
            address: *self.address.get(i)?,
            module: *self.module.get(i)?,
        })
    }

    fn push(&mut self, l: Location) -> u32 {
        self.frame.push(l.frame);
        self.file.push(l.file);
        self.line.push(l.line);
        self.column.push(l.column);
        self.address.push(l.address);
        self.module.push(l.module);
        (self.frame.len() - 1) as u32
    }

    /// The sample column picked at `rows` (a sample selection).
    pub fn pick(&self, rows: &[usize]) -> Sites {
        Sites {
            sample: rows
                .iter()
                .map(|&i| self.sample.get(i).copied().unwrap_or(EMPTY_STACK))
                .collect(),
            ..self.without_samples()
        }
    }

    fn without_samples(&self) -> Sites {
        Sites {
            frame: self.frame.clone(),
            file: self.file.clone(),
            line: self.line.clone(),
            column: self.column.clone(),
            address: self.address.clone(),
            module: self.module.clone(),
            stacks: self.stacks.clone(),
            sample: Vec::new(),
        }
    }

    /// The location stack of sample `i` ([`EMPTY_STACK`] when it has none).
    pub fn of_sample(&self, i: usize) -> StackId {
        self.sample.get(i).copied().unwrap_or(EMPTY_STACK)
    }

    /// Checks the columns against a profile of `strings` strings, `frames` frames and `samples` samples.
    pub fn validate(&self, strings: usize, frames: usize, samples: usize) -> Result<(), String> {
        let n = self.frame.len();
        let lens = [
            self.file.len(),
            self.line.len(),
            self.column.len(),
            self.address.len(),
            self.module.len(),
        ];
        if lens.iter().any(|&l| l != n) {
            return Err("location columns differ in length".into());
        }
        if self.frame.iter().any(|f| f.idx() >= frames) {
            return Err("location frame out of range".into());
        }
        let str_ok = |s: &StrId| *s == NO_STR || s.idx() < strings;
        if !self.file.iter().all(str_ok) || !self.module.iter().all(str_ok) {
            return Err("location string out of range".into());
        }
        for (i, (&p, &l)) in self.stacks.parent.iter().zip(&self.stacks.frame).enumerate() {
            if l.idx() >= n {
                return Err(format!("location stack {i}: location out of range"));
            }
            if p != NO_PARENT && p as usize >= i {
                return Err(format!("location stack {i}: parent {p} not before it"));
            }
        }
        if self.sample.len() != samples {
            return Err("location sample column differs in length".into());
        }
        let m = self.stacks.len();
        if self.sample.iter().any(|s| s.idx() >= m && *s != EMPTY_STACK) {
            return Err("sample location stack out of range".into());
        }
        Ok(())
    }
}

/// The interning maps of a [`Sites`] being built or appended to.
#[derive(Debug, Default)]
pub struct SiteIndex {
    locations: FxHashMap<Location, u32>,
    stacks: StackIndex,
}

impl SiteIndex {
    /// The maps of an existing table. O(locations + stacks).
    pub fn of(s: &Sites) -> SiteIndex {
        let locations = (0..s.len()).filter_map(|i| Some((s.get(i)?, i as u32))).collect();
        SiteIndex {
            locations,
            stacks: StackIndex::of(&s.stacks),
        }
    }

    /// The row of `l`, added when new.
    pub fn location(&mut self, s: &mut Sites, l: Location) -> u32 {
        *self.locations.entry(l).or_insert_with(|| s.push(l))
    }

    /// The location stack of `loc` under `parent`, added when new.
    pub fn stack(&mut self, s: &mut Sites, parent: Option<StackId>, loc: u32) -> StackId {
        let p = parent.map_or(NO_PARENT, |p| p.0);
        self.stacks.intern(&mut s.stacks, p, FrameId(loc))
    }
}

/// Appends `b`'s locations to `a`'s (for `Merger::append`): `a` had `a_samples` samples before, `b` has
/// `b_samples`; strings and frames of `b` map through `smap` and `fmap`. Either side may have no locations:
/// its samples then get [`EMPTY_STACK`]. O(a's locations and stacks + b's).
pub fn append(
    a: &mut Option<Box<Sites>>,
    a_samples: usize,
    b: Option<Box<Sites>>,
    b_samples: usize,
    smap: impl Fn(StrId) -> StrId,
    fmap: impl Fn(FrameId) -> FrameId,
) {
    let Some(b) = b else {
        if let Some(a) = a.as_mut() {
            a.sample.extend(std::iter::repeat_n(EMPTY_STACK, b_samples));
        }
        return;
    };
    let a = a.get_or_insert_with(|| {
        Box::new(Sites {
            sample: vec![EMPTY_STACK; a_samples],
            ..Sites::default()
        })
    });
    let mut index = SiteIndex::of(a);
    let str_map = |s: StrId| if s == NO_STR { NO_STR } else { smap(s) };
    let loc_map: Vec<u32> = (0..b.len())
        .filter_map(|i| b.get(i))
        .map(|l| {
            let l = Location {
                frame: fmap(l.frame),
                file: str_map(l.file),
                module: str_map(l.module),
                ..l
            };
            index.location(a, l)
        })
        .collect();
    let mut stack_map: Vec<StackId> = Vec::with_capacity(b.stacks.len());
    for (&par, &l) in b.stacks.parent.iter().zip(&b.stacks.frame) {
        let parent = (par != NO_PARENT)
            .then(|| stack_map.get(par as usize).copied())
            .flatten();
        let loc = loc_map.get(l.idx()).copied().unwrap_or(0);
        stack_map.push(index.stack(a, parent, loc));
    }
    a.sample.extend(b.sample.iter().map(|&s| {
        if s == EMPTY_STACK {
            EMPTY_STACK
        } else {
            stack_map.get(s.idx()).copied().unwrap_or(EMPTY_STACK)
        }
    }));
    a.sample.resize(a_samples + b_samples, EMPTY_STACK);
}

impl super::Profile {
    /// The same samples over other tables: `strings` and `frames` (extending this profile's, so that thread
    /// and label roots keep their meaning), a new stack table and each sample's stack in it. Weights, events,
    /// threads, labels and meta are kept; the locations are not (the new frames stand for them). For
    /// `view::granularity`.
    pub fn regrouped(
        &self,
        strings: super::Strings,
        frames: super::FrameTable,
        stacks: StackTable,
        sample_stack: Vec<StackId>,
    ) -> super::Profile {
        let mut samples = self.samples.clone();
        samples.stack = sample_stack;
        super::Profile {
            strings,
            frames,
            stacks,
            samples,
            threads: self.threads.clone(),
            events: self.events.clone(),
            label_sets: self.label_sets.clone(),
            meta: self.meta.clone(),
            sites: None,
            total: self.total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{FrameKind, ProfileBuilder, Unit, Warnings};
    use crate::Format;

    /// One sample on `f` at `file:line`, optionally without locations.
    fn one(file: &str, line: u32, located: bool) -> crate::model::Profile {
        let mut b = ProfileBuilder::new(Format::Pprof);
        let f = b.frame("f", FrameKind::User);
        let s = b.stack(None, f);
        b.push_sample(s, 1, 0).unwrap();
        if located {
            let file = b.intern(file);
            let l = b.location(Location {
                file,
                line,
                ..Location::of(f)
            });
            let site = b.site_stack(None, l);
            b.set_sample_site(site);
        }
        b.build(Unit::Samples, 0, 1, Warnings::default())
    }

    fn places(p: &crate::model::Profile) -> Vec<String> {
        let s = p.sites.as_deref().unwrap();
        (0..p.samples.len())
            .map(|i| match s.of_sample(i) {
                EMPTY_STACK => "-".to_string(),
                st => {
                    let l = s.get(s.stacks.frame[st.idx()].idx()).unwrap();
                    format!("{}:{}", p.strings.get(l.file), l.line)
                }
            })
            .collect()
    }

    #[test]
    fn merge_keeps_each_samples_location() {
        let mut m = crate::model::Merger::new(one("b.go", 1, false));
        m.append(one("a.go", 7, true)).unwrap();
        m.append(one("a.go", 7, true)).unwrap();
        m.append(one("c.go", 9, false)).unwrap();
        m.append(one("a.go", 8, true)).unwrap();
        let p = m.finish();
        p.validate().unwrap();
        assert_eq!(places(&p), ["-", "a.go:7", "a.go:7", "-", "a.go:8"]);
        // One location row per distinct location, one frame for the function.
        assert_eq!(p.sites.as_deref().unwrap().len(), 2);
        assert_eq!(p.frames.len(), 1);
    }

    #[test]
    fn the_wire_carries_locations_and_selections_keep_them() {
        let mut m = crate::model::Merger::new(one("a.go", 7, true));
        m.append(one("a.go", 8, true)).unwrap();
        let p = m.finish();
        let imp = crate::model::Imported {
            profile: p.clone(),
            gzip: false,
            bytes: 0,
        };
        let back = crate::model::wire::decode(&crate::model::wire::encode(&imp).unwrap()).unwrap();
        assert_eq!(places(&back.profile), ["a.go:7", "a.go:8"]);
        let second = p.retain_samples(|i| i == 1);
        second.validate().unwrap();
        assert_eq!(places(&second), ["a.go:8"]);
        let renamed = p.rename_frames(|_, _| Some("g".into()));
        renamed.validate().unwrap();
        assert_eq!(places(&renamed), ["a.go:7", "a.go:8"]);
    }
}
