package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"wkpi-web/core/dataset"
	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
	"wkpi-web/core/pimage"
	"wkpi-web/core/spec"
	"wkpi-web/core/tu"
)

// dataset reads -data with core/dataset: a table of SMILES, an SD file, a
// GraphML collection, a TU dataset (folder or zip), or a folder of SWC
// neurons with a labels.csv (whose descriptor is given: -filtration
// given). Records left out by -skip-bad are counted on stderr.
func (c *settingsFlags) dataset() (*graph.Dataset, error) {
	if c.data == "" {
		return nil, fmt.Errorf("-data is required")
	}
	o := dataset.Options{SMILES: c.smiles, Target: c.target, SkipBad: c.skipBad}
	if c.threshold != "" {
		x, err := strconv.ParseFloat(c.threshold, 64)
		if err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("-threshold %q: want a number", c.threshold)
		}
		o.Threshold = &x
	}
	ds, rep, err := dataset.Read(c.data, o)
	var bad *dataset.BadRecordsError
	if errors.As(err, &bad) && len(bad.Bad) < bad.Total {
		return nil, fmt.Errorf("%w (-skip-bad reads the other %d)", err, bad.Total-len(bad.Bad))
	}
	if err != nil {
		return nil, err
	}
	if n := len(rep.Skipped); n > 0 && c.stderr != nil {
		first := rep.Skipped[0]
		fmt.Fprintf(c.stderr, "wkpi %s: -skip-bad: left out %d of %d %s of %s (the first: %s)\n",
			c.name, n, rep.Records, dataset.Unit(rep.Format), filepath.Base(c.data), first.Problem)
	}
	return ds, nil
}

// labelNames returns the node- and edge-label code tables of a TU
// dataset's README.txt (nil when it has none); molecules read from
// SMILES, SD or GraphML files carry element symbols and bond types
// already, and need none.
func (c *settingsFlags) labelNames() (nodes, edges map[string]string, err error) {
	info, err := os.Stat(c.data)
	if err != nil {
		return nil, nil, err
	}
	if !info.IsDir() && !strings.EqualFold(filepath.Ext(c.data), ".zip") {
		return nil, nil, nil
	}
	return tu.ReadLabelNames(c.data)
}

// output opens -out (or wraps stdout) and returns a flush-and-close func.
func output(path string, stdout io.Writer) (*bufio.Writer, func() error, error) {
	if path == "" {
		w := bufio.NewWriter(stdout)
		return w, w.Flush, nil
	}
	file, err := os.Create(path)
	if err != nil {
		return nil, nil, err
	}
	w := bufio.NewWriter(file)
	return w, func() error {
		if err := w.Flush(); err != nil {
			file.Close()
			return err
		}
		return file.Close()
	}, nil
}

// parseDataset parses a command's flags, reads its dataset and
// translates its settings, from the preset that suits the dataset when
// none was given (presetFor).
func parseDataset(c *settingsFlags, args []string) (eval.Setup, *graph.Dataset, error) {
	if err := c.parse(args); err != nil {
		return eval.Setup{}, nil, err
	}
	if _, err := c.setup(); err != nil {
		return eval.Setup{}, nil, err
	}
	ds, err := c.dataset()
	if err != nil {
		return eval.Setup{}, nil, err
	}
	if err := c.presetFor(ds); err != nil {
		return eval.Setup{}, nil, err
	}
	u, err := c.setup()
	return u, ds, err
}

// featureGroups are the settings of the commands that stop at images.
var featureGroups = []spec.Group{spec.GroupDescriptors, spec.GroupImages}

func runDiagrams(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	c := newSettingsFlags("diagrams", stderr, featureGroups)
	c.examples = []string{"wkpi diagrams -data data/MUTAG -filtration ricci -out mutag.jsonl"}
	u, ds, err := parseDataset(c, args)
	if err != nil {
		return err
	}
	if err := c.profiles.start(); err != nil {
		return err
	}
	defer c.profiles.stop(&err)
	diags, err := features.Diagrams(ctx, ds.Graphs, u.Features, progressFor(c.progress, stderr, nil))
	if err != nil {
		return err
	}
	w, closeOut, err := output(c.out, stdout)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	for i, d := range diags {
		rec := struct {
			Graph int    `json:"graph"`
			Label string `json:"label"`
			persistence.Diagrams
		}{i, ds.Classes[ds.Labels[i]], d}
		if err := enc.Encode(rec); err != nil {
			return err
		}
	}
	return closeOut()
}

func runImages(ctx context.Context, args []string, stdout, stderr io.Writer) (err error) {
	c := newSettingsFlags("images", stderr, featureGroups)
	c.examples = []string{"wkpi images -data data/MUTAG -rows 20 -extra none", "wkpi images -data data/PTC_MR -labels -out ptc.json"}
	u, ds, err := parseDataset(c, args)
	if err != nil {
		return err
	}
	if err := c.profiles.start(); err != nil {
		return err
	}
	defer c.profiles.stop(&err)
	of, err := c.featuresOf(u, ds)
	if err != nil {
		return err
	}
	set, err := features.Compute(ctx, ds, of(nil), progressFor(c.progress, stderr, nil))
	if err != nil {
		return err
	}
	w, closeOut, err := output(c.out, stdout)
	if err != nil {
		return err
	}
	rec := struct {
		Dataset  string            `json:"dataset"`
		Settings features.Settings `json:"settings"`
		Grid     pimage.Grid       `json:"grid"`
		Labels   []string          `json:"labels"`
		Images   [][]float64       `json:"images"`
	}{ds.Name, set.Settings, set.Grid, labelTexts(ds), pimage.DenseAll(set.Images)}
	if err := json.NewEncoder(w).Encode(rec); err != nil {
		return err
	}
	return closeOut()
}

func labelTexts(ds *graph.Dataset) []string {
	out := make([]string, len(ds.Labels))
	for i, l := range ds.Labels {
		out[i] = ds.Classes[l]
	}
	return out
}
