//! The app shell: creates the state, wires page-wide input and the address bar, and lays out the components.

use super::announcer::{Announcer, LiveRegion};
use super::call_graph::CallGraphView;
use super::call_tree::CallTreeTable;
use super::diff_bar::DiffBar;
use super::error_banner::ErrorBanner;
use super::explore_bar::ExploreBar;
use super::flame_canvas::FlameCanvas;
use super::function_table::FunctionTable;
use super::heatmap::HeatmapPanel;
use super::keys;
use super::sandwich::Sandwich;
use super::shortcuts::Shortcuts;
use super::stack_chart::StackChartView;
use super::status_line::StatusLine;
use super::thread_list::ThreadList;
use super::toolbar::Toolbar;
use super::tooltip::Tooltip;
use crate::state::view::Mode;
use crate::state::Actions;
use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    let a = Actions::provide();
    Announcer::provide();
    keys::listen_drop_and_paste(a);
    keys::listen_keys(a);

    a.ui.follow_theme();

    a.open_from_fragment(true);
    a.sync_fragment();
    // A link pasted into an open tab changes only the fragment.
    let _ = window_event_listener(leptos::ev::hashchange, move |_| a.open_from_fragment(false));
    a.heat.follow(a.load, a.view);

    let (view, diff, panes) = (a.view, a.diff, a.panes);
    let mode = move || view.mode.get();
    crate::state::embed::listen(a);
    view! {
        <Show when=move || !a.ui.embed.get()>
            <Toolbar/>
        </Show>
        <ErrorBanner/>
        <DiffBar/>
        <HeatmapPanel/>
        <super::marker_track::MarkerTrack/>
        <ThreadList/>
        <super::profile_list::ProfileList/>
        <ExploreBar/>
        <super::notes_panel::NotesPanel/>
        <Show when=move || matches!(mode(), Mode::Flame | Mode::Inverted) || diff.active()>
            <FlameCanvas pane=panes.main/>
        </Show>
        <Show when=move || mode() == Mode::Functions && !diff.active()>
            <FunctionTable compact=false/>
        </Show>
        <Show when=move || mode() == Mode::Sandwich && !diff.active()>
            <Sandwich/>
        </Show>
        <Show when=move || mode() == Mode::CallTree && !diff.active()>
            <CallTreeTable/>
        </Show>
        <Show when=move || mode() == Mode::Chart && !diff.active()>
            <StackChartView/>
        </Show>
        <Show when=move || mode() == Mode::Graph && !diff.active()>
            <CallGraphView/>
        </Show>
        <Tooltip pane=panes.main/>
        <Tooltip pane=panes.callers/>
        <Tooltip pane=panes.callees/>
        <Shortcuts/>
        <StatusLine/>
        <LiveRegion/>
    }
}
