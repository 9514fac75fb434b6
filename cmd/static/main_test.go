package main

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/andybalholm/brotli"

	ui "wkpi-web/app"
	"wkpi-web/core/testenv"
)

// fakeSite writes stand-in wasm binaries and a TU dataset per demo, so
// that build runs without `make web`.
func fakeSite(t *testing.T) (wasm, data string) {
	t.Helper()
	dir := t.TempDir()
	wasm, data = filepath.Join(dir, "wasm"), filepath.Join(dir, "data")
	write := func(p, text string) {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(wasm, "app.wasm"), strings.Repeat("app wasm ", 1000))
	write(filepath.Join(wasm, "worker.wasm"), strings.Repeat("worker wasm ", 1000))
	write(filepath.Join(wasm, "classifier.wasm"), strings.Repeat("classifier wasm ", 1000))
	write(filepath.Join(wasm, "kernel.wasm"), "kernel wasm")
	for _, name := range []string{"MUTAG", "PTC_MR"} {
		write(filepath.Join(data, name, name+"_A.txt"), "1, 2\n")
		write(filepath.Join(data, name, name+"_graph_indicator.txt"), "1\n1\n")
		write(filepath.Join(data, name, name+"_graph_labels.txt"), "1\n")
	}
	return wasm, data
}

func TestBuildDist(t *testing.T) {
	wasm, data := fakeSite(t)
	out := filepath.Join(t.TempDir(), "dist")
	if err := build(options{out: out, wasm: wasm, public: "../../public", data: data, version: "v9", prefix: "/sub", hash: true, brotli: 1}); err != nil {
		t.Fatal(err)
	}
	// Every hashed name carries the first 12 hex digits of the SHA-256 of
	// the file it names.
	hashedName := regexp.MustCompile(`^(.+)\.([0-9a-f]{12})(\.[a-z]+)$`)
	found := map[string]string{}
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".br") || strings.HasSuffix(p, ".gz") {
			return err
		}
		m := hashedName.FindStringSubmatch(filepath.Base(p))
		if m == nil {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		if hex.EncodeToString(sum[:6]) != m[2] {
			t.Errorf("%s: hash %s, content hashes to %x", p, m[2], sum[:6])
		}
		rel, _ := filepath.Rel(out, p)
		found[filepath.ToSlash(filepath.Join(filepath.Dir(rel), m[1]+m[3]))] = "/" + filepath.ToSlash(rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, logical := range []string{"web/app.wasm", "web/worker.wasm", "web/classifier.wasm", "web/kernel.js", "web/kernel.wasm", "web/worker.js", "web/datasets/MUTAG.zip", "web/datasets/PTC_MR.zip"} {
		if found[logical] == "" {
			t.Errorf("no hashed %s in %v", logical, found)
		}
		if _, err := os.Stat(filepath.Join(out, logical)); err == nil {
			t.Errorf("%s is there under its unhashed name too", logical)
		}
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	worker := read(found["web/worker.js"])
	for _, want := range []string{`"` + filepath.Base(found["web/worker.wasm"]) + `";`, `? "` + filepath.Base(found["web/classifier.wasm"]) + `" :`,
		`fetch("` + filepath.Base(found["web/kernel.wasm"]) + `")`, `"` + filepath.Base(found["web/kernel.js"]) + `"`} {
		if !strings.Contains(worker, want) {
			t.Errorf("worker.js lacks %s (the hashed name):\n%s", want, worker)
		}
	}
	if page := read("index.html"); !strings.Contains(page, `href="/sub/manifest.webmanifest"`) {
		t.Errorf("index.html lacks the prefixed manifest:\n%s", page)
	}
	appJS := read("app.js")
	if !strings.Contains(appJS, "/sub"+found["web/app.wasm"]) {
		t.Errorf("app.js does not load /sub%s", found["web/app.wasm"])
	}
	// The wasm code reads the served URLs of what it fetches from the
	// environment go-app writes into app.js.
	m := regexp.MustCompile(`(?m)^const goappEnv = (.*);$`).FindStringSubmatch(appJS)
	if m == nil {
		t.Fatalf("app.js has no goappEnv:\n%s", appJS)
	}
	var env map[string]string
	if err := json.Unmarshal([]byte(m[1]), &env); err != nil {
		t.Fatalf("goappEnv %s: %v", m[1], err)
	}
	var urls map[string]string
	if err := json.Unmarshal([]byte(env["WKPI_URLS"]), &urls); err != nil {
		t.Fatalf("WKPI_URLS %q: %v", env["WKPI_URLS"], err)
	}
	want := map[string]string{}
	for _, logical := range []string{"web/worker.js", "web/datasets/MUTAG.zip", "web/datasets/PTC_MR.zip"} {
		want["/"+logical] = "/sub" + found[logical]
	}
	if !maps.Equal(urls, want) {
		t.Errorf("WKPI_URLS = %v, want %v", urls, want)
	}
	sw := read("app-worker.js")
	for _, want := range []string{`"app-" + "v9"`, `"/sub/"`,
		`const lazyResources = ["/sub` + found["web/worker.js"] + `","/sub` + found["web/worker.wasm"] + `","/sub` + found["web/classifier.wasm"] + `","/sub` + found["web/kernel.js"] + `","/sub` + found["web/kernel.wasm"] + `"];`} {
		if !strings.Contains(sw, want) {
			t.Errorf("app-worker.js lacks %s", want)
		}
	}
	// The Web Worker's files are not fetched at install (cacheLazily).
	_, list, _ := strings.Cut(sw, "const resourcesToCache = ")
	list, _, _ = strings.Cut(list, ";")
	for _, lazy := range []string{found["web/worker.js"], found["web/worker.wasm"], found["web/classifier.wasm"], found["web/kernel.js"], found["web/kernel.wasm"]} {
		if strings.Contains(list, lazy) {
			t.Errorf("the service worker fetches %s at install: %s", lazy, list)
		}
	}
	if h := read("_headers"); !strings.Contains(h, found["web/app.wasm"]+"\n  Cache-Control: public, max-age=31536000, immutable") {
		t.Errorf("_headers:\n%s", h)
	}
	// The compressed copies decode to the file.
	raw := read(found["web/app.wasm"])
	for ext, open := range map[string]func(io.Reader) (io.Reader, error){
		".br": func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
		".gz": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
	} {
		zr, err := open(bytes.NewReader([]byte(read(found["web/app.wasm"] + ext))))
		if err != nil {
			t.Fatal(err)
		}
		if b, err := io.ReadAll(zr); err != nil || string(b) != raw {
			t.Errorf("%s copy of app.wasm does not decode to it (%v)", ext, err)
		}
	}
}

func TestBuildRejects(t *testing.T) {
	wasm, data := fakeSite(t)
	for _, o := range []options{
		{version: ""},
		{version: "v", prefix: "sub"},
		{version: "v", prefix: "/sub/"},
		{version: "v", brotli: 12},
		{version: "v", wasm: t.TempDir()}, // no wasm binaries
	} {
		o.out, o.public, o.data = filepath.Join(t.TempDir(), "out"), "../../public", data
		if o.wasm == "" {
			o.wasm = wasm
		}
		if err := build(o); err == nil {
			t.Errorf("build(%+v) succeeded", o)
		}
	}
}

// trainedModel returns a model file from wkpi train (MUTAG, 20 learning
// iterations: seconds), trained once per test binary.
func trainedModel(t *testing.T) string {
	t.Helper()
	trained.once.Do(func() {
		dir, err := os.MkdirTemp("", "static-model")
		if err != nil {
			trained.err = err
			return
		}
		trained.file = filepath.Join(dir, "mutag.json")
		out, err := exec.Command("go", "run", "../wkpi", "train", "-data", "../../data/MUTAG", "-out", trained.file, "-iter", "20").CombinedOutput()
		if err != nil {
			trained.err = fmt.Errorf("wkpi train: %v (run make data)\n%s", err, out)
		}
	})
	if trained.err != nil {
		t.Fatal(trained.err)
	}
	return trained.file
}

var trained struct {
	once sync.Once
	file string
	err  error
}

// appEnv reads the environment go-app writes into app.js.
func appEnv(t *testing.T, out string) map[string]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(out, "app.js"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^const goappEnv = (.*);$`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("app.js has no goappEnv")
	}
	var env map[string]string
	if err := json.Unmarshal(m[1], &env); err != nil {
		t.Fatal(err)
	}
	return env
}

// TestBuildPublished: -models bundles model files as hashed static files
// that the service worker caches and the page's environment lists; the
// page opens on Classify. A later build without models opens on Data.
func TestBuildPublished(t *testing.T) {
	src := trainedModel(t)
	wasm, data := fakeSite(t)
	dir := t.TempDir()
	other := filepath.Join(dir, "other-model.json")
	model, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, model, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "dist")
	if err := build(options{out: out, wasm: wasm, public: "../../public", data: data, version: "v1", prefix: "/sub", hash: true, brotli: 1,
		models: src + ", " + other}); err != nil {
		t.Fatal(err)
	}
	env := appEnv(t, out)
	var site []ui.SiteModel
	if err := json.Unmarshal([]byte(env[ui.SiteModelsEnv]), &site); err != nil {
		t.Fatalf("%s = %q: %v", ui.SiteModelsEnv, env[ui.SiteModelsEnv], err)
	}
	if want := []ui.SiteModel{{Name: "mutag", Path: "/web/models/mutag.json"}, {Name: "other-model", Path: "/web/models/other-model.json"}}; !slices.Equal(site, want) {
		t.Errorf("site models %+v, want %+v", site, want)
	}
	var urls map[string]string
	if err := json.Unmarshal([]byte(env["WKPI_URLS"]), &urls); err != nil {
		t.Fatal(err)
	}
	sw, err := os.ReadFile(filepath.Join(out, "app-worker.js"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range site {
		u := urls[m.Path]
		if !regexp.MustCompile(`^/sub/web/models/` + m.Name + `\.[0-9a-f]{12}\.json$`).MatchString(u) {
			t.Errorf("%s is served at %q, want a hashed name under /sub", m.Path, u)
			continue
		}
		b, err := os.ReadFile(filepath.Join(out, strings.TrimPrefix(u, "/sub")))
		if err != nil || !bytes.Equal(b, model) {
			t.Errorf("%s: not the model file (%v)", u, err)
		}
		if _, err := os.Stat(filepath.Join(out, strings.TrimPrefix(u, "/sub")+".br")); err != nil {
			t.Errorf("no brotli copy of %s", u)
		}
		if !strings.Contains(string(sw), `"`+u+`"`) {
			t.Errorf("the service worker does not cache %s", u)
		}
	}
	// Its visitors come to classify: the demos are cached when first
	// fetched, not at install.
	_, install, _ := strings.Cut(string(sw), "const resourcesToCache = ")
	install, _, _ = strings.Cut(install, ";")
	_, lazyList, _ := strings.Cut(string(sw), "const lazyResources = ")
	lazyList, _, _ = strings.Cut(lazyList, ";")
	for _, demo := range []string{"/web/datasets/MUTAG.zip", "/web/datasets/PTC_MR.zip"} {
		if u := urls[demo]; u == "" || strings.Contains(install, `"`+u+`"`) || !strings.Contains(lazyList, `"`+u+`"`) {
			t.Errorf("demo %s (%q): cached at install, or not lazily", demo, u)
		}
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`id="tab-classify"[^>]*aria-selected="true"`).Match(page) || !strings.Contains(string(page), "Loading this site") {
		t.Errorf("the prerendered page does not open on Classify, waiting for the site's model")
	}

	// The same process builds a site without models: no trace of them.
	plain := filepath.Join(dir, "plain")
	if err := build(options{out: plain, wasm: wasm, public: "../../public", data: data, version: "v2", brotli: 1}); err != nil {
		t.Fatal(err)
	}
	if env := appEnv(t, plain); env[ui.SiteModelsEnv] != "" {
		t.Errorf("a site without models lists %q", env[ui.SiteModelsEnv])
	}
	page, err = os.ReadFile(filepath.Join(plain, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`id="tab-data"[^>]*aria-selected="true"`).Match(page) {
		t.Errorf("a site without models does not open on Data")
	}

	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"format":"other"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for models, want := range map[string]string{
		bad:                                "bad.json",
		filepath.Join(dir, "missing.json"): "missing.json",
		src + " " + filepath.Join(dir, "x", "mutag.json"): `both be the model "mutag"`,
		filepath.Join(dir, "a?b.json"):                    "name the file",
	} {
		err := build(options{out: filepath.Join(t.TempDir(), "out"), wasm: wasm, public: "../../public", data: data, version: "v", brotli: 1, models: models})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("-models %q: %v, want an error with %q", models, err, want)
		}
	}
}

// TestBuildRDKit: -rdkit puts RDKit's two files into the site, hashed and
// compressed, with the glue script public/rdkit.js; the page finds their
// URLs in its environment, and the service worker's install list (what a
// first visit downloads) names none of them. Without -rdkit the site has
// none, and a folder without the files is refused.
func TestBuildRDKit(t *testing.T) {
	wasm, data := fakeSite(t)
	lib := t.TempDir()
	for _, name := range rdkitFiles {
		if err := os.WriteFile(filepath.Join(lib, name), []byte(strings.Repeat(name+" ", 500)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(t.TempDir(), "dist")
	if err := build(options{out: out, wasm: wasm, public: "../../public", data: data, version: "v3", prefix: "/sub", hash: true, brotli: 1, rdkit: lib}); err != nil {
		t.Fatal(err)
	}
	var urls map[string]string
	if err := json.Unmarshal([]byte(appEnv(t, out)["WKPI_URLS"]), &urls); err != nil {
		t.Fatal(err)
	}
	sw, err := os.ReadFile(filepath.Join(out, "app-worker.js"))
	if err != nil {
		t.Fatal(err)
	}
	for logical, src := range map[string]string{
		"/web/rdkit.js":                 "../../public/rdkit.js",
		"/web/rdkit/RDKit_minimal.js":   filepath.Join(lib, "RDKit_minimal.js"),
		"/web/rdkit/RDKit_minimal.wasm": filepath.Join(lib, "RDKit_minimal.wasm"),
	} {
		u := urls[logical]
		stem := strings.TrimSuffix(logical, filepath.Ext(logical))
		if !regexp.MustCompile(`^/sub` + regexp.QuoteMeta(stem) + `\.[0-9a-f]{12}` + regexp.QuoteMeta(filepath.Ext(logical)) + `$`).MatchString(u) {
			t.Errorf("%s is served at %q, want a hashed name under /sub", logical, u)
			continue
		}
		want, _ := os.ReadFile(src)
		got, err := os.ReadFile(filepath.Join(out, strings.TrimPrefix(u, "/sub")))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: not a copy of %s (%v)", u, src, err)
		}
		if _, err := os.Stat(filepath.Join(out, strings.TrimPrefix(u, "/sub")+".br")); err != nil {
			t.Errorf("no brotli copy of %s", u)
		}
		if strings.Contains(string(sw), strings.TrimSuffix(filepath.Base(u), filepath.Ext(u))) {
			t.Errorf("the service worker installs %s: every first visit would download it", u)
		}
	}
	if !strings.Contains(string(sw), "worker.") {
		t.Errorf("the service worker's list lacks the worker: %s", sw)
	}

	plain := filepath.Join(t.TempDir(), "plain")
	if err := build(options{out: plain, wasm: wasm, public: "../../public", data: data, version: "v4", brotli: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(plain, "web", "rdkit")); err == nil || strings.Contains(appEnv(t, plain)["WKPI_URLS"], "rdkit") {
		t.Errorf("a site built without -rdkit has RDKit: %v, %s", err, appEnv(t, plain)["WKPI_URLS"])
	}
	err = build(options{out: filepath.Join(t.TempDir(), "bad"), wasm: wasm, public: "../../public", data: data, version: "v5", brotli: 1, rdkit: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "RDKit_minimal.js") {
		t.Errorf("-rdkit with an empty folder: %v", err)
	}
}

// TestServingNote: when the site is built, the command says that it
// holds precompressed copies, what the files weigh raw and as brotli
// (here summed by hand from the tree), and which servers send them.
func TestServingNote(t *testing.T) {
	wasm, data := fakeSite(t)
	out := filepath.Join(t.TempDir(), "dist")
	var stdout bytes.Buffer
	if err := run(options{out: out, wasm: wasm, public: "../../public", data: data, version: "v9", hash: true, brotli: 1}, &stdout); err != nil {
		t.Fatal(err)
	}
	// Every file's size; then the raw files summed, and each as its .br
	// copy where it has one.
	size := map[string]int64{}
	if err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if info, ierr := d.Info(); err == nil && ierr == nil && !d.IsDir() {
			size[p] = info.Size()
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	var raw, br int64
	for p, n := range size {
		if ext := filepath.Ext(p); ext == ".br" || ext == ".gz" {
			continue
		}
		raw += n
		if c, ok := size[p+".br"]; ok {
			n = c
		}
		br += n
	}
	note := stdout.String()
	for _, want := range []string{out + "/ holds .br and .gz copies", "Content-Encoding: br",
		fmt.Sprintf("weigh %.1f MB instead of %.1f MB", float64(raw)/1e6, float64(br)/1e6),
		"go run ./cmd/serve -root " + out, "Cloudflare Pages", "Netlify", "python3 -m http.server", "docs/deploy.md"} {
		if !strings.Contains(note, want) {
			t.Errorf("no %q in the note:\n%s", want, note)
		}
	}
	if br >= raw {
		t.Errorf("brotli copies weigh %d B, the raw files %d B", br, raw)
	}
}

// TestServingDocs: the README shows how to serve on another port with
// make run (and the Makefile's run target takes ADDR), and deploy.md
// says that the precompressed copies must be sent with Content-Encoding
// and which servers do it.
func TestServingDocs(t *testing.T) {
	read := func(p string) string {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	readme, makefile, deploy := read("../../README.md"), read("../../Makefile"), read("../../docs/deploy.md")
	if !regexp.MustCompile(`(?m)^make run ADDR=127\.0\.0\.1:8080 `).MatchString(readme) {
		t.Error("README.md: no `make run ADDR=127.0.0.1:8080` line")
	}
	if !strings.Contains(makefile, "ADDR    ?=") || !strings.Contains(makefile, "./cmd/serve -addr $(ADDR)") {
		t.Error("Makefile: make run does not take ADDR")
	}
	for _, want := range []string{"Content-Encoding: br", "go run ./cmd/serve -root dist", "brotli_static", "precompressed br gzip", "python3 -m http.server", "Netlify"} {
		if !strings.Contains(deploy, want) {
			t.Errorf("docs/deploy.md: no %q", want)
		}
	}
}

// TestLazyUsedBefore: at install, the service worker caches again the lazy
// files whose names, without the content hash, an earlier version's cache
// held: a user who ran only the classifier gets the classifier and the
// files it loads, not the full worker nor the demos. Run under Node with
// the Cache API stubbed.
func TestLazyUsedBefore(t *testing.T) {
	node := testenv.Tool(t, "node", "Debian: apt-get install nodejs")
	script := `
const stores = {
  "app-old": ["/p/web/worker.aaaaaaaaaaaa.js", "/p/web/classifier.bbbbbbbbbbbb.wasm", "/p/web/kernel.cccccccccccc.js",
              "/p/web/kernel.dddddddddddd.wasm", "/p/index.html", "/p/web/app.eeeeeeeeeeee.wasm"],
  "app-new": ["/p/web/worker.222222222222.wasm"],
  "other": ["/p/web/datasets/MUTAG.ffffffffffff.zip"],
};
globalThis.self = { location: { href: "https://example.org/p/" } };
globalThis.caches = {
  keys: async () => Object.keys(stores),
  open: async (name) => ({ keys: async () => stores[name].map((u) => ({ url: "https://example.org" + u })) }),
};
const cacheName = "app-new";
const lazyResources = ["/p/web/worker.111111111111.js", "/p/web/worker.222222222222.wasm", "/p/web/classifier.333333333333.wasm",
  "/p/web/kernel.444444444444.js", "/p/web/kernel.555555555555.wasm", "/p/web/datasets/MUTAG.666666666666.zip"];
` + lazyUsedBefore + `
lazyUsedBefore().then((l) => console.log(JSON.stringify(l)));
`
	out, err := exec.Command(node, "-e", script).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	want := `["/p/web/worker.111111111111.js","/p/web/classifier.333333333333.wasm","/p/web/kernel.444444444444.js","/p/web/kernel.555555555555.wasm"]`
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("cached again at install: %s\nwant %s", got, want)
	}
}
