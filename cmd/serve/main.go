// Command serve serves the static site of build/web for development and
// for the browser tests: correct MIME types (application/wasm), the .gz
// copy when the client accepts gzip, and "no-cache" so that a new build is
// picked up at once (the service worker, not HTTP caching, gives offline).
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
		h.Set("Vary", "Accept-Encoding")
		h.Set("X-Content-Type-Options", "nosniff")
		if ctype != "" {
			h.Set("Content-Type", ctype)
		}
		if acceptsGzip(r) {
			if f, err := fsys.Open(name + ".gz"); err == nil {
				defer f.Close()
				h.Set("Content-Encoding", "gzip")
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

func acceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(enc) == "gzip" && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}
