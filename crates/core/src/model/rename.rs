//! Renaming frames after the import (a symbolizer turning `module+0xOFFSET` into function names, a scrub
//! before sharing): frames whose new names coincide merge, and so do the call paths they make identical. And
//! keeping some samples only (a scrub bakes in the selection whose data it removes).

use super::intern::{StackIndex, StrIndex};
use super::{FrameId, FrameKind, Profile, StackId, StackTable, NO_PARENT};
use rustc_hash::FxHashMap;

impl Profile {
    /// The same profile with frames renamed: `rename(name, kind)` gives a frame's new name, or `None` to keep
    /// it. Frames of one kind that get one name become one frame, and stacks that become equal merge (the
    /// samples, threads, events and labels are kept). The frames renamed away stay in the frame table unused,
    /// so the ids that threads and labels hold keep their meaning. O(frames + stacks + samples).
    pub fn rename_frames(&self, rename: impl FnMut(&str, FrameKind) -> Option<String>) -> Profile {
        self.rename_frames_mapped(rename).0
    }

    /// [`Profile::rename_frames`], and each old frame's new frame (to move ids held elsewhere, such as thread
    /// and label roots, onto the renamed frames).
    pub fn rename_frames_mapped(
        &self,
        mut rename: impl FnMut(&str, FrameKind) -> Option<String>,
    ) -> (Profile, Vec<FrameId>) {
        let mut strings = self.strings.clone();
        let mut frames = self.frames.clone();
        let mut string_ids = StrIndex::of(&strings);
        let mut by_name: FxHashMap<(super::StrId, FrameKind), FrameId> = FxHashMap::default();
        for (i, (&n, &k)) in self.frames.name.iter().zip(&self.frames.kind).enumerate() {
            by_name.entry((n, k)).or_insert(FrameId(i as u32));
        }
        let mut frame_map: Vec<FrameId> = Vec::with_capacity(self.frames.len());
        for i in 0..self.frames.len() {
            let id = FrameId(i as u32);
            let kind = self.frame_kind(id);
            let new = match rename(self.frame_name(id), kind) {
                None => id,
                Some(name) => {
                    let s = string_ids.intern(&mut strings, &name);
                    *by_name.entry((s, kind)).or_insert_with(|| {
                        frames.name.push(s);
                        frames.kind.push(kind);
                        FrameId((frames.name.len() - 1) as u32)
                    })
                }
            };
            frame_map.push(new);
        }
        let mut stacks = StackTable::default();
        let mut index = StackIndex::default();
        let mut stack_map: Vec<StackId> = Vec::with_capacity(self.stacks.len());
        for (&parent, &frame) in self.stacks.parent.iter().zip(&self.stacks.frame) {
            let p = if parent == NO_PARENT {
                NO_PARENT
            } else {
                stack_map.get(parent as usize).map_or(NO_PARENT, |s| s.0)
            };
            let f = frame_map.get(frame.idx()).copied().unwrap_or(frame);
            stack_map.push(index.intern(&mut stacks, p, f));
        }
        let mut p = self.restack(stacks, |s| stack_map.get(s.idx()).copied());
        p.strings = strings;
        p.frames = frames;
        // Locations keep their rows (their other columns still tell them apart); their function is renamed.
        if let Some(sites) = p.sites.as_mut() {
            for f in &mut sites.frame {
                *f = frame_map.get(f.idx()).copied().unwrap_or(*f);
            }
        }
        (p, frame_map)
    }

    /// The same profile with only the samples `keep(i)` says yes to (every column kept in step; event counts and
    /// the total summed again). Tables (strings, frames, stacks, threads, labels) are kept as they are.
    pub fn retain_samples(&self, keep: impl Fn(usize) -> bool) -> Profile {
        let rows: Vec<usize> = (0..self.samples.len()).filter(|&i| keep(i)).collect();
        let pick = |col: &[u32]| rows.iter().map(|&i| col.get(i).copied().unwrap_or(0)).collect();
        let samples = super::SampleTable {
            stack: rows
                .iter()
                .map(|&i| self.samples.stack.get(i).copied().unwrap_or(super::EMPTY_STACK))
                .collect(),
            weight: rows
                .iter()
                .map(|&i| self.samples.weight.get(i).copied().unwrap_or(0))
                .collect(),
            time_ns: self
                .samples
                .time_ns
                .as_ref()
                .map(|c| rows.iter().map(|&i| c.get(i).copied().unwrap_or(0)).collect()),
            thread: self.samples.thread.as_deref().map(pick),
            event: self
                .samples
                .event
                .as_ref()
                .map(|c| rows.iter().map(|&i| c.get(i).copied().unwrap_or(0)).collect()),
            cpu: self.samples.cpu.as_deref().map(pick),
            labels: self.samples.labels.as_deref().map(pick),
        };
        // Through `restack` with every stack kept: it sums the events and the total again.
        let mut p = self.clone();
        p.samples = samples;
        p.sites = self.sites.as_ref().map(|s| Box::new(s.pick(&rows)));
        p.restack(self.stacks.clone(), Some)
    }

    /// The same profile with frames put under some frames of each call path (a symbolizer's inlined functions
    /// under the function that holds them): `expand(name, kind, next)` gives, for a frame on a path, the frames
    /// to insert right under it, outermost first, where `next` is the kind of the frame after it toward the
    /// leaf (`None`: it is the leaf). Paths that become equal merge. Each (stack, next kind) is expanded
    /// once, walking up only to the first one done: O(stacks × kinds + samples), no recursion.
    pub fn expand_frames(
        &self,
        mut expand: impl FnMut(&str, FrameKind, Option<FrameKind>) -> Vec<(String, FrameKind)>,
    ) -> Profile {
        let mut strings = self.strings.clone();
        let mut frames = self.frames.clone();
        let mut string_ids = StrIndex::of(&strings);
        let mut by_name: FxHashMap<(super::StrId, FrameKind), FrameId> = FxHashMap::default();
        for (i, (&n, &k)) in self.frames.name.iter().zip(&self.frames.kind).enumerate() {
            by_name.entry((n, k)).or_insert(FrameId(i as u32));
        }
        let mut stacks = StackTable::default();
        let mut index = StackIndex::default();
        let mut done: FxHashMap<(u32, Option<FrameKind>), StackId> = FxHashMap::default();
        let mut leaf: Vec<Option<StackId>> = vec![None; self.stacks.len()];
        let mut path: Vec<(u32, Option<FrameKind>)> = Vec::new();
        for &s in &self.samples.stack {
            if s == super::EMPTY_STACK || leaf.get(s.idx()).is_some_and(Option::is_some) {
                continue;
            }
            // Up from the sample's stack to the first (stack, next kind) already expanded, or the root.
            let (mut row, mut next) = (s.0, None);
            let mut base = NO_PARENT;
            path.clear();
            loop {
                if let Some(&have) = done.get(&(row, next)) {
                    base = have.0;
                    break;
                }
                path.push((row, next));
                let (Some(&parent), Some(&frame)) = (
                    self.stacks.parent.get(row as usize),
                    self.stacks.frame.get(row as usize),
                ) else {
                    break;
                };
                if parent == NO_PARENT {
                    break;
                }
                next = Some(self.frame_kind(frame));
                row = parent;
            }
            // Down again, each row's frame and its inserted frames.
            for &(row, next) in path.iter().rev() {
                let Some(&frame) = self.stacks.frame.get(row as usize) else {
                    continue;
                };
                let mut at = index.intern(&mut stacks, base, frame);
                for (name, kind) in expand(self.frame_name(frame), self.frame_kind(frame), next) {
                    let sid = string_ids.intern(&mut strings, &name);
                    let f = *by_name.entry((sid, kind)).or_insert_with(|| {
                        frames.name.push(sid);
                        frames.kind.push(kind);
                        FrameId((frames.name.len() - 1) as u32)
                    });
                    at = index.intern(&mut stacks, at.0, f);
                }
                done.insert((row, next), at);
                base = at.0;
            }
            if let Some(slot) = leaf.get_mut(s.idx()) {
                *slot = done.get(&(s.0, None)).copied();
            }
        }
        let mut p = self.restack(stacks, |s| leaf.get(s.idx()).copied().flatten());
        p.strings = strings;
        p.frames = frames;
        p
    }
}
