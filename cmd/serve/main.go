// Command serve serves the static site of build/web (or dist/) for
// development and for the browser tests: correct MIME types
// (application/wasm), the .br or .gz copy when the client accepts it, with
// a Content-Length, "no-cache" so that a new build is picked up at once
// (the service worker, not HTTP caching, gives offline), and a year's
// caching for content-hashed files (app.1a2b3c4d5e6f.wasm), whose name
// changes with their content.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log"
	"mime"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8000", "listen address")
	root := flag.String("root", "build/web", "site folder (make web builds it)")
	flag.Parse()
	if _, err := os.Stat(filepath.Join(*root, "index.html")); err != nil {
		fmt.Fprintf(os.Stderr, "serve: %v (run make web first)\n", err)
		os.Exit(1)
	}
	log.Printf("serving %s on http://%s", *root, *addr)
	log.Fatal(http.ListenAndServe(*addr, Handler(*root)))
}

// types fixes the MIME types that matter and that a system's mime tables
// may lack or get wrong.
var types = map[string]string{
	".wasm":        "application/wasm",
	".js":          "text/javascript; charset=utf-8",
	".css":         "text/css; charset=utf-8",
	".html":        "text/html; charset=utf-8",
	".webmanifest": "application/manifest+json",
	".png":         "image/png",
	".zip":         "application/zip",
}

// Handler serves the files under root. A path without an extension that
// names no file gets index.html (the app has client-side routes).
func Handler(root string) http.Handler {
	fsys := os.DirFS(root)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
		if name == "" {
			name = "index.html"
		}
		if st, err := fs.Stat(fsys, name); (err != nil || st.IsDir()) && path.Ext(name) == "" {
			name = "index.html"
		}
		ctype := types[path.Ext(name)]
		if ctype == "" {
			ctype = mime.TypeByExtension(path.Ext(name))
		}
		h := w.Header()
		h.Set("Cache-Control", "no-cache")
		if hashed.MatchString(name) {
			h.Set("Cache-Control", "public, max-age=31536000, immutable")
		}
		h.Set("Vary", "Accept-Encoding")
		h.Set("X-Content-Type-Options", "nosniff")
		if ctype != "" {
			h.Set("Content-Type", ctype)
		}
		for _, enc := range encodings {
			if !accepts(r, enc.name) {
				continue
			}
			if f, err := fsys.Open(name + enc.ext); err == nil {
				defer f.Close()
				h.Set("Content-Encoding", enc.name)
				// A range of the encoded bytes means nothing to the
				// client: send it whole.
				r = r.Clone(r.Context())
				r.Header.Del("Range")
				if st, err := f.Stat(); err == nil {
					// ServeContent omits the length of encoded content.
					h.Set("Content-Length", strconv.FormatInt(st.Size(), 10))
				}
				serve(w, r, name, f)
				return
			}
		}
		f, err := fsys.Open(name)
		if errors.Is(err, fs.ErrNotExist) {
			http.NotFound(w, r)
			return
		}
		if err != nil {
			http.Error(w, "cannot read "+name, http.StatusInternalServerError)
			return
		}
		defer f.Close()
		serve(w, r, name, f)
	})
}

func serve(w http.ResponseWriter, r *http.Request, name string, f fs.File) {
	st, err := f.Stat()
	if err != nil || st.IsDir() {
		http.NotFound(w, r)
		return
	}
	rs, ok := f.(interface {
		Read([]byte) (int, error)
		Seek(int64, int) (int64, error)
	})
	if !ok {
		http.Error(w, "cannot seek "+name, http.StatusInternalServerError)
		return
	}
	// ServeContent adds Last-Modified and answers If-Modified-Since, so
	// "no-cache" revalidation costs a 304, not a download.
	http.ServeContent(w, r, name, st.ModTime(), rs)
}

// encodings are the precompressed copies cmd/static writes, best first.
var encodings = []struct{ name, ext string }{{"br", ".br"}, {"gzip", ".gz"}}

// hashed matches the content-hashed names of cmd/static -hash.
var hashed = regexp.MustCompile(`\.[0-9a-f]{12}\.[A-Za-z0-9]+$`)

// accepts reports whether Accept-Encoding allows enc (q=0 refuses it).
func accepts(r *http.Request, enc string) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		e, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(e) == enc && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}
