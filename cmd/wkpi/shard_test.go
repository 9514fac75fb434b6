package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"wkpi-web/core/eval"
	"wkpi-web/core/testenv"
)

// oneProcess is the reference a merge must equal: eval's protocol for
// args run through the eval API with every fold in one Plan (no Only),
// so the report comes out of the CV's own merge, not MergeParts.
func oneProcess(t *testing.T, args []string) []eval.Report {
	t.Helper()
	c, _ := evalFlags(io.Discard)
	u, ds, err := parseDataset(c, args)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var cv func(eval.Plan) (eval.Report, error)
	if u.Spec.Labels {
		// Every fold's features anew, with its training graphs'
		// node-label vocabulary.
		of, err := c.featuresOf(u, ds)
		if err != nil {
			t.Fatal(err)
		}
		src := eval.Source{Labels: ds.Labels, Classes: len(ds.Classes), PerFold: true, Features: func(train []int) (*eval.WKPI, error) {
			return prepareFor(ctx, of(train), ds, nil)
		}}
		cv = func(plan eval.Plan) (eval.Report, error) { return eval.Run(ctx, src, u.Protocol(nil), plan, nil) }
	} else {
		w, err := prepareFor(ctx, u.Features, ds, nil)
		if err != nil {
			t.Fatal(err)
		}
		cv = func(plan eval.Plan) (eval.Report, error) { return u.Protocol(nil).CrossValidate(ctx, w, plan, nil) }
	}
	var reports []eval.Report
	for r := range u.Spec.Repeats {
		plan := eval.Plan{Folds: u.Spec.Folds, Seed: u.Spec.Seed + int64(r)}
		rep, err := cv(plan)
		if err != nil {
			t.Fatal(err)
		}
		reports = append(reports, rep)
	}
	return reports
}

// noSeconds zeroes the timings, the only numbers a sharded run may
// change.
func noSeconds(reports []eval.Report) []eval.Report {
	out := make([]eval.Report, len(reports))
	for i, r := range reports {
		r.Seconds, r.Learned.Seconds, r.Baseline.Seconds = 0, 0, 0
		out[i] = r
	}
	return out
}

var secondsField = regexp.MustCompile(`"seconds":[0-9.e+-]+`)

// shardRun runs `wkpi eval args -shard i/n -out dir/part-i.json` for
// every i and returns the parts' paths.
func shardRun(t *testing.T, dir string, n int, args ...string) []string {
	t.Helper()
	var paths []string
	for i := range n {
		path := filepath.Join(dir, fmt.Sprintf("part-%d.json", i))
		code, _, stderr := wkpi(t, append(append([]string{"eval", "-progress", "off"}, args...), "-shard", fmt.Sprintf("%d/%d", i, n), "-out", path)...)
		if code != 0 {
			t.Fatalf("shard %d/%d: exit %d: %s", i, n, code, stderr)
		}
		paths = append(paths, path)
	}
	return paths
}

// TestShardsMergeToOneProcessRun: a CV cut into shards (fixed protocol
// with two repeats, so that a shard spans both; the default automatic
// choice; nested CV over a small grid; node labels) and merged equals the same CV in one process in every number
// (per-fold accuracies, chosen settings, learning traces, every
// prediction, confusion matrices), and `wkpi merge` prints what
// `wkpi eval` prints.
func TestShardsMergeToOneProcessRun(t *testing.T) {
	mutag := testenv.Dataset(t, "MUTAG")
	for _, tc := range []struct {
		name   string
		shards int
		args   []string
	}{
		{"fixed, 2 repeats", 3, []string{"-data", mutag, "-folds", "10", "-repeats", "2", "-auto=false"}},
		{"automatic choice (the default)", 2, []string{"-data", mutag, "-folds", "10"}},
		{"nested", 4, []string{"-data", mutag, "-folds", "10", "-grid", "m=3,4;sigma=0.01,0.1;C=1,100", "-inner", "3"}},
		// Each fold takes its node-label vocabulary from its training
		// graphs, in a shard as in one process.
		{"node labels", 3, []string{"-data", mutag, "-folds", "10", "-labels", "-label-groups", "3"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			paths := shardRun(t, dir, tc.shards, tc.args...)
			_, merged, err := mergeFiles(paths)
			if err != nil {
				t.Fatal(err)
			}
			want := noSeconds(oneProcess(t, tc.args))
			got := noSeconds(merged)
			if !reflect.DeepEqual(got, want) {
				g, _ := json.Marshal(got)
				w, _ := json.Marshal(want)
				t.Fatalf("merged shards differ from the one-process run:\n got %.2000s\nwant %.2000s", g, w)
			}
			if n := len(want[0].Folds); n != 10 || len(want[0].Learned.Predictions) != 188 {
				t.Fatalf("reference has %d folds and %d predictions, want 10 and 188", n, len(want[0].Learned.Predictions))
			}
			code, evalOut, stderr := wkpi(t, append([]string{"eval", "-progress", "off"}, tc.args...)...)
			if code != 0 {
				t.Fatal(stderr)
			}
			code, mergeOut, stderr := wkpi(t, append([]string{"merge"}, paths...)...)
			if code != 0 {
				t.Fatal(stderr)
			}
			if a, b := secondsField.ReplaceAllString(evalOut, ""), secondsField.ReplaceAllString(mergeOut, ""); a != b {
				t.Errorf("wkpi merge prints\n%s\nwkpi eval prints\n%s", b, a)
			}
		})
	}
}

// TestMergeRefusesBadParts: a missing, duplicated or foreign part
// (another dataset, another setting, node labels, another program
// version, another shard count), a file that is no part and a part whose folds are not
// its shard's each stop the merge with an error naming the file.
func TestMergeRefusesBadParts(t *testing.T) {
	mutag, ptc := testenv.Dataset(t, "MUTAG"), testenv.Dataset(t, "PTC_MR")
	dir := t.TempDir()
	args := []string{"-data", mutag, "-folds", "4", "-iter", "3"}
	good := shardRun(t, dir, 4, args...)
	otherData := shardRun(t, t.TempDir(), 4, "-data", ptc, "-folds", "4", "-iter", "3")
	otherC := shardRun(t, t.TempDir(), 4, append(args, "-C", "10")...)
	threeShards := shardRun(t, t.TempDir(), 3, args...)
	// MUTAG's molecules preset has node labels; a part without them.
	unlabelled := shardRun(t, t.TempDir(), 4, append(args, "-labels=false")...)

	edit := func(name, from string, change func(map[string]any)) string {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		change(m)
		if data, err = json.Marshal(m); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	otherVersion := edit("other-version.json", good[2], func(m map[string]any) {
		m["run"].(map[string]any)["program"] = "wkpi v0.0.0-other"
	})
	wrongFolds := edit("wrong-folds.json", good[1], func(m map[string]any) {
		rep := m["reports"].([]any)[0].(map[string]any)["report"].(map[string]any)
		rep["folds"].([]any)[0].(map[string]any)["index"] = 2.0
	})
	notPart := filepath.Join(dir, "report.json")
	if err := os.WriteFile(notPart, []byte(`{"protocol":"fixed","folds":[]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dup := filepath.Join(dir, "copy-of-part-1.json")
	data, err := os.ReadFile(good[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dup, data, 0o644); err != nil {
		t.Fatal(err)
	}

	if code, _, stderr := wkpi(t, append([]string{"merge"}, good...)...); code != 0 {
		t.Fatalf("the good parts do not merge: %s", stderr)
	}
	for _, tc := range []struct {
		name  string
		parts []string
		want  []string // in the error, besides "wkpi merge"
	}{
		{"missing", []string{good[0], good[1], good[3]}, []string{"shard 2/4 missing", good[3]}},
		{"duplicated", []string{good[0], good[1], dup, good[2], good[3]}, []string{dup, "shard 1/4 again", good[1]}},
		{"other dataset", []string{good[0], otherData[1], good[2], good[3]}, []string{otherData[1], "dataset differs", good[0]}},
		{"other setting", []string{good[0], good[1], good[2], otherC[3]}, []string{otherC[3], "config.C differs (10 here, 100 there)"}},
		{"node labels", []string{good[0], good[1], unlabelled[2], good[3]}, []string{unlabelled[2], "node_labels differs"}},
		{"other version", []string{good[0], good[1], otherVersion, good[3]}, []string{otherVersion, "program differs"}},
		{"other shard count", []string{good[0], threeShards[1], good[2], good[3]}, []string{threeShards[1], "shard 1/3", "different shard counts"}},
		{"not a part", []string{good[0], good[1], good[2], good[3], notPart}, []string{notPart, "not a part file"}},
		{"folds not its shard's", []string{good[0], wrongFolds, good[2], good[3]}, []string{wrongFolds, "reports hold folds"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := wkpi(t, append([]string{"merge"}, tc.parts...)...)
			if code != 1 || stdout != "" {
				t.Fatalf("exit %d, stdout %q: want exit 1 and nothing merged", code, stdout)
			}
			if strings.Count(stderr, "\n") != 1 || !strings.HasPrefix(stderr, "wkpi merge: ") {
				t.Errorf("stderr is not one line starting with the command: %q", stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("error %q does not name %q", stderr, w)
				}
			}
		})
	}
}

// TestShardJobsCoverOnce: every job of repeats x folds is in exactly one
// shard, for shard counts below, equal to and above the number of jobs.
func TestShardJobsCoverOnce(t *testing.T) {
	for _, tc := range []struct{ repeats, folds, shards int }{{1, 10, 4}, {3, 10, 7}, {2, 5, 10}, {10, 10, 100}, {1, 3, 1}} {
		seen := map[eval.Job]int{}
		for i := range tc.shards {
			for _, j := range (eval.Shard{Index: i, Count: tc.shards}).Jobs(tc.repeats, tc.folds) {
				seen[j]++
			}
		}
		for r := range tc.repeats {
			for f := range tc.folds {
				if n := seen[eval.Job{Repeat: r, Fold: f}]; n != 1 {
					t.Errorf("%+v: job (%d, %d) in %d shards", tc, r, f, n)
				}
			}
		}
		if len(seen) != tc.repeats*tc.folds {
			t.Errorf("%+v: %d distinct jobs, want %d", tc, len(seen), tc.repeats*tc.folds)
		}
	}
	for _, bad := range []string{"4/4", "-1/4", "1/0", "1", "a/b", "1/2/3"} {
		if _, err := eval.ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted", bad)
		}
	}
}
