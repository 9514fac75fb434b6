// The wkpi-web Worker's entry module, copied into build/edge by `make edge`
// in place of the worker.mjs that syumai/workers' workers-assets-gen
// writes (v0.32.0), beside that tool's wasm_exec.js, whose Go.run(instance,
// context) hands the Go program a runtime context.
//
// syumai/workers' worker.mjs starts a new Go instance for every request:
// the runtime, package init and main, every time. This one keeps one Go
// instance per isolate:
//
//   - The Go side (main_js.go) calls workers.ServeNonBlock and
//     workers.Ready, then blocks forever instead of returning after one
//     response. It answers with a body made in one piece (WriteRawJSBody),
//     never through syumai/workers' streamed body, whose end closes a
//     channel that a second request would close again.
//   - This module reads the request's body, then hands the method, URL,
//     headers and body to wkpiServe, a function the wasm module exports
//     (go:wasmexport), through a buffer in Go's memory: a request that
//     needs no I/O (the health check, a bad request, a prediction with the
//     bundled model once loaded) is answered by that one synchronous call,
//     without syumai/workers' conversions, promises and goroutines, nor a
//     js.FuncOf call, each of which costs more than a health check.
//     wkpiServe answers -1 for a request that needs I/O (KV, loading the
//     bundled model), which then goes through syumai/workers'
//     handleRequest.
//   - syumai/workers reads its runtime context ({binding, env, ctx}) once,
//     at its package init. The instance gets one context object for its
//     life, and each call into Go puts the calling request's env and ctx in
//     it for the call's synchronous part, then takes them out. The Go side
//     reads the env (cloudflare.Getenv, GetBinding) only there, before its
//     first wait, so what it reads is the current request's.
//   - Requests are not queued: a wait on a promise of another request
//     makes workerd cancel the waiting request as hung. None is needed:
//     JS runs one call at a time, wkpiServe finishes within its call, and
//     a request in handleRequest resumes only from its own promises' callbacks
//     (Go runs every goroutine it can before returning to JS, so nothing of
//     one request is left to run inside another's call). A request's I/O
//     objects are thus touched only in its own context, as workerd demands.
//   - If the Go program exits (a panic), the requests waiting on it get a
//     500 and the next request starts a new instance.
//
// docs/deploy.md tells the why and the measurements.
import "./wasm_exec.js";
import mod from "./app.wasm";

// syumai/workers' Go side calls this (its worker.mjs defines it too).
globalThis.tryCatch = (fn) => {
  try {
    return { result: fn() };
  } catch (e) {
    return { error: e };
  }
};

let instance; // {context, exports, exited, waiting}, one per isolate once started

// start runs a new Go instance up to workers.Ready(), synchronously:
// main sets up its handlers and calls Ready before it first blocks.
function start() {
  const inst = { context: { binding: {} }, exports: undefined, exited: false, waiting: new Set() };
  const go = new Go();
  const exit = go.importObject.gojs["runtime.wasmExit"];
  go.importObject.gojs["runtime.wasmExit"] = (sp) => {
    exit(sp);
    inst.exited = true;
    for (const reject of inst.waiting) {
      reject(new Error("the Go program exited"));
    }
  };
  let ready = false;
  const wasm = new WebAssembly.Instance(mod, {
    ...go.importObject,
    workers: { ready: () => (ready = true) },
  });
  inst.exports = wasm.exports;
  go.run(wasm, inst.context);
  if (!ready) {
    throw new Error("the Go program did not start");
  }
  return inst;
}

// call runs f (a call into Go) with the request's env and ctx in the
// runtime context.
function call(inst, env, ctx, f) {
  inst.context.env = env;
  inst.context.ctx = ctx;
  try {
    return f();
  } finally {
    inst.context.env = undefined;
    inst.context.ctx = undefined;
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// serveNow hands fields (strings, or a Uint8Array or null for the body) to
// the Go export wkpiServe and returns the answer's fields (status, head,
// body as Uint8Arrays; head decoded), or undefined when it needs I/O. The
// format is wkpiServe's (main_js.go): each field a little-endian uint32
// length, 0xffffffff for none, then its bytes.
function serveNow(exports, fields) {
  const parts = fields.map((f) => (typeof f === "string" ? encoder.encode(f) : f));
  const size = parts.reduce((n, p) => n + 4 + (p === null ? 0 : p.length), 0);
  let at = exports.wkpiBuffer(size);
  let mem = new Uint8Array(exports.mem.buffer);
  let view = new DataView(exports.mem.buffer);
  for (const p of parts) {
    view.setUint32(at, p === null ? 0xffffffff : p.length, true);
    at += 4;
    if (p !== null) {
      mem.set(p, at);
      at += p.length;
    }
  }
  const n = exports.wkpiServe(size);
  if (n < 0) {
    return undefined;
  }
  // Go's memory may have grown: new views, and the buffer's new address.
  at = exports.wkpiBuffer(n);
  mem = new Uint8Array(exports.mem.buffer);
  view = new DataView(exports.mem.buffer);
  const out = [];
  for (let i = 0; i < 3; i++) {
    const len = view.getUint32(at, true);
    out.push(mem.slice(at + 4, at + 4 + len));
    at += 4 + len;
  }
  out[1] = decoder.decode(out[1]);
  return out;
}

// maxBody is the most of a body handed to Go, one byte over the API's
// largest limit (a model upload, 16 MiB), so that Go still sees a body
// over a limit as such and refuses it (413).
const maxBody = 16 * 1024 * 1024 + 1;

async function readBody(req) {
  if (req.body === null) {
    return null;
  }
  const reader = req.body.getReader();
  const chunks = [];
  let n = 0;
  while (n < maxBody) {
    const { done, value } = await reader.read();
    if (done) {
      break;
    }
    chunks.push(value);
    n += value.byteLength;
  }
  if (n >= maxBody) {
    await reader.cancel();
  }
  const body = new Uint8Array(Math.min(n, maxBody));
  let at = 0;
  for (const c of chunks) {
    const part = c.subarray(0, body.length - at);
    body.set(part, at);
    at += part.length;
  }
  return body;
}

async function handle(req, env, ctx) {
  const body = await readBody(req);
  if (instance === undefined || instance.exited) {
    instance = undefined;
    instance = start();
  }
  const inst = instance;
  // A request that needs no I/O: one call, answered at once.
  // The API reads headers (Content-Type, Authorization) only in POST and
  // PUT requests; a GET's (a health check's) are not worth their copying.
  const lines = req.method === "GET" ? "" : Array.from(req.headers, ([name, value]) => name + ": " + value).join("\n");
  const answer = call(inst, env, ctx, () => serveNow(inst.exports, [req.method, req.url, lines, body]));
  if (inst.exited) {
    throw new Error("the Go program exited");
  }
  if (answer !== undefined) {
    const [status, head, out] = answer;
    const headers = new Headers();
    for (const line of head.split("\n")) {
      const at = line.indexOf(": ");
      if (at > 0) {
        headers.append(line.slice(0, at), line.slice(at + 2));
      }
    }
    return new Response(out, { status: new DataView(status.buffer, status.byteOffset).getUint32(0, true), headers });
  }
  // One that needs I/O: syumai/workers' request path.
  const again = new Request(req.url, { method: req.method, headers: req.headers, body });
  return await new Promise((resolve, reject) => {
    inst.waiting.add(reject);
    call(inst, env, ctx, () => inst.context.binding.handleRequest(again))
      .then(resolve, reject)
      .finally(() => inst.waiting.delete(reject));
  });
}

async function fetch(req, env, ctx) {
  try {
    return await handle(req, env, ctx);
  } catch (e) {
    console.error("wkpi-web worker:", e);
    return new Response(JSON.stringify({ error: "internal error: " + e.message }) + "\n", {
      status: 500,
      headers: { "Content-Type": "application/json", "Cache-Control": "no-store" },
    });
  }
}

export default { fetch };
