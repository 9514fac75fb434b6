package main

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
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
	write("manifest.webmanifest", "{}")
	h := Handler(filepath.Join(root))

	for _, tc := range []struct {
		name, path, accept    string
		status                int
		ctype, encoding, body string
	}{
		{"index", "/", "", 200, "text/html; charset=utf-8", "", "<html>page</html>"},
		{"client route falls back to the page", "/explore", "", 200, "text/html; charset=utf-8", "", "<html>page</html>"},
		{"wasm raw", "/web/app.wasm", "", 200, "application/wasm", "", "raw wasm"},
		{"wasm gzip", "/web/app.wasm", "br, gzip", 200, "application/wasm", "gzip", "raw wasm"},
		{"gzip refused", "/web/app.wasm", "gzip;q=0", 200, "application/wasm", "", "raw wasm"},
		{"manifest", "/manifest.webmanifest", "", 200, "application/manifest+json", "", "{}"},
		{"missing asset", "/web/nope.js", "", 404, "", "", ""},
		{"no escape from root", "/../../etc/passwd", "", 200, "text/html; charset=utf-8", "", "<html>page</html>"},
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
			if got := res.Header.Get("Cache-Control"); got != "no-cache" {
				t.Errorf("Cache-Control %q", got)
			}
			body := io.Reader(res.Body)
			if tc.encoding == "gzip" {
				zr, err := gzip.NewReader(res.Body)
				if err != nil {
					t.Fatal(err)
				}
				body = zr
			}
			b, _ := io.ReadAll(body)
			if string(b) != tc.body {
				t.Errorf("body %q, want %q", b, tc.body)
			}
		})
	}
}
