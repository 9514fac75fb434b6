package main

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"

	"wkpi-web/core/explain"
	"wkpi-web/core/graph"
	"wkpi-web/core/wire"
)

// explained is one line of `wkpi explain -format json`: the explanation
// with the file and position of its graph.
type explained struct {
	File  string `json:"file"`
	Index int    `json:"index"`
	*explain.Explanation
}

func runExplain(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("explain", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("model", "", "model file from wkpi train (required)")
	format := fs.String("format", "text", "output: text (the top nodes, functional groups and edges) or json (one object per graph, every score)")
	attribution := fs.String("attribution", string(explain.Nodes), "how points' parts reach the graph: nodes (edges scored by their ends) or simplices (edges keep their parts)")
	top := fs.Int("top", 5, "text: how many nodes, groups and edges to list per graph")
	var in graphInputs
	in.register(fs, "explain", stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, `usage: wkpi explain -model M.json [-format text|json] GRAPH... | -smiles SMILES

Says which atoms and bonds (nodes and edges) decided each prediction, exactly:
the decision value's change from the empty graph's is split among the image's
pixels, the persistence points and the simplices that make them (docs/method.md).
Scores are signed towards the predicted class. GRAPH: any input wkpi predict
reads, - for standard input; -smiles explains a SMILES string (repeatable).

Examples:
  wkpi explain -model mutag.json mols.smi
  wkpi explain -model mutag.json -smiles 'c1ccc(cc1)[N+](=O)[O-]'
  wkpi explain -model mutag.json -format json data/MUTAG > explained.jsonl

Flags:
`)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *path == "" {
		fs.Usage()
		return errors.New("usage: wkpi explain -model model.json GRAPH... | -smiles SMILES")
	}
	sources, err := in.sources(fs.Args(), stdin)
	if err != nil {
		return err
	}
	if *format != "text" && *format != "json" {
		return fmt.Errorf("-format %q: want text or json", *format)
	}
	p, err := loadModel(*path)
	if err != nil {
		return err
	}
	e, err := explain.New(p, explain.Options{Attribution: explain.Attribution(*attribution)})
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	for _, src := range sources {
		name := src.name
		read, err := src.read()
		if err != nil {
			return err
		}
		for i, g := range read.graphs {
			if err := ctx.Err(); err != nil {
				return err
			}
			ex, err := e.Explain(g)
			if err != nil {
				return fmt.Errorf("%s: %w", read.at(name, i), err)
			}
			ex.Graph = read.names[i]
			if *format == "json" {
				if err := enc.Encode(explained{File: name, Index: read.position(i), Explanation: ex}); err != nil {
					return err
				}
				continue
			}
			if err := writeExplanation(stdout, name, read.position(i), g, ex, *top); err != nil {
				return err
			}
		}
	}
	return nil
}

// writeExplanation prints one explanation for people: the class and the
// decision, then the nodes of largest |score|, the functional groups,
// and the edges.
func writeExplanation(w io.Writer, file string, index int, g *graph.Graph, ex *explain.Explanation, top int) error {
	title := fmt.Sprintf("%s graph %d", file, index)
	if ex.Graph != "" {
		title += " (" + ex.Graph + ")"
	}
	fmt.Fprintf(w, "%s: class %s, score %.4g (empty graph: %.4g); positive scores push towards %s\n",
		title, ex.Class, ex.Decision, ex.Reference, ex.Class)
	label := func(v int) string {
		if g.NodeLabels != nil {
			return g.NodeLabels[v]
		}
		return "-"
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	nodes := slices.Clone(ex.Nodes)
	slices.SortStableFunc(nodes, func(a, b wire.NodeScore) int { return cmp.Compare(math.Abs(b.Score), math.Abs(a.Score)) })
	fmt.Fprintln(tw, "  node\tlabel\tscore")
	for _, n := range nodes[:min(top, len(nodes))] {
		fmt.Fprintf(tw, "  %d\t%s\t%+.4g\n", n.ID, label(n.ID), n.Score)
	}
	if len(ex.Groups) > 0 {
		fmt.Fprintln(tw, "  groups: "+groupWords(ex.Groups[:min(top, len(ex.Groups))]))
	}
	edges := slices.Clone(ex.Edges)
	slices.SortStableFunc(edges, func(a, b wire.EdgeScore) int { return cmp.Compare(math.Abs(b.Score), math.Abs(a.Score)) })
	if len(edges) > 0 {
		fmt.Fprintln(tw, "  edge\tlabels\tscore")
	}
	for _, e := range edges[:min(top, len(edges))] {
		fmt.Fprintf(tw, "  %d-%d\t%s-%s\t%+.4g\n", e.U, e.V, label(e.U), label(e.V), e.Score)
	}
	return tw.Flush()
}

// groupWords lists groups with their atoms and scores:
// "nitro (atoms 6-8) +0.21; benzene ring (atoms 0-5) +0.1".
func groupWords(groups []wire.GroupScore) string {
	s := make([]string, len(groups))
	for i, g := range groups {
		atoms := "atoms"
		if len(g.Atoms) == 1 {
			atoms = "atom"
		}
		s[i] = fmt.Sprintf("%s (%s %s) %+.4g", g.Name, atoms, atomRanges(g.Atoms), g.Score)
	}
	return strings.Join(s, "; ")
}

// atomRanges writes increasing ids with runs of three or more as ranges:
// "0-5, 9".
func atomRanges(ids []int) string {
	var s []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		switch {
		case j-i >= 2:
			s = append(s, fmt.Sprintf("%d-%d", ids[i], ids[j]))
		default:
			for _, v := range ids[i : j+1] {
				s = append(s, fmt.Sprint(v))
			}
		}
		i = j + 1
	}
	return strings.Join(s, ", ")
}
