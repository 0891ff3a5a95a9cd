const QS = new URLSearchParams(location.search);
const PKG = QS.get("pkg") ?? "pkg";
const { default: init } = await import(`./${PKG}/rpspike.js`);
const T = { jspi: typeof WebAssembly.Suspending === "function" && typeof WebAssembly.promising === "function" };
const log = (s) => { document.getElementById("log").textContent += s + "\n"; };
let ticks = 0;
setInterval(() => { ticks++; document.getElementById("ticks").textContent = ticks; }, 1);
let stopFlag = 0, lastYield = performance.now();
document.getElementById("stop").onclick = () => { stopFlag = 1; };

const host = (globalThis.__host = {
  switchSP: false, sp: null, suspends: 0, stackTop: [], maxDepth: [], STACK: 0,
  read: async (x) => { await new Promise((r) => setTimeout(r, 5)); return x * 2; },
  collective: null,
  poll: () => {
    const now = performance.now();
    if (now - lastYield < 16) return stopFlag;
    return new Promise((r) => setTimeout(() => { lastYield = performance.now(); r(stopFlag); }, 0));
  },
});

const t0 = performance.now();
const wasm = await init({ module_or_path: `./${PKG}/rpspike_bg.wasm` });
T.instantiated = performance.now();
T.memInstantiated = wasm.memory.buffer.byteLength;
host.sp = wasm.__stack_pointer;
const mainSP = host.sp ? host.sp.value : 0;
const enc = new TextEncoder(), dec = new TextDecoder();
const runP = WebAssembly.promising(wasm.rp_run);
const stackTop = host.stackTop;
const STACK = (host.STACK = +(QS.get('stack') ?? (1 << 20)));

function put(src) {
  const b = enc.encode(src);
  const p = wasm.rp_alloc(b.length);
  new Uint8Array(wasm.memory.buffer, p, b.length).set(b);
  return [p, b.length];
}
function take(p) {
  const n = new DataView(wasm.memory.buffer).getUint32(p, true);
  const s = dec.decode(new Uint8Array(wasm.memory.buffer, p + 4, n).slice());
  wasm.rp_free(p, n + 4);
  return s;
}
function newRank() {
  const top = wasm.rp_alloc_stack(STACK);
  if (host.switchSP) host.sp.value = top;
  const i = wasm.rp_new();
  if (host.switchSP) host.sp.value = mainSP;
  stackTop[i] = top;
  return i;
}
// Start `src` on interpreter i; returns a promise of its captured output.
function run(i, src) {
  const [p, n] = put(src);
  if (host.switchSP) host.sp.value = stackTop[i];
  const pr = runP(i, p, n);
  if (host.switchSP) host.sp.value = mainSP;
  return pr.then(take);
}

const r0 = newRank();
T.ready = performance.now();
T.memReady = wasm.memory.buffer.byteLength;
const first = await run(r0, "print('hello from rustpython')");
T.firstPrint = performance.now();
T.firstOut = first;
log(JSON.stringify(T));

globalThis.spike = {
  T, wasm, host, run, newRank, mainSP, stackTop,
  get ticks() { return ticks; },
  setStop(v) { stopFlag = v; },
  mem: () => wasm.memory.buffer.byteLength,
};
globalThis.__ready = true;
