//! A perf.data recording opened with its binaries (dropped or picked together): the recording names code by
//! binary and offset (`spin+0x1155`); the ELF files beside it name those addresses as `perf script` would, each
//! matched by build id, else by file name (`scorch_core::import::perfdata::elf::Binaries`). Binaries without a
//! file keep their addresses, which the stack health lists. Shared by the import worker (`side.rs`) and the page
//! without one (`page.rs`).

use super::js_err;
use js_sys::{Array, Uint8Array};
use scorch_core::import::perfdata::{self, elf::Binaries};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// A binary larger than this is not read (its bytes are held whole while its symbols are read).
const MAX_BINARY_BYTES: f64 = 1024.0 * 1024.0 * 1024.0;

/// Names `imported`'s frames from the ELF files in `files` (an array of `File`s), when it is a perf.data
/// recording; other profiles are left as they are.
pub(super) async fn name_frames(imported: &mut scorch_core::Imported, files: &Array) -> Result<(), String> {
    if imported.profile.meta.format != scorch_core::Format::PerfData || files.length() == 0 {
        return Ok(());
    }
    let mut bins = Binaries::default();
    for f in files.iter() {
        let Ok(file) = f.dyn_into::<web_sys::File>() else {
            continue;
        };
        if file.size() > MAX_BINARY_BYTES {
            continue;
        }
        let buf = JsFuture::from(file.array_buffer()).await.map_err(js_err)?;
        bins.add(&file.name(), &Uint8Array::new(&buf).to_vec());
    }
    if !bins.is_empty() {
        imported.profile = perfdata::symbolize(&imported.profile, &mut bins);
    }
    Ok(())
}
