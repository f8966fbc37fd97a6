// Content script of the snapshot test rig, only on /rig-control.html: relays the test driver's calls to the rig
// background and posts the answers back. Test-only.
addEventListener('message', (e: MessageEvent) => {
  const d = e.data as { rigReq?: number; fn?: string; args?: unknown[] } | null;
  if (e.source !== window || !d || typeof d.rigReq !== 'number') return;
  void chrome.runtime.sendMessage({ rig: d.fn, args: d.args }).then(
    (r: unknown) => window.postMessage({ rigRes: d.rigReq, r }, '*'),
    (err: unknown) => window.postMessage({ rigRes: d.rigReq, r: { error: { code: 'internal', message: String(err) } } }, '*'),
  );
});
document.documentElement.dataset.rig = 'ready';
