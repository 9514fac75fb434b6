package main

import (
	"bytes"
	"cmp"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/andybalholm/brotli"
)

func TestHandler(t *testing.T) {
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.html", "<html>page</html>")
	write("web/app.wasm", "raw wasm")
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte("raw wasm"))
	zw.Close()
	write("web/app.wasm.gz", gz.String())
	var br bytes.Buffer
	bw := brotli.NewWriter(&br)
	bw.Write([]byte("raw wasm"))
	bw.Close()
	write("web/app.wasm.br", br.String())
	write("web/worker.0123456789ab.wasm", "hashed")
	write("manifest.webmanifest", "{}")
	h := Handler(filepath.Join(root))

	for _, tc := range []struct {
		name, path, accept    string
		status                int
		ctype, encoding, body string
		cache                 string // Cache-Control; "" means no-cache
	}{
		{"index", "/", "", 200, "text/html; charset=utf-8", "", "<html>page</html>", ""},
		{"client route falls back to the page", "/explore", "", 200, "text/html; charset=utf-8", "", "<html>page</html>", ""},
		{"wasm raw", "/web/app.wasm", "", 200, "application/wasm", "", "raw wasm", ""},
		{"wasm brotli first", "/web/app.wasm", "gzip, deflate, br", 200, "application/wasm", "br", "raw wasm", ""},
		{"wasm gzip when brotli is refused", "/web/app.wasm", "br;q=0, gzip", 200, "application/wasm", "gzip", "raw wasm", ""},
		{"wasm gzip", "/web/app.wasm", "gzip", 200, "application/wasm", "gzip", "raw wasm", ""},
		{"gzip refused", "/web/app.wasm", "gzip;q=0", 200, "application/wasm", "", "raw wasm", ""},
		{"hashed file is cached for a year", "/web/worker.0123456789ab.wasm", "br, gzip", 200, "application/wasm", "", "hashed", "public, max-age=31536000, immutable"},
		{"manifest", "/manifest.webmanifest", "", 200, "application/manifest+json", "", "{}", ""},
		{"missing asset", "/web/nope.js", "", 404, "", "", "", ""},
		{"no escape from root", "/../../etc/passwd", "", 200, "text/html; charset=utf-8", "", "<html>page</html>", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, "http://x"+tc.path, nil)
			req.URL.Path = tc.path // keep the dot-dots that NewRequest would clean
			if tc.accept != "" {
				req.Header.Set("Accept-Encoding", tc.accept)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			res := rec.Result()
			if res.StatusCode != tc.status {
				t.Fatalf("status %d, want %d", res.StatusCode, tc.status)
			}
			if tc.status != 200 {
				return
			}
			if got := res.Header.Get("Content-Type"); got != tc.ctype {
				t.Errorf("Content-Type %q, want %q", got, tc.ctype)
			}
			if got := res.Header.Get("Content-Encoding"); got != tc.encoding {
				t.Errorf("Content-Encoding %q, want %q", got, tc.encoding)
			}
			if want := cmp.Or(tc.cache, "no-cache"); res.Header.Get("Cache-Control") != want {
				t.Errorf("Cache-Control %q, want %q", res.Header.Get("Cache-Control"), want)
			}
			raw, _ := io.ReadAll(res.Body)
			// Every answer has its length, compressed or not (no chunking).
			if got := res.Header.Get("Content-Length"); got != strconv.Itoa(len(raw)) {
				t.Errorf("Content-Length %q for %d bytes", got, len(raw))
			}
			body := io.Reader(bytes.NewReader(raw))
			switch tc.encoding {
			case "gzip":
				zr, err := gzip.NewReader(body)
				if err != nil {
					t.Fatal(err)
				}
				body = zr
			case "br":
				body = brotli.NewReader(body)
			}
			b, _ := io.ReadAll(body)
			if string(b) != tc.body {
				t.Errorf("body %q, want %q", b, tc.body)
			}
		})
	}
}
