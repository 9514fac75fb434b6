//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// wranglerBin is installed by `npm ci` in this folder (.ci/run does it).
const wranglerBin = "node_modules/.bin/wrangler"

// site is the Worker's static assets: dist/ and the bundled model (make
// dist edge).
const site = "../../build/edge/site"

// freePort asks the kernel for a free port on 127.0.0.1.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// syncBuffer collects a process's output while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// startWrangler runs the built Worker under `wrangler dev` (Cloudflare's
// workerd, local KV in a fresh folder) and returns its base URL and
// process group. Without wrangler it skips, and fails under CI=true.
func startWrangler(t *testing.T) (string, int) {
	t.Helper()
	return startWranglerConfig(t, "")
}

// startWranglerConfig is startWrangler with another wrangler config file
// ("" for wrangler.jsonc here).
func startWranglerConfig(t *testing.T, config string) (string, int) {
	t.Helper()
	for _, f := range []string{"../../build/edge/app.wasm", "../../build/edge/worker.mjs", site + "/index.html", site + bundledPath} {
		if _, err := os.Stat(f); err != nil {
			t.Fatalf("%v: run make dist edge first", err)
		}
	}
	if _, err := os.Stat(wranglerBin); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the Worker tests need wrangler (npm ci in cmd/edge): %v", err)
		}
		t.Skipf("SKIPPED WRANGLER TESTS: %v (run npm ci in cmd/edge)", err)
	}
	port := freePort(t)
	args := []string{"dev", "--ip", "127.0.0.1", "--port", port,
		"--inspector-port", freePort(t), "--persist-to", t.TempDir(),
		"--var", "API_TOKEN:" + testToken, "--log-level", "info"}
	if config != "" {
		args = append(args, "--config", config)
	}
	cmd := exec.Command(wranglerBin, args...)
	home := t.TempDir() // wrangler writes its logs and settings under HOME
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "CI=true", "HOME="+home, "XDG_CONFIG_HOME="+home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // workerd is a grandchild
	var log syncBuffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting wrangler: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		}
		if t.Failed() {
			t.Logf("wrangler output:\n%s", log.String())
		}
	})
	base := "http://127.0.0.1:" + port
	start := time.Now()
	for {
		res, err := http.Get(base + "/api/health")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case err := <-exited:
			t.Fatalf("wrangler dev exited: %v\n%s", err, log.String())
		case <-time.After(200 * time.Millisecond):
		}
		if time.Since(start) > 90*time.Second {
			t.Fatalf("wrangler dev did not answer within 90 s\n%s", log.String())
		}
	}
	t.Logf("wrangler dev ready in %v", time.Since(start).Round(time.Millisecond))
	return base, cmd.Process.Pid
}

// workerdCPU is the CPU time (user + system) used so far by the workerd
// processes of process group pgid, read from /proc (Linux; 0 elsewhere).
func workerdCPU(pgid int) time.Duration {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var ticks int64
	for _, p := range stats {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ... utime stime are fields 14 and 15.
		i := bytes.LastIndexByte(b, ')')
		if i < 0 || !bytes.Contains(b[:i], []byte("(workerd")) {
			continue
		}
		f := strings.Fields(string(b[i+1:]))
		if len(f) < 13 || f[2] != strconv.Itoa(pgid) {
			continue
		}
		u, _ := strconv.ParseInt(f[11], 10, 64)
		s, _ := strconv.ParseInt(f[12], 10, 64)
		ticks += u + s
	}
	return time.Duration(ticks) * 10 * time.Millisecond // USER_HZ is 100 on Linux
}

func TestWrangler(t *testing.T) {
	readBundled(t)
	base, pgid := startWrangler(t)

	t.Run("the static index page", func(t *testing.T) {
		want, err := os.ReadFile(site + "/index.html")
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{"/", "/explore"} { // a client-side route gets the page too
			res, err := http.Get(base + path)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !bytes.Equal(b, want) {
				t.Errorf("GET %s: %d %s, %d bytes; want the site's index.html (%d bytes)", path, res.StatusCode, res.Header.Get("Content-Type"), len(b), len(want))
			}
		}
	})
	t.Run("hashed files are cached for a year (dist/_headers)", func(t *testing.T) {
		wasm, _ := filepath.Glob(site + "/web/app.*.wasm")
		if len(wasm) != 1 {
			t.Fatalf("dist/web has %v, want one hashed app wasm", wasm)
		}
		res, err := http.Get(base + "/web/" + filepath.Base(wasm[0]))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/wasm" ||
			!strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("%s: %d, %q, Cache-Control %q", wasm[0], res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("Cache-Control"))
		}
	})
	t.Run("the .br and .gz copies are not uploaded (dist/.assetsignore)", func(t *testing.T) {
		br, err := os.ReadFile(site + "/index.html.br")
		if err != nil {
			t.Fatal(err)
		}
		res, err := http.Get(base + "/index.html.br")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if bytes.Equal(b, br) {
			t.Errorf("GET /index.html.br sent the brotli copy: .assetsignore was not applied")
		}
	})
	checkAPI(t, base)

	t.Run("the health check's answer is the same each time", func(t *testing.T) {
		// The Go instance keeps its first answer (main_js.go).
		var bodies []string
		for range 3 {
			res, err := http.Get(base + "/api/health")
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/json" {
				t.Errorf("%d %q %s", res.StatusCode, res.Header.Get("Content-Type"), b)
			}
			bodies = append(bodies, string(b))
		}
		if bodies[0] != bodies[1] || bodies[1] != bodies[2] || !strings.HasPrefix(bodies[0], `{"ok":true,"version":"`) {
			t.Errorf("health answers %q", bodies)
		}
	})
	t.Run("the bundled model is not served to the public", func(t *testing.T) {
		res, err := http.Get(base + bundledPath)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusNotFound {
			t.Errorf("GET %s: %d, want 404 from the API", bundledPath, res.StatusCode)
		}
	})

	// Timings for docs/deploy.md: the wall time of one request as the
	// client sees it, and workerd's CPU time per request (from /proc, in
	// steps of 10 ms, so over 50 requests).
	one := graphsJSON(t, "../../data/MUTAG", 1)
	for _, c := range []struct{ name, method, path string }{
		{"health", "GET", "/api/health"},
		{"predict one MUTAG graph", "POST", "/api/predict?format=json"},
	} {
		const n = 50
		var times []time.Duration
		cpu := workerdCPU(pgid)
		for range n {
			start := time.Now()
			req, _ := http.NewRequest(c.method, base+c.path, bytes.NewReader(one))
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			times = append(times, time.Since(start))
		}
		cpu = (workerdCPU(pgid) - cpu) / n
		sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
		t.Logf("BENCH %s under wrangler dev: wall median %v, min %v of %d; workerd CPU %v per request",
			c.name, times[n/2].Round(time.Millisecond), times[0].Round(time.Millisecond), n, cpu.Round(time.Millisecond))
	}
}

// TestWorkerSize bundles the Worker as `wrangler deploy` would (without
// uploading) and checks its compressed size against the free plan's limit
// of 3 MB (static assets, the bundled model among them, do not count).
func TestWorkerSize(t *testing.T) {
	readBundled(t)
	if _, err := os.Stat(wranglerBin); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the Worker tests need wrangler (npm ci in cmd/edge): %v", err)
		}
		t.Skipf("SKIPPED WRANGLER TESTS: %v (run npm ci in cmd/edge)", err)
	}
	home := t.TempDir()
	cmd := exec.Command(wranglerBin, "deploy", "--dry-run", "--outdir", t.TempDir())
	cmd.Env = append(os.Environ(), "WRANGLER_SEND_METRICS=false", "CI=true", "HOME="+home, "XDG_CONFIG_HOME="+home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("wrangler deploy --dry-run: %v\n%s", err, out)
	}
	// "Total Upload: 8640.24 KiB / gzip: 2623.39 KiB"
	m := regexp.MustCompile(`Total Upload: ([0-9.]+) KiB / gzip: ([0-9.]+) KiB`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("no size in wrangler's output:\n%s", out)
	}
	raw, _ := strconv.ParseFloat(string(m[1]), 64)
	gz, _ := strconv.ParseFloat(string(m[2]), 64)
	const free, paid = 3 << 10, 10 << 10 // KiB
	t.Logf("BENCH Worker bundle: %.0f KiB, %.0f KiB gzip (free plan limit %d KiB: fits %v; paid %d KiB)", raw, gz, free, gz <= free, paid)
	if gz > free {
		t.Errorf("the Worker is %.0f KiB compressed, over the free plan's %d KiB", gz, free)
	}
}

// TestEdgeBaseline measures this Worker and the one built from another
// tree side by side, in one run, as TestWrangler measures: workerd's CPU
// time from /proc over 50 requests of each kind, sent to the Workers in
// turn, one request at a time, so that all see the same load.
// It runs only when WKPI_EDGE_BASELINE names the other tree, in which
// `make edge` has been run (docs/deploy.md):
//
//	WKPI_EDGE_BASELINE=/path/to/old/tree go test -run TestEdgeBaseline -v ./cmd/edge
//
// The baseline Worker gets the same static assets and routing as this
// one. Both must answer the prediction alike (within 1e-9). A third
// Worker, JS that answers a constant, shows wrangler dev's own share.
func TestEdgeBaseline(t *testing.T) {
	tree := os.Getenv("WKPI_EDGE_BASELINE")
	if tree == "" {
		t.Skip("set WKPI_EDGE_BASELINE to a tree with a built Worker (make edge) to compare against")
	}
	tree, err := filepath.Abs(tree)
	if err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(site)
	if err != nil {
		t.Fatal(err)
	}
	entry := filepath.Join(tree, "build/edge/worker.mjs")
	if _, err := os.Stat(entry); err != nil {
		t.Fatalf("%v: run make edge in %s", err, tree)
	}
	// The baseline, and a Worker that answers every request with a
	// constant at once: what wrangler dev itself spends per request (its
	// entry and asset routing Workers run in workerd too).
	dir := t.TempDir()
	floor := filepath.Join(dir, "floor.mjs")
	if err := os.WriteFile(floor, []byte(`export default { fetch() { return new Response('{"ok":true}\n'); } };`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	configFor := func(name, main string) string {
		config := filepath.Join(dir, name+".json")
		// wrangler.jsonc's settings, but the entry.
		cfg, _ := json.Marshal(map[string]any{
			"name": name, "main": main, "compatibility_date": "2025-06-01",
			"assets": map[string]any{"directory": abs, "binding": "ASSETS", "not_found_handling": "single-page-application",
				"run_worker_first": []string{"/api/*"}},
			"kv_namespaces": []map[string]string{{"binding": "MODELS", "id": "wkpi-models"}},
			"observability": map[string]any{"enabled": true},
		})
		if err := os.WriteFile(config, cfg, 0o644); err != nil {
			t.Fatal(err)
		}
		return config
	}
	type worker struct {
		name string
		base string
		pgid int
	}
	ours, err := filepath.Abs("../../build/edge/worker.mjs")
	if err != nil {
		t.Fatal(err)
	}
	workers := []*worker{{name: "this tree"}, {name: "baseline " + filepath.Base(tree)}, {name: "constant JS Worker"}}
	for i, main := range []string{ours, entry, floor} {
		workers[i].base, workers[i].pgid = startWranglerConfig(t, configFor(fmt.Sprintf("wkpi-web-%d", i), main))
	}

	one := graphsJSON(t, "../../data/MUTAG", 1)
	var answers [2]predictResponse
	// The first request of each: a new isolate starts its Go instance
	// (this tree: and reads and prepares the bundled model).
	var first [2]time.Duration
	for i, w := range workers[:2] {
		before := workerdCPU(w.pgid)
		post(t, w.base, "POST", "/api/predict?format=json", "", one, &answers[i])
		first[i] = workerdCPU(w.pgid) - before
	}
	samePredictions(t, answers[0].Predictions, answers[1].Predictions)
	kinds := []struct{ name, method, path string }{
		{"GET /api/health", "GET", "/api/health"},
		{"POST /api/predict, one MUTAG graph", "POST", "/api/predict?format=json"},
	}
	const rounds, per = 50, 1                  // 50 requests each, one at a time in turn
	cpu := make([][]time.Duration, len(kinds)) // [kind][worker]
	walls := make([][][]time.Duration, len(kinds))
	for k, c := range kinds {
		cpu[k] = make([]time.Duration, len(workers))
		walls[k] = make([][]time.Duration, len(workers))
		for range rounds {
			for i, w := range workers {
				before := workerdCPU(w.pgid)
				for range per {
					start := time.Now()
					req, _ := http.NewRequest(c.method, w.base+c.path, bytes.NewReader(one))
					res, err := http.DefaultClient.Do(req)
					if err != nil {
						t.Fatal(err)
					}
					io.Copy(io.Discard, res.Body)
					res.Body.Close()
					if res.StatusCode != http.StatusOK {
						t.Fatalf("%s %s: status %d", w.name, c.path, res.StatusCode)
					}
					walls[k][i] = append(walls[k][i], time.Since(start))
				}
				cpu[k][i] += workerdCPU(w.pgid) - before
			}
		}
	}
	n := time.Duration(rounds * per)
	var table strings.Builder
	fmt.Fprintf(&table, "\n| request (%d each) | %s: CPU | wall median | %s: CPU | wall median | CPU ratio | %s: CPU |\n|---|---|---|---|---|---|---|\n",
		rounds*per, workers[1].name, workers[0].name, workers[2].name)
	for k, c := range kinds {
		var med [3]time.Duration
		for i := range workers {
			w := walls[k][i]
			sort.Slice(w, func(a, b int) bool { return w[a] < w[b] })
			med[i] = w[len(w)/2]
		}
		ratio := float64(cpu[k][1]) / max(float64(cpu[k][0]), float64(time.Millisecond))
		fmt.Fprintf(&table, "| %s | %.1f ms | %.1f ms | %.1f ms | %.1f ms | %.1fx | %.1f ms |\n", c.name,
			ms(cpu[k][1]/n), ms(med[1]), ms(cpu[k][0]/n), ms(med[0]), ratio, ms(cpu[k][2]/n))
	}
	fmt.Fprintf(&table, "| the first request, a prediction (one request: 10 ms ticks) | %.0f ms | | %.0f ms | | | |\n", ms(first[1]), ms(first[0]))
	t.Logf("BENCH side by side (workerd CPU per request from /proc, in 10 ms ticks over %d requests):%s", rounds*per, table.String())
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
