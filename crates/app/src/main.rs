//! The page's wasm (`scorch-app_bg.wasm`): mounts the app; everything else lives in the library so tests can
//! use it. The workers run the engine's wasm (`engine.rs`), built from the same library without the page.
fn main() {
    console_error_panic_hook::set_once();
    #[cfg(feature = "testing")]
    scorch_app::install_test_hooks();
    // In a task of its own, not the one that instantiated the wasm: the start is cut into short tasks (the
    // app's `Stage`s), and this one already holds the instantiation and the glue's start.
    wasm_bindgen_futures::spawn_local(async {
        scorch_app::worker::yield_now().await;
        leptos::mount::mount_to_body(scorch_app::App);
        // The page's placeholder (index.html) goes once the app is on the page.
        if let Some(shell) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("boot-shell"))
        {
            shell.remove();
        }
    });
}
