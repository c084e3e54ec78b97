//! The page's components, one per file. Each reads the state slices it needs from context
//! (`expect_context::<ViewState>()`…) and calls [`crate::state::Actions`] for what changes several.
//! Dependencies: components → state, render, url; nothing depends on components but `lib.rs`.

pub mod app;
pub mod breadcrumb;
pub mod copy_link;
pub mod diff_bar;
pub mod error_banner;
pub mod explore_bar;
pub mod flame_canvas;
pub mod function_table;
pub mod heatmap;
pub mod info_panel;
pub mod keys;
pub mod legend;
pub mod open_controls;
pub mod orientation_toggle;
pub mod sandwich;
pub mod shortcuts;
pub mod status_line;
pub mod theme_toggle;
pub mod toolbar;
pub mod tooltip;
pub mod view_controls;
