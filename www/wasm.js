// Compiling one of scorch's two wasm binaries (`name`): the page's (`scorch-app`) and the engine's
// (`scorch-engine`), both by the import worker boot.js starts (www/worker.js, which posts them to the page), at
// once; by boot.js itself (the page's) or by a later worker (the engine's) when that worker cannot.
//
// Each is also shipped gzip'd (`NAME_bg.wasm.gz`, Trunk.toml's post-build hook): many internal web
// servers send `.wasm` uncompressed (nginx compresses only text/html unless told), and its bytes on the wire are
// most of a small profile's time to open (docs/BENCHMARKS.md). It is inflated while it compiles (off the page's
// thread, where it was one task of 86 ms with the compile's decoding). A server that already decodes it
// (`Content-Encoding: gzip` for `.gz`) hands over the wasm itself, which is compiled as is; one without the
// file, or a browser without DecompressionStream, gets the plain `.wasm`.
const urls = (name) => ({
  gzUrl: new URL(`../${name}_bg.wasm.gz`, import.meta.url),
  wasmUrl: new URL(`../${name}_bg.wasm`, import.meta.url),
});

async function compressed(gzUrl, given) {
  if (typeof DecompressionStream !== 'function' || given === false) return null;
  let stream = given;
  if (!stream) {
    const response = await fetch(gzUrl);
    if (!response.ok || !response.body) return null;
    stream = response.body;
  }
  const reader = stream.getReader();
  let first = await reader.read();
  while (!first.done && first.value.length < 2) {
    // Too short to tell: join it with the next chunk.
    const next = await reader.read();
    if (next.done) break;
    const joined = new Uint8Array(first.value.length + next.value.length);
    joined.set(first.value);
    joined.set(next.value, first.value.length);
    first = { done: false, value: joined };
  }
  if (first.done) return null;
  const gzip = first.value[0] === 0x1f && first.value[1] === 0x8b;
  let body = new ReadableStream({
    start(c) { c.enqueue(first.value); },
    async pull(c) {
      const { done, value } = await reader.read();
      if (done) c.close(); else c.enqueue(value);
    },
    cancel(why) { return reader.cancel(why); },
  });
  if (gzip) body = body.pipeThrough(new DecompressionStream('gzip'));
  return WebAssembly.compileStreaming(new Response(body, { headers: { 'content-type': 'application/wasm' } }));
}

/** The compiled module `name`: from the gzip'd file when there is one, else from the plain one. `gz`: the
 * gzip'd file's body, when the page asked for it already (www/boot.js); `false` when it found none. */
export async function compileWasm(name, gz) {
  const { gzUrl, wasmUrl } = urls(name);
  let module;
  try {
    module = await compressed(gzUrl, gz);
  } catch { module = null; }
  if (module) return module;
  try {
    return await WebAssembly.compileStreaming(fetch(wasmUrl));
  } catch {
    // A server that does not send `application/wasm`: compile from the bytes.
    return WebAssembly.compile(await (await fetch(wasmUrl)).arrayBuffer());
  }
}
