//! Keyboard navigation of the frames of a flame pane, and the text a screen reader hears for a frame.
//!
//! The arrows follow the picture: in a flame graph (root at the bottom) Down goes to the parent and Up to the
//! first child; in an icicle graph (root at the top) Up goes to the parent and Down to the first child. The
//! first child is the leftmost (in left-heavy order the heaviest). Left and Right go to the previous and next
//! sibling by position, and stop at the first and last (they do not jump to a cousin). Home goes to the root.

use crate::render::{FlameData, Orientation};
use scorch_core::view::calltree::NodeId;

/// Where a navigation key moves the keyboard's frame from `n`: `None` when `key` is not a navigation key,
/// `Some(Err(why))` when there is no frame that way.
pub fn target(d: &FlameData, n: NodeId, key: &str, o: Orientation) -> Option<Result<NodeId, &'static str>> {
    let toward_root = match (key, o) {
        ("ArrowDown", Orientation::Flame) | ("ArrowUp", Orientation::Icicle) => true,
        ("ArrowUp", Orientation::Flame) | ("ArrowDown", Orientation::Icicle) => false,
        ("Home", _) => return Some(Ok(NodeId::ROOT)),
        ("ArrowLeft", _) => return Some(sibling(d, n, -1).ok_or("first frame of its row under this caller")),
        ("ArrowRight", _) => return Some(sibling(d, n, 1).ok_or("last frame of its row under this caller")),
        _ => return None,
    };
    Some(if toward_root {
        d.tree.parent(n).ok_or("the root: no caller")
    } else {
        first_child(d, n).ok_or("no callees")
    })
}

/// The leftmost child: children are placed left to right in the tree's order.
fn first_child(d: &FlameData, n: NodeId) -> Option<NodeId> {
    d.tree.children(n).first().copied()
}

/// The sibling `dir` (±1) places away by position (the tree's order of children, left to right).
fn sibling(d: &FlameData, n: NodeId, dir: i64) -> Option<NodeId> {
    let parent = d.tree.parent(n)?;
    let sibs = d.tree.children(parent);
    let i = sibs.iter().position(|&s| s == n)? as i64 + dir;
    usize::try_from(i).ok().and_then(|i| sibs.get(i).copied())
}

/// "NAME, self X (p %), total Y (q %), depth d, n children": the numbers are the tooltip's (the share is of the
/// shown graph's total); in a diff, both sides and the changes as the diff's tooltip gives them.
pub fn describe(d: &FlameData, n: NodeId) -> String {
    let i = n.idx();
    let name = super::shown_name(d.name_of(n));
    let depth = d.tree.depth.get(i).copied().unwrap_or(0);
    let kids = d.tree.children(n).len();
    let kids = match kids {
        0 => "no children".to_string(),
        1 => "1 child".to_string(),
        k => format!(
            "{} children",
            scorch_core::model::units::group_thousands(k as u64)
        ),
    };
    let numbers = match &d.diff {
        Some(x) => super::tooltip::diff_tooltip_rows(x, i)
            .into_iter()
            .map(|(label, _, value)| format!("{label} {value}"))
            .collect::<Vec<_>>()
            .join(", "),
        None => format!(
            "self {}, total {}",
            d.describe(d.tree.self_w.get(i).copied().unwrap_or(0)),
            d.describe(d.tree.total.get(i).copied().unwrap_or(0))
        ),
    };
    format!("{name}, {numbers}, depth {depth}, {kids}")
}

/// Whether `n` is drawn when the pane is zoomed to `z`: inside the zoomed frame, or one of its ancestors (drawn
/// full width).
pub fn shown_in_zoom(d: &FlameData, n: NodeId, z: NodeId) -> bool {
    let depth = |x: NodeId| d.tree.depth.get(x.idx()).copied().unwrap_or(0);
    let (nd, zd) = (depth(n), depth(z));
    if nd >= zd {
        d.tree.ancestor_at(n, zd) == Some(z)
    } else {
        d.tree.ancestor_at(z, nd) == Some(n)
    }
}
