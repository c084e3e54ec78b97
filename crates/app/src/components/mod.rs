//! The page's components, one per file. Each reads the state slices it needs from context
//! (`expect_context::<ViewState>()`…) and calls [`crate::state::Actions`] for what changes several.
//! Dependencies: components → state, render, url; nothing depends on components but `lib.rs`.

pub mod announcer;
pub mod app;
pub mod breadcrumb;
pub mod call_graph;
pub mod call_tree;
pub mod copy_link;
pub mod diff_bar;
pub mod error_banner;
pub mod explore_bar;
pub mod export_menu;
pub mod flame_canvas;
pub mod frame_keys;
pub mod function_table;
pub mod graph_prune;
pub mod health_badge;
pub mod heatmap;
pub mod info_panel;
pub mod keys;
pub mod legend;
pub mod marker_track;
pub mod notes_panel;
pub mod open_controls;
pub mod orientation_toggle;
pub mod profile_list;
pub mod sandwich;
pub mod share_preview;
pub mod shortcuts;
pub mod source_view;
pub mod stack_chart;
pub mod status_line;
pub mod theme_toggle;
pub mod thread_list;
pub mod toolbar;
pub mod tooltip;
pub mod view_controls;

/// Longest name put into the page as is (a frame name can be megabytes: laying out such a text node or
/// attribute takes the browser seconds).
const SHOWN_NAME_MAX: usize = 1_000;

/// A name as the page shows it: the first [`SHOWN_NAME_MAX`] bytes (at a character boundary) and how long it is.
pub fn shown_name(name: &str) -> String {
    if name.len() <= SHOWN_NAME_MAX {
        return name.to_string();
    }
    let mut end = SHOWN_NAME_MAX;
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    format!(
        "{}… ({} bytes)",
        name.get(..end).unwrap_or_default(),
        scorch_core::model::units::group_thousands(name.len() as u64)
    )
}
