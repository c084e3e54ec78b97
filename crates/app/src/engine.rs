//! The engine's wasm (`scorch-engine_bg.wasm`): what runs in scorch's workers — the import workers, the view
//! engine and the parse workers (`www/worker.js`) — and nothing of the page: no Leptos, no components. The
//! page's wasm (`main.rs`) has no importers; they meet only in `worker::protocol`'s messages.
fn main() {
    console_error_panic_hook::set_once();
    #[cfg(feature = "testing")]
    scorch_app::install_test_hooks();
    scorch_app::worker::run();
}
