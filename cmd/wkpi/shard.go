package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"wkpi-web/core/eval"
	"wkpi-web/core/graph"
)

// shardFor reads -shard and -out of eval: nil when neither is given (a
// plain run), the whole run as share 0/1 when only -out is given.
func shardFor(text, out string) (*eval.Shard, error) {
	if text == "" && out == "" {
		return nil, nil
	}
	if out == "" {
		return nil, errors.New("-shard needs -out part.json")
	}
	if text == "" {
		return &eval.Shard{Index: 0, Count: 1}, nil
	}
	s, err := eval.ParseShard(text)
	if err != nil {
		return nil, fmt.Errorf("-shard: %w", err)
	}
	return &s, nil
}

// runIdentity is what a part records of the run it belongs to.
func runIdentity(u eval.Setup, ds *graph.Dataset) (eval.RunID, error) {
	sum, err := datasetSHA256(ds)
	if err != nil {
		return eval.RunID{}, err
	}
	prog, err := programVersion()
	if err != nil {
		return eval.RunID{}, err
	}
	id := u.RunID()
	id.Program, id.Dataset, id.DataSHA256, id.Classes, id.Labels = prog, ds.Name, sum, ds.Classes, ds.Labels
	return id, nil
}

// datasetSHA256 hashes a dataset's content as read (graphs, their labels
// and values, class labels), so that the same data in another folder or
// format has the same hash and any change to it another.
func datasetSHA256(ds *graph.Dataset) (string, error) {
	h := sha256.New()
	enc := json.NewEncoder(h)
	if err := enc.Encode(struct {
		Classes []string
		Labels  []int
	}{ds.Classes, ds.Labels}); err != nil {
		return "", err
	}
	for _, g := range ds.Graphs {
		if err := enc.Encode(g); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// programVersion names the running program: its VCS revision when the
// build recorded one, and the hash of its executable, so that parts from
// different builds never merge (a rebuilt binary with changed code has
// another hash even without a commit).
func programVersion() (string, error) {
	rev := revision()
	if rev == "" {
		rev = "unknown revision"
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("program version: %w", err)
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", fmt.Errorf("program version: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("program version: %s: %w", exe, err)
	}
	return fmt.Sprintf("wkpi %s, executable sha256 %x", rev, h.Sum(nil)[:8]), nil
}

// writePart saves a shard's reports as a part file.
func writePart(path string, id eval.RunID, s eval.Shard, reports []eval.Report) error {
	part, err := eval.NewPart(id, s, reports)
	if err != nil {
		return err
	}
	data, err := json.Marshal(part)
	if err != nil {
		return err
	}
	// Written under another name and renamed, so that a merge never reads
	// a half-written part.
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func readPart(path string) (eval.Part, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return eval.Part{}, err
	}
	var p eval.Part
	if err := json.Unmarshal(data, &p); err != nil {
		return eval.Part{}, fmt.Errorf("%s: not a part file: %w", path, err)
	}
	if p.Format != eval.PartFormat {
		return eval.Part{}, fmt.Errorf("%s: not a part file (format %q, want %q)", path, p.Format, eval.PartFormat)
	}
	return p, nil
}

// mergeFiles reads part files and merges them (eval.MergeParts).
func mergeFiles(paths []string) (eval.RunID, []eval.Report, error) {
	parts := make([]eval.Part, len(paths))
	for i, path := range paths {
		var err error
		if parts[i], err = readPart(path); err != nil {
			return eval.RunID{}, nil, err
		}
	}
	return eval.MergeParts(paths, parts)
}

func runMerge(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "also write the merged reports (one per repeat) as JSON to this file")
	predictions := fs.String("predictions", "", "also write the out-of-fold predictions to this CSV file, as wkpi eval -predictions")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("usage: wkpi merge [-out report.json] [-predictions p.csv] part-*.json")
	}
	id, reports, err := mergeFiles(fs.Args())
	if err != nil {
		return err
	}
	if *out != "" {
		data, err := json.MarshalIndent(reports, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(*out, append(data, '\n'), 0o644); err != nil {
			return err
		}
	}
	ds := &graph.Dataset{Name: id.Dataset, Classes: id.Classes, Labels: id.Labels}
	if *predictions != "" {
		if err := writePredictions(*predictions, ds, reports); err != nil {
			return err
		}
	}
	return printReports(stdout, ds, id.Mode(), reports)
}

// saveShard writes a shard's reports to out as a part. The whole run as
// one part (-out without -shard) also prints its report, merged as
// `wkpi merge` would.
func saveShard(out string, u eval.Setup, ds *graph.Dataset, s eval.Shard, reports []eval.Report, stdout io.Writer) error {
	id, err := runIdentity(u, ds)
	if err != nil {
		return err
	}
	if err := writePart(out, id, s, reports); err != nil {
		return err
	}
	if s.Count == 1 {
		_, merged, err := mergeFiles([]string{out})
		if err != nil {
			return err
		}
		return printReports(stdout, ds, u.Mode(), merged)
	}
	_, err = fmt.Fprintf(stdout, "wkpi eval: %s shard %v: jobs %v -> %s\n", ds.Name, s, s.Jobs(u.Spec.Repeats, u.Spec.Folds), out)
	return err
}
