//! A parsed profile as one compact buffer, to hand it from the import worker to the page.
//!
//! The columns go as they are (postcard: lengths and varints, no field names), so the buffer is about the
//! size of the profile's distinct content, not of the input. Both ends are the same build of scorch; a
//! version byte guards against a stale cached worker. Decoding never panics: a bad buffer is an error.

use crate::import::Imported;

/// Bumped whenever the model's shape changes.
const VERSION: u8 = 1;

/// Encodes an import for the page.
pub fn encode(imported: &Imported) -> Result<Vec<u8>, String> {
    let mut out =
        postcard::to_allocvec(imported).map_err(|e| format!("could not encode the profile: {e}"))?;
    out.push(VERSION);
    Ok(out)
}

/// Decodes what [`encode`] made.
pub fn decode(bytes: &[u8]) -> Result<Imported, String> {
    match bytes.split_last() {
        Some((&VERSION, body)) => {
            postcard::from_bytes(body).map_err(|e| format!("could not decode the profile from the worker: {e}"))
        }
        Some((v, _)) => Err(format!(
            "the import worker is another version of scorch (wire version {v}, expected {VERSION}); reload the page"
        )),
        None => Err("the import worker sent nothing".to_string()),
    }
}
