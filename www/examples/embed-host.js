// The example host's side of scorch's message API (docs/SHARING.md, "Embedding"): send `load` (bytes or url)
// and `view` messages to the framed viewer, listen for `ready`, `loaded`, `select` and `error`.
const frame = document.getElementById('viewer');
const log = document.getElementById('log');
const viewer = new URL(frame.src, location.href).origin;
// What the viewer said, in order (read by tests/e2e/embed.test.mjs).
window.scorchMessages = [];

window.addEventListener('message', (e) => {
  // Only the framed viewer's messages: another frame or origin could post here too.
  if (e.source !== frame.contentWindow || e.origin !== viewer) return;
  window.scorchMessages.push(e.data);
  const li = document.createElement('li');
  li.dataset.type = String(e.data && e.data.type);
  li.textContent = JSON.stringify(e.data);
  log.append(li);
});

const send = (msg, transfer = []) => frame.contentWindow.postMessage(msg, viewer, transfer);

document.getElementById('file').addEventListener('change', async (ev) => {
  const f = ev.target.files[0];
  if (!f) return;
  const bytes = await f.arrayBuffer();
  send({ type: 'load', bytes, name: f.name }, [bytes]);
});
document.getElementById('demo').addEventListener('click', async () => {
  const bytes = await (await fetch('../demo/service.perf.gz')).arrayBuffer();
  send({ type: 'load', bytes, name: 'service.perf.gz' }, [bytes]);
});
document.getElementById('sandwich').addEventListener('click', () => send({ type: 'view', state: 'mode=sandwich&sel=main' }));
document.getElementById('flame').addEventListener('click', () => send({ type: 'view', state: 'mode=flame' }));
