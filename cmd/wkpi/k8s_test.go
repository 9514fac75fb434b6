package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"wkpi-web/core/testenv"
)

// TestK8sManifestShards: the Indexed Job of docs/k8s/wkpi-shards.yaml
// runs as many shards as its completions, each with eval flags the CLI
// accepts, and its merge waits for and merges exactly those parts.
func TestK8sManifestShards(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "docs", "k8s", "wkpi-shards.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string]string{}
	for _, doc := range strings.Split(string(data), "\n---\n") {
		if m := regexp.MustCompile(`(?m)^  name: (\S+)$`).FindStringSubmatch(doc); m != nil {
			docs[m[1]] = doc
		}
	}
	shards, merge := docs["wkpi-shards"], docs["wkpi-merge"]
	if shards == "" || merge == "" {
		t.Fatalf("no Jobs wkpi-shards and wkpi-merge in the manifest (found %d documents)", len(docs))
	}
	m := regexp.MustCompile(`(?m)^  completions: (\d+)`).FindStringSubmatch(shards)
	if m == nil || !strings.Contains(shards, "completionMode: Indexed") {
		t.Fatal("wkpi-shards is not an Indexed Job with completions")
	}
	n, _ := strconv.Atoi(m[1])

	// The shard container's args: the list after "args:".
	_, after, _ := strings.Cut(shards, "args:\n")
	var args []string
	for _, line := range strings.Split(after, "\n") {
		item, ok := strings.CutPrefix(strings.TrimSpace(line), "- ")
		if !ok {
			break
		}
		args = append(args, item)
	}
	if len(args) == 0 || args[0] != "eval" {
		t.Fatalf("shard args %q do not start with eval", args)
	}
	var evalArgs []string
	var sawShard, sawOut bool
	for _, a := range args[1:] {
		name, value, _ := strings.Cut(a, "=")
		switch name {
		case "-shard":
			sawShard = value == fmt.Sprintf("$(SHARD)/%d", n)
		case "-out":
			sawOut = value == "/work/part-$(SHARD).json"
		case "-data":
			evalArgs = append(evalArgs, "-data="+testenv.Dataset(t, "MUTAG"))
		default:
			evalArgs = append(evalArgs, a)
		}
	}
	if !sawShard || !sawOut {
		t.Errorf("shard args %q: want -shard=$(SHARD)/%d and -out=/work/part-$(SHARD).json", args, n)
	}
	if err := checkEvalArgs(context.Background(), evalArgs); err != nil {
		t.Errorf("shard args %q: %v", args, err)
	}

	parts := regexp.MustCompile(`/work/part-(\d+)\.json`).FindAllStringSubmatch(merge, -1)
	count := map[string]int{}
	for _, p := range parts {
		count[p[1]]++
	}
	for i := range n {
		// once in the wait condition, once in merge's arguments
		if c := count[strconv.Itoa(i)]; c != 2 {
			t.Errorf("wkpi-merge names part-%d.json %d times, want 2 (wait, merge)", i, c)
		}
	}
	if len(count) != n {
		t.Errorf("wkpi-merge names %d parts for %d shards", len(count), n)
	}
}
