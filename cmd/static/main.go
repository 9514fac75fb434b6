// Command static writes the static site into a folder: go-app's pages,
// manifest and service worker, our assets from public/, both wasm
// binaries, the demo datasets as zips, and .br and .gz copies of what
// compresses. `make web` builds the development site (build/web);
// `make dist` builds the one to deploy (dist/) with -hash, which gives the
// wasm binaries, the worker script and the datasets content-hashed names
// (app.1a2b3c4d5e6f.wasm) that hosts may cache for a year, and -prefix for
// hosting under a sub-path such as /wkpi-web (GitHub Pages).
//
// The service worker's cache is named after -version, so a new build
// installs a new cache and drops the old one; unhashed files (index.html,
// app.js, app-worker.js) must be served without long caching.
//
// -models "a.json b.json" builds a published classifier: the model files
// (from wkpi train, checked here) go to web/models/ under their base
// names, hashed with -hash and cached by the service worker; the page
// finds them in its environment (app.SiteModelsEnv), keeps them in its
// model store on a first visit and opens on the Classify tab
// (`make dist MODELS="a.json b.json"`).
//
// -rdkit names the folder of RDKit MinimalLib's RDKit_minimal.js and
// RDKit_minimal.wasm (npm @rdkit/rdkit, pinned in cmd/static/rdkit; make
// web installs it), which draw molecules on the Explain view. They go to
// web/rdkit/, hashed and compressed like the rest, listed in the app's
// environment but not in the service worker's install list: the page
// loads them, and public/rdkit.js caches them, when it first draws a
// molecule, so a first visit does not download their 1.7 MB.
package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/andybalholm/brotli"
	"github.com/maxence-charriere/go-app/v10/pkg/app"

	ui "wkpi-web/app"
	"wkpi-web/core/model"
)

// options are the command's flags.
type options struct {
	out, wasm, public, data, version, prefix string
	hash                                     bool
	brotli                                   int // quality 0-11
	// models lists model files to bundle, separated by spaces or commas.
	models string
	rdkit  string // folder of RDKit MinimalLib's files, or "" for none
}

func main() {
	var o options
	flag.StringVar(&o.out, "out", "build/web", "site folder")
	flag.StringVar(&o.wasm, "wasm", "", "folder holding app.wasm, worker.wasm, classifier.wasm and kernel.wasm (default <out>/web)")
	flag.StringVar(&o.public, "public", "public", "folder of static assets copied to <out>/web")
	flag.StringVar(&o.data, "data", "data", "folder holding the demo datasets (TU folders)")
	flag.StringVar(&o.version, "version", "", "version of this build; it names the service worker's cache")
	flag.StringVar(&o.prefix, "prefix", "", "URL path the site is served under, e.g. /wkpi-web (default: the host's root)")
	flag.BoolVar(&o.hash, "hash", false, "content-hashed names for the wasm binaries, the worker script and the datasets")
	flag.IntVar(&o.brotli, "brotli", 6, "brotli quality of the .br copies, 0-11 (11 is smallest and slowest)")
	flag.StringVar(&o.models, "models", "", `model files (from wkpi train) to bundle, e.g. "mutag.json ptc.json": the site opens on Classify with them`)
	flag.StringVar(&o.rdkit, "rdkit", "", "folder of RDKit_minimal.js and RDKit_minimal.wasm (npm @rdkit/rdkit's dist), loaded on first use to draw molecules")
	flag.Parse()
	if err := run(o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "static:", err)
		os.Exit(1)
	}
}

// run builds the site and then, for a site to deploy (-hash, make dist),
// says how to serve its precompressed copies: a server that ignores them
// sends every file raw.
func run(o options, stdout io.Writer) error {
	if err := build(o); err != nil || !o.hash {
		return err
	}
	note, err := servingNote(o.out)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(stdout, note)
	return err
}

// servingNote says that the site's folder holds .br and .gz copies, what
// the site weighs with and without them, and which servers send them
// (Content-Encoding) or compress by themselves.
func servingNote(out string) (string, error) {
	var raw, br int64
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".br") || strings.HasSuffix(p, ".gz") {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		raw += info.Size()
		if c, err := os.Stat(p + ".br"); err == nil {
			br += c.Size()
		} else {
			br += info.Size()
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	mb := func(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
	return fmt.Sprintf("%s/ holds .br and .gz copies of every compressible file: the server must send them with "+
		"Content-Encoding: br (or gzip) to browsers that accept it, else the site's files weigh %s instead of %s.\n"+
		"They are sent as they are by go run ./cmd/serve -root %s, nginx (brotli_static on; gzip_static on) and Caddy (file_server { precompressed br gzip }); "+
		"Cloudflare Pages, Workers static assets and Netlify ignore them and compress by themselves; "+
		"a plain static server (python3 -m http.server, a bucket without Content-Encoding) sends everything raw. See docs/deploy.md.\n",
		out, mb(raw), mb(br), out), nil
}

func build(o options) error {
	switch {
	case o.version == "":
		return fmt.Errorf("-version is required: an empty version changes at every start and defeats caching")
	case o.prefix != "" && (!strings.HasPrefix(o.prefix, "/") || strings.HasSuffix(o.prefix, "/")):
		return fmt.Errorf("-prefix %q: want a path like /wkpi-web (leading slash, none at the end)", o.prefix)
	case o.brotli < 0 || o.brotli > 11:
		return fmt.Errorf("-brotli %d: want a quality from 0 to 11", o.brotli)
	}
	web := filepath.Join(o.out, "web")
	if o.wasm == "" {
		o.wasm = web
	}
	for _, name := range []string{"app.wasm", "worker.wasm", "classifier.wasm", "kernel.wasm"} {
		if _, err := os.Stat(filepath.Join(o.wasm, name)); err != nil {
			return fmt.Errorf("%w (build the wasm binaries first: make web)", err)
		}
		if o.wasm != web {
			if err := copyFile(filepath.Join(o.wasm, name), filepath.Join(web, name)); err != nil {
				return err
			}
		}
	}
	wasm, err := os.Stat(filepath.Join(web, "app.wasm"))
	if err != nil {
		return err
	}
	if err := copyDir(o.public, web); err != nil {
		return err
	}
	// Paths the wasm code fetches by absolute URL; it learns their served
	// URLs from the app's environment (see urlsEnv).
	fetched := []string{"/web/worker.js"}
	var demos []string
	for _, name := range ui.Demos {
		if err := zipDir(filepath.Join(o.data, name), filepath.Join(web, "datasets", name+".zip")); err != nil {
			return fmt.Errorf("demo dataset %s: %w (run make data)", name, err)
		}
		demos = append(demos, "/web/datasets/"+name+".zip")
	}
	fetched = append(fetched, demos...)
	site, err := bundleModels(o.models, web)
	if err != nil {
		return err
	}
	// What the service worker caches when first fetched rather than at
	// install (cacheLazily): the Web Workers' files (1.6 MB of brotli for
	// the full worker, 1.2 MB for the classifier), which the first view
	// does not need, and on a published classifier, whose visitors come to
	// classify, the demo datasets too. A first visit downloads about half
	// as much, and the app works offline once it has run a job.
	lazy := append([]string{"/web/worker.js"}, workerFiles...)
	if len(site) > 0 {
		lazy = append(lazy, demos...)
	}
	for _, m := range site {
		fetched = append(fetched, m.Path)
	}
	rdkit, err := copyRDKit(o.rdkit, web)
	if err != nil {
		return err
	}
	res := resolver{prefix: o.prefix, rename: map[string]string{}}
	if o.hash {
		if err := hashFiles(o.out, res.rename, append(fetched, rdkit...)); err != nil {
			return err
		}
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
		// The service worker caches these too, so the app works offline;
		// the lazy ones when first fetched.
		CacheableResources: append([]string{"/web/icon.svg"}, slices.DeleteFunc(slices.Clone(fetched), func(p string) bool { return slices.Contains(lazy, p) })...),
		Version:            o.version,
		// app.wasm may go out compressed; the raw size drives the progress.
		WasmContentLength: fmt.Sprint(wasm.Size()),
		Resources:         res,
	}
	if h.Env, err = urlsEnv(res, append(fetched, rdkit...)); err != nil {
		return err
	}
	// Always set, empty without models: go-app copies the environment into
	// this process's, which the prerendered page reads, and a second build
	// in the same process (the tests) must not see the first one's models.
	h.Env[ui.SiteModelsEnv] = ""
	if len(site) > 0 {
		b, err := json.Marshal(site)
		if err != nil {
			return err
		}
		h.Env[ui.SiteModelsEnv] = string(b)
	}
	if err := app.GenerateStaticWebsite(o.out, h); err != nil {
		return fmt.Errorf("generating the site: %w", err)
	}
	var lazyURLs []string
	for _, p := range lazy {
		lazyURLs = append(lazyURLs, res.Resolve(p))
	}
	if err := cacheLazily(filepath.Join(o.out, "app-worker.js"), lazyURLs); err != nil {
		return err
	}
	if o.hash {
		if err := hostFiles(o.out, res.rename); err != nil {
			return err
		}
	}
	return compressTree(o.out, o.brotli)
}

// rdkitFiles are the files of RDKit MinimalLib the page loads.
var rdkitFiles = []string{"RDKit_minimal.js", "RDKit_minimal.wasm"}

// copyRDKit copies RDKit's files from dir into web/rdkit/ and returns the
// paths the page loads lazily: the glue script public/rdkit.js and them;
// none without dir.
func copyRDKit(dir, web string) ([]string, error) {
	if err := os.RemoveAll(filepath.Join(web, "rdkit")); err != nil {
		return nil, err
	}
	if dir == "" {
		return nil, nil
	}
	if _, err := os.Stat(filepath.Join(web, "rdkit.js")); err != nil {
		return nil, fmt.Errorf("-rdkit: %w (public/rdkit.js calls RDKit)", err)
	}
	paths := []string{"/web/rdkit.js"}
	for _, name := range rdkitFiles {
		if err := copyFile(filepath.Join(dir, name), filepath.Join(web, "rdkit", name)); err != nil {
			return nil, fmt.Errorf("-rdkit: %w (make web installs RDKit: npm ci --prefix cmd/static/rdkit)", err)
		}
		paths = append(paths, "/web/rdkit/"+name)
	}
	return paths, nil
}

// workerFiles are what worker.js loads, each named once in it: the Go
// programs (the full worker, the classifier) and core/kernel's vector
// loops (public/kernel.js, kernel.wasm).
var workerFiles = []string{"/web/worker.wasm", "/web/classifier.wasm", "/web/kernel.js", "/web/kernel.wasm"}

// cacheLazily patches go-app's service worker (v10.1.11's app-worker.js)
// to cache the lazy files, urls as served: when the page fetches them
// (cache first, then the network, and a good answer goes into the
// cache), and at install those that an earlier version's cache held
// under another hash (a user who ran jobs, of a program, stays ready for
// offline use across updates). It fails if go-app's script is not the
// one it patches.
func cacheLazily(file string, urls []string) error {
	b, err := os.ReadFile(file)
	if err != nil {
		return err
	}
	list, err := json.Marshal(urls)
	if err != nil {
		return err
	}
	patches := []struct{ old, new string }{
		{"async function installWorker() {\n  const cache = await caches.open(cacheName);\n  await cache.addAll(resourcesToCache);\n}\n",
			"// wkpi-web (cmd/static): files cached when first fetched, and at\n" +
				"// install those an earlier version's cache held.\n" +
				"const lazyResources = " + string(list) + ";\n\n" +
				"async function installWorker() {\n  const cache = await caches.open(cacheName);\n  await cache.addAll(resourcesToCache);\n" +
				"  await cache.addAll(await lazyUsedBefore());\n}\n\n" +
				lazyUsedBefore + "\n"},
		{"  return await fetch(request);\n}\n",
			"  const response = await fetch(request);\n" +
				"  if (response.ok && request.method === \"GET\" && lazyResources.includes(new URL(request.url).pathname)) {\n" +
				"    const copy = response.clone();\n" +
				"    caches.open(cacheName).then((cache) => cache.put(request, copy)).catch((err) => console.error(\"caching\", request.url, err));\n" +
				"  }\n  return response;\n}\n"},
	}
	s := string(b)
	for _, p := range patches {
		if strings.Count(s, p.old) != 1 {
			return fmt.Errorf("%s: go-app's service worker is not the one cmd/static patches (want one %q)", file, p.old)
		}
		s = strings.Replace(s, p.old, p.new, 1)
	}
	return os.WriteFile(file, []byte(s), 0o644)
}

// lazyUsedBefore is the service worker's function that lists the lazy
// files an earlier version's cache held, by their names without the
// content hash (worker.js, classifier.wasm, MUTAG.zip, ...).
const lazyUsedBefore = `async function lazyUsedBefore() {
  const unhashed = (url) => new URL(url, self.location.href).pathname.replace(/^.*\//, "").replace(/\.[0-9a-f]{12}(\.[a-z]+)$/, "$1");
  const held = new Set();
  for (const key of await caches.keys()) {
    if (key === cacheName || !key.startsWith("app-")) continue;
    for (const r of await (await caches.open(key)).keys()) held.add(unhashed(r.url));
  }
  return lazyResources.filter((url) => held.has(unhashed(url)));
}
`

// modelName is what a bundled model's name may be: it names a file and a
// URL path.
var modelName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// bundleModels checks the model files listed in list (separated by spaces
// or commas), writes them in the current format version into web/models/
// under their base names and
// returns them as the page lists them.
func bundleModels(list, web string) ([]ui.SiteModel, error) {
	// A folder left by an earlier build must not serve its models.
	if err := os.RemoveAll(filepath.Join(web, "models")); err != nil {
		return nil, err
	}
	var site []ui.SiteModel
	seen := map[string]string{}
	for _, file := range strings.FieldsFunc(list, func(r rune) bool { return r == ',' || unicode.IsSpace(r) }) {
		name := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
		if !modelName.MatchString(name) {
			return nil, fmt.Errorf("-models: %s: name the file with letters, digits, '.', '_' or '-' (it names the model and its URL)", file)
		}
		if other, dup := seen[name]; dup {
			return nil, fmt.Errorf("-models: %s and %s would both be the model %q", other, file, name)
		}
		seen[name] = file
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("-models: %w", err)
		}
		m, err := model.Load(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("-models: %s: %w", file, err)
		}
		// Saved again: a file of an older format version shrinks.
		var saved bytes.Buffer
		if err := m.Save(&saved); err != nil {
			return nil, fmt.Errorf("-models: %s: %w", file, err)
		}
		data = saved.Bytes()
		p := "/web/models/" + name + ".json"
		if err := os.MkdirAll(filepath.Join(web, "models"), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(web, "models", name+".json"), data, 0o644); err != nil {
			return nil, err
		}
		site = append(site, ui.SiteModel{Name: name, Path: p})
	}
	return site, nil
}

// hostFiles writes the two files that Cloudflare (Workers static assets,
// Pages) and Netlify read and do not serve: _headers, a year's caching for
// the hashed files, and .assetsignore, which keeps the .br and .gz copies
// out of a Worker's upload (Cloudflare compresses by itself).
func hostFiles(out string, rename map[string]string) error {
	var h strings.Builder
	for _, p := range slices.Sorted(maps.Values(rename)) {
		fmt.Fprintf(&h, "%s\n  Cache-Control: public, max-age=31536000, immutable\n", p)
	}
	if err := os.WriteFile(filepath.Join(out, "_headers"), []byte(h.String()), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, ".assetsignore"), []byte("*.br\n*.gz\n"), 0o644)
}

// resolver is go-app's ResourceResolver for our sites: it maps the
// logical names the code uses (/web/app.wasm) to the served ones
// (/prefix/web/app.1a2b3c4d5e6f.wasm). Unlike app.PrefixedLocation it
// resolves the root to "/prefix/", the URL a browser shows for the page,
// so the service worker caches the page under the URL it is loaded from.
type resolver struct {
	prefix string
	rename map[string]string // logical path -> hashed path
}

func (r resolver) Resolve(loc string) string {
	switch {
	case strings.HasPrefix(loc, "https://"), strings.HasPrefix(loc, "http://"):
		return loc
	case loc == "" || loc == "/":
		return r.prefix + "/"
	}
	if !strings.HasPrefix(loc, "/") {
		loc = "/" + loc
	}
	if n, ok := r.rename[loc]; ok {
		loc = n
	}
	return r.prefix + loc
}

// urlsEnv returns the app's environment (go-app writes it into app.js;
// the wasm reads it with app.Getenv): WKPI_URLS, a JSON map from the paths
// the wasm code fetches by absolute URL (the worker script, the demo
// datasets) to their served URLs, hashed and under the prefix. wasm/app
// reads the same key and fetches a path it does not list as named.
func urlsEnv(res resolver, fetched []string) (map[string]string, error) {
	urls := map[string]string{}
	for _, p := range fetched {
		urls[p] = res.Resolve(p)
	}
	b, err := json.Marshal(urls)
	if err != nil {
		return nil, err
	}
	return map[string]string{"WKPI_URLS": string(b)}, nil
}

// hashFiles renames the wasm binaries, the worker script and the fetched
// files to content-hashed names and records them in rename. worker.js
// names workerFiles, so it is rewritten (and hashed) after them.
func hashFiles(out string, rename map[string]string, fetched []string) error {
	js := filepath.Join(out, "web", "worker.js")
	b, err := os.ReadFile(js)
	if err != nil {
		return err
	}
	for _, p := range workerFiles {
		hashed, err := hashFile(out, p, rename)
		if err != nil {
			return err
		}
		name := []byte(`"` + path.Base(p) + `"`)
		if bytes.Count(b, name) != 1 {
			return fmt.Errorf(`%s: want exactly one %s to rewrite to the hashed name`, js, name)
		}
		b = bytes.Replace(b, name, []byte(`"`+path.Base(hashed)+`"`), 1)
	}
	if err := os.WriteFile(js, b, 0o644); err != nil {
		return err
	}
	for _, p := range append([]string{"/web/app.wasm"}, fetched...) {
		if _, err := hashFile(out, p, rename); err != nil {
			return err
		}
	}
	return nil
}

// hashFile renames out+p to name.<12 hex digits of its SHA-256>.ext.
func hashFile(out, p string, rename map[string]string) (string, error) {
	b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(p)))
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	ext := path.Ext(p)
	hashed := strings.TrimSuffix(p, ext) + "." + hex.EncodeToString(sum[:6]) + ext
	if err := os.Rename(filepath.Join(out, filepath.FromSlash(p)), filepath.Join(out, filepath.FromSlash(hashed))); err != nil {
		return "", err
	}
	rename[p] = hashed
	return hashed, nil
}

func copyFile(src, dst string) error {
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	return os.WriteFile(dst, b, 0o644)
}

// copyDir copies the regular files of src (one level) into dst.
func copyDir(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !e.Type().IsRegular() {
			continue
		}
		if err := copyFile(filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// zipDir zips the .txt files of a TU dataset folder, at the zip's top
// level; README.txt goes too, for its node-label code table.
func zipDir(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".txt") {
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

// compressible lists the extensions worth compressed copies (zips and PNGs
// are compressed already; bundled models are JSON).
var compressible = map[string]bool{".wasm": true, ".js": true, ".css": true, ".html": true, ".webmanifest": true, ".svg": true, ".json": true}

// compressTree writes name.br and name.gz beside every compressible file,
// for servers that send them to clients accepting brotli or gzip. Files
// are compressed in parallel: brotli at quality 11 takes about half a
// minute for app.wasm.
func compressTree(root string, quality int) error {
	var files []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && compressible[filepath.Ext(p)] {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	var wg sync.WaitGroup
	errs := make([]error, len(files))
	sem := make(chan struct{}, runtime.NumCPU())
	for i, f := range files {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			errs[i] = compress(f, quality)
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func compress(name string, quality int) error {
	b, err := os.ReadFile(name)
	if err != nil {
		return err
	}
	var gz, br bytes.Buffer
	zw, err := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := brotli.NewWriterOptions(&br, brotli.WriterOptions{Quality: quality, LGWin: 24})
	for _, w := range []io.WriteCloser{zw, bw} {
		if _, err := w.Write(b); err != nil {
			return err
		}
		if err := w.Close(); err != nil {
			return err
		}
	}
	if err := os.WriteFile(name+".gz", gz.Bytes(), 0o644); err != nil {
		return err
	}
	return os.WriteFile(name+".br", br.Bytes(), 0o644)
}
