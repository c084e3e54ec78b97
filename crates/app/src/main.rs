//! Mounts the app; everything else lives in the library so tests can use it. The same wasm runs the import
//! worker (`www/worker.js`): there is no window there.
fn main() {
    console_error_panic_hook::set_once();
    #[cfg(feature = "testing")]
    scorch_app::install_test_hooks();
    if web_sys::window().is_none() {
        scorch_app::worker::run();
        return;
    }
    leptos::mount::mount_to_body(scorch_app::App);
}
