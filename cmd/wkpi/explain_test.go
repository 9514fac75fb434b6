package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"wkpi-web/core/crossval"
	"wkpi-web/core/explain"
	"wkpi-web/core/graph"
	"wkpi-web/core/model"
	"wkpi-web/core/smiles"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
	"wkpi-web/core/wire"
)

// writeTU writes graphs and their classes as a TU Dortmund folder named
// name under dir (structure only), and returns the folder.
func writeTU(t *testing.T, dir, name string, ds *graph.Dataset) string {
	t.Helper()
	folder := filepath.Join(dir, name)
	if err := os.MkdirAll(folder, 0o755); err != nil {
		t.Fatal(err)
	}
	var a, indicator, labels strings.Builder
	offset := 0
	for i, g := range ds.Graphs {
		for range g.N {
			fmt.Fprintf(&indicator, "%d\n", i+1)
		}
		for _, e := range g.Edges {
			fmt.Fprintf(&a, "%d, %d\n%d, %d\n", offset+e.U+1, offset+e.V+1, offset+e.V+1, offset+e.U+1)
		}
		fmt.Fprintln(&labels, ds.Labels[i])
		offset += g.N
	}
	for suffix, text := range map[string]string{"_A.txt": a.String(), "_graph_indicator.txt": indicator.String(), "_graph_labels.txt": labels.String()} {
		if err := os.WriteFile(filepath.Join(folder, name+suffix), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return folder
}

// mustLoadModel reads a model file.
func mustLoadModel(t *testing.T, path string) *model.Prepared {
	t.Helper()
	p, err := loadModel(path)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// prepared prepares m.
func prepared(tb testing.TB, m *model.Model) *model.Prepared {
	tb.Helper()
	p, err := model.Prepare(m)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

// without returns g less the edges listed, the others keeping their
// labels.
func without(t *testing.T, g *graph.Graph, drop map[int]bool) *graph.Graph {
	t.Helper()
	var edges []graph.Edge
	var labels []string
	for i, e := range g.Edges {
		if !drop[i] {
			edges = append(edges, e)
			if g.EdgeLabels != nil {
				labels = append(labels, g.EdgeLabels[i])
			}
		}
	}
	if g.EdgeLabels != nil && labels == nil {
		labels = []string{}
	}
	h, err := graph.New(g.N, edges, labels, g.NodeLabels)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestExplainBA2Motifs is the ground-truth test of explanations (issue
// 21): the default `wkpi train` model of 800 BA-2Motifs graphs (seed 1)
// classifies 200 others, and the ROC-AUC of the edges' |scores| against
// membership of the planted motif (the joining edge not counted),
// averaged over the 200 graphs, must reach 0.97 (measured: see the log
// and docs/explain.md); accuracy must reach 0.95. It logs both
// attributions and the faithfulness curve: the mean drop of the
// decision value towards the predicted class when the k top-scored
// edges are deleted, against k random edges, k = 1..5.
func TestExplainBA2Motifs(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on 800 graphs")
	}
	bench := explain.BA2Motifs(1000, 1)
	train := &graph.Dataset{Name: "BA2Motifs", Graphs: bench.Dataset.Graphs[:800], Labels: bench.Dataset.Labels[:800], Classes: bench.Dataset.Classes}
	dir := t.TempDir()
	folder := writeTU(t, dir, "BA2Motifs", train)
	modelFile := filepath.Join(dir, "model.json")
	start := time.Now()
	if code, _, stderr := wkpi(t, "train", "-data", folder, "-out", modelFile); code != 0 {
		t.Fatalf("wkpi train: exit %d\n%s", code, stderr)
	}
	t.Logf("BENCH wkpi train on 800 BA-2Motifs graphs: %.1f s", time.Since(start).Seconds())
	m := mustLoadModel(t, modelFile)
	ctx := context.Background()
	test := bench.Dataset.Graphs[800:]
	preds, err := m.Predict(ctx, test)
	if err != nil {
		t.Fatal(err)
	}
	correct := 0
	for i, p := range preds {
		// TU class labels are written as 0 and 1, read back as names "0", "1".
		if p.Label == fmt.Sprint(bench.Dataset.Labels[800+i]) {
			correct++
		}
	}
	acc := float64(correct) / float64(len(test))
	t.Logf("BENCH BA-2Motifs accuracy on 200 unseen graphs: %.3f", acc)
	if acc < 0.95 {
		t.Errorf("accuracy %.3f on BA-2Motifs, want >= 0.95", acc)
	}
	r := rand.New(rand.NewPCG(9, 9))
	for _, attr := range []explain.Attribution{explain.Nodes, explain.Simplices} {
		e, err := explain.New(m, explain.Options{Attribution: attr})
		if err != nil {
			t.Fatal(err)
		}
		var aucSum float64
		top, random := make([]float64, 6), make([]float64, 6)
		var elapsed time.Duration
		for i, g := range test {
			t0 := time.Now()
			ex, err := e.Explain(g)
			elapsed += time.Since(t0)
			if err != nil {
				t.Fatal(err)
			}
			var scores []float64
			var motif []bool
			for j, role := range bench.Roles[800+i] {
				if role != explain.JoinEdge {
					scores = append(scores, math.Abs(ex.Edges[j].Score))
					motif = append(motif, role == explain.MotifEdge)
				}
			}
			auc, err := crossval.BinaryROCAUC(scores, motif)
			if err != nil {
				t.Fatal(err)
			}
			aucSum += auc
			if attr != explain.Nodes || i%4 != 0 {
				continue
			}
			// Faithfulness on every fourth graph.
			order := make([]int, len(ex.Edges))
			for j := range order {
				order[j] = j
			}
			byScore := append([]int(nil), order...)
			sortByScore(byScore, ex.Edges)
			shuffled := append([]int(nil), order...)
			r.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
			for k := 1; k <= 5; k++ {
				top[k] += drop(t, e, g, byScore[:k], ex) / float64(len(test)/4)
				random[k] += drop(t, e, g, shuffled[:k], ex) / float64(len(test)/4)
			}
		}
		auc := aucSum / float64(len(test))
		t.Logf("BENCH BA-2Motifs explanation AUC (%s attribution): %.4f over %d graphs; %.2f ms per explanation", attr, auc, len(test), elapsed.Seconds()*1000/float64(len(test)))
		if attr == explain.Nodes {
			t.Logf("BENCH BA-2Motifs faithfulness, mean drop of the decision when deleting the k top-scored edges: %.3f %.3f %.3f %.3f %.3f; k random edges: %.3f %.3f %.3f %.3f %.3f",
				top[1], top[2], top[3], top[4], top[5], random[1], random[2], random[3], random[4], random[5])
			if auc < 0.97 {
				t.Errorf("explanation AUC %.4f on BA-2Motifs, want >= 0.97", auc)
			}
			for k := 1; k <= 5; k++ {
				if top[k] <= random[k] {
					t.Errorf("deleting the %d top-scored edges drops the decision by %.3f, %d random edges by %.3f", k, top[k], k, random[k])
				}
			}
		}
	}
}

// sortByScore orders edge indices by descending score towards the class.
func sortByScore(idx []int, edges []wire.EdgeScore) {
	for i := 1; i < len(idx); i++ {
		for j := i; j > 0 && edges[idx[j]].Score > edges[idx[j-1]].Score; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
}

// drop is how much deleting the edges lowers g's score towards the class
// the explanation was for.
func drop(t *testing.T, e *explain.Explainer, g *graph.Graph, edges []int, ex *explain.Explanation) float64 {
	t.Helper()
	set := map[int]bool{}
	for _, i := range edges {
		set[i] = true
	}
	after, err := e.Score(without(t, g, set), ex.Class)
	if err != nil {
		t.Fatal(err)
	}
	return ex.Decision - after
}

// TestExplainCLI: `wkpi explain -format json` gives one object per graph
// with the fields the docs name, scores equal to core/explain's, and
// the text form names the class; a bad model and a bad SMILES are
// refused with the file named.
func TestExplainCLI(t *testing.T) {
	dir := t.TempDir()
	bench := explain.BA2Motifs(60, 3)
	folder := writeTU(t, dir, "small", bench.Dataset)
	modelFile := filepath.Join(dir, "model.json")
	if code, _, stderr := wkpi(t, "train", "-data", folder, "-iter", "20", "-out", modelFile); code != 0 {
		t.Fatalf("wkpi train: exit %d\n%s", code, stderr)
	}
	code, stdout, stderr := wkpi(t, "explain", "-model", modelFile, "-format", "json", folder)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	e, err := explain.New(mustLoadModel(t, modelFile), explain.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(strings.NewReader(stdout))
	sc.Buffer(nil, 1<<24)
	n := 0
	for sc.Scan() {
		var got map[string]any
		if err := json.Unmarshal(sc.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		for _, key := range []string{"file", "index", "class", "decision", "reference", "attribution", "nodes", "edges", "points", "blocks"} {
			if _, ok := got[key]; !ok {
				t.Fatalf("graph %d: no %q in %s", n, key, sc.Text()[:200])
			}
		}
		var ex explain.Explanation
		if err := json.Unmarshal(sc.Bytes(), &ex); err != nil {
			t.Fatal(err)
		}
		want, err := e.Explain(bench.Dataset.Graphs[n])
		if err != nil {
			t.Fatal(err)
		}
		if ex.Decision != want.Decision || ex.Class != want.Class || len(ex.Edges) != len(want.Edges) || ex.Edges[0] != want.Edges[0] {
			t.Fatalf("graph %d: CLI %v %v, core/explain %v %v", n, ex.Class, ex.Decision, want.Class, want.Decision)
		}
		n++
	}
	if n != 60 {
		t.Errorf("%d explanations for 60 graphs", n)
	}
	smi := filepath.Join(dir, "mols.smi")
	if err := os.WriteFile(smi, []byte("C1CCCC1 ring\nC1CC broken\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-model", smi, smi}, "mols.smi"},
		{[]string{"-model", modelFile, smi}, "line 2"},
		{[]string{"-model", modelFile, "-attribution", "atoms", smi}, `attribution "atoms"`},
		{[]string{"-model", modelFile, "-format", "xml", smi}, `-format "xml"`},
	} {
		if code, _, stderr := wkpi(t, append([]string{"explain"}, tc.args...)...); code == 0 || !strings.Contains(stderr, tc.want) {
			t.Errorf("wkpi explain %v: exit %d, %q; want an error naming %q", tc.args, code, stderr, tc.want)
		}
	}
	if err := os.WriteFile(smi, []byte("C1CCCC1 ring\nc1ccccc1[N+](=O)[O-] nitrobenzene\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = wkpi(t, "explain", "-model", modelFile, smi)
	if code != 0 || !strings.Contains(stdout, "mols.smi graph 0 (ring): class ") || !strings.Contains(stdout, "positive scores push towards") {
		t.Errorf("text: exit %d\n%s%s", code, stdout, stderr)
	}
	// Groups: nitrobenzene's, with the scores core/explain gives them.
	nb, err := smiles.Parse("c1ccccc1[N+](=O)[O-]")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := e.Explain(nb)
	if err != nil {
		t.Fatal(err)
	}
	if len(ex.Groups) != 2 {
		t.Fatalf("nitrobenzene: groups %v", ex.Groups)
	}
	want := "  groups: " + groupWords(ex.Groups) + "\n"
	if !strings.Contains(stdout, want) || !strings.Contains(want, "nitro (atoms 6-8) ") || !strings.Contains(want, "benzene ring (atoms 0-5) ") {
		t.Errorf("text: no line %q in\n%s", want, stdout)
	}
	code, stdout, stderr = wkpi(t, "explain", "-model", modelFile, "-format", "json", smi)
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, stderr)
	}
	var got explain.Explanation
	if err := json.Unmarshal([]byte(strings.Split(stdout, "\n")[1]), &got); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got.Groups) != fmt.Sprint(ex.Groups) {
		t.Errorf("json: groups %v, want %v", got.Groups, ex.Groups)
	}
}

func TestAtomRanges(t *testing.T) {
	for _, c := range []struct {
		ids  []int
		want string
	}{
		{nil, ""},
		{[]int{7}, "7"},
		{[]int{6, 7}, "6, 7"},
		{[]int{6, 7, 8}, "6-8"},
		{[]int{0, 1, 2, 3, 8, 9}, "0-3, 8, 9"},
		{[]int{1, 3, 4, 5, 6, 10}, "1, 3-6, 10"},
	} {
		if got := atomRanges(c.ids); got != c.want {
			t.Errorf("atomRanges(%v) = %q, want %q", c.ids, got, c.want)
		}
	}
}

// TestExplainMUTAG reports how often the explanation of a MUTAG model
// finds the nitro groups of the mutagenic molecules, for each variant of
// chemistrySpec (the molecules preset, and without its node labels): trained on
// the even-numbered graphs, for each odd-numbered mutagenic molecule
// with an NO2 (an N bonded to two O) predicted mutagenic, whether its 3
// top-scored atoms include an atom of an NO2, and whether they are one
// NO2 exactly. GraphXAI's benchmark (Agarwal et al. 2023) shows GNN
// explainers scoring low here; the first variant must keep its share of
// hits (minNitroHits, just under today's figure with the defaults, to be
// raised with the chemistry preset). It logs the faithfulness curve too,
// and fails if deleting top-scored edges does not hurt the decision more
// than deleting random ones (the top edge, and the curve's area).
func TestExplainMUTAG(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a model per variant")
	}
	// minNitroHits is the least share of the predicted mutagenic NO2
	// molecules whose 3 top atoms include an NO2 atom, for the first
	// variant. The molecules preset: 1 of 57 (2 %; 2 before azoles' and
	// acids' types of their own); without node labels 6 of 57 (with tied
	// 0-dimensional points handed to one simplex in a canonical order: 1
	// and 7 of 57); with element labels instead of bonding types (before
	// ties were taken in a canonical order) 15 of 57.
	// Before a nitro group's two oxygens shared their parts (the one
	// written N=O took more than the other): 28 and 26 of 57. The
	// structure-only default with points shared over symmetric atoms: 9
	// of 58. Every MUTAG molecule has an NO2, so an exact explanation
	// need not credit it; minFaithfulness checks that what it credits is
	// what decides.
	const minNitroHits = 0.015
	// minFaithfulness is the least area between the deletion curves of
	// the top-scored and of random edges over k = 1..5, for the first
	// variant: the molecules preset 0.64 (3.83 against 3.19); with tied
	// 0-dimensional points handed to one simplex in a canonical order
	// 0.50 (the exact labelling's) or 0.66 (graph.Graph.CanonicalOrder's,
	// since removed); with ties by index 0.62, with element labels 0.26.
	const minFaithfulness = 0.55
	src := testenv.Dataset(t, "MUTAG")
	all, err := tu.Read(src)
	if err != nil {
		t.Fatal(err)
	}
	codes, _, err := tu.ReadLabelNames(src)
	if err != nil {
		t.Fatal(err)
	}
	var train, test []int
	for i := range all.Graphs {
		if i%2 == 0 {
			train = append(train, i)
		} else {
			test = append(test, i)
		}
	}
	sub := &graph.Dataset{Name: "MUTAGeven", Classes: all.Classes}
	for _, i := range train {
		sub.Graphs, sub.Labels = append(sub.Graphs, all.Graphs[i]), append(sub.Labels, all.Labels[i])
	}
	dir := t.TempDir()
	folder := writeTU(t, dir, "MUTAGeven", sub)
	// Node and edge labels, as MUTAG's codes, and the README that names
	// them. writeTU lists each edge twice.
	var labels, bonds strings.Builder
	for _, g := range sub.Graphs {
		for _, l := range g.NodeLabels {
			fmt.Fprintln(&labels, l)
		}
		for _, l := range g.EdgeLabels {
			fmt.Fprintf(&bonds, "%s\n%s\n", l, l)
		}
	}
	readme, err := os.ReadFile(filepath.Join(src, "README.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"MUTAGeven_node_labels.txt": labels.String(), "MUTAGeven_edge_labels.txt": bonds.String(), "README.txt": string(readme)} {
		if err := os.WriteFile(filepath.Join(folder, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for vi, v := range chemistryVariants() {
		t.Run(v.name, func(t *testing.T) {
			m := wkpiTrain(t, v.spec, filepath.Join(dir, "model.json"), "-data", folder)
			share, faithfulness := explainNitro(t, m, all, codes, test, v.name)
			if vi == 0 && share < minNitroHits {
				t.Errorf("%s: the 3 top atoms include an NO2 atom in %.0f %% of the predicted mutagenic NO2 molecules, want >= %.0f %%", v.name, 100*share, 100*minNitroHits)
			}
			if vi == 0 && faithfulness < minFaithfulness {
				t.Errorf("%s: the deletion curve of the top-scored edges is %.3f above random's, want >= %.2f", v.name, faithfulness, minFaithfulness)
			}
		})
	}
}

// explainNitro explains the test graphs of MUTAG with m, logs how often
// the 3 top atoms of a predicted mutagenic molecule with an NO2 hit one
// and the faithfulness curve, fails if the curve is no better than
// random, and returns the share of hits and the area between the
// curve and random's over k = 1..5.
func explainNitro(t *testing.T, m *model.Model, all *graph.Dataset, codes map[string]string, test []int, variant string) (share, faithfulness float64) {
	e, err := explain.New(prepared(t, m), explain.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	element := func(g *graph.Graph, v int) string { return codes[g.NodeLabels[v]] }
	var withNO2, any, exact, correct, others, othersNO2 int
	r := rand.New(rand.NewPCG(4, 4))
	top, random := make([]float64, 6), make([]float64, 6)
	for _, i := range test {
		g := all.Graphs[i]
		ex, err := e.Explain(g)
		if err != nil {
			t.Fatal(err)
		}
		byScore := make([]int, len(ex.Edges))
		for j := range byScore {
			byScore[j] = j
		}
		shuffled := append([]int(nil), byScore...)
		sortByScore(byScore, ex.Edges)
		r.Shuffle(len(shuffled), func(a, b int) { shuffled[a], shuffled[b] = shuffled[b], shuffled[a] })
		for k := 1; k <= 5 && k <= len(byScore); k++ {
			top[k] += drop(t, e, g, byScore[:k], ex) / float64(len(test))
			random[k] += drop(t, e, g, shuffled[:k], ex) / float64(len(test))
		}
		nitro := map[int]bool{}
		nb := g.Neighbors()
		for v := range g.N {
			if element(g, v) != "N" {
				continue
			}
			var os []int
			for _, u := range nb[v] {
				if element(g, u) == "O" {
					os = append(os, u)
				}
			}
			if len(os) == 2 {
				nitro[v], nitro[os[0]], nitro[os[1]] = true, true, true
			}
		}
		if all.Classes[all.Labels[i]] != "1" {
			// MUTAG's NO2 groups do not tell the classes apart: every
			// molecule of either class has one.
			others++
			if len(nitro) > 0 {
				othersNO2++
			}
			continue
		}
		if len(nitro) == 0 {
			continue
		}
		withNO2++
		if ex.Class != "1" {
			continue
		}
		correct++
		nodes := append([]wire.NodeScore(nil), ex.Nodes...)
		for a := 1; a < len(nodes); a++ {
			for b := a; b > 0 && nodes[b].Score > nodes[b-1].Score; b-- {
				nodes[b], nodes[b-1] = nodes[b-1], nodes[b]
			}
		}
		hits := 0
		for _, n := range nodes[:3] {
			if nitro[n.ID] {
				hits++
			}
		}
		if hits > 0 {
			any++
		}
		if hits == 3 {
			exact++
		}
	}
	share = float64(any) / float64(max(correct, 1))
	t.Logf("BENCH MUTAG (%s, %s, trained on the 94 even graphs): of %d held-out mutagenic molecules with an NO2, %d predicted mutagenic; "+
		"their 3 top-scored atoms include an NO2 atom in %d (%.0f %%) and are all NO2 atoms in %d (%.0f %%); %d of the %d held-out non-mutagenic molecules have an NO2 too",
		variant, m.Features.Mode(), withNO2, correct, any, 100*share, exact, 100*float64(exact)/float64(max(correct, 1)), othersNO2, others)
	t.Logf("BENCH MUTAG (%s) faithfulness, mean drop of the decision when deleting the k top-scored edges: %.3f %.3f %.3f %.3f %.3f; k random edges: %.3f %.3f %.3f %.3f %.3f",
		variant, top[1], top[2], top[3], top[4], top[5], random[1], random[2], random[3], random[4], random[5])
	// The deletion curve of the top-scored edges above random's: at the
	// edge ranked first, and in its area over k = 1..5 (where, five edges
	// of a molecule of about twenty gone, both curves level off).
	var topArea, randomArea float64
	for k := 1; k <= 5; k++ {
		topArea, randomArea = topArea+top[k], randomArea+random[k]
	}
	if top[1] <= random[1] || topArea <= randomArea {
		t.Errorf("deleting the top-scored edge drops the decision by %.3f, a random edge by %.3f; the areas of the curves over k = 1..5: %.3f and %.3f", top[1], random[1], topArea, randomArea)
	}
	return share, topArea - randomArea
}
