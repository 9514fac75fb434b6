// The vector loops of core/kernel (kernel.wasm, assembled from
// core/kernel/terms_wasm.wat) for a Go program built with -tags wkpisimd,
// which imports them as module "wkpi_kernel". wkpiKernel(go, kernelModule)
// adds those imports to go.importObject and returns attach(instance), which
// instantiates the module on the Go instance's memory; call attach before
// go.run. The module needs the Go program's memory and the program needs
// the module's functions, so the imports call the module through a
// variable that attach sets. Loaded by worker.js, and by the tests under
// Node (core/kernel/testdata/wasm_exec_kernel.js).
"use strict";
function wkpiKernel(go, kernelModule) {
  let kernel = null;
  const imports = {};
  for (const { name, kind } of WebAssembly.Module.exports(kernelModule)) {
    if (kind === "function") imports[name] = (...args) => kernel[name](...args);
  }
  go.importObject.wkpi_kernel = imports;
  return (instance) => {
    kernel = new WebAssembly.Instance(kernelModule, { go: { mem: instance.exports.mem } }).exports;
  };
}
if (typeof module !== "undefined") module.exports = wkpiKernel;
