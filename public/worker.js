// Classic Web Worker bootstrap: load Go's wasm_exec.js and core/kernel's
// vector loops (kernel.js, kernel.wasm), run the Go program, and tell the
// page when it stops (panic, out of memory), so the pool can replace this
// worker. The program is worker.wasm, or classifier.wasm (classifying
// jobs only, a smaller download) when the page names the worker
// "classifier" (wasm/pool's Browser).
// URLs are relative to this script, so the site also works under a
// sub-path; cmd/static -hash gives the files below their hashed names.
"use strict";
importScripts("../wasm_exec.js", "kernel.js");

const full = "worker.wasm";
const program = self.name === "classifier" ? "classifier.wasm" : full;

const early = [];
self.onmessage = (e) => early.push(e); // messages that arrive while loading

(async () => {
  let code = 0;
  try {
    const go = new Go();
    const exit = go.exit;
    go.exit = (c) => { code = c; exit(c); };
    const kernel = await WebAssembly.compileStreaming(fetch("kernel.wasm")).catch((err) => {
      if (err instanceof WebAssembly.CompileError) {
        throw new Error("this browser cannot run WebAssembly SIMD, which the computations need " +
          "(Chrome or Edge 91, Firefox 89, Safari 16.4 or later): " + err.message);
      }
      throw err;
    });
    const attach = wkpiKernel(go, kernel);
    // Offline, a site may hold only the full worker in its cache (it was
    // fetched, the classifier never was); the full worker classifies too.
    const wasm = fetch(program).then((r) => r.ok ? r : Promise.reject(new Error(program + ": HTTP " + r.status)))
      .catch((err) => program === full ? Promise.reject(err) : fetch(full));
    const { instance } = await WebAssembly.instantiateStreaming(wasm, go.importObject);
    attach(instance);
    const done = go.run(instance); // main sets self.onmessage, then blocks
    for (const e of early) self.onmessage(e);
    await done;
    self.postMessage({ exit: "the worker's Go program stopped (exit code " + code + ")" });
  } catch (err) {
    self.postMessage({ exit: "the worker failed: " + err });
  }
})();
