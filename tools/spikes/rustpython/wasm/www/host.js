// The wasm module imports "host" (import map -> this file). read/collective/poll are
// WebAssembly.Suspending wrappers around functions the page installs on globalThis.__host.
// set_sp is a plain import: Rust calls it right after a suspended call returns, to put the
// resumed stack's shadow-stack pointer back into the exported __stack_pointer global.
const H = () => globalThis.__host;
function suspending(name) {
  return new WebAssembly.Suspending((...args) => {
    const h = H();
    const r = h[name](...args);
    if (r instanceof Promise) h.suspends++;
    return r;
  });
}
export const read = suspending("read");
export const collective = suspending("collective");
export const poll = suspending("poll");
export function set_sp(v) {
  const h = H();
  // record the shadow-stack depth at each suspension point, per region
  for (let i = 0; i < h.stackTop.length; i++) {
    const d = h.stackTop[i] - v;
    if (d >= 0 && d < h.STACK) h.maxDepth[i] = Math.max(h.maxDepth[i] ?? 0, d);
  }
  h.lastSP = v;
  if (h.switchSP) h.sp.value = v;
}
