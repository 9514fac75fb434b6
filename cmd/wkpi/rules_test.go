package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"wkpi-web/core/crossval"
	"wkpi-web/core/dataset"
	"wkpi-web/core/explain"
	"wkpi-web/core/graph"
	"wkpi-web/core/model"
	"wkpi-web/core/spec"
	"wkpi-web/core/testenv"
)

// chemistrySpec is the setting that the chemistry benchmarks of this
// package measure: the rule tasks (TestRuleTasks), MUTAG's nitro groups
// (TestExplainMUTAG) and the activity sets (TestActivitySets): the
// molecules preset, the default for molecules. The thresholds of those
// tests sit just under what it reaches.
func chemistrySpec() spec.Spec { return spec.Molecules() }

// fullChemistry says whether WKPI_CHEMISTRY=full asks for the whole
// chemistry report: the rule tasks and the activity sets under every
// variant. Without it `make test` runs both under the first variant.
func fullChemistry() bool { return os.Getenv("WKPI_CHEMISTRY") == "full" }

// variant is a named setting a benchmark runs.
type variant struct {
	name string
	spec spec.Spec
}

// chemistryVariants are chemistrySpec and, reported alongside, the same
// without its node labels (`-labels=false`), or with them when it has
// none (`-labels`). Thresholds apply to the first.
func chemistryVariants() []variant {
	s := chemistrySpec()
	other := s
	other.Labels = !s.Labels
	if s.Labels {
		return []variant{{"spec", s}, {"spec-labels", other}}
	}
	return []variant{{"spec", s}, {"spec+labels", other}}
}

// specFlags returns the command-line flags that turn the defaults into s,
// for the fields keep accepts: one -name=value for each field that
// differs from spec.Defaults(). C and gauss are left out when s chooses
// the SVM in every fold, where they are not used (and given, they would
// switch the choice off).
func specFlags(s spec.Spec, keep func(spec.Field) bool) []string {
	// The preset is named: without it the command would choose one by
	// the data.
	def := spec.Defaults()
	args := []string{"-preset=" + spec.PresetDefault}
	for _, f := range spec.Fields() {
		if !keep(f) || f.Get(&s) == f.Get(&def) {
			continue
		}
		if s.ChoosesSVM() && (f.Name == "C" || f.Name == "gauss") {
			continue
		}
		args = append(args, "-"+f.Name+"="+f.Get(&s))
	}
	return args
}

// evalArgs are `wkpi eval`'s flags for s: every setting.
func evalArgs(s spec.Spec) []string {
	return specFlags(s, func(spec.Field) bool { return true })
}

// trainArgs are `wkpi train`'s flags for s: every setting but those of
// the protocol (folds, repeats, grids) and of scale, except the seed.
func trainArgs(s spec.Spec) []string {
	return specFlags(s, trainsWith)
}

// trainsWith says whether `wkpi train` takes the field's flag.
func trainsWith(f spec.Field) bool {
	return f.Name == "seed" || (f.Group != spec.GroupProtocol && f.Group != spec.GroupScale)
}

// sameSettings lists the fields keep accepts that differ between got and
// want, C and gauss not counted when want chooses the SVM.
func sameSettings(got, want spec.Spec, keep func(spec.Field) bool) []string {
	var diff []string
	for _, f := range spec.Fields() {
		if !keep(f) || (want.ChoosesSVM() && (f.Name == "C" || f.Name == "gauss")) {
			continue
		}
		if g, w := f.Get(&got), f.Get(&want); g != w {
			diff = append(diff, fmt.Sprintf("%s %s, want %s", f.Name, g, w))
		}
	}
	return diff
}

// TestSpecFlags: the flags specFlags writes give back the spec when
// `wkpi eval` parses them, for every preset and the chemistry variants,
// so that a benchmark run through the command line measures the spec
// its function names.
func TestSpecFlags(t *testing.T) {
	specs := map[string]spec.Spec{}
	for name, preset := range spec.Presets() {
		specs[name] = preset()
	}
	for _, v := range chemistryVariants() {
		specs[v.name] = v.spec
	}
	odd := spec.Defaults()
	odd.SVMChoice, odd.C, odd.Gauss, odd.Descriptor, odd.Extra, odd.Folds = false, 3, 0.5, "hks", "degree", 5
	specs["fixed SVM"] = odd
	for name, s := range specs {
		c, _ := evalFlags(io.Discard)
		if err := c.parse(evalArgs(s)); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		u, err := c.setup()
		if err != nil {
			t.Fatalf("%s: flags %v: %v", name, evalArgs(s), err)
		}
		all := func(spec.Field) bool { return true }
		if diff := sameSettings(u.Spec, s, all); diff != nil {
			t.Errorf("%s: flags %v give %s", name, evalArgs(s), strings.Join(diff, "; "))
		}
	}
}

// The rule tasks, after Sanchez-Lengeling et al. (NeurIPS 2020,
// "Evaluating attribution for graph neural networks"): a molecule's class
// is a conjunction of SMARTS fragments, and the atoms of the fragments
// are the ground truth of its explanation. The molecules are those of two
// files of rdkit-data (ruleFiles), the matches RDKit's
// (testdata/rdkit_rules.py).
const (
	// ruleSize is the most positives of a task's sample unless
	// WKPI_RULE_SIZE says otherwise; it takes as many negatives, half of
	// them with some but not all of the fragments when the rule has
	// several.
	ruleSize = 1000
	// ruleSeed draws the samples, splits the CV folds and the halves,
	// unless WKPI_RULE_SEED says otherwise.
	ruleSeed = 1
	// ruleFolds is the CV of the rule tasks (5, not the spec's 10, to
	// keep `make test` short; the explanations are the point here).
	ruleFolds = 5
	// maxCombinations bounds the "best match" searches of a molecule (a
	// set of matches of each fragment); every molecule of the NCI file
	// stays under it, the largest with 1,046,529 legal ground truths (ten
	// benzene rings and ten carbonyls).
	maxCombinations = 2000000
)

// ruleFragments are the SMARTS the rules combine.
func ruleFragments() map[string]string {
	return map[string]string{
		"benzene":  "c1ccccc1",
		"halogen":  "[F,Cl,Br,I]",
		"carbonyl": "[CX3]=O",
		"amine":    "[NX3;H2,H1;!$(NC=O)]", // primary or secondary, not an amide
		// The held-out rules' (heldOutRules).
		"pyridine": "n1ccccc1",
		"nitro":    "[N+](=O)[O-]",
		"alcohol":  "[OX2H][CX4]",
	}
}

// ruleMolecule is RDKit's reading of one molecule of the sample.
type ruleMolecule struct {
	Line    int                `json:"line"`
	SMILES  string             `json:"smiles"`
	Atoms   []string           `json:"atoms"`
	Matches map[string][][]int `json:"matches"`
}

// ruleFile is a molecule file of rdkit-data and the rule tasks drawn
// from it.
type ruleFile struct {
	name      string // names its subtests and tables
	path      string // in the RDKit data directory
	molecules int    // that RDKit reads
	rules     []rule
}

// ruleFiles are RDKit's NCI sample (Data/NCI/first_5K.smi, the 4,993
// molecules RDKit reads), on which the molecules preset was developed,
// and the 10,000 drug-like screening compounds of WEHI's PAINS test set
// (Data/Pains/test_data/wehi_mols.csv), closer to the ZINC molecules of
// the published benchmark, measured first after every choice of the
// preset (2026-11-28).
func ruleFiles() []ruleFile {
	return []ruleFile{
		{name: "NCI", path: "Data/NCI/first_5K.smi", molecules: 4993, rules: slices.Concat(rules(), heldOutRules())},
		{name: "WEHI", path: "Data/Pains/test_data/wehi_mols.csv", molecules: 10000, rules: wehiRules()},
	}
}

// rdkitRules runs testdata/rdkit_rules.py on a file of rdkit-data.
func rdkitRules(t *testing.T, path string) []ruleMolecule {
	t.Helper()
	py := testenv.Python(t, "rdkit")
	in := map[string]any{"file": testenv.RDKitPath(t, path), "fragments": ruleFragments()}
	var mols []ruleMolecule
	testenv.RunJSON(t, py, []string{filepath.Join("testdata", "rdkit_rules.py")}, in, &mols)
	return mols
}

// rule is one task: positive when every fragment matches.
type rule struct {
	name      string
	fragments []string
	// positives, partial and none count the molecules of the NCI sample
	// with every fragment, some but not all, and none (RDKit's matches).
	positives, partial, none int
	// The thresholds the first variant must reach: 5-fold CV accuracy;
	// the mean atom ROC-AUC (signed scores) of the held-out positives
	// against the best of the benchmark's legal ground truths
	// (bestLegalAUC), against the best single match of each fragment
	// (bestMatchAUC), and that over the positives with one match of each
	// fragment. Just under what the molecules preset reaches.
	minAccuracy, minLegalAUC, minAtomAUC, minSingleAUC float64
}

// rules are the tasks; the counts are of the 4,993 molecules. The
// thresholds are the molecules preset's figures less about 0.02-0.03
// (the log of `go test -v -run TestRuleTasks ./cmd/wkpi`); the comments
// give the figures: accuracy, atom ROC-AUC (best legal ground truth; best
// single match over the positives predicted positive, as results.md
// gives it; that with one match of each fragment), and the accuracy
// and legal-ground-truth figure of the structure-only defaults (measured
// before ties were made equal for every descriptor, 2026-11-28).
func rules() []rule {
	return []rule{
		{name: "benzene", fragments: []string{"benzene"}, positives: 2937, none: 2056, minAccuracy: 0.97, minLegalAUC: 0.97, minAtomAUC: 0.89, minSingleAUC: 0.96},                                         // 0.995, 0.995, 0.917, 0.992; defaults 0.897, 0.849
		{name: "benzene AND halogen", fragments: []string{"benzene", "halogen"}, positives: 664, partial: 2555, none: 1774, minAccuracy: 0.97, minLegalAUC: 0.90, minAtomAUC: 0.83, minSingleAUC: 0.92},    // 0.994, 0.933, 0.859, 0.953; defaults 0.785, 0.763
		{name: "benzene AND carbonyl", fragments: []string{"benzene", "carbonyl"}, positives: 1308, partial: 2629, none: 1056, minAccuracy: 0.97, minLegalAUC: 0.90, minAtomAUC: 0.85, minSingleAUC: 0.93}, // 0.989, 0.929, 0.869, 0.944; defaults 0.840, 0.649
		{name: "amine AND carbonyl", fragments: []string{"amine", "carbonyl"}, positives: 247, partial: 2863, none: 1883, minAccuracy: 0.95, minLegalAUC: 0.91, minAtomAUC: 0.86, minSingleAUC: 0.89},      // 0.978, 0.926, 0.921, 0.924; defaults 0.682, 0.813
	}
}

// heldOutRules are rules measured first after every choice of the
// molecules preset but its bonding types (2026-11-28), as a check from
// outside the four tasks it was developed on (the bonding types were
// then chosen with them too, docs/results.md); their thresholds are the
// figures of the preset less about 0.02-0.03 (the comments give them,
// as rules does).
func heldOutRules() []rule {
	return []rule{
		{name: "pyridine", fragments: []string{"pyridine"}, positives: 433, none: 4560, minAccuracy: 0.96, minLegalAUC: 0.90, minAtomAUC: 0.86, minSingleAUC: 0.91},                                       // 0.993, 0.938, 0.899, 0.942; defaults 0.776, 0.808
		{name: "nitro", fragments: []string{"nitro"}, positives: 424, none: 4569, minAccuracy: 0.97, minLegalAUC: 0.97, minAtomAUC: 0.94, minSingleAUC: 0.97},                                             // 1.000, 1.000, 0.977, 1.000; defaults 0.889, 0.980
		{name: "halogen AND carbonyl", fragments: []string{"halogen", "carbonyl"}, positives: 374, partial: 2506, none: 2113, minAccuracy: 0.96, minLegalAUC: 0.89, minAtomAUC: 0.87, minSingleAUC: 0.89}, // 0.995, 0.917, 0.893, 0.922; defaults 0.727, 0.846
		{name: "alcohol AND carbonyl", fragments: []string{"alcohol", "carbonyl"}, positives: 184, partial: 2543, none: 2266, minAccuracy: 0.95, minLegalAUC: 0.95, minAtomAUC: 0.87, minSingleAUC: 0.90}, // 0.970, 0.967, 0.938, 0.928; defaults 0.758, 0.808
	}
}

// wehiRules are the tasks on the WEHI file, the same rules as rules
// and heldOutRules where the file has enough positives (nitro has 5);
// the counts are of its 10,000 molecules. The thresholds are the figures
// of the molecules preset less about 0.02-0.03; the comments give them:
// accuracy, atom ROC-AUC (best legal ground truth; best single match
// over the positives predicted positive; that with one match of each
// fragment).
func wehiRules() []rule {
	return []rule{
		{name: "benzene", fragments: []string{"benzene"}, positives: 8417, none: 1583, minAccuracy: 0.97, minLegalAUC: 0.96, minAtomAUC: 0.89, minSingleAUC: 0.93},                                         // 0.989, 0.983, 0.930, 0.963
		{name: "benzene AND halogen", fragments: []string{"benzene", "halogen"}, positives: 3383, partial: 5288, none: 1329, minAccuracy: 0.97, minLegalAUC: 0.92, minAtomAUC: 0.87, minSingleAUC: 0.94},   // 0.990, 0.945, 0.891, 0.958
		{name: "benzene AND carbonyl", fragments: []string{"benzene", "carbonyl"}, positives: 5734, partial: 3775, none: 491, minAccuracy: 0.95, minLegalAUC: 0.93, minAtomAUC: 0.88, minSingleAUC: 0.92},  // 0.982, 0.951, 0.912, 0.935
		{name: "amine AND carbonyl", fragments: []string{"amine", "carbonyl"}, positives: 1331, partial: 6999, none: 1670, minAccuracy: 0.96, minLegalAUC: 0.89, minAtomAUC: 0.87, minSingleAUC: 0.89},     // 0.989, 0.918, 0.908, 0.918
		{name: "pyridine", fragments: []string{"pyridine"}, positives: 1517, none: 8483, minAccuracy: 0.95, minLegalAUC: 0.90, minAtomAUC: 0.87, minSingleAUC: 0.88},                                       // 0.980, 0.922, 0.921, 0.904
		{name: "halogen AND carbonyl", fragments: []string{"halogen", "carbonyl"}, positives: 2392, partial: 5679, none: 1929, minAccuracy: 0.97, minLegalAUC: 0.93, minAtomAUC: 0.92, minSingleAUC: 0.94}, // 0.996, 0.956, 0.936, 0.962
		{name: "alcohol AND carbonyl", fragments: []string{"alcohol", "carbonyl"}, positives: 177, partial: 6909, none: 2914, minAccuracy: 0.95, minLegalAUC: 0.95, minAtomAUC: 0.91, minSingleAUC: 0.92},  // 0.980, 0.958, 0.948, 0.951
	}
}

// present counts the rule's fragments that match m.
func (r rule) present(m ruleMolecule) int {
	n := 0
	for _, f := range r.fragments {
		if len(m.Matches[f]) > 0 {
			n++
		}
	}
	return n
}

// ruleSample draws a task's molecules (indices into mols) and classes
// (1 positive): min(ruleSize, positives) positives and as many negatives,
// of which, for a rule of several fragments, half carry some but not all
// of them and half none (more partial ones where the file has too few
// with none), in random order. A rule of one fragment takes no more
// positives than the file has negatives.
func ruleSample(t *testing.T, mols []ruleMolecule, r rule) (idx, class []int) {
	t.Helper()
	var pos, partial, none []int
	for i, m := range mols {
		switch k := r.present(m); {
		case k == len(r.fragments):
			pos = append(pos, i)
		case k > 0:
			partial = append(partial, i)
		default:
			none = append(none, i)
		}
	}
	seed := uint64(ruleSampleSeed(t))
	rng := rand.New(rand.NewPCG(seed, seed))
	draw := func(from []int, n int) []int {
		if n > len(from) {
			t.Fatalf("%s: %d molecules wanted of %d", r.name, n, len(from))
		}
		perm := rng.Perm(len(from))[:n]
		out := make([]int, n)
		for i, p := range perm {
			out[i] = from[p]
		}
		return out
	}
	if len(pos) != r.positives || len(partial) != r.partial || len(none) != r.none {
		t.Fatalf("%s: %d molecules with every fragment, %d with some, %d with none; want %d, %d, %d",
			r.name, len(pos), len(partial), len(none), r.positives, r.partial, r.none)
	}
	n := min(ruleSampleSize(t), len(pos))
	if len(r.fragments) == 1 {
		n = min(n, len(none)) // as many negatives as positives
	}
	idx = draw(pos, n)
	if len(r.fragments) > 1 {
		// Partial ones make up for a file short of molecules with none.
		nNone := min(n-n/2, len(none))
		idx = append(idx, draw(partial, n-nNone)...)
		idx = append(idx, draw(none, nNone)...)
	} else {
		idx = append(idx, draw(none, n)...)
	}
	class = make([]int, len(idx))
	for i := range n {
		class[i] = 1
	}
	rng.Shuffle(len(idx), func(a, b int) {
		idx[a], idx[b] = idx[b], idx[a]
		class[a], class[b] = class[b], class[a]
	})
	return idx, class
}

// ruleSampleSize is ruleSize or WKPI_RULE_SIZE, which measures the
// tasks on larger samples (docs/results.md).
func ruleSampleSize(t *testing.T) int {
	v := os.Getenv("WKPI_RULE_SIZE")
	if v == "" {
		return ruleSize
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 10 {
		t.Fatalf("WKPI_RULE_SIZE=%q: want a number of positives, at least 10", v)
	}
	return n
}

// ruleSampleSeed is ruleSeed or WKPI_RULE_SEED, which measures the
// tasks on other samples, folds and halves (docs/results.md); the
// thresholds hold for ruleSeed's.
func ruleSampleSeed(t *testing.T) int64 {
	v := os.Getenv("WKPI_RULE_SEED")
	if v == "" {
		return ruleSeed
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 {
		t.Fatalf("WKPI_RULE_SEED=%q: want a positive number", v)
	}
	return n
}

// writeSMILESTable writes rows of SMILES and class as a CSV with the
// columns SMILES and class.
func writeSMILESTable(t *testing.T, path string, smiles []string, class []string) {
	t.Helper()
	var b strings.Builder
	b.WriteString("SMILES,class\n")
	for i, s := range smiles {
		fmt.Fprintf(&b, "%s,%s\n", s, class[i])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// evalSummary is what the benchmarks read of `wkpi eval`'s JSON line.
type evalSummary struct {
	Accuracy float64 `json:"accuracy_mean"`
	ROCAUC   float64 `json:"roc_auc_mean"`
}

// wkpiEval runs `wkpi eval` with args and reads its last line.
func wkpiEval(t *testing.T, args ...string) evalSummary {
	t.Helper()
	code, stdout, stderr := wkpi(t, append([]string{"eval", "-progress", "off"}, args...)...)
	if code != 0 {
		t.Fatalf("wkpi eval %v: exit %d\n%s", args, code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var s evalSummary
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &s); err != nil {
		t.Fatalf("wkpi eval %v: %v\n%s", args, err, stdout)
	}
	return s
}

// wkpiTrain runs `wkpi train` with s's flags on data (extra args before
// them) and loads the model, checking that it records s.
func wkpiTrain(t *testing.T, s spec.Spec, out string, args ...string) *model.Model {
	t.Helper()
	args = append(append([]string{"train", "-progress", "off", "-out", out}, args...), trainArgs(s)...)
	if code, _, stderr := wkpi(t, args...); code != 0 {
		t.Fatalf("wkpi %v: exit %d\n%s", args, code, stderr)
	}
	m := mustLoadModel(t, out).Model()
	if m.Settings == nil {
		t.Fatalf("wkpi %v: the model records no settings", args)
	}
	if diff := sameSettings(*m.Settings, s, trainsWith); diff != nil {
		t.Fatalf("wkpi %v: the model's settings differ: %s", args, strings.Join(diff, "; "))
	}
	return m
}

// atomAUCs is the mean per-molecule ROC-AUC of atom scores against a
// ground truth, over the molecules where it is defined.
type atomAUCs struct {
	sum      float64
	n, undef int
}

// add counts one molecule's ROC-AUC, or one more undefined when !ok.
func (a *atomAUCs) add(auc float64, ok bool) {
	if !ok {
		a.undef++
		return
	}
	a.sum += auc
	a.n++
}

// rocAUC is the ROC-AUC of scores against truth; ok is false when it is
// undefined (every atom or none in the truth).
func rocAUC(scores []float64, truth []bool) (auc float64, ok bool) {
	auc, err := crossval.BinaryROCAUC(scores, truth)
	return auc, err == nil && !math.IsNaN(auc)
}

func (a atomAUCs) mean() float64 { return a.sum / float64(max(a.n, 1)) }

// bestMatchAUC is the largest ROC-AUC of scores against the atoms of one
// match of each fragment, over every such choice; ok is false when no
// choice gives a defined AUC.
func bestMatchAUC(t *testing.T, scores []float64, matches [][][]int) (best float64, ok bool) {
	t.Helper()
	return bestMaskAUC(t, scores, matches, func(fragment [][]int) []uint64 {
		masks := make([]uint64, len(fragment))
		for i := range fragment {
			masks[i] = 1 << i
		}
		return masks
	})
}

// bestLegalAUC is the largest ROC-AUC of scores against the ground truths
// that the attribution benchmark of Sanchez-Lengeling et al. (NeurIPS
// 2020; graph-attribution's fragment_identifier.py, whose best GNN
// attributions reach 0.990 on benzene) accepts for a positive of an AND
// rule: for each fragment the atoms of any non-empty set of its matches
// (with two benzene rings: either ring, or both), joined over the
// fragments.
func bestLegalAUC(t *testing.T, scores []float64, matches [][][]int) (best float64, ok bool) {
	t.Helper()
	return bestMaskAUC(t, scores, matches, func(fragment [][]int) []uint64 {
		if len(fragment) > 20 {
			t.Fatalf("%d matches of one fragment: too many sets of them", len(fragment))
		}
		masks := make([]uint64, 1<<len(fragment)-1)
		for i := range masks {
			masks[i] = uint64(i + 1)
		}
		return masks
	})
}

// bestMaskAUC is the largest ROC-AUC of scores against a ground truth made
// of one set of matches of each fragment, over every choice of the sets
// that choices gives (a set as a bit mask of the fragment's matches); ok
// is false when no choice gives a defined AUC.
func bestMaskAUC(t *testing.T, scores []float64, matches [][][]int, choices func([][]int) []uint64) (best float64, ok bool) {
	t.Helper()
	sets := make([][]uint64, len(matches))
	combos := 1
	for f, m := range matches {
		if len(m) > 64 {
			t.Fatalf("%d matches of one fragment: more than a mask holds", len(m))
		}
		sets[f] = choices(m)
		combos *= len(sets[f])
		if combos > maxCombinations {
			t.Fatalf("more than %d combinations of matches", maxCombinations)
		}
	}
	pick := make([]int, len(matches))
	truth := make([]bool, len(scores))
	for {
		clear(truth)
		for f, m := range matches {
			for i, match := range m {
				if sets[f][pick[f]]&(1<<i) == 0 {
					continue
				}
				for _, a := range match {
					truth[a] = true
				}
			}
		}
		if auc, defined := rocAUC(scores, truth); defined && (!ok || auc > best) {
			best, ok = auc, true
		}
		f := 0
		for ; f < len(pick); f++ {
			if pick[f]++; pick[f] < len(sets[f]) {
				break
			}
			pick[f] = 0
		}
		if f == len(pick) {
			return best, ok
		}
	}
}

// ruleResult is one task's figures under one variant.
type ruleResult struct {
	cv                   evalSummary
	heldOut              float64 // accuracy on the held-out half
	positives, predicted int     // held-out positives, of them predicted positive
	// Mean atom ROC-AUC over the held-out positives: against the best
	// match, against the best of the benchmark's legal ground truths and
	// against the union of all matches, with the scores
	// signed towards the predicted class and with their absolute values;
	// bestCorrect over the positives predicted positive alone; single
	// over those with one match of each fragment, where the best match is
	// the only one (with two benzene rings, a symmetric explanation that
	// credits both has the other ring's atoms counted against it).
	best, bestAbs, union, unionAbs, bestCorrect, single atomAUCs
	// legal is against the best of the benchmark's legal ground truths
	// (bestLegalAUC), with the scores signed towards the rule's class
	// (1), as the benchmark explains the model's output for the rule.
	legal atomAUCs
	// fingerprint is legal's mean for the fingerprint baseline's
	// similarity maps on the same halves (fingerprintLegalAUCs).
	fingerprint atomAUCs
	// ceiling is best's mean for the explanation that scores every
	// atom of every match 1 and the others 0.
	ceiling atomAUCs
	seconds float64
}

// TestRuleTasks measures chemistrySpec on each rule task (and, with
// WKPI_CHEMISTRY=full, its other variants and the structure-only
// defaults): 5-fold CV accuracy and ROC-AUC on the task's sample (`wkpi
// eval`, seed 1; 368 to 2,000 molecules, half positive), and, with a model trained on a
// stratified half (`wkpi train`), the atom-level explanation ROC-AUC of
// every positive molecule of the other half (core/explain, node
// attribution), averaged: against the best of the benchmark's legal
// ground truths (bestLegalAUC), against the best match (one match of each
// fragment, the best choice) and against the union of all matches, with
// scores signed towards the predicted class and as |score| (towards class
// 1 for the legal ground truths, as the benchmark has them); and the
// legal figure of the chemist's explanation of the fingerprint baseline
// on the same halves (fingerprintLegalAUCs). The first variant must
// reach each rule's thresholds.
func TestRuleTasks(t *testing.T) {
	if testing.Short() {
		t.Skip("cross-validates and trains on fifteen samples of 354-2,000 molecules")
	}
	variants := chemistryVariants()
	if !fullChemistry() {
		variants = variants[:1]
	} else {
		variants = append(variants, variant{"structure only", spec.Defaults()})
	}
	for _, f := range ruleFiles() {
		mols := rdkitRules(t, f.path)
		if len(mols) != f.molecules {
			t.Fatalf("RDKit reads %d molecules of %s, want %d", len(mols), f.path, f.molecules)
		}
		for vi, v := range variants {
			for _, r := range f.rules {
				t.Run(v.name+"/"+f.name+"/"+r.name, func(t *testing.T) {
					res := runRule(t, f.name, mols, r, v, vi == 0)
					if vi > 0 || ruleSampleSeed(t) != ruleSeed { // measured, not checked
						return
					}
					if res.cv.Accuracy < r.minAccuracy {
						t.Errorf("%s: CV accuracy %.3f, want >= %.2f", r.name, res.cv.Accuracy, r.minAccuracy)
					}
					if m := res.legal.mean(); m < r.minLegalAUC {
						t.Errorf("%s: atom ROC-AUC (best legal ground truth, signed) %.3f, want >= %.2f", r.name, m, r.minLegalAUC)
					}
					if m := res.best.mean(); m < r.minAtomAUC {
						t.Errorf("%s: atom ROC-AUC (best match, signed) %.3f, want >= %.2f", r.name, m, r.minAtomAUC)
					}
					// Atoms out of line between RDKit and wkpi would
					// bring the similarity maps near 0.5; they reach
					// 0.86-0.99.
					if m := res.fingerprint.mean(); m < minFingerprintLegalAUC {
						t.Errorf("%s: the fingerprint baseline's similarity maps: atom ROC-AUC (best legal ground truth) %.3f, want >= %.2f", r.name, m, minFingerprintLegalAUC)
					}
					if m := res.single.mean(); m < r.minSingleAUC {
						t.Errorf("%s: atom ROC-AUC (one match of each fragment, signed) %.3f, want >= %.2f", r.name, m, r.minSingleAUC)
					}
				})
			}
		}
	}
}

// runRule measures one rule task under v and logs the figures; with
// baseline also the fingerprint baseline's explanations, which do not
// depend on v (the same sample and halves for every variant).
func runRule(t *testing.T, file string, mols []ruleMolecule, r rule, v variant, baseline bool) ruleResult {
	start := time.Now()
	s := v.spec
	idx, class := ruleSample(t, mols, r)
	smiles, classText := make([]string, len(idx)), make([]string, len(idx))
	for i, m := range idx {
		smiles[i], classText[i] = mols[m].SMILES, fmt.Sprint(class[i])
	}
	dir := t.TempDir()
	all := filepath.Join(dir, "task.csv")
	writeSMILESTable(t, all, smiles, classText)
	if dir := os.Getenv("WKPI_RULE_TABLES"); dir != "" {
		// Kept for other methods on the same sample (docs/results.md).
		writeSMILESTable(t, filepath.Join(dir, file+"_"+strings.ReplaceAll(r.name, " ", "_")+".csv"), smiles, classText)
	}
	table := []string{"-smiles", "SMILES", "-target", "class"}

	var res ruleResult
	cvSpec := s
	cvSpec.Folds, cvSpec.Seed = ruleFolds, ruleSampleSeed(t)
	res.cv = wkpiEval(t, append(append([]string{"-data", all}, table...), evalArgs(cvSpec)...)...)

	// The graphs as the command line reads them, checked against RDKit's
	// atoms so that atom indices agree.
	ds, _, err := dataset.Read(all, dataset.Options{SMILES: "SMILES", Target: "class"})
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range ds.Graphs {
		if m := mols[idx[i]]; !slices.Equal(g.NodeLabels, m.Atoms) {
			t.Fatalf("line %d %s: atoms %v, RDKit's %v", m.Line, m.SMILES, g.NodeLabels, m.Atoms)
		}
	}

	half, err := crossval.StratifiedKFold(class, 2, ruleSampleSeed(t))
	if err != nil {
		t.Fatal(err)
	}
	var trainSMILES, trainClass []string
	var test []int // positions in the sample
	for i, h := range half {
		if h == 1 {
			trainSMILES, trainClass = append(trainSMILES, smiles[i]), append(trainClass, classText[i])
		} else {
			test = append(test, i)
		}
	}
	trainFile := filepath.Join(dir, "train.csv")
	writeSMILESTable(t, trainFile, trainSMILES, trainClass)
	m := wkpiTrain(t, s, filepath.Join(dir, "model.json"), append([]string{"-data", trainFile}, table...)...)
	testGraphs := make([]*graph.Graph, len(test))
	for i, p := range test {
		testGraphs[i] = ds.Graphs[p]
	}
	preds, err := m.Predict(context.Background(), testGraphs)
	if err != nil {
		t.Fatal(err)
	}
	e, err := explain.New(prepared(t, m), explain.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	correct := 0
	var positiveSMILES []string // the held-out positives, in order
	var positiveMatches [][][][]int
	for i, p := range test {
		if preds[i].Label == classText[p] {
			correct++
		}
		if class[p] != 1 {
			continue
		}
		res.positives++
		ex, err := e.Explain(ds.Graphs[p])
		if err != nil {
			t.Fatal(err)
		}
		signed, abs := make([]float64, len(ex.Nodes)), make([]float64, len(ex.Nodes))
		for _, n := range ex.Nodes {
			signed[n.ID], abs[n.ID] = n.Score, math.Abs(n.Score)
		}
		mol := mols[idx[p]]
		var matches [][][]int
		union := make([]bool, len(signed))
		for _, f := range r.fragments {
			matches = append(matches, mol.Matches[f])
			for _, match := range mol.Matches[f] {
				for _, a := range match {
					union[a] = true
				}
			}
		}
		res.union.add(rocAUC(signed, union))
		res.unionAbs.add(rocAUC(abs, union))
		res.bestAbs.add(bestMatchAUC(t, abs, matches))
		best, ok := bestMatchAUC(t, signed, matches)
		res.best.add(best, ok)
		// The benchmark explains the model's output for the rule, so
		// the scores go towards class 1 whatever the prediction.
		towardsRule := signed
		if ex.Class != "1" {
			towardsRule = make([]float64, len(signed))
			for a, x := range signed {
				towardsRule[a] = -x
			}
		}
		res.legal.add(bestLegalAUC(t, towardsRule, matches))
		positiveSMILES, positiveMatches = append(positiveSMILES, smiles[p]), append(positiveMatches, matches)
		exact := make([]float64, len(union))
		for a, in := range union {
			if in {
				exact[a] = 1
			}
		}
		res.ceiling.add(bestMatchAUC(t, exact, matches))
		if slices.IndexFunc(matches, func(m [][]int) bool { return len(m) != 1 }) < 0 {
			res.single.add(best, ok)
		}
		if ex.Class == "1" {
			res.predicted++
			res.bestCorrect.add(best, ok)
		}
	}
	res.heldOut = float64(correct) / float64(len(test))
	if baseline {
		res.fingerprint = fingerprintLegalAUCs(t, trainSMILES, trainClass, positiveSMILES, positiveMatches)
	}
	res.seconds = time.Since(start).Seconds()
	t.Logf("BENCH rules %s %q (%s): %d molecules (%d positive), %d-fold CV accuracy %.3f, ROC-AUC %.3f; trained on %d, held-out accuracy %.3f; "+
		"atom ROC-AUC over %d held-out positives (%d predicted positive): best legal ground truth (graph-attribution's) %.3f signed towards class 1; best match %.3f signed, %.3f |score|; union of matches %.3f signed, %.3f |score| (undefined: %d, %d); "+
		"best match signed over the predicted positives %.3f, over the %d with one match of each fragment %.3f; an explanation scoring every match's atoms 1, the rest 0: %.3f; %.0f s",
		file, r.name, v.name, len(idx), len(idx)/2, ruleFolds, res.cv.Accuracy, res.cv.ROCAUC, len(trainSMILES), res.heldOut,
		res.positives, res.predicted, res.legal.mean(), res.best.mean(), res.bestAbs.mean(), res.union.mean(), res.unionAbs.mean(), res.best.undef, res.union.undef,
		res.bestCorrect.mean(), res.single.n+res.single.undef, res.single.mean(), res.ceiling.mean(), res.seconds)
	if baseline {
		t.Logf("BENCH rules %s %q: the fingerprint baseline's similarity maps on the same halves, atom ROC-AUC (best legal ground truth) %.3f",
			file, r.name, res.fingerprint.mean())
	}
	return res
}

// fingerprintLegalAUCs explains the fingerprint baseline as a chemist
// would, for a rule task's held-out positives (smiles, with each one's
// matches of each fragment): RDKit's similarity maps of an ECFP4 SVM
// trained on the training half (testdata/rdkit_similarity_maps.py), and
// returns their atom ROC-AUC against the best legal ground truth, as
// runRule measures WKPI's.
func fingerprintLegalAUCs(t *testing.T, trainSMILES, trainClass, smiles []string, matches [][][][]int) atomAUCs {
	t.Helper()
	var out struct {
		Weights [][]float64 `json:"weights"`
	}
	py := testenv.Python(t, "rdkit", "sklearn")
	in := map[string]any{"train": trainSMILES, "labels": trainClass, "explain": smiles}
	testenv.RunJSON(t, py, []string{filepath.Join("testdata", "rdkit_similarity_maps.py")}, in, &out)
	if len(out.Weights) != len(smiles) {
		t.Fatalf("similarity maps: %d molecules explained of %d", len(out.Weights), len(smiles))
	}
	var aucs atomAUCs
	for i, w := range out.Weights {
		aucs.add(bestLegalAUC(t, w, matches[i]))
	}
	return aucs
}

// minFingerprintLegalAUC is the least atom ROC-AUC (best legal ground
// truth) of the fingerprint baseline's similarity maps on any rule task.
const minFingerprintLegalAUC = 0.8

// TestBestMatchAUCs checks the two "best match" searches on hand-worked
// cases: two rings (atoms 0-5 and 6-11) and a substituent (atom 12).
func TestBestMatchAUCs(t *testing.T) {
	ring1, ring2 := []int{0, 1, 2, 3, 4, 5}, []int{6, 7, 8, 9, 10, 11}
	both := []float64{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0}
	oneRing := []float64{1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0}
	cases := []struct {
		name          string
		scores        []float64
		matches       [][][]int
		single, legal float64
	}{
		// Either ring alone: 6 positives above the substituent, tied
		// with the 6 atoms of the other ring: (6*1 + 6*6*0.5) / (6*7).
		// Both rings together: every positive above the one negative.
		{"both rings scored", both, [][][]int{{ring1, ring2}}, 24.0 / 42, 1},
		{"one ring scored", oneRing, [][][]int{{ring1, ring2}}, 1, 1},
		// Benzene AND substituent: ring 1 with atom 12 against ring 2 is
		// 7 positives, 6 negatives; 6 positives above all 6 negatives, the
		// substituent tied with them: (6*6 + 6*0.5) / 42. Both rings and
		// the substituent leave no negative: undefined, so not the best.
		{"AND rule", oneRing, [][][]int{{ring1, ring2}, {{12}}}, 39.0 / 42, 39.0 / 42},
	}
	for _, c := range cases {
		single, ok := bestMatchAUC(t, c.scores, c.matches)
		if !ok || math.Abs(single-c.single) > 1e-12 {
			t.Errorf("%s: best single match %v (defined %v), want %v", c.name, single, ok, c.single)
		}
		legal, ok := bestLegalAUC(t, c.scores, c.matches)
		if !ok || math.Abs(legal-c.legal) > 1e-12 {
			t.Errorf("%s: best legal ground truth %v (defined %v), want %v", c.name, legal, ok, c.legal)
		}
	}
}
