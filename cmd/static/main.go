// Command static writes the static site into a folder (build/web by
// default): go-app's pages, manifest and service worker, our assets from
// public/, the demo datasets as zips, and gzip copies of what compresses.
// The Makefile builds app.wasm and worker.wasm into <out>/web first.
package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	ui "wkpi-web/app"
)

func main() {
	out := flag.String("out", "build/web", "site folder; app.wasm and worker.wasm must be in <out>/web")
	public := flag.String("public", "public", "folder of static assets copied to <out>/web")
	data := flag.String("data", "data", "folder holding the demo datasets (TU folders)")
	version := flag.String("version", "", "version of this build; it names the service worker's cache")
	flag.Parse()
	if err := build(*out, *public, *data, *version); err != nil {
		fmt.Fprintln(os.Stderr, "static:", err)
		os.Exit(1)
	}
}

func build(out, public, data, version string) error {
	if version == "" {
		return fmt.Errorf("-version is required: an empty version changes at every start and defeats caching")
	}
	web := filepath.Join(out, "web")
	wasm, err := os.Stat(filepath.Join(web, "app.wasm"))
	if err != nil {
		return fmt.Errorf("%w (build the wasm binaries first: make web)", err)
	}
	if _, err := os.Stat(filepath.Join(web, "worker.wasm")); err != nil {
		return fmt.Errorf("%w (build the wasm binaries first: make web)", err)
	}
	if err := copyDir(public, web); err != nil {
		return err
	}
	cacheable := []string{"/web/worker.js", "/web/worker.wasm", "/web/icon.svg"}
	for _, name := range ui.Demos {
		if err := zipDir(filepath.Join(data, name), filepath.Join(web, "datasets", name+".zip")); err != nil {
			return fmt.Errorf("demo dataset %s: %w (run make data)", name, err)
		}
		cacheable = append(cacheable, "/web/datasets/"+name+".zip")
	}
	ui.Register(nil)
	h := &app.Handler{
		Name:        "WKPI: learned persistence kernels for graphs",
		ShortName:   "WKPI",
		Title:       "WKPI",
		Description: "Graph classification with weighted persistence image kernels, computed in your browser.",
		Lang:        "en",
		// Local icons only: a remote one breaks the offline cache.
		Icon:            app.Icon{Default: "/web/icon-192.png", Large: "/web/icon-512.png", Maskable: "/web/icon-512.png", SVG: "/web/icon.svg"},
		BackgroundColor: "#f5f7fa",
		ThemeColor:      "#1f3a5f",
		LoadingLabel:    "Loading WKPI {progress}%",
		Styles:          []string{"/web/styles.css"},
		// The service worker caches these too, so the app works offline.
		CacheableResources: cacheable,
		Version:            version,
		// app.wasm goes out gzip-encoded; the raw size drives the progress.
		WasmContentLength: fmt.Sprint(wasm.Size()),
	}
	if err := app.GenerateStaticWebsite(out, h); err != nil {
		return fmt.Errorf("generating the site: %w", err)
	}
	return gzipTree(out)
}

// copyDir copies the regular files of src (one level) into dst.
func copyDir(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// zipDir zips the .txt files of a TU dataset folder, at the zip's top level.
func zipDir(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".txt") || e.Name() == "README.txt" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			return err
		}
		w, err := zw.Create(e.Name())
		if err != nil {
			return err
		}
		if _, err := w.Write(b); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, buf.Bytes(), 0o644)
}

// compressible lists the extensions worth a .gz copy (zips and PNGs are
// compressed already).
var compressible = map[string]bool{".wasm": true, ".js": true, ".css": true, ".html": true, ".webmanifest": true}

// gzipTree writes name.gz beside every compressible file, for the server
// to send to clients that accept gzip.
func gzipTree(root string) error {
	return filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !compressible[filepath.Ext(path)] {
			return err
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		var buf bytes.Buffer
		zw, err := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		if err != nil {
			return err
		}
		if _, err := io.Copy(zw, in); err != nil {
			return err
		}
		if err := zw.Close(); err != nil {
			return err
		}
		return os.WriteFile(path+".gz", buf.Bytes(), 0o644)
	})
}
