//! Mounts the app; everything else lives in the library so tests can use it.
fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(scorch_app::App);
}
