package spec

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Spec is every user setting of a WKPI run: descriptors, images, kernel
// and learning, SVM, protocol and scale. Zero values are not defaults:
// start from Defaults, Paper or SizeAware and change what differs. The
// JSON form is what the page sends to its workers and what models record.
type Spec struct {
	// Descriptors.

	// Descriptor is the main descriptor function: ricci, jaccard, degree,
	// hks, bonds, en, charge (molecules) or given. Default ricci.
	Descriptor string `json:"descriptor"`
	// Extra adds descriptors, each with its own images: "" is the default
	// set (hks,degree less Descriptor; none with Labels or given), "none"
	// the main descriptor alone, or a list such as "hks,hks@0.5,degree".
	Extra string `json:"extra"`
	// Alpha is the Ollivier-Ricci idleness, in (0, 1]: the range of
	// filtration.Options, which reads 0 as its default. Default 0.5.
	Alpha float64 `json:"alpha"`
	// HKSTime is the heat kernel signature's time t > 0. Default 10.
	HKSTime float64 `json:"hksTime"`
	// Rule takes an edge function to the vertices: min (the paper) or
	// mean. Default min.
	Rule string `json:"rule"`
	// EdgeValued computes 0-dim sublevel persistence with edges at their
	// own value instead of lower-star. Default false.
	EdgeValued bool `json:"edgeValued"`
	// Labels turns on node-label mode: the heat diffusion of each of the
	// most frequent node labels joins the descriptors. Default false
	// (structure only, the paper's protocol).
	Labels bool `json:"labels"`
	// LabelGroups is the number of labels with a group of their own in
	// node-label mode, 1..64. Default 6.
	LabelGroups int `json:"labelGroups"`
	// LabelTime is the diffusion time of the label indicators, > 0.
	// Default 1.
	LabelTime float64 `json:"labelTime"`
	// LabelBonding labels the atoms of molecules by bonding type, N and O
	// by their bonds, rings and hydrogens (amide, amine with or without
	// H, pyridine or azole; carbonyl, S=O or N=O, alcohol or acid
	// hydroxyl, ether: smiles.BondingTypes), instead of by node label. It needs
	// molecules. Default false; the molecules preset sets it.
	LabelBonding bool `json:"labelBonding"`

	// Images.

	// Channels lists the images per graph, comma-separated "+"-unions of
	// ord0, rel1, ext0, ext1. Default "ord0+ext0,rel1+ext1".
	Channels string `json:"channels"`
	// Rows is the image resolution, 2..400. Default 40.
	Rows int `json:"rows"`
	// Tau is the image Gaussian's width; 0 takes one pixel. Default 0.
	Tau float64 `json:"tau"`
	// TailCut is the fraction of a descriptor block's largest pixel below
	// which its pixels are 0, 0..1; 0 takes 1/1000. Larger is faster
	// (the kernel's passes cost the pixels two images share) and moves
	// the figures a little. Default 0.
	TailCut float64 `json:"tailCut"`
	// Weighting is constant or linear (in persistence). Default constant.
	Weighting string `json:"weighting"`
	// Persistence transforms the persistence axis: none or sqrt.
	// Default none.
	Persistence string `json:"persistence"`
	// KeepZero keeps zero-persistence points. Default false.
	KeepZero bool `json:"keepZero"`
	// Raw keeps images unnormalised, so that graph size counts. Default
	// false (unit L2 norm).
	Raw bool `json:"raw"`
	// Auto chooses, in every outer fold, between these images and
	// size-aware ones by inner CV of the unlearned kernels (see
	// Automatic for when it applies). Default true.
	Auto bool `json:"auto"`

	// Kernel and learning.

	// M is the number of Gaussians of the weight function, 1..100.
	// Default 5.
	M int `json:"m"`
	// Sigma is the WKPI kernel's width, > 0. Default 0.01.
	Sigma float64 `json:"sigma"`
	// Kernel is wkpi or alt (altWKPI). Default wkpi.
	Kernel string `json:"kernel"`
	// Init places the initial Gaussians: kcenter, kmeans or random.
	// Default kcenter.
	Init string `json:"init"`
	// Optimizer is gd (gradient descent) or lbfgs. Default gd.
	Optimizer string `json:"optimizer"`
	// Objective is tc (the paper's total cost) or cka (kernel-target
	// alignment). Default tc.
	Objective string `json:"objective"`
	// Penalty is c in c * sum exp(-w_r), >= 0. Default 1.
	Penalty float64 `json:"penalty"`
	// Prior anchors the weight function at its initial placement, >= 0;
	// 0 is the paper's objective. Default 0.3.
	Prior float64 `json:"prior"`
	// Contrast keeps the kernel's mean distance from collapsing, >= 0; 0
	// is the paper's objective. Default 0.03.
	Contrast float64 `json:"contrast"`
	// ChannelScales also learns one scale per image block. Default false.
	ChannelScales bool `json:"channelScales"`
	// Batch is the mini-batch size of learning; 0 uses the whole
	// training set. Default 0.
	Batch int `json:"batch"`
	// Iterations caps the learning's iterations, 1..100000. Default 2000.
	Iterations int `json:"iterations"`

	// SVM.

	// SVMChoice chooses the SVM's kernel (the WKPI kernel or the Gaussian
	// of its distance) and C in every fold by inner CV of the unlearned
	// kernel; off, Gauss and C are fixed. A Grid chooses C itself.
	// Default true.
	SVMChoice bool `json:"svmChoice"`
	// C is the SVM's C, > 0, when fixed. Default 100.
	C float64 `json:"C"`
	// Gauss is the SVM kernel when fixed: 0 the WKPI kernel, s > 0 the
	// Gaussian of the WKPI distance at s times the median. Default 0.
	Gauss float64 `json:"gauss"`

	// Protocol.

	// Folds is the number of cross-validation folds, 2..100. Default 10.
	Folds int `json:"folds"`
	// Inner is the number of inner folds of a Grid search, 2..100.
	// Default 10.
	Inner int `json:"inner"`
	// Repeats repeats the CV with seeds Seed, Seed+1, ..., 1..100.
	// Default 1.
	Repeats int `json:"repeats"`
	// Seed splits the folds and starts the learning. Default 1.
	Seed int64 `json:"seed"`
	// Grid searches m, sigma and C in every outer fold: "" (none),
	// "paper", or "m=3,4;sigma=0.1,1;C=1,10". Default "".
	Grid string `json:"grid"`
	// Select is "" (nested CV over Grid) or "cost" (the smallest training
	// cost, the paper's second protocol; over the paper's grid when Grid
	// is empty). Default "".
	Select string `json:"select"`
	// Split deals the graphs into folds: random (stratified by class) or
	// scaffold (molecules sharing a Bemis-Murcko scaffold stay in one
	// fold; core/scaffold). Default random; "" (settings saved before
	// the setting existed) is random too.
	Split string `json:"split"`

	// Scale.

	// Nystrom approximates the SVMs' kernel matrices from this many
	// landmark training graphs; 0 is exact. Default 0.
	Nystrom int `json:"nystrom"`
}

// Defaults is the setting of `wkpi eval` without flags and of the Train
// tab as it opens: Ricci curvature with HKS and degree, unit or
// size-aware images chosen in every fold, m = 5, sigma = 0.01, and the
// SVM's kernel and C chosen in every fold.
func Defaults() Spec {
	return Spec{
		Descriptor: "ricci", Alpha: 0.5, HKSTime: 10, Rule: "min",
		LabelGroups: 6, LabelTime: 1,
		Channels: "ord0+ext0,rel1+ext1", Rows: 40, Weighting: "constant", Persistence: "none", Auto: true,
		M: 5, Sigma: 0.01, Kernel: "wkpi", Init: "kcenter", Optimizer: "gd", Objective: "tc",
		Penalty: 1, Prior: 0.3, Contrast: 0.03, Iterations: 2000,
		SVMChoice: true, C: 100,
		Folds: 10, Inner: 10, Repeats: 1, Seed: 1, Split: SplitRandom,
	}
}

// Paper is the protocol of Zhao and Wang (2019): one descriptor, unit
// images, the paper's objective (no prior, no contrast barrier) with 10
// Gaussians, and m, sigma and C chosen by nested CV over the paper's grid.
// Points of zero persistence are kept: the authors' published MUTAG
// diagrams hold them (docs/results.md, Other settings).
func Paper() Spec {
	s := Defaults()
	s.Extra, s.Auto, s.SVMChoice = NoExtra, false, false
	s.M, s.Prior, s.Contrast = 10, 0, 0
	s.Grid = GridPaper
	s.KeepZero = true
	return s
}

// SizeAware is Defaults with the size-aware images fixed: unnormalised,
// so that graph size counts, with kernel width SizeAwareSigma.
func SizeAware() Spec {
	s := Defaults()
	s.Raw, s.Auto, s.Sigma = true, false, SizeAwareSigma
	return s
}

// Molecules is Defaults with the chemistry-aware descriptors added
// (MoleculesExtra) and node labels (Labels: the heat of the commonest
// bonding types' indicators, LabelBonding, at MoleculesLabelTime): the setting for
// molecules, whose atoms are elements and whose bonds have types. Front
// ends take it by default for SMILES, SD files and TU datasets whose
// README names the atoms. Images are unit images without the automatic
// choice: on every molecule set measured the choice kept them in every
// fold, at a third of the run's time up to 1,000 molecules; their tail
// cut is MoleculesTailCut, which keeps 1,000 molecules within 20 s with
// the label descriptors (docs/method.md, Molecules).
func Molecules() Spec {
	s := Defaults()
	s.Extra, s.Auto = MoleculesExtra, false
	s.Labels, s.LabelBonding, s.LabelGroups, s.LabelTime, s.TailCut = true, true, MoleculesLabelGroups, MoleculesLabelTime, MoleculesTailCut
	return s
}

// AtomTypes is the molecules preset for graphs whose atoms are typed by
// codes that no table names (NCI1): Defaults with, for the most frequent
// type (the carbon skeleton, in molecules), the degree on the subgraph
// of its atoms, and for each of the next ones (up to AtomTypeGroups in
// all) the degree on the bonds around its atoms, and node labels (Labels:
// the heat of the commonest types' indicators). types lists the node
// labels by decreasing frequency. Like Molecules it fixes unit images.
func AtomTypes(types []string) Spec {
	s := Defaults()
	s.Auto, s.Labels = false, true
	extra := []string{"hks", "degree"}
	for i, t := range types[:min(len(types), AtomTypeGroups)] {
		around := "~"
		if i == 0 {
			around = ""
		}
		extra = append(extra, "degree:"+around+LabelCode+t)
	}
	s.Extra = strings.Join(extra, ",")
	return s
}

// AtomTypeGroups is how many atom types AtomTypes gives descriptors of
// their own.
const AtomTypeGroups = 6

// Presets names the presets Spec offers, for menus and `-preset`.
func Presets() map[string]func() Spec {
	return map[string]func() Spec{PresetDefault: Defaults, PresetMolecules: Molecules, "paper": Paper, "size-aware": SizeAware}
}

// The presets front ends choose between by the data (Presets has all).
const (
	PresetDefault   = "default"
	PresetMolecules = "molecules"
)

// Values the settings name.
const (
	// NoExtra is Extra's value for the main descriptor alone.
	NoExtra = "none"
	// MoleculesExtra is Extra of the molecules preset: the default set
	// (heat kernel signature, degree), then the bond-order filtration of
	// the whole molecule, of its carbon skeleton and of the bonds around
	// its O, N and halogen atoms, and the atoms' electronegativity
	// (core/filtration/chem.go).
	MoleculesExtra = "hks,degree,bonds,bonds:C,bonds:~O,bonds:~N,bonds:~halogens,en"
	// MoleculesLabelGroups is the molecules preset's number of label
	// groups: more than Defaults' 6, since bonding types split N and O
	// into ten labels (docs/method.md, Molecules).
	MoleculesLabelGroups = 12
	// MoleculesLabelTime is the molecules preset's diffusion time of the
	// element indicators: longer than Defaults' 1, so that an atom's
	// values take in a wider neighbourhood (docs/method.md, Molecules).
	MoleculesLabelTime = 3.0
	// MoleculesTailCut is the molecules preset's tail cut of the images.
	MoleculesTailCut = 0.01
	// GridPaper is Grid's value for the paper's grid.
	GridPaper = "paper"
	// SelectCost is Select's value for choosing by training cost.
	SelectCost = "cost"
	// SplitRandom and SplitScaffold are Split's values: stratified
	// folds, or folds that keep each molecular scaffold whole.
	SplitRandom   = "random"
	SplitScaffold = "scaffold"
	// SizeAwareSigma is the kernel width of size-aware images: their
	// unnormalised pixels count diagram points, so distances are in units
	// of points, not of unit vectors, and a width of one compares pixels
	// on the scale of one point.
	SizeAwareSigma = 1.0
)

// Automatic says whether the run chooses between unit and size-aware
// images by inner CV: Auto, unless a setting fixes what it would choose
// (Raw, Labels, the altWKPI kernel or a grid search).
func (s Spec) Automatic() bool {
	return s.Auto && !s.Raw && !s.Labels && s.Kernel == "wkpi" && !s.Searches()
}

// Searches says whether every outer fold searches a grid: Grid is set,
// or Select is (over the paper's grid when Grid is empty).
func (s Spec) Searches() bool { return s.Grid != "" || s.Select != "" }

// ChoosesSVM says whether every fold chooses the SVM's kernel and C:
// SVMChoice, unless a grid search chooses C.
func (s Spec) ChoosesSVM() bool { return s.SVMChoice && !s.Searches() }

// Protocol names the evaluation protocol the settings give: "auto"
// (the image choice), "nested" (Grid by inner CV), "cost" (Grid by
// training cost) or "fixed".
func (s Spec) Protocol() string {
	switch {
	case s.Select == SelectCost:
		return "cost"
	case s.Grid != "":
		return "nested"
	case s.Automatic():
		return "auto"
	}
	return "fixed"
}

// DecodeJSON reads a Spec sent as JSON: fields it lacks keep their
// Defaults, and unknown fields are an error, so that a misspelt setting
// is never silently ignored.
func DecodeJSON(data []byte) (Spec, error) {
	s := Defaults()
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("settings: %w", err)
	}
	return s, nil
}
