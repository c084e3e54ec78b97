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
    let (view, diff, panes) = (a.view, a.diff, a.panes);
    let mode = move || view.mode.get();
    // The page's start in short tasks: this task mounts the shell and the rest comes a part a task (see
    // [`Stage`]); a part's first mount is also the first call of its code, which V8 compiles then.
    let stage = RwSignal::new(Stage::Shell);
    let owner = Owner::current();
    leptos::task::spawn_local(async move {
        // The load first, in the next task (the worker `www/boot.js` started reads the profile meanwhile).
        crate::worker::yield_now().await;
        let read = move || a.open_from_fragment(true);
        match &owner {
            Some(o) => o.with(read),
            None => read(),
        }
        crate::worker::yield_now().await;
        let wire = move || {
            a.sync_fragment();
            // A link pasted into an open tab changes only the fragment.
            let _ = window_event_listener(leptos::ev::hashchange, move |_| a.open_from_fragment(false));
            a.heat.follow(a.load, a.view);
            // (After the fragment is read: it says whether the page is embedded.)
            crate::state::embed::listen(a);
        };
        match &owner {
            Some(o) => o.with(wire),
            None => wire(),
        }
        // First the code that takes the first profile and paints it, compiled on a tiny one while that profile
        // is read and parsed in the worker; not when it came already (its own tasks compiled that code).
        let came = move || a.load.loaded.with_untracked(Option::is_some);
        crate::worker::yield_now().await;
        crate::render::warm::warm_up(came).await;
        crate::worker::yield_now().await;
        a.warm_up_load();
        for s in Stage::LATER {
            crate::worker::yield_now().await;
            stage.set(s);
        }
    });
    // Once, when the page is quiet after its first profile: the function table's rows, built ahead on a made-up
    // row (`function_table::warm_up`), so the first real table does not compile their code.
    Effect::new(move |warmed: Option<bool>| {
        if warmed == Some(true) || !a.load.has_profile() {
            return warmed.unwrap_or(false);
        }
        crate::worker::after(2000.0, move || {
            crate::worker::when_idle(1000.0, move || {
                leptos::task::spawn_local(super::function_table::warm_up(a.search, a))
            })
        });
        true
    });
    let at = move |s: Stage| move || stage.get() >= s;
    view! {
        <Show when=move || at(Stage::Toolbar)() && !a.ui.embed.get()>
            <Toolbar rest=Signal::derive(at(Stage::ToolbarEnd))/>
        </Show>
        <ErrorBanner/>
        <Show when=at(Stage::Panels)>
            <DiffBar/>
            <HeatmapPanel/>
            <super::marker_track::MarkerTrack/>
        </Show>
        <Show when=at(Stage::Lists)>
            <ThreadList/>
            <super::profile_list::ProfileList/>
        </Show>
        <Show when=at(Stage::Explore)>
            <ExploreBar/>
        </Show>
        <Show when=at(Stage::Lists)>
            <super::notes_panel::NotesPanel/>
        </Show>
        <Show when=move || at(Stage::Graph)() && (matches!(mode(), Mode::Flame | Mode::Inverted) || diff.active())>
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
        <Show when=move || at(Stage::Graph)() && a.ui.source.get()>
            <super::source_view::SourceView/>
        </Show>
        <Show when=at(Stage::Overlays)>
            <Tooltip pane=panes.main/>
            <Tooltip pane=panes.callers/>
            <Tooltip pane=panes.callees/>
            <Shortcuts/>
        </Show>
        <Show when=at(Stage::Graph)>
            <StatusLine/>
        </Show>
        <LiveRegion/>
    }
}

/// The parts of the page in the order they are mounted, each in a task of its own (all at once, the start was
/// one task of 130–240 ms, most of it V8 compiling the code each part runs first; the toolbar whole, and the
/// lists with the explore bar, were tasks of 44 ms each in a trace of a load by link, and over 50 ms on a busy
/// machine, so each is two parts now). Before the first of them:
/// the load started from the address (a task), then the warm-up (`render::warm`, a few tasks). Everything
/// above the flame graph comes before it, so its area has its final size when it first paints; the status line
/// comes with it; the tooltips and the shortcuts panel (on top of the page, in no one's way) last.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Stage {
    Shell,
    Toolbar,
    ToolbarEnd,
    Panels,
    Lists,
    Explore,
    Graph,
    Overlays,
}

impl Stage {
    const LATER: [Stage; 7] = [
        Stage::Toolbar,
        Stage::ToolbarEnd,
        Stage::Panels,
        Stage::Lists,
        Stage::Explore,
        Stage::Graph,
        Stage::Overlays,
    ];
}
