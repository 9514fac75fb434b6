// Command edge is the Cloudflare Worker of wkpi-web (built with
// github.com/syumai/workers): Workers static assets serve the site of
// `make dist`, and the Worker answers the prediction API:
//
//	GET  /api/health                          {"ok":true,"version":"..."}
//	POST /api/predict[?format=F][&model=NAME]  one graph file, or {"smiles": ...} -> predictions
//	PUT  /api/models/NAME                     store a model in KV (bearer token)
//
// The bundled model (MUTAG, `wkpi train` defaults) is embedded at build
// time by `make edge`; others live in the KV namespace bound as MODELS,
// and uploads need the secret API_TOKEN. Bad input gets a JSON error with a
// 4xx status, never a 5xx. docs/deploy.md says how to deploy it.
//
// Only main_js.go touches the Workers runtime; the API itself (handler.go)
// is plain net/http and is tested natively as well as under wrangler dev.
// This package is never imported by the browser binaries: syumai/workers
// in a browser wasm stops it from starting.
package main
