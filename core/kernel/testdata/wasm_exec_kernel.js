// Runs a Go program built for GOOS=js GOARCH=wasm -tags wkpisimd under
// Node with the module of core/kernel/terms_wasm.wat, as Go's own
// lib/wasm/wasm_exec_node.js runs one without it:
//
//   node wasm_exec_kernel.js GOROOT/lib/wasm/wasm_exec.js kernel.wasm program.wasm [args]
"use strict";
const [wasmExec, kernelWasm, program, ...args] = process.argv.slice(2);
globalThis.require = require;
globalThis.fs = require("fs");
globalThis.path = require("path");
globalThis.TextEncoder = require("util").TextEncoder;
globalThis.TextDecoder = require("util").TextDecoder;
globalThis.performance ??= require("perf_hooks").performance;
globalThis.crypto ??= require("crypto");
require(path.resolve(wasmExec));
const wkpiKernel = require(path.join(__dirname, "../../../public/kernel.js"));

const go = new Go();
go.argv = [program, ...args];
go.env = Object.assign({ TMPDIR: require("os").tmpdir() }, process.env);
go.exit = process.exit;
(async () => {
  const attach = wkpiKernel(go, await WebAssembly.compile(fs.readFileSync(kernelWasm)));
  const { instance } = await WebAssembly.instantiate(fs.readFileSync(program), go.importObject);
  attach(instance);
  process.on("exit", (code) => {
    if (code === 0 && !go.exited) {
      // A deadlock: make Go print its error and stacks, as wasm_exec_node.js does.
      go._pendingEvent = { id: 0 };
      go._resume();
    }
  });
  await go.run(instance);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
