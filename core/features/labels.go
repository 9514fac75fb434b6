package features

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"wkpi-web/core/filtration"
	"wkpi-web/core/graph"
	"wkpi-web/core/persistence"
	"wkpi-web/core/smiles"
)

// Node-label mode (the paper uses structure only). With
// Settings.Labels every graph gets, after its descriptors, one more
// descriptor per label group: the heat diffusion of the group's indicator
// (filtration.LabelHeat), whose diagrams become their own image blocks
// with their own affine Scale, like Settings.Extra. The groups are the
// most frequent node labels of the training graphs (FitVocabulary), each
// on its own, and "other" for every remaining or unknown label, so a label
// never seen in training changes nothing but the "other" block.

// DefaultLabelGroups is the number of label groups of the mode when none
// is asked for: the commonest atoms of MUTAG, PTC_MR and NCI1 (C, N, O, Cl,
// S, ...) each get a group, the rare ones share "other".
const DefaultLabelGroups = 6

// Labels are the node-label mode's settings, stored in models.
type Labels struct {
	// Vocabulary lists the labels with a group of their own, most frequent
	// first (FitVocabulary); all others share the last group, "other".
	Vocabulary []string `json:"vocabulary"`
	// Time is the diffusion time (0: filtration.DefaultLabelTime).
	Time float64 `json:"time,omitempty"`
	// Names maps a dataset's label codes to what they stand for (TU
	// README "Node labels" tables: "3" -> "Cl"), so that element symbols
	// of MOL/SDF files find their code. Nil when the dataset gave none.
	Names map[string]string `json:"names,omitempty"`
	// Bonding labels every atom of a molecule by its bonding type
	// (smiles.BondingTypes: N and O by how they are bonded, other
	// atoms by element) instead of its node label; the vocabulary then
	// holds bonding types. It needs molecules (Settings.Molecule).
	Bonding bool `json:"bonding,omitempty"`
	// BondingRules is the version of the bonding types' rules
	// (smiles.BondingRules) the vocabulary was fitted with; 0, as in
	// models written before there were versions, is 1.
	BondingRules int `json:"bondingRules,omitempty"`
}

// bondingRules is l's version of the bonding types' rules.
func (l *Labels) bondingRules() int {
	return max(l.BondingRules, 1)
}

// groups is the number of label descriptors: the vocabulary and "other".
func (l *Labels) groups() int {
	if l == nil {
		return 0
	}
	return len(l.Vocabulary) + 1
}

func (l *Labels) time() float64 {
	if l.Time == 0 {
		return filtration.DefaultLabelTime
	}
	return l.Time
}

// Mode names the mode of settings for people: "molecules"
// (chemistry-aware descriptors: atoms and bonds, see chem.go), "atom
// types" (descriptors restricted to groups of node labels, "hks:#3") or
// "structure only"; with the label groups' heat "node labels", or the
// mode it joins with " and node labels" ("molecules and node labels").
func (s Settings) Mode() string {
	labels := s.Labels != nil
	switch {
	case s.Molecular() && labels:
		return ModeMoleculesLabels
	case s.Molecular():
		return ModeMolecules
	case s.AtomTypes() && labels:
		return ModeAtomTypesLabels
	case s.AtomTypes():
		return ModeAtomTypes
	case labels:
		return ModeLabels
	}
	return ModeStructure
}

// AtomTypes says whether any descriptor of s is restricted to a group
// of node labels.
func (s Settings) AtomTypes() bool {
	for _, o := range append([]filtration.Options{s.Filtration}, s.Extra...) {
		if o.LabelGroup() {
			return true
		}
	}
	return false
}

// The modes Settings.Mode names.
const (
	ModeStructure = "structure only"
	ModeLabels    = "node labels"
	ModeMolecules = "molecules"
	ModeAtomTypes = "atom types"
	// ModeMoleculesLabels and ModeAtomTypesLabels add the label groups'
	// heat to those modes.
	ModeMoleculesLabels = ModeMolecules + " and " + ModeLabels
	ModeAtomTypesLabels = ModeAtomTypes + " and " + ModeLabels
)

// FitVocabulary returns the k most frequent node labels of the graphs
// listed in train (all graphs when train is nil), by node count, ties in
// the order of the labels' names (names[l], the label itself where names
// has none), so that a TU dataset's codes and the element symbols of the
// same molecules in a SMILES or SD file give the same groups; only these
// graphs are read, so that test graphs never shape the vocabulary.
func FitVocabulary(graphs []*graph.Graph, train []int, k int, names map[string]string) []string {
	labels := make([][]string, len(graphs))
	for i, g := range graphs {
		labels[i] = g.NodeLabels
	}
	return fitVocabulary(labels, train, k, names)
}

// fitVocabulary is FitVocabulary of the graphs' labels, one list per graph.
func fitVocabulary(labels [][]string, train []int, k int, names map[string]string) []string {
	count := map[string]int{}
	add := func(ls []string) {
		for _, l := range ls {
			count[l]++
		}
	}
	if train == nil {
		for _, ls := range labels {
			add(ls)
		}
	}
	for _, i := range train {
		add(labels[i])
	}
	vocab := make([]string, 0, len(count))
	for l := range count {
		vocab = append(vocab, l)
	}
	sort.Slice(vocab, func(i, j int) bool {
		a, b := vocab[i], vocab[j]
		if count[a] != count[b] {
			return count[a] > count[b]
		}
		return labelLess(nameOf(a, names), nameOf(b, names))
	})
	return vocab[:min(k, len(vocab))]
}

// nameOf is label l's name in names, l itself when it has none.
func nameOf(l string, names map[string]string) string {
	if n, ok := names[l]; ok {
		return n
	}
	return l
}

// labelLess orders labels numerically when both are integers ("2" < "10"),
// as text otherwise.
func labelLess(a, b string) bool {
	x, errA := strconv.Atoi(a)
	y, errB := strconv.Atoi(b)
	if errA == nil && errB == nil {
		return x < y
	}
	return a < b
}

func (l *Labels) validate() error {
	if l == nil {
		return nil
	}
	if l.Time < 0 || math.IsNaN(l.Time) || math.IsInf(l.Time, 0) {
		return fmt.Errorf("features: node-label diffusion time %v (want a positive finite number, or 0 for the default)", l.Time)
	}
	if l.Bonding && l.BondingRules > smiles.BondingRules {
		return fmt.Errorf("features: the bonding types follow rules version %d, newer than this program's %d: use a newer wkpi", l.BondingRules, smiles.BondingRules)
	}
	seen := map[string]bool{}
	for _, v := range l.Vocabulary {
		if seen[v] {
			return fmt.Errorf("features: node label %q twice in the vocabulary", v)
		}
		seen[v] = true
	}
	return nil
}

// labelsOf returns the labels g's nodes are grouped by: the bonding
// types of mol (g as a molecule) under the model's rules when Bonding is
// set, else g's node labels.
func (l *Labels) labelsOf(g, mol *graph.Graph) ([]string, error) {
	if !l.Bonding {
		return g.NodeLabels, nil
	}
	if mol == nil {
		return nil, errors.New("node-label mode: bonding types need a molecule")
	}
	return smiles.BondingTypesOf(mol, l.bondingRules()), nil
}

// group returns, for every node of g, the index of its label group: of
// its bonding type in mol (g as a molecule, Settings.Molecule) when
// Bonding is set, else of its node label. A label outside the
// vocabulary goes to "other"; an element symbol (of a MOL/SDF file) is
// first turned into the dataset's code through Names. A graph without
// node labels, with element symbols when the vocabulary holds codes and
// no table says which code is which element, or with codes when it holds
// names (element symbols of SMILES) is an error: the model would
// otherwise give a structure-only answer in disguise.
func (l *Labels) group(g, mol *graph.Graph) ([]int, error) {
	if len(g.NodeLabels) != g.N {
		return nil, fmt.Errorf("node-label mode: the graph has no node labels (atom types); use a model trained on structure only")
	}
	labels, err := l.labelsOf(g, mol)
	if err != nil {
		return nil, err
	}
	index := make(map[string]int, len(l.Vocabulary))
	for i, v := range l.Vocabulary {
		index[v] = i
	}
	codes := map[string]string{} // lower-case name -> code
	for c, n := range l.Names {
		codes[strings.ToLower(strings.TrimSpace(n))] = c
	}
	// numeric: the vocabulary is all codes; names: it holds none.
	numeric, names := len(l.Vocabulary) > 0, len(l.Vocabulary) > 0
	for _, v := range l.Vocabulary {
		if _, err := strconv.Atoi(v); err != nil {
			numeric = false
		} else {
			names = false
		}
	}
	other := len(l.Vocabulary)
	out := make([]int, g.N)
	for v, label := range labels {
		k, ok := index[label]
		if !ok {
			if c, named := codes[strings.ToLower(label)]; named {
				k, ok = index[c]
			} else if _, err := strconv.Atoi(label); err != nil && numeric && len(l.Names) == 0 {
				return nil, fmt.Errorf("node-label mode: node %d has label %q (an element symbol?) but the model's labels are dataset codes (%s) and no code table is known (the dataset's README.txt had no \"Node labels\" table)", v, label, strings.Join(l.Vocabulary, ", "))
			} else if err == nil && names && len(l.Names) == 0 {
				return nil, fmt.Errorf("node-label mode: node %d has label %q (a dataset's code?) but the model's labels are names (%s) and no table says which name the code stands for: give these molecules as SMILES or MOL/SDF, or use a model trained on this dataset", v, label, strings.Join(l.Vocabulary, ", "))
			}
		}
		if !ok {
			k = other
		}
		out[v] = k
	}
	return out, nil
}

// labelDiagrams computes the diagrams of every label group's heat, with
// the points' origins when canon (as diagramOf's) is not nil; mol is g as
// a molecule (nil unless Bonding needs it).
func (l *Labels) labelDiagrams(g, mol *graph.Graph, keepZero bool, canon []int) ([]persistence.Diagrams, []persistence.Origins, error) {
	group, err := l.group(g, mol)
	if err != nil {
		return nil, nil, err
	}
	heat, err := filtration.LabelHeat(g, group, l.groups(), l.time())
	if err != nil {
		return nil, nil, err
	}
	out := make([]persistence.Diagrams, len(heat))
	origins := make([]persistence.Origins, len(heat))

	for k, h := range heat {
		// Vertices that are alike (the two ends of a symmetric molecule)
		// get heats equal up to rounding; snapping them keeps their
		// differences from becoming points of persistence 1e-17. Twelve
		// decimals, more than the images resolve, keep model files short.
		snapTies(h, nil)
		for v := range h {
			h[v] = math.Round(h[v]*1e12) / 1e12
		}
		out[k], origins[k] = persist(g, h, nil, keepZero, canon != nil, canon)
	}
	return out, origins, nil
}

// WithLabels returns s in node-label mode: a group for each of the k most
// frequent node labels of the graphs listed in train (all when nil), or
// of their atoms' bonding types when bonding is set (Labels.Bonding),
// diffusion time t (0: the default) and the dataset's code table names
// (nil when unknown). It fails when no graph has node labels, and with
// bonding when a graph is not a molecule. FitLabels does the same for
// many training sets of one dataset.
func (s Settings) WithLabels(graphs []*graph.Graph, train []int, k int, t float64, names map[string]string, bonding bool) (Settings, error) {
	fit, err := s.FitLabels(graphs, k, t, names, bonding)
	if err != nil {
		return s, err
	}
	return fit.For(train), nil
}

// LabelFit gives the node-label settings (WithLabels) of one dataset's
// training sets, such as the folds of a cross-validation. It reads the
// graphs' labels, and with bonding types their atoms' types, once: typing
// a molecule means parsing and sanitising it again, and each fold would
// otherwise type every molecule of the dataset.
type LabelFit struct {
	s      Settings // in node-label mode, without a vocabulary
	labels [][]string
	k      int
	rank   map[string]int // a label's place among all graphs' labels
}

// FitLabels prepares the node-label settings of graphs for WithLabels'
// k, t, names and bonding; it fails as WithLabels does.
func (s Settings) FitLabels(graphs []*graph.Graph, k int, t float64, names map[string]string, bonding bool) (*LabelFit, error) {
	if k < 0 {
		return nil, fmt.Errorf("features: %d node-label groups (want 0 or more)", k)
	}
	labelled := false
	for _, g := range graphs {
		labelled = labelled || g.NodeLabels != nil
	}
	if !labelled {
		return nil, fmt.Errorf("node-label mode: the graphs have no node labels")
	}
	s.Labels = &Labels{Time: t, Names: names, Bonding: bonding}
	if bonding {
		s.Labels.BondingRules = smiles.BondingRules
	}
	if err := s.Labels.validate(); err != nil {
		return nil, err
	}
	labels := make([][]string, len(graphs))
	for i, g := range graphs {
		var mol *graph.Graph
		var err error
		if bonding {
			if mol, err = s.molecule(g); err != nil {
				return nil, fmt.Errorf("node-label mode: bonding types: graph %d: %w", i, err)
			}
		}
		if labels[i], err = s.Labels.labelsOf(g, mol); err != nil {
			return nil, fmt.Errorf("node-label mode: graph %d: %w", i, err)
		}
	}
	rank := map[string]int{}
	for i, l := range fitVocabulary(labels, nil, math.MaxInt, names) {
		rank[l] = i
	}
	return &LabelFit{s: s, labels: labels, k: k, rank: rank}, nil
}

// For returns the settings in node-label mode with the vocabulary of the
// graphs listed in train (all when nil).
//
// The groups are ordered as the labels' counts over all the graphs order
// them, not the training graphs': which labels get a group is the
// training graphs' choice, but their order only places the images'
// blocks, which the kernel sums alike. So folds whose training graphs
// pick the same labels share one feature set (and one set of passes over
// the pairs) even where two counts are close: NCI1's types 4 and 5
// (1,275 and 1,250 atoms) swap places in one fold of ten.
func (f *LabelFit) For(train []int) Settings {
	vocab := fitVocabulary(f.labels, train, f.k, f.s.Labels.Names)
	slices.SortFunc(vocab, func(a, b string) int { return f.rank[a] - f.rank[b] })
	s := f.s
	l := *s.Labels
	l.Vocabulary = vocab
	s.Labels = &l
	return s
}
