// A helper of the runtime's worker: a Web Worker with its own instance of the
// runtime's wasm module (compiled once, by the runtime's worker, and handed
// over), which computes shares of the reference backend's large matrix
// products with the reference's own kernel. Shares come and go by copy: the
// runtime's memory is not shared (crates/tpu-wasm/src/helpers.rs says why).
import { initSync, productShare } from "../pkg/tpu_wasm.js";
import type { FromHelper, ToHelper } from "./helpers.js";

function reply(message: FromHelper, transfer: Transferable[] = []) {
  (self as unknown as Worker).postMessage(message, transfer);
}

self.onmessage = (event: MessageEvent<ToHelper>) => {
  const message = event.data;
  if (message.type === "start") {
    try {
      initSync({ module: message.module });
      reply({ type: "ready" });
    } catch (e) {
      reply({ type: "failed", message: String(e) });
    }
    return;
  }
  const { id, batch, m, k, n, a, b, aT, bT } = message;
  try {
    const product = productShare(a, b, batch, m, k, n, aT, bT);
    reply({ type: "product", id, product }, [product.buffer]);
  } catch (e) {
    reply({ type: "error", id, message: String(e) });
  }
};
