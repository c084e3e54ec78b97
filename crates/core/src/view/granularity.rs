//! Granularity, as pprof offers it (`go tool pprof -functions|-lines|-files|-addresses`): what one node of a
//! view stands for. *Functions* is the profile as imported. The others are a profile of their own, made from
//! the locations ([`crate::model::sites`]): one frame per node, named as pprof's `NodeInfo.PrintableName`
//! names it, and each sample on its location stack mapped to those frames, so that every view, table and
//! export works on it unchanged.
//!
//! Node identity and names (pprof's `Profile.Aggregate` then `graph.NodeInfo`, inlined lines kept as their own
//! nodes as pprof does by default):
//! - lines: (function, file, line) — `function file:line` (`function file` without a line, `function` without
//!   either);
//! - files: the file — `file`, else `[module basename]`, else `<unknown>`;
//! - addresses: (address, function, file, line) — `%016x function file:line` (the address left out when 0).
//!
//! A profile without locations is its own profile at every granularity. Samples without a location stack
//! keep their function stack.

use crate::model::intern::{StackIndex, StrIndex};
use crate::model::sites::{Location, NO_STR};
use crate::model::{FrameId, FrameKind, Profile, StackId, StackTable, StrId, EMPTY_STACK, NO_PARENT};
use rustc_hash::FxHashMap;
use std::borrow::Cow;

/// The key of a link's URL fragment that carries a view's granularity (`gran=lines`; absent: functions),
/// its value [`Granularity::name`].
pub const LINK_KEY: &str = "gran";

/// What one node of a view stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize)]
pub enum Granularity {
    #[default]
    Functions,
    Lines,
    Files,
    Addresses,
}

impl Granularity {
    pub const ALL: [Granularity; 4] = [
        Granularity::Functions,
        Granularity::Lines,
        Granularity::Files,
        Granularity::Addresses,
    ];

    /// The name on the command line and in links (`gran=`).
    pub fn name(self) -> &'static str {
        match self {
            Granularity::Functions => "functions",
            Granularity::Lines => "lines",
            Granularity::Files => "files",
            Granularity::Addresses => "addresses",
        }
    }

    pub fn parse(s: &str) -> Option<Granularity> {
        Granularity::ALL.into_iter().find(|g| g.name() == s)
    }
}

/// A profile at a granularity, with the location each of its node frames was named from.
#[derive(Debug, Clone)]
pub struct Granular {
    pub profile: Profile,
    /// Per frame of `profile`: the first location row named by it (`u32::MAX`: a frame of the original
    /// profile, such as a thread root, or a function kept for samples without locations).
    pub node: Vec<u32>,
}

/// `p` at granularity `g`: `p` itself for functions and for a profile without locations.
pub fn at(p: &Profile, g: Granularity) -> Cow<'_, Profile> {
    match granular(p, g) {
        Some(x) => Cow::Owned(x.profile),
        None => Cow::Borrowed(p),
    }
}

/// pprof's name of a node of granularity `g` for location `l` (see the module's rules).
pub fn node_name(p: &Profile, l: &Location, g: Granularity) -> String {
    let s = |id: StrId| if id == NO_STR { "" } else { p.strings.get(id) };
    let function = p.frame_name(l.frame);
    let file = s(l.file);
    let place = if l.line != 0 {
        Some(format!("{file}:{}", l.line))
    } else if !file.is_empty() {
        Some(file.to_string())
    } else {
        None
    };
    match g {
        Granularity::Functions => function.to_string(),
        Granularity::Lines => match place {
            Some(place) => format!("{function} {place}"),
            None => function.to_string(),
        },
        Granularity::Files => {
            let module = s(l.module);
            if !file.is_empty() {
                file.to_string()
            } else if !module.is_empty() {
                format!("[{}]", module.rsplit('/').next().unwrap_or(module))
            } else {
                "<unknown>".to_string()
            }
        }
        Granularity::Addresses => {
            let mut out = String::new();
            if l.address != 0 {
                out.push_str(&format!("{:016x} ", l.address));
            }
            out.push_str(function);
            if let Some(place) = place {
                out.push(' ');
                out.push_str(&place);
            }
            out
        }
    }
}

/// `p` at granularity `g` with its node map; `None` for functions and for a profile without locations.
/// O(strings + frames + locations + location stacks + samples).
pub fn granular(p: &Profile, g: Granularity) -> Option<Granular> {
    let sites = p.sites.as_deref().filter(|_| g != Granularity::Functions)?;
    let mut strings = p.strings.clone();
    let mut string_ids = StrIndex::of(&strings);
    let mut frames = p.frames.clone();
    let mut frame_ids: FxHashMap<(StrId, FrameKind), FrameId> = FxHashMap::default();
    for (i, (&n, &k)) in frames.name.iter().zip(&frames.kind).enumerate() {
        frame_ids.entry((n, k)).or_insert(FrameId(i as u32));
    }
    let mut node = vec![u32::MAX; frames.len()];
    // Each location's node frame; locations with one name share it.
    let mut names: FxHashMap<String, StrId> = FxHashMap::default();
    let loc_frame: Vec<FrameId> = (0..sites.len())
        .map(|i| {
            let Some(l) = sites.get(i) else {
                return FrameId(0);
            };
            let name = node_name(p, &l, g);
            let kind = match g {
                Granularity::Files => FrameKind::User,
                _ => p.frame_kind(l.frame),
            };
            let s = match names.get(&name) {
                Some(&s) => s,
                None => {
                    let s = string_ids.intern(&mut strings, &name);
                    names.insert(name, s);
                    s
                }
            };
            *frame_ids.entry((s, kind)).or_insert_with(|| {
                frames.name.push(s);
                frames.kind.push(kind);
                node.push(i as u32);
                FrameId((frames.name.len() - 1) as u32)
            })
        })
        .collect();
    let mut stacks = StackTable::default();
    let mut index = StackIndex::default();
    let map_rows = |from: &StackTable,
                    frame_of: &dyn Fn(FrameId) -> FrameId,
                    stacks: &mut StackTable,
                    index: &mut StackIndex| {
        let mut map: Vec<u32> = Vec::with_capacity(from.len());
        for (&par, &f) in from.parent.iter().zip(&from.frame) {
            let parent = if par == NO_PARENT {
                NO_PARENT
            } else {
                map.get(par as usize).copied().unwrap_or(NO_PARENT)
            };
            map.push(index.intern(stacks, parent, frame_of(f)).0);
        }
        map
    };
    let site_map = map_rows(
        &sites.stacks,
        &|l| loc_frame.get(l.idx()).copied().unwrap_or(FrameId(0)),
        &mut stacks,
        &mut index,
    );
    let lacking = p
        .samples
        .stack
        .iter()
        .enumerate()
        .any(|(i, &s)| s != EMPTY_STACK && sites.of_sample(i) == EMPTY_STACK);
    let fn_map = if lacking {
        map_rows(&p.stacks, &|f| f, &mut stacks, &mut index)
    } else {
        Vec::new()
    };
    let pick = |map: &[u32], s: StackId| map.get(s.idx()).map_or(EMPTY_STACK, |&x| StackId(x));
    let sample_stack: Vec<StackId> = p
        .samples
        .stack
        .iter()
        .enumerate()
        .map(|(i, &s)| match sites.of_sample(i) {
            EMPTY_STACK if s == EMPTY_STACK => EMPTY_STACK,
            EMPTY_STACK => pick(&fn_map, s),
            site => pick(&site_map, site),
        })
        .collect();
    Some(Granular {
        profile: p.regrouped(strings, frames, stacks, sample_stack),
        node,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ProfileBuilder, Unit, Warnings};
    use crate::Format;

    /// Two samples through one function at two lines, one sample without locations.
    fn sample() -> Profile {
        let mut b = ProfileBuilder::new(Format::Pprof);
        let main = b.frame("main", FrameKind::User);
        let f = b.frame("f", FrameKind::User);
        let file = b.intern("a.go");
        let lm = b.location(Location {
            file,
            line: 3,
            ..Location::of(main)
        });
        let mut rows = Vec::new();
        for line in [7, 8] {
            let lf = b.location(Location {
                file,
                line,
                address: 0x10 + u64::from(line),
                ..Location::of(f)
            });
            let s = b.stack(None, main);
            let s = b.stack(Some(s), f);
            let site = b.site_stack(None, lm);
            let site = b.site_stack(Some(site), lf);
            rows.push((s, site));
        }
        for (s, site) in rows {
            b.push_sample(s, 1, 0).unwrap();
            b.set_sample_site(site);
        }
        let s = b.stack(None, main);
        b.push_sample(s, 5, 0).unwrap();
        b.build(Unit::Samples, 0, 3, Warnings::default())
    }

    fn folded(p: &Profile) -> Vec<String> {
        let mut out: Vec<String> = p
            .samples
            .stack
            .iter()
            .zip(&p.samples.weight)
            .map(|(&s, w)| {
                let names: Vec<&str> = p.stack_frames(s).iter().map(|&f| p.frame_name(f)).collect();
                format!("{} {w}", names.join(";"))
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn names_follow_pprof() {
        let p = sample();
        p.validate().unwrap();
        assert!(matches!(at(&p, Granularity::Functions), Cow::Borrowed(_)));
        let lines = at(&p, Granularity::Lines);
        lines.validate().unwrap();
        assert_eq!(
            folded(&lines),
            ["main 5", "main a.go:3;f a.go:7 1", "main a.go:3;f a.go:8 1"]
        );
        assert_eq!(
            folded(&at(&p, Granularity::Files)),
            ["a.go;a.go 1", "a.go;a.go 1", "main 5"]
        );
        assert_eq!(
            folded(&at(&p, Granularity::Addresses)),
            [
                "main 5",
                "main a.go:3;0000000000000017 f a.go:7 1",
                "main a.go:3;0000000000000018 f a.go:8 1"
            ]
        );
    }

    #[test]
    fn a_profile_without_locations_is_its_own() {
        let mut b = ProfileBuilder::new(Format::Folded);
        let f = b.frame("f", FrameKind::User);
        let s = b.stack(None, f);
        b.push_sample(s, 1, 0).unwrap();
        let p = b.build(Unit::Samples, 0, 1, Warnings::default());
        assert!(p.sites.is_none());
        for g in Granularity::ALL {
            assert!(matches!(at(&p, g), Cow::Borrowed(_)));
            assert_eq!(Granularity::parse(g.name()), Some(g));
        }
    }
}
