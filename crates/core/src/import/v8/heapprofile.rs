//! V8's sampling heap profile, the `.heapprofile` file (`node --heap-prof`, DevTools' "Allocation sampling"):
//! one JSON object, `{"head": NODE, "samples": [...]}`, where a node is `{callFrame, selfSize, id, children:
//! [NODE, ...]}` — a call tree written as nested objects, one level of nesting per frame.
//!
//! The tree is walked with an explicit stack, never by recursion (serde's recursion limit would refuse a
//! stack 64 frames deep, and lifting it would let a hostile file overflow the call stack): a node's
//! `callFrame`, `selfSize` and `id` are parsed as typed values, other keys are skipped with their brackets
//! checked. `samples` (`{size, nodeId, ordinal}`) is parsed as a typed array.
//!
//! - Event `bytes` (the default): each node's `selfSize` on its stack: the bytes V8 estimates its sampled
//!   allocations stand for (what DevTools shows as "self size"). Nodes of size 0 add nothing.
//! - Event `allocations`, when the file has `samples`: how many sampled allocations each node has. A sample
//!   whose node is not in the tree (V8 writes some) is left out with a warning.
//! - Frames are named as in a `.cpuprofile` (`nodes.rs`); `(root)` at the top is not a frame.

use super::nodes::{stacks, CallFrame, Namer, Node, RawProfile};
use super::V8Options;
use crate::import::json;
use crate::model::{
    Format, FullSample, ImportError, ImportErrorKind, Profile, ProfileBuilder, Unit, WarningKind, Warnings,
    EMPTY_STACK,
};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::Deserialize;

const F: Format = Format::V8HeapProfile;

fn err(kind: ImportErrorKind, offset: u64, msg: impl Into<String>) -> ImportError {
    ImportError::new(Some(F), kind, offset, None, msg)
}

#[derive(Deserialize)]
struct Sample {
    #[serde(rename = "nodeId")]
    node_id: i64,
}

/// Collects the file, then reads it at [`HeapProfileParser::finish`].
pub struct HeapProfileParser {
    json: json::WholeJson,
}

impl HeapProfileParser {
    pub fn new(opts: &V8Options) -> Self {
        HeapProfileParser {
            json: json::WholeJson::new(F, opts.max_bytes, "profile"),
        }
    }

    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ImportError> {
        self.json.feed(chunk)
    }

    pub fn finish(self) -> Result<Profile, ImportError> {
        let bytes = self.json.into_bytes();
        let text = bytes.strip_prefix(json::BOM).unwrap_or(&bytes);
        let base = (bytes.len() - text.len()) as u64;
        let mut w = Walk { b: text, i: 0, base };
        let (tree, samples) = w.document()?;
        build(tree, samples)
    }
}

/// The `samples` array as read, with where it starts.
type Samples = Option<(Vec<Sample>, u64)>;

/// The tree as read: nodes in pre-order with their self sizes and where each starts.
struct Tree {
    nodes: Vec<Node>,
    sizes: Vec<u64>,
    offsets: Vec<u64>,
}

fn build(tree: Tree, samples: Samples) -> Result<Profile, ImportError> {
    let mut namer = Namer::default();
    for n in &tree.nodes {
        namer.add(&n.call_frame);
    }
    namer.seal();
    let raw = RawProfile {
        nodes: tree.nodes,
        path: "head: ".to_string(),
        ..RawProfile::default()
    };
    let mut b = ProfileBuilder::new(F);
    let (index, stack, _) = stacks(&mut b, &namer, &raw)?;
    let bytes = b.event("bytes", Unit::Bytes);
    let mut warnings = Warnings::default();
    let mut records = 0u64;
    for (i, &size) in tree.sizes.iter().enumerate() {
        if size > 0 {
            let s = stack.get(i).copied().flatten().unwrap_or(EMPTY_STACK);
            let at = tree.offsets.get(i).copied().unwrap_or(0);
            b.push_full_sample(sample(s, size, bytes), at)?;
            records += 1;
        }
    }
    let mut sampled = 0usize;
    if let Some((samples, at)) = samples {
        let allocations = b.event("allocations", Unit::Other("allocations".to_string()));
        let mut counts = vec![0u64; raw.nodes.len()];
        let mut missing: FxHashSet<i64> = FxHashSet::default();
        let mut missed = 0u64;
        for s in &samples {
            match index.get(&s.node_id).and_then(|&i| counts.get_mut(i)) {
                Some(c) => *c += 1,
                None => {
                    missed += 1;
                    missing.insert(s.node_id);
                }
            }
        }
        for (i, &c) in counts.iter().enumerate() {
            if c > 0 {
                let s = stack.get(i).copied().flatten().unwrap_or(EMPTY_STACK);
                b.push_full_sample(sample(s, c, allocations), at)?;
            }
        }
        if missed > 0 {
            warnings.push(
                WarningKind::Inconsistent,
                0,
                at,
                format!(
                    "{missed} of {} samples name {} nodes that are not in the tree; left out of `allocations`",
                    samples.len(),
                    missing.len()
                ),
            );
        }
        sampled = samples.len();
    }
    if b.samples_len() == 0 {
        return Err(err(
            ImportErrorKind::NoValidRecords,
            0,
            "the profile holds no allocations (every selfSize is 0 and there are no samples)",
        ));
    }
    b.set_default_event(bytes);
    b.add_info("nodes", raw.nodes.len().to_string());
    if sampled > 0 {
        b.add_info("samples", sampled.to_string());
    }
    Ok(b.build(Unit::Bytes, 0, records, warnings))
}

fn sample(stack: crate::model::StackId, weight: u64, event: u16) -> FullSample {
    FullSample {
        stack,
        weight,
        time_ns: None,
        thread: None,
        event: Some(event),
        cpu: None,
        labels: None,
    }
}

/// A node being read: its index in the tree and how many of its children have begun.
struct Open {
    node: usize,
    child: usize,
}

/// A cursor over the document's bytes (which start at byte `base` of the input).
struct Walk<'a> {
    b: &'a [u8],
    i: usize,
    base: u64,
}

impl<'a> Walk<'a> {
    fn at(&self) -> u64 {
        self.base + self.i as u64
    }

    fn fail(&self, what: &str) -> ImportError {
        if self.i >= self.b.len() {
            err(
                ImportErrorKind::Malformed,
                self.at(),
                format!("{what}: the input ends early"),
            )
        } else {
            err(ImportErrorKind::Malformed, self.at(), what.to_string())
        }
    }

    fn peek(&mut self) -> Option<u8> {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.b.get(self.i) {
            self.i += 1;
        }
        self.b.get(self.i).copied()
    }

    fn eat(&mut self, c: u8, path: &dyn Fn() -> String) -> Result<(), ImportError> {
        if self.peek() == Some(c) {
            self.i += 1;
            Ok(())
        } else {
            Err(self.fail(&format!("{}: expected `{}`", path(), c as char)))
        }
    }

    /// A string's raw bytes (escapes as written), after its opening quote.
    fn string(&mut self, path: &dyn Fn() -> String) -> Result<&'a [u8], ImportError> {
        self.eat(b'"', path)?;
        let start = self.i;
        loop {
            match self.b.get(self.i) {
                Some(b'"') => break,
                Some(b'\\') => self.i += 2,
                Some(_) => self.i += 1,
                None => return Err(self.fail(&format!("{}: a string", path()))),
            }
        }
        let s = self.b.get(start..self.i).unwrap_or_default();
        self.i += 1;
        Ok(s)
    }

    /// Skips one value of any depth (brackets matched with a stack, strings with their escapes); its span.
    fn value(&mut self, path: &dyn Fn() -> String) -> Result<(usize, usize), ImportError> {
        let start = match self.peek() {
            Some(_) => self.i,
            None => return Err(self.fail(&format!("{}: expected a value", path()))),
        };
        let compound = matches!(self.b.get(start), Some(b'"' | b'{' | b'['));
        let mut open: Vec<u8> = Vec::new();
        loop {
            match self.b.get(self.i).copied() {
                Some(b'"') => {
                    self.string(path)?;
                }
                Some(b'{') => {
                    open.push(b'}');
                    self.i += 1;
                }
                Some(b'[') => {
                    open.push(b']');
                    self.i += 1;
                }
                Some(c @ (b'}' | b']')) => {
                    if open.is_empty() {
                        break;
                    }
                    if open.pop() != Some(c) {
                        return Err(self.fail(&format!("{}: `{}` closes nothing", path(), c as char)));
                    }
                    self.i += 1;
                }
                Some(b',' | b' ' | b'\t' | b'\n' | b'\r') if open.is_empty() => break,
                Some(_) => self.i += 1,
                None if open.is_empty() => break,
                None => return Err(self.fail(&format!("{}: a value", path()))),
            }
            if compound && open.is_empty() {
                break;
            }
        }
        if self.i == start {
            return Err(self.fail(&format!("{}: expected a value", path())));
        }
        Ok((start, self.i))
    }

    /// One value parsed as `T` (the path is written only into an error).
    fn typed<T: serde::de::DeserializeOwned>(&mut self, path: &dyn Fn() -> String) -> Result<T, ImportError> {
        let (s, e) = self.value(path)?;
        let bytes = self.b.get(s..e).unwrap_or_default();
        let at = self.base + s as u64;
        json::parse(F, bytes, at, "").map_err(|_| match json::parse::<T>(F, bytes, at, &path()) {
            Err(e) => e,
            Ok(_) => err(ImportErrorKind::Malformed, at, path()),
        })
    }

    /// The top-level object: `head` (the tree) and `samples`; other keys skipped.
    fn document(&mut self) -> Result<(Tree, Samples), ImportError> {
        let top = || "the document".to_string();
        self.eat(b'{', &top)?;
        let (mut tree, mut samples) = (None, None);
        let mut first = true;
        while self.peek() != Some(b'}') {
            if !first {
                self.eat(b',', &top)?;
            }
            first = false;
            let key = self.string(&top)?;
            self.eat(b':', &top)?;
            match key {
                b"head" => tree = Some(self.tree()?),
                b"samples" => {
                    let at = self.at();
                    samples = Some((self.typed(&|| "samples".to_string())?, at));
                }
                _ => {
                    self.value(&top)?;
                }
            }
        }
        self.eat(b'}', &top)?;
        if self.peek().is_some() {
            return Err(self.fail("the document: text after its end"));
        }
        let tree = tree.ok_or_else(|| {
            err(
                ImportErrorKind::Malformed,
                self.base,
                "no `head`: not a heap profile",
            )
        })?;
        Ok((tree, samples))
    }

    /// The call tree under `head`, node by node in pre-order, with an explicit stack.
    fn tree(&mut self) -> Result<Tree, ImportError> {
        let mut t = Tree {
            nodes: Vec::new(),
            sizes: Vec::new(),
            offsets: Vec::new(),
        };
        let mut ids: FxHashMap<i64, usize> = FxHashMap::default();
        let mut open: Vec<Open> = Vec::new();
        self.eat(b'{', &|| "head".to_string())?;
        push_node(&mut t, &mut open, self.at() - 1);
        // Reading a node's keys; `first` before its first key.
        let mut first = true;
        loop {
            if self.peek() == Some(b'}') {
                self.i += 1;
                let Some(&Open { node: done, .. }) = open.last() else {
                    break;
                };
                let id = t.nodes.get(done).map_or(i64::MIN, |n| n.id);
                let at = t.offsets.get(done).copied().unwrap_or(0);
                if id == i64::MIN {
                    return Err(err(
                        ImportErrorKind::Malformed,
                        at,
                        format!("{}: a node without an `id`", path_of(&open)),
                    ));
                }
                if ids.insert(id, done).is_some() {
                    return Err(err(
                        ImportErrorKind::Malformed,
                        at,
                        format!("{}: node id {id} appears twice", path_of(&open)),
                    ));
                }
                open.pop();
                let Some(parent) = open.last() else { break };
                if let Some(p) = t.nodes.get_mut(parent.node) {
                    p.children.push(id);
                }
                // Back in the parent's `children`: another child, or the array's end.
                if self.peek() == Some(b',') {
                    self.i += 1;
                    self.eat(b'{', &|| format!("{}.children[]", path_of(&open)))?;
                    push_node(&mut t, &mut open, self.at() - 1);
                    first = true;
                } else {
                    self.eat(b']', &|| format!("{}.children", path_of(&open)))?;
                    first = false;
                }
                continue;
            }
            if !first {
                self.eat(b',', &|| path_of(&open))?;
            }
            first = false;
            let key = self.string(&|| path_of(&open))?;
            self.eat(b':', &|| path_of(&open))?;
            let Some(cur) = open.last().map(|o| o.node) else {
                break;
            };
            match key {
                b"callFrame" => {
                    let cf: CallFrame = self.typed(&|| format!("{}.callFrame", path_of(&open)))?;
                    if let Some(n) = t.nodes.get_mut(cur) {
                        n.call_frame = cf;
                    }
                }
                b"selfSize" => {
                    let size: u64 = self.typed(&|| format!("{}.selfSize", path_of(&open)))?;
                    if let Some(s) = t.sizes.get_mut(cur) {
                        *s = size;
                    }
                }
                b"id" => {
                    let id: i64 = self.typed(&|| format!("{}.id", path_of(&open)))?;
                    if id == i64::MIN {
                        return Err(self.fail(&format!("{}.id: out of range", path_of(&open))));
                    }
                    if let Some(n) = t.nodes.get_mut(cur) {
                        n.id = id;
                    }
                }
                b"children" => {
                    self.eat(b'[', &|| format!("{}.children", path_of(&open)))?;
                    if self.peek() == Some(b']') {
                        self.i += 1;
                    } else {
                        self.eat(b'{', &|| format!("{}.children[0]", path_of(&open)))?;
                        push_node(&mut t, &mut open, self.at() - 1);
                        first = true;
                    }
                }
                _ => {
                    self.value(&|| path_of(&open))?;
                }
            }
        }
        Ok(t)
    }
}

/// The path of the node being read, for errors: `head.children[2].children[0]…` (O(depth), so only built
/// when an error is).
fn path_of(open: &[Open]) -> String {
    let mut p = "head".to_string();
    for o in open.iter().take(open.len().saturating_sub(1)) {
        p.push_str(&format!(".children[{}]", o.child.saturating_sub(1)));
    }
    p
}

/// A new node (its `{` read at `at`): a new entry of the tree, one more level of the stack.
fn push_node(t: &mut Tree, open: &mut Vec<Open>, at: u64) {
    if let Some(parent) = open.last_mut() {
        parent.child += 1;
    }
    open.push(Open {
        node: t.nodes.len(),
        child: 0,
    });
    t.offsets.push(at);
    t.sizes.push(0);
    t.nodes.push(Node {
        id: i64::MIN,
        call_frame: CallFrame {
            function_name: String::new(),
            url: String::new(),
            line: -1,
            column: -1,
        },
        parent: None,
        children: Vec::new(),
        position_ticks: Vec::new(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &[u8]) -> Result<Profile, ImportError> {
        let mut p = HeapProfileParser::new(&V8Options::default());
        p.feed(text)?;
        p.finish()
    }

    fn node(name: &str, id: u32, size: u64, children: &str) -> String {
        format!(
            r#"{{"callFrame":{{"functionName":"{name}","url":"a.js","lineNumber":1,"columnNumber":2}},"selfSize":{size},"id":{id},"children":[{children}]}}"#
        )
    }

    #[test]
    fn a_chain_deeper_than_serdes_recursion_limit() {
        let depth = 5000u32;
        let mut text = String::from(r#"{"head":"#);
        for i in 0..depth {
            text.push_str(&format!(
                r#"{{"id":{i},"selfSize":1,"callFrame":{{"functionName":"f{}"}},"children":["#,
                i % 7
            ));
        }
        text.push_str(&"]}".repeat(depth as usize));
        text.push_str(
            r#","samples":[{"size":8,"nodeId":4999,"ordinal":1},{"size":8,"nodeId":99999,"ordinal":2}]}"#,
        );
        let p = read(text.as_bytes()).unwrap();
        assert_eq!(p.events[0].total, u64::from(depth));
        assert_eq!(p.events.len(), 2);
        assert_eq!(p.events[1].total, 1);
        assert_eq!(p.meta.warnings.count, 1);
        let folded = crate::export::to_folded(&p);
        assert!(folded
            .lines()
            .any(|l| l.matches(';').count() == depth as usize - 1));
    }

    #[test]
    fn root_siblings_and_skipped_keys() {
        let kids = [node("a", 2, 10, &node("b", 3, 5, "")), node("c", 4, 0, "")].join(",");
        let head = node("(root)", 1, 0, &kids).replacen('{', r#"{"x":[1,{"y":"]}"}],"#, 1);
        let text = format!(r#"{{"head":{head},"z":{{}},"samples":[]}}"#);
        let p = read(text.as_bytes()).unwrap();
        let folded = crate::export::to_folded(&p);
        assert_eq!(folded, "a 10\na;b 5\n");
        assert_eq!(p.events.len(), 2);
    }

    #[test]
    fn errors_name_the_place() {
        let e = read(br#"{"head":{"callFrame":{},"selfSize":1}}"#).unwrap_err();
        assert!(e.message.contains("head: a node without an `id`"), "{e}");
        assert_eq!(e.offset, 8);
        let bad = format!(
            r#"{{"head":{}}}"#,
            node(
                "r",
                1,
                0,
                &node("a", 2, 1, &node("b", 3, 0, "")).replace(r#""selfSize":0"#, r#""selfSize":-4"#)
            )
        );
        let e = read(bad.as_bytes()).unwrap_err();
        assert!(
            e.message.starts_with("head.children[0].children[0].selfSize"),
            "{e}"
        );
        // serde stops inside the value, after its sign.
        assert_eq!(
            &bad.as_bytes()[e.offset as usize - 1..e.offset as usize + 1],
            b"-4"
        );
        let dup = format!(r#"{{"head":{}}}"#, node("r", 1, 0, &node("a", 1, 1, "")));
        assert!(read(dup.as_bytes())
            .unwrap_err()
            .message
            .contains("node id 1 appears twice"));
        let cut = format!(r#"{{"head":{}}}"#, node("r", 1, 3, ""));
        for n in 0..cut.len() {
            let e = read(&cut.as_bytes()[..n]).unwrap_err();
            assert!(e.offset <= n as u64, "{n}: {e}");
        }
        assert!(read(cut.as_bytes()).is_ok());
        let e = read(br#"{"head":{"id":1,"callFrame":{},"x":[}]}}"#).unwrap_err();
        assert!(e.message.contains("closes nothing"), "{e}");
        let e = read(format!(r#"{{"head":{}}}"#, node("r", 1, 0, "")).as_bytes()).unwrap_err();
        assert_eq!(e.kind, ImportErrorKind::NoValidRecords);
    }
}
