//go:build unix

package main

import (
	"bytes"
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
	for _, f := range []string{"../../build/edge/app.wasm", "../../build/edge/worker.mjs", "../../dist/index.html"} {
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
	cmd := exec.Command(wranglerBin, "dev", "--ip", "127.0.0.1", "--port", port,
		"--inspector-port", freePort(t), "--persist-to", t.TempDir(),
		"--var", "API_TOKEN:"+testToken, "--log-level", "info")
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
		want, err := os.ReadFile("../../dist/index.html")
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
				t.Errorf("GET %s: %d %s, %d bytes; want dist/index.html (%d bytes)", path, res.StatusCode, res.Header.Get("Content-Type"), len(b), len(want))
			}
		}
	})
	t.Run("hashed files are cached for a year (dist/_headers)", func(t *testing.T) {
		wasm, _ := filepath.Glob("../../dist/web/app.*.wasm")
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
		br, err := os.ReadFile("../../dist/index.html.br")
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

	// Timings for docs/deploy.md: the wall time of one request as the
	// client sees it, and workerd's CPU time per request (from /proc, in
	// steps of 10 ms, so over 20 requests).
	one := graphsJSON(t, "../../data/MUTAG", 1)
	for _, c := range []struct{ name, method, path string }{
		{"health", "GET", "/api/health"},
		{"predict one MUTAG graph", "POST", "/api/predict?format=json"},
	} {
		const n = 20
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
// uploading) and checks its compressed size against Cloudflare's limits:
// it must fit the paid plan (10 MB); the free plan's 3 MB is reported.
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
	if gz > paid {
		t.Errorf("the Worker is %.0f KiB compressed, over the paid plan's %d KiB", gz, paid)
	}
}
