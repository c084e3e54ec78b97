//! Opening profiles: files, URLs, pairs, links and pasted text; the load under way, its cancellation and its
//! end.

use super::Actions;
use crate::render::{FlameData, Loaded};
use crate::url::Source;
use crate::worker::page as load;
use crate::worker::protocol::Job;
use crate::worker::yield_now;
use crate::worker::LoadError;
use leptos::prelude::*;
use scorch_core::ViewOptions;
use std::sync::Arc;

/// A link's profile larger than this (bytes of folded text) is imported in the worker.
const LINK_IN_WORKER: u64 = 1 << 20;

/// The file name at the end of a URL.
fn name_of(url: &str) -> String {
    url.rsplit('/').next().unwrap_or(url).to_string()
}

impl Actions {
    pub fn start_load(&self, what: String) -> u64 {
        // A load still under way stops here: its worker is terminated and its answer would be stale anyway.
        load::cancel();
        self.load.progress.set(None);
        self.load.busy.set(Some(format!("Loading {what}…")));
        let seq = self.load.seq.get_untracked() + 1;
        self.load.seq.set(seq);
        seq
    }

    /// Runs, with no profile open, the largest functions that take the first profile (`finish_loaded`,
    /// `rebuild`, `apply_link`, `link_state`): each returns at once here (`finish_loaded` for a load that is not
    /// the latest, the others for want of a profile), and V8 compiles a wasm function whole on its first call.
    /// So that code is compiled while the first profile is read and parsed, not in the task that takes it
    /// (`rebuild` alone is 30 KB of wasm: 7 ms of that task's 41, perf script 100 MB by link; docs/BENCHMARKS.md).
    pub fn warm_up_load(&self) {
        if self.load.loaded.with_untracked(Option::is_some) {
            return; // its own task compiled the code
        }
        self.finish_loaded(u64::MAX, String::new(), Err(LoadError::Cancelled), false);
        self.rebuild();
        self.apply_link(&crate::url::UrlState::default());
        let _ = self.link_state();
    }

    /// `compare`: the open profile becomes the diff base and this one the target.
    pub fn finish_import(
        &self,
        seq: u64,
        name: String,
        result: Result<scorch_core::Imported, LoadError>,
        compare: bool,
    ) {
        let result = result.map(|imported| Arc::new(Loaded::new(name.clone(), imported)));
        self.finish_loaded(seq, name, result, compare);
    }

    fn finish_loaded(&self, seq: u64, name: String, result: Result<Arc<Loaded>, LoadError>, compare: bool) {
        let l = self.load;
        if l.seq.get_untracked() != seq {
            return; // a newer load started; this one is stale
        }
        l.busy.set(None);
        l.progress.set(None);
        let loaded = match result {
            Ok(loaded) => loaded,
            Err(LoadError::Cancelled) => return,
            // The open profile stays on screen; only the error is shown.
            Err(e) => return l.error.set(Some(format!("Could not open {name}: {e}"))),
        };
        // What the profile open until now leaves behind is freed after the new one's first picture.
        let p = self.panes;
        super::drop_later(Box::new((
            (
                l.loaded.get_untracked(),
                l.shown.get_untracked(),
                self.diff.base.get_untracked(),
            ),
            (
                p.main.data.get_untracked(),
                p.callers.data.get_untracked(),
                p.callees.data.get_untracked(),
            ),
            (self.heat.heat.get_untracked(), self.view.fn_table.get_untracked()),
        )));
        // The view engine holds the profile that was open: ended, so its memory comes back; the import worker
        // that read this one holds it and becomes the engine.
        crate::worker::build::opened(loaded.key);
        let view = ViewOptions::default_for(&loaded.imported.profile);
        let mut base = if compare { l.loaded.get_untracked() } else { None };
        // A differential folded file (two counts per line) opens as base → target by itself.
        let p = &loaded.imported.profile;
        let two_counts = !compare && scorch_core::analysis::diff::two_counts(p);
        if two_counts {
            base = Some(loaded.clone());
        }
        self.diff.events.set(two_counts.then_some((0, 1)));
        crate::render::flame::opened();
        if l.demo_seq.get_value() != seq {
            super::mark("bench:import-done");
            crate::render::flame::mark_next_paint();
        }
        l.error.set(None);
        self.view.options.set(view.clone());
        self.diff.base.set(base);
        self.diff.allow_mismatch.set(false);
        self.heat.sel.set(None);
        self.heat.pending.set(None);
        self.heat.range_a.set(None);
        self.heat.band_a.set(None);
        self.diff.slice_a.set(None);
        self.heat.sel_band.set(false);
        self.view.label_text.set(String::new());
        // Transforms and the selection name functions of the profile that was open; a link restores its
        // own below (`apply_link`). The search stays.
        self.search.transforms.set(Vec::new());
        self.search.selected.set(None);
        // So do notes (a comparison keeps them: it is about the profile they were written on).
        if !compare {
            self.view.notes.set(Vec::new());
            self.view.note_messages.set(Vec::new());
        }
        l.loads.update(|n| *n += 1);
        l.loaded.set(Some(loaded.clone()));
        super::timed("rebuild", || self.rebuild());
        if !loaded.figures_ready(&view) {
            figures_later(l, loaded, view, self.view.order.get_untracked());
        }
        // Every other view comes from the view engine: started once the page has been quiet for 2 s (as the
        // spare import worker is), so the first view asked for does not wait for a worker to start. Not at once:
        // a worker ended while it still imports its module — the page reloaded or left right after a load —
        // makes Firefox report the import's failure as an error of the page.
        crate::worker::after(2000.0, || {
            crate::worker::when_idle(1000.0, crate::worker::build::warm)
        });
        l.source.set(l.next_source.get_untracked());
        if let Some(s) = l.pending.get_untracked() {
            // A pair applies its state after the second (target) load.
            let pair = matches!(s.source, Source::Pair { .. });
            if !pair || compare {
                l.pending.set(None);
                self.apply_link(&s);
            }
        }
    }

    pub fn open_file(&self, file: web_sys::File) {
        self.load.next_source.set(Source::None);
        self.open_file_as(file, false);
    }

    /// Opens a second profile and compares: the one open now is the base (before), the new one the target.
    /// Several files at once: each read as a single file is (in its import worker, one after another), then
    /// combined by `scorch_core::import::many` — summed, as `scorch fold a b c` and `go tool pprof` merge, every
    /// sample labelled `profile=FILE`, so the Root menu's *label profile* puts each file at its own root and the
    /// label filter `profile=FILE` keeps one. Files without the first file's event are left out, and said so.
    /// ELF files among them are binaries: with one other file (a perf.data recording) they name its addresses
    /// (`worker::binaries`); beside several, they are left out.
    pub fn open_files(&self, files: Vec<web_sys::File>) {
        if files.len() <= 1 {
            if let Some(f) = files.into_iter().next() {
                self.open_file(f);
            }
            return;
        }
        let a = *self;
        leptos::task::spawn_local(async move {
            let (mut profiles, mut binaries) = (Vec::new(), Vec::new());
            for f in files {
                if is_elf(&f).await {
                    binaries.push(f);
                } else {
                    profiles.push(f);
                }
            }
            if profiles.len() == 1 && !binaries.is_empty() {
                if let Some(file) = profiles.pop() {
                    a.open_recording(file, binaries);
                }
                return;
            }
            if profiles.len() <= 1 {
                if let Some(f) = profiles.pop() {
                    a.open_file(f);
                }
                return;
            }
            let inputs = profiles
                .into_iter()
                .map(|f| (f.name(), load::Source::File(f)))
                .collect();
            a.load.next_source.set(Source::None);
            a.open_merged(inputs);
        });
    }

    /// A perf.data recording with the binaries it names.
    fn open_recording(&self, file: web_sys::File, binaries: Vec<web_sys::File>) {
        self.load.next_source.set(Source::None);
        let name = file.name();
        let seq = self.start_load(name.clone());
        let a = *self;
        leptos::task::spawn_local(async move {
            let r = a
                .load_in_steps(seq, &name, load::Source::Recording(file, binaries))
                .await;
            a.finish_loaded(seq, name, r, false);
        });
    }

    /// `#series=a,b,c`: several hosted profiles (each as `#url=` names one) opened merged, as [`Self::open_files`].
    pub fn open_series(&self, urls: Vec<String>) {
        self.load.next_source.set(Source::Series(urls.clone()));
        let inputs = urls
            .into_iter()
            .map(|u| (name_of(&u), load::Source::Url(u)))
            .collect();
        self.open_merged(inputs);
    }

    /// `#ps=NAME:PAYLOAD&…`: profiles carried in a link (a merge of local files shared), opened merged under
    /// their names, as [`Self::open_files`].
    pub fn open_carried(&self, profiles: Vec<(String, String)>) {
        self.load.next_source.set(Source::Carried(profiles.clone()));
        let inputs = profiles
            .into_iter()
            .map(|(name, payload)| (name, load::Source::Link(payload)))
            .collect();
        self.open_merged(inputs);
    }

    fn open_merged(&self, inputs: Vec<(String, load::Source)>) {
        let name = format!("{} profiles merged", inputs.len());
        let seq = self.start_load(name.clone());
        let a = *self;
        leptos::task::spawn_local(async move {
            let mut c = scorch_core::import::many::Combiner::new(None);
            let (mut gzip, mut bytes) = (false, 0u64);
            for (file_name, source) in inputs {
                // Only the import: the tree, layout and heatmap a single load prepares would be thrown away.
                let l = a.load;
                let done = load::load(source, a.view.order.get_untracked(), move |p| {
                    if l.seq.get_untracked() == seq {
                        l.progress.set(Some(p));
                    }
                })
                .await;
                if a.load.seq.get_untracked() != seq {
                    return;
                }
                let imported = match done {
                    Ok(d) => d.imported,
                    Err(e) => {
                        let e = match e {
                            LoadError::Import(m) => LoadError::Import(format!("{file_name}: {m}")),
                            e => e,
                        };
                        return a.finish_loaded(seq, name, Err(e), false);
                    }
                };
                gzip |= imported.gzip;
                bytes = bytes.saturating_add(imported.bytes);
                let p = imported.profile;
                if let Err(e) = c.add(&file_name, p) {
                    return a.finish_loaded(seq, name, Err(LoadError::Import(e.to_string())), false);
                }
            }
            match c.finish() {
                Ok(combined) => {
                    let left: Vec<String> = combined
                        .left_out
                        .iter()
                        .map(|l| l.reason(&combined.event))
                        .collect();
                    let imported = scorch_core::Imported {
                        profile: combined.profile,
                        gzip,
                        bytes,
                    };
                    a.finish_import(seq, name, Ok(imported), false);
                    if !left.is_empty() {
                        a.load.error.set(Some(left.join("; ")));
                    }
                }
                Err(e) => a.finish_loaded(seq, name, Err(LoadError::Import(e.to_string())), false),
            }
        });
    }

    pub fn open_compare(&self, file: web_sys::File) {
        self.open_file_as(file, true);
    }

    fn open_file_as(&self, file: web_sys::File, compare: bool) {
        let name = file.name();
        let seq = self.start_load(name.clone());
        let a = *self;
        leptos::task::spawn_local(async move {
            let r = a.load_in_steps(seq, &name, load::Source::File(file)).await;
            a.finish_loaded(seq, name, r, compare);
        });
    }

    pub fn open_url(&self, url: String) {
        self.open_url_as(url, false);
    }

    /// `demo`: the demo, read by a worker of its own (`load::Source::Demo`).
    pub fn open_url_as(&self, url: String, demo: bool) {
        self.load.next_source.set(Source::Url(url.clone()));
        let name = name_of(&url);
        let seq = self.start_load(name.clone());
        if demo {
            self.load.demo_seq.set_value(seq);
        }
        let a = *self;
        leptos::task::spawn_local(async move {
            let source = if demo {
                load::Source::Demo(url)
            } else {
                load::Source::Url(url)
            };
            let r = a.load_in_steps(seq, &name, source).await;
            a.finish_loaded(seq, name, r, false);
        });
    }

    /// Fetches two profiles and opens them as a diff, base (before) → target (after).
    pub fn open_pair(&self, base_url: String, target_url: String) {
        self.load.next_source.set(Source::Pair {
            base: base_url.clone(),
            target: target_url.clone(),
        });
        let (bname, tname) = (name_of(&base_url), name_of(&target_url));
        let seq = self.start_load(format!("{bname} and {tname}"));
        let a = *self;
        leptos::task::spawn_local(async move {
            let base = a.load_in_steps(seq, &bname, load::Source::Url(base_url)).await;
            let target = a.load_in_steps(seq, &tname, load::Source::Url(target_url)).await;
            let base_ok = base.is_ok();
            a.finish_loaded(seq, bname, base, false);
            if base_ok {
                a.finish_loaded(seq, tname, target, true);
            }
        });
    }

    /// Opens the profile carried in a link (`p=`; with `pb=`, a diff of the two).
    pub fn open_embedded(&self, payload: String, base_payload: Option<String>) {
        self.load.next_source.set(Source::Embedded {
            profile: payload.clone(),
            base: base_payload.clone(),
        });
        let seq = self.start_load("the profile in the link".to_string());
        let import = |p: &str| -> Result<scorch_core::Imported, LoadError> {
            let bytes =
                scorch_core::export::links::decode(p).map_err(|e| LoadError::Import(e.to_string()))?;
            Ok(crate::worker::import_folded(&bytes)?)
        };
        if base_payload.is_none() {
            // A large profile (a link carries up to tens of MB, deflated) is imported and built in the import
            // worker, as a file is; a small one here, at once.
            // Asked without inflating the whole payload here: a link's profile may inflate to 256 MB.
            let large = scorch_core::export::links::inflates_past(&payload, LINK_IN_WORKER);
            if large {
                let a = *self;
                let name = "profile from the link".to_string();
                leptos::task::spawn_local(async move {
                    let r = a.load_in_steps(seq, &name, load::Source::Link(payload)).await;
                    a.finish_loaded(seq, name, r, false);
                });
                return;
            }
        }
        match base_payload {
            Some(b) => {
                self.finish_import(seq, "base (from the link)".to_string(), import(&b), false);
                self.finish_import(seq, "target (from the link)".to_string(), import(&payload), true);
            }
            None => self.finish_import(seq, "profile from the link".to_string(), import(&payload), false),
        }
    }

    /// Pasted text: read by an import worker as a file is (the page's wasm has no importers).
    pub fn open_text(&self, name: &str, text: &str) {
        let parts = js_sys::Array::of1(&text.into());
        match web_sys::File::new_with_str_sequence(&parts, name) {
            Ok(file) => self.open_file(file),
            Err(_) => self
                .load
                .error
                .set(Some(format!("Could not open {name}: the text could not be read"))),
        }
    }

    /// Imports in the worker, showing its progress while this load (`seq`) is the latest; then builds the
    /// flame graph of the default view in steps, each its own task, so the page never freezes for long.
    async fn load_in_steps(
        &self,
        seq: u64,
        name: &str,
        source: load::Source,
    ) -> Result<Arc<Loaded>, LoadError> {
        // A task of its own: what started the load (the page's start reading the address) ends first. The first
        // load's code is compiled by V8 as it first runs, on the page's thread: with the start's reading of the
        // address it was one task of 50–70 ms while the worker parsed (2 cores). A file (picked, dropped) goes
        // to its worker at once: its handler is short, and the yield waited for the frame the handler's
        // "Loading…" makes (8 ms of a 1 MB file's ~100, Chromium trace), which now draws while the worker reads.
        if !matches!(source, load::Source::File(_)) {
            crate::worker::yield_now().await;
        }
        let l = self.load;
        let order = self.view.order.get_untracked();
        let done = load::load(source, order, move |p| {
            if l.seq.get_untracked() == seq {
                l.progress.set(Some(p));
            }
        })
        .await?;
        if l.seq.get_untracked() != seq {
            return Err(LoadError::Cancelled);
        }
        // A small profile's steps take a few ms together: one task (a yield can cost a frame).
        let small = done.small;
        let heat = done.heat;
        let step = move || async move {
            if !small {
                yield_now().await;
            }
        };
        step().await;
        let key = done.key;
        let loaded = super::timed("Loaded::new", || {
            let l = match key {
                Some(key) => Loaded::with_key(name.to_string(), done.imported, key),
                None => Loaded::new(name.to_string(), done.imported),
            };
            Arc::new(l.with_first_figures(done.figures))
        });
        let view = ViewOptions::default_for(&loaded.imported.profile);
        // A large profile's first answer comes without its figures: asked of the view engine once the profile
        // is shown (`finish_loaded`; asked before the import worker that read it is the engine, they would start
        // another and send it the profile).
        if key.is_some() && loaded.kept_figures(&view).is_none() {
            loaded.await_figures(view.clone());
        }
        let data = match done.flame {
            // Built by the worker (for this order and the default view).
            Some(flame) => FlameData::from_flame(loaded.clone(), view.clone(), flame, Job::Plain, order),
            None => {
                let tree = scorch_core::CallTree::build(&loaded.imported.profile, &view, order);
                step().await;
                FlameData::from_tree(loaded.clone(), view.clone(), tree)
            }
        };
        // How many rows each subtree reaches, which every paint needs: sent with the worker's tree; else (a
        // profile read on the page) one walk of the tree, in a step of its own rather than in the first paint's
        // task.
        step().await;
        super::timed("heights", || data.heights().len());
        l.prebuilt.set_value(Some((Arc::new(data), order)));
        step().await;
        let opts = self.heat.options();
        // The worker's grid, when it was made with the options the page has.
        let h = match heat {
            Some(h) if opts == Default::default() => h,
            _ => super::timed("heatmap", || {
                scorch_core::analysis::heatmap::heatmap(&loaded.imported.profile, &view, &opts)
            }),
        };
        l.prebuilt_heat.set_value(Some((loaded.clone(), view, opts, h)));
        step().await;
        Ok(loaded)
    }

    /// Stops the load under way; the open profile stays.
    pub fn cancel_load(&self) {
        let l = self.load;
        if l.busy.get_untracked().is_none() {
            return;
        }
        load::cancel();
        l.seq.update(|s| *s += 1);
        l.busy.set(None);
        l.progress.set(None);
        l.pending.set(None);
        l.error.set(Some(
            "Loading cancelled. The open profile (if any) is unchanged.".to_string(),
        ));
    }
}

/// Does this file start as an ELF binary does?
async fn is_elf(f: &web_sys::File) -> bool {
    let Ok(head) = f.slice_with_i32_and_i32(0, 4) else {
        return false;
    };
    match wasm_bindgen_futures::JsFuture::from(head.array_buffer()).await {
        Ok(buf) => scorch_core::import::perfdata::elf::is_elf(&js_sys::Uint8Array::new(&buf).to_vec()),
        Err(_) => false,
    }
}

/// The longest a large profile's figures wait for its first picture ([`figures_later`]).
const FIGURES_WAIT_MS: f64 = 500.0;

/// Asks the view engine for the figures of `loaded`'s `view` (the stack health, the coverage, the sample count)
/// once the first picture is painted, and keeps them; without them (the engine failed), they are computed here
/// when next asked for. Then the status line asks again (`figures_came`).
fn figures_later(
    l: super::load::LoadState,
    loaded: Arc<Loaded>,
    view: ViewOptions,
    order: scorch_core::view::calltree::Order,
) {
    use crate::worker::build::{self as worker_build, Built, Channel};
    leptos::task::spawn_local(async move {
        // After the first picture: asked for with it, the engine computed them (folded 100 MB: 90–100 ms of its
        // thread) while the page painted, and on two cores that paint took 47–67 ms instead of 17–35 (a task
        // over 50 ms in 5 loads of 6; docs/BENCHMARKS.md).
        crate::render::flame::after_next_paint(FIGURES_WAIT_MS).await;
        let r = worker_build::build(
            Channel::Figures,
            loaded.key,
            &loaded.imported,
            view.clone(),
            order,
            vec![Job::Figures],
        )
        .await;
        match r.map(|mut v| v.pop()) {
            Ok(Some(Ok(Built::Figures(f)))) => loaded.keep_figures(view, f),
            _ => loaded.stop_awaiting(),
        }
        l.figures_came.update(|n| *n += 1);
    });
}
