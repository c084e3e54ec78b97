//! The profile model: interned strings, a frame table, a stack table in topological order, and samples as columns.
//!
//! Invariants (checked by [`Profile::validate`] in tests):
//! - every id stored in a table is in range for the table it points into;
//! - the stack table is topological: a stack's parent has a smaller index than the stack itself;
//! - a (parent, frame) pair appears at most once, so the stack table is a prefix tree of call paths;
//! - the sum of all sample weights fits in a u64 (the builder checks every addition).
//!
//! A built [`Profile`] is immutable; importers talk only to [`ProfileBuilder`].

use crate::error::{ImportError, ImportErrorKind, Warnings};
use crate::format::Format;
use crate::units::{Unit, Weight};
use std::collections::HashMap;

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name(pub u32);
        impl $name {
            #[inline]
            pub fn idx(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// Index into [`Strings`].
    StrId
);
id_type!(
    /// Index into the frame table.
    FrameId
);
id_type!(
    /// Index into the stack table.
    StackId
);

/// What kind of code a frame is. An attribute for colour and filtering, never part of the name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
#[repr(u8)]
pub enum FrameKind {
    #[default]
    User = 0,
    Kernel = 1,
    Jit = 2,
    Inline = 3,
    /// A pseudo frame for a process or thread (perf's comm root).
    Process = 4,
}

impl FrameKind {
    pub fn name(self) -> &'static str {
        match self {
            FrameKind::User => "user",
            FrameKind::Kernel => "kernel",
            FrameKind::Jit => "jit",
            FrameKind::Inline => "inline",
            FrameKind::Process => "process",
        }
    }
}

/// Interned strings stored back to back in one buffer.
#[derive(Debug, Clone, Default)]
pub struct Strings {
    buf: String,
    ends: Vec<u32>,
}

impl Strings {
    pub fn get(&self, id: StrId) -> &str {
        let end = self.ends.get(id.idx()).copied().unwrap_or(0) as usize;
        let start = if id.0 == 0 {
            0
        } else {
            self.ends.get(id.idx() - 1).copied().unwrap_or(0) as usize
        };
        self.buf.get(start..end).unwrap_or("")
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

#[derive(Debug, Clone, Default)]
pub struct FrameTable {
    pub name: Vec<StrId>,
    pub kind: Vec<FrameKind>,
}

impl FrameTable {
    pub fn len(&self) -> usize {
        self.name.len()
    }
    pub fn is_empty(&self) -> bool {
        self.name.is_empty()
    }
}

/// Stack table: one row per distinct call path. `parent[i] == NO_PARENT` marks a root frame.
#[derive(Debug, Clone, Default)]
pub struct StackTable {
    pub parent: Vec<u32>,
    pub frame: Vec<FrameId>,
}

pub const NO_PARENT: u32 = u32::MAX;

impl StackTable {
    pub fn len(&self) -> usize {
        self.frame.len()
    }
    pub fn is_empty(&self) -> bool {
        self.frame.is_empty()
    }
    pub fn parent(&self, s: StackId) -> Option<StackId> {
        match self.parent.get(s.idx()) {
            Some(&p) if p != NO_PARENT => Some(StackId(p)),
            _ => None,
        }
    }
}

/// Samples as columns. `time_ns` and `thread` are present only when the input had them.
#[derive(Debug, Clone, Default)]
pub struct SampleTable {
    pub stack: Vec<StackId>,
    pub weight: Vec<u64>,
    /// Exact timestamps in integer nanoseconds.
    pub time_ns: Option<Vec<u64>>,
}

impl SampleTable {
    pub fn len(&self) -> usize {
        self.stack.len()
    }
    pub fn is_empty(&self) -> bool {
        self.stack.is_empty()
    }
}

/// Facts about where the profile came from.
#[derive(Debug, Clone)]
pub struct Meta {
    pub format: Format,
    pub unit: Unit,
    /// Weights are stored as `value × 10^decimals` (non-zero only for fractional folded counts).
    pub decimals: u32,
    /// How many sample records the input held (perf events, pprof samples, folded lines).
    pub records: u64,
    pub warnings: Warnings,
}

#[derive(Debug, Clone)]
pub struct Profile {
    pub strings: Strings,
    pub frames: FrameTable,
    pub stacks: StackTable,
    pub samples: SampleTable,
    pub meta: Meta,
    total: u64,
}

impl Profile {
    pub fn frame_name(&self, f: FrameId) -> &str {
        match self.frames.name.get(f.idx()) {
            Some(&s) => self.strings.get(s),
            None => "",
        }
    }

    pub fn frame_kind(&self, f: FrameId) -> FrameKind {
        self.frames.kind.get(f.idx()).copied().unwrap_or_default()
    }

    /// Sum of all sample weights (raw, see [`Meta::decimals`]).
    pub fn total(&self) -> u64 {
        self.total
    }

    pub fn total_weight(&self) -> Weight {
        Weight {
            raw: self.total,
            decimals: self.meta.decimals,
        }
    }

    /// Frames of a stack from the root to the leaf.
    pub fn stack_frames(&self, s: StackId) -> Vec<FrameId> {
        let mut out = Vec::new();
        let mut cur = Some(s);
        while let Some(c) = cur {
            match self.stacks.frame.get(c.idx()) {
                Some(&f) => out.push(f),
                None => break,
            }
            cur = self.stacks.parent(c);
        }
        out.reverse();
        out
    }

    /// Depth (number of frames) of the deepest stack that has samples.
    pub fn max_depth(&self) -> usize {
        let mut depth = vec![0u32; self.stacks.len()];
        for i in 0..self.stacks.len() {
            let p = self.stacks.parent[i];
            depth[i] = if p == NO_PARENT {
                1
            } else {
                depth.get(p as usize).copied().unwrap_or(0) + 1
            };
        }
        self.samples
            .stack
            .iter()
            .map(|s| depth.get(s.idx()).copied().unwrap_or(0) as usize)
            .max()
            .unwrap_or(0)
    }

    /// Checks the model's invariants; used by tests.
    pub fn validate(&self) -> Result<(), String> {
        let nstr = self.strings.len() as u32;
        if self.frames.name.len() != self.frames.kind.len() {
            return Err("frame columns differ in length".into());
        }
        if self.frames.name.iter().any(|s| s.0 >= nstr) {
            return Err("frame name out of range".into());
        }
        let nframes = self.frames.len() as u32;
        let mut seen = std::collections::HashSet::new();
        for (i, (&p, &f)) in self.stacks.parent.iter().zip(&self.stacks.frame).enumerate() {
            if f.0 >= nframes {
                return Err(format!("stack {i}: frame out of range"));
            }
            if p != NO_PARENT && p as usize >= i {
                return Err(format!("stack {i}: parent {p} not before it"));
            }
            if !seen.insert((p, f)) {
                return Err(format!("stack {i}: duplicate (parent, frame)"));
            }
        }
        let nstacks = self.stacks.len() as u32;
        if self.samples.stack.iter().any(|s| s.0 >= nstacks) {
            return Err("sample stack out of range".into());
        }
        if self.samples.weight.len() != self.samples.stack.len() {
            return Err("sample columns differ in length".into());
        }
        let sum = self
            .samples
            .weight
            .iter()
            .try_fold(0u64, |a, &w| a.checked_add(w));
        if sum != Some(self.total) {
            return Err("total differs from the sum of weights".into());
        }
        Ok(())
    }
}

/// Builds a [`Profile`]; interns strings, frames and stacks, and checks weight arithmetic.
#[derive(Debug)]
pub struct ProfileBuilder {
    format: Format,
    strings: Strings,
    string_ids: HashMap<Box<str>, StrId>,
    frames: FrameTable,
    frame_ids: HashMap<(StrId, FrameKind), FrameId>,
    stacks: StackTable,
    stack_ids: HashMap<(u32, FrameId), StackId>,
    samples: SampleTable,
    total: u64,
}

impl ProfileBuilder {
    pub fn new(format: Format) -> Self {
        ProfileBuilder {
            format,
            strings: Strings::default(),
            string_ids: HashMap::new(),
            frames: FrameTable::default(),
            frame_ids: HashMap::new(),
            stacks: StackTable::default(),
            stack_ids: HashMap::new(),
            samples: SampleTable::default(),
            total: 0,
        }
    }

    pub fn intern(&mut self, s: &str) -> StrId {
        if let Some(&id) = self.string_ids.get(s) {
            return id;
        }
        let id = StrId(self.strings.ends.len() as u32);
        self.strings.buf.push_str(s);
        self.strings.ends.push(self.strings.buf.len() as u32);
        self.string_ids.insert(s.into(), id);
        id
    }

    pub fn frame(&mut self, name: &str, kind: FrameKind) -> FrameId {
        let name = self.intern(name);
        *self.frame_ids.entry((name, kind)).or_insert_with(|| {
            let id = FrameId(self.frames.name.len() as u32);
            self.frames.name.push(name);
            self.frames.kind.push(kind);
            id
        })
    }

    pub fn stack(&mut self, parent: Option<StackId>, frame: FrameId) -> StackId {
        let p = parent.map_or(NO_PARENT, |p| p.0);
        *self.stack_ids.entry((p, frame)).or_insert_with(|| {
            let id = StackId(self.stacks.frame.len() as u32);
            self.stacks.parent.push(p);
            self.stacks.frame.push(frame);
            id
        })
    }

    pub fn stack_count(&self) -> usize {
        self.stacks.len()
    }

    pub fn string_bytes(&self) -> usize {
        self.strings.buf.len()
    }

    /// Adds one sample. Fails when the running total would overflow u64.
    pub fn push_sample(&mut self, stack: StackId, weight: u64, offset: u64) -> Result<(), ImportError> {
        self.add_total(weight, offset)?;
        self.samples.stack.push(stack);
        self.samples.weight.push(weight);
        Ok(())
    }

    fn add_total(&mut self, weight: u64, offset: u64) -> Result<(), ImportError> {
        self.total = self.total.checked_add(weight).ok_or_else(|| {
            ImportError::new(
                Some(self.format),
                ImportErrorKind::Overflow,
                offset,
                None,
                "the sum of the weights exceeds 2^64-1",
            )
        })?;
        Ok(())
    }

    pub fn build(self, unit: Unit, decimals: u32, records: u64, warnings: Warnings) -> Profile {
        Profile {
            strings: self.strings,
            frames: self.frames,
            stacks: self.stacks,
            samples: self.samples,
            meta: Meta {
                format: self.format,
                unit,
                decimals,
                records,
                warnings,
            },
            total: self.total,
        }
    }
}
