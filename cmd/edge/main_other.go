//go:build !(js && wasm)

package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"net/http"
	"os"

	"wkpi-web/core/model"
)

// The native build converts a model file to the Worker's bundled form
// (make edge does this) or serves the same API without Workers KV, for
// trying it locally without wrangler:
//
//	go run ./cmd/edge -model cmd/edge/model.json -stored build/edge/model.bin
//	go run ./cmd/edge -model cmd/edge/model.json -addr 127.0.0.1:9900
func main() {
	file := flag.String("model", "cmd/edge/model.json", "model file from wkpi train")
	out := flag.String("stored", "", "write the model in the Worker's form (encodeModel) to this file and exit")
	addr := flag.String("addr", "127.0.0.1:9900", "listen address")
	flag.Parse()
	if err := run(*file, *out, *addr); err != nil {
		fmt.Fprintln(os.Stderr, "edge:", err)
		os.Exit(1)
	}
}

func run(file, out, addr string) error {
	f, err := os.Open(file)
	if err != nil {
		return err
	}
	m, err := model.Load(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", file, err)
	}
	b, err := encodeModel(m)
	if err != nil {
		return err
	}
	if out != "" {
		return os.WriteFile(out, b, 0o644)
	}
	log.Printf("serving the API on http://%s/api/health", addr)
	bundled := func(context.Context) ([]byte, error) { return b, nil }
	return http.ListenAndServe(addr, &API{Version: "native", Bundled: bundled, Cache: &Cache{}})
}
