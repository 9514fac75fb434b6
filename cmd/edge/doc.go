// Command edge is the Cloudflare Worker of wkpi-web (built with
// github.com/syumai/workers): Workers static assets serve the site of
// `make dist`, and the Worker answers the prediction API:
//
//	GET  /api/health                          {"ok":true,"version":"..."}
//	POST /api/predict[?format=F][&model=NAME]  one graph file, or {"smiles": ...} -> predictions
//	POST /api/explain[?format=F][&model=NAME]  the same body -> explanations (docs/explain.md)
//	PUT  /api/models/NAME                     store a model in KV (bearer token)
//
// The bundled model (MUTAG, `wkpi train` defaults) is put among the
// Worker's static assets by `make edge` and read once per Go instance;
// others live in the KV namespace bound as MODELS, and uploads need the
// secret API_TOKEN. Models are kept in a compact form of their own
// (form.go) and kept prepared (model.Prepare) for the requests of an
// instance. Bad input gets a JSON error with a 4xx status, never a
// 5xx. docs/deploy.md says how to deploy it.
//
// The project's worker.mjs keeps one Go instance per isolate, where
// syumai/workers' own starts one per request; only it and main_js.go
// touch the Workers runtime. The API itself (handler.go) is plain
// net/http and is tested natively as well as under wrangler dev.
// This package is never imported by the browser binaries: syumai/workers
// in a browser wasm stops it from starting.
package main
