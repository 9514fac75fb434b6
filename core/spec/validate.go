package spec

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// FieldError is one bad setting: the field's name, the value given and
// what the field allows.
type FieldError struct {
	Field string
	Value string
	Want  string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("%s: %q: want %s", e.Field, e.Value, e.Want)
}

// Errors are all the bad settings of a Spec, one per field, in the order
// of Fields.
type Errors []*FieldError

func (e Errors) Error() string {
	lines := make([]string, len(e))
	for i, fe := range e {
		lines[i] = fe.Error()
	}
	return strings.Join(lines, "\n")
}

// Validate checks every setting and returns nil or Errors with one entry
// per bad field, naming the field and what it allows. The CLI, the page's
// workers and the edge all call it, so a value is refused the same way
// everywhere.
func (s Spec) Validate() error {
	var errs Errors
	bad := make(map[string]bool)
	for _, f := range Fields() {
		if fe := f.validate(&s); fe != nil {
			errs = append(errs, fe)
			bad[f.Name] = true
		}
	}
	// Settings that are fine alone but not together; reported once, on
	// the second field, when neither is already wrong.
	pair := func(field, want string, wrong bool) {
		if wrong && !bad[field] {
			f, _ := Lookup(field)
			errs = append(errs, &FieldError{Field: field, Value: f.Get(&s), Want: want})
		}
	}
	pair("edge-valued", "false unless rule is min (an edge-valued filtration keeps each edge's own value)", s.EdgeValued && s.Rule != "min" && !bad["rule"])
	if len(errs) == 0 {
		return nil
	}
	return errs
}

func (f Field) validate(s *Spec) *FieldError {
	fail := func(want string) *FieldError { return &FieldError{Field: f.Name, Value: f.Get(s), Want: want} }
	switch p := f.ref(s).(type) {
	case *string:
		if len(f.Choices) > 0 && !slices.Contains(f.Choices, *p) && (*p != "" || f.absent == "") {
			return fail(f.Allowed())
		}
		if f.check != nil {
			if err := f.check(*p); err != nil {
				return fail(err.Error())
			}
		}
	case *int:
		if !f.inRange(float64(*p)) {
			return fail(f.Allowed())
		}
	case *float64:
		if math.IsNaN(*p) || math.IsInf(*p, 0) || !f.inRange(*p) {
			return fail(f.Allowed())
		}
	}
	return nil
}

func (f Field) inRange(v float64) bool {
	if v < f.Min || (f.MinOpen && v == f.Min) {
		return false
	}
	return v <= f.Max
}

// SubDiagrams are the parts of a persistence diagram an image channel
// may join: ordinary 0-dim, relative 1-dim, extended 0- and 1-dim.
func SubDiagrams() []string { return []string{"ord0", "rel1", "ext0", "ext1"} }

func checkChannels(text string) error {
	const want = "comma-separated unions (+) of ord0, rel1, ext0, ext1"
	parts := strings.Split(text, ",")
	for _, c := range parts {
		c = strings.TrimSpace(c)
		if c == "" {
			return fmt.Errorf("%s, with no empty channel", want)
		}
		for _, d := range strings.Split(c, "+") {
			if !slices.Contains(SubDiagrams(), d) {
				return fmt.Errorf("%s (%q is none of them)", want, d)
			}
		}
	}
	return nil
}

// DescriptorKinds are the descriptor functions a Spec can name.
func DescriptorKinds() []string {
	return []string{"ricci", "jaccard", "degree", "hks", "given", "bonds", "en", "charge"}
}

// Descriptor is one entry of a descriptor list: a kind, for hks a time
// (0: the HKSTime setting), and an element group that restricts it to
// those atoms ("" for all).
type Descriptor struct {
	Kind  string
	Time  float64
	Atoms string
}

// Molecular says whether the descriptor reads molecules: the bond
// orders (bonds), the electronegativity (en), the partial charges
// (charge), or any descriptor
// restricted to an element group.
func (d Descriptor) Molecular() bool {
	return d.Kind == "bonds" || d.Kind == "en" || d.Kind == "charge" || (d.Atoms != "" && !d.LabelGroup())
}

// LabelGroup says whether the descriptor is restricted to atom types
// given as node labels ("hks:#3"): it reads the labels as they are, for
// graphs whose atoms are typed by codes no table names (NCI1).
func (d Descriptor) LabelGroup() bool {
	return strings.HasPrefix(strings.TrimPrefix(d.Atoms, "~"), LabelCode)
}

// LabelCode marks a node label in a group ("#3": the atoms labelled 3).
const LabelCode = "#"

// ParseDescriptors reads a descriptor list such as
// "hks,hks@0.5,degree,bonds:C,en": comma-separated kinds, hks@t for the
// heat kernel signature at time t, and :group after any kind to restrict
// it to the atoms of an element group (element symbols joined by "+", or
// halogens: "bonds:N+O") or of node labels ("hks:#1+#2").
func ParseDescriptors(text string) ([]Descriptor, error) {
	var out []Descriptor
	for _, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		kind, atoms, grouped := strings.Cut(part, ":")
		name, at, timed := strings.Cut(kind, "@")
		if !slices.Contains(DescriptorKinds(), name) {
			return nil, fmt.Errorf("unknown descriptor %q (want ricci, jaccard, degree, hks, hks@t, given, bonds, en or charge, each optionally :group)", name)
		}
		d := Descriptor{Kind: name}
		if grouped {
			if err := CheckGroup(atoms); err != nil {
				return nil, fmt.Errorf("%q: %w", part, err)
			}
			d.Atoms = atoms
		}
		if timed {
			t, err := strconv.ParseFloat(at, 64)
			if name != "hks" || err != nil || !(t > 0) || math.IsInf(t, 0) {
				return nil, fmt.Errorf("%q: only hks takes @t, with t a positive number", part)
			}
			d.Time = t
		}
		out = append(out, d)
	}
	return out, nil
}

// CheckGroup checks the form of a group: element symbols (a capital
// letter, then at most two small ones) or halogens joined by "+", or node
// labels after LabelCode joined by "+" ("#1+#2"), optionally after "~"
// (the bonds around those atoms).
func CheckGroup(text string) error {
	parts := strings.Split(strings.TrimPrefix(text, "~"), "+")
	labels := strings.HasPrefix(parts[0], LabelCode)
	for _, sym := range parts {
		if labels {
			if code, ok := strings.CutPrefix(sym, LabelCode); !ok || code == "" || strings.ContainsAny(code, "#:@~ ") {
				return fmt.Errorf("label group %q: %q is not a node label after %s (want labels such as #1+#2, optionally after ~; element symbols and labels do not mix)", text, sym, LabelCode)
			}
			continue
		}
		ok := sym == "halogens" || (len(sym) >= 1 && len(sym) <= 3 && sym[0] >= 'A' && sym[0] <= 'Z')
		for i := 1; ok && i < len(sym); i++ {
			ok = sym[i] >= 'a' && sym[i] <= 'z'
		}
		if !ok {
			return fmt.Errorf("element group %q: %q is not an element symbol (want symbols joined by +, such as N+O, or halogens, or node labels such as #1+#2, optionally after ~)", text, sym)
		}
	}
	return nil
}

func checkExtra(text string) error {
	switch strings.TrimSpace(text) {
	case "", NoExtra:
		return nil
	}
	if _, err := ParseDescriptors(text); err != nil {
		return fmt.Errorf("empty, none, or a list such as hks,hks@0.5,degree (%v)", err)
	}
	return nil
}

// GridValues are the values a grid search tries.
type GridValues struct {
	M     []int
	Sigma []float64
	C     []float64
}

// PaperGrid is the grid of the paper (m in 3..8, sigma in 10^-3..10^2)
// with a C grid for the SVM on the unit-diagonal kernel.
func PaperGrid() GridValues {
	return GridValues{
		M:     []int{3, 4, 5, 6, 7, 8},
		Sigma: []float64{0.001, 0.01, 0.1, 1, 10, 100},
		C:     []float64{0.1, 1, 10, 100, 1000},
	}
}

// ParseGrid reads "paper" (or "") or "m=3,4;sigma=0.1,1;C=1,10"; keys
// left out take the paper's values.
func ParseGrid(text string) (GridValues, error) {
	g := PaperGrid()
	if text = strings.TrimSpace(text); text == "" || text == GridPaper {
		return g, nil
	}
	for _, part := range strings.Split(text, ";") {
		key, vals, ok := strings.Cut(part, "=")
		if !ok {
			return g, fmt.Errorf("%q is not key=v1,v2", part)
		}
		var nums []float64
		for _, v := range strings.Split(vals, ",") {
			x, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil || !(x > 0) || math.IsInf(x, 0) {
				return g, fmt.Errorf("%q is not a positive number", v)
			}
			nums = append(nums, x)
		}
		switch strings.TrimSpace(key) {
		case "m":
			g.M = nil
			for _, x := range nums {
				if x != math.Trunc(x) {
					return g, fmt.Errorf("m %g is not a whole number", x)
				}
				g.M = append(g.M, int(x))
			}
		case "sigma":
			g.Sigma = nums
		case "C":
			g.C = nums
		default:
			return g, fmt.Errorf("unknown key %q (want m, sigma, C)", key)
		}
	}
	return g, nil
}

func checkGrid(text string) error {
	if _, err := ParseGrid(text); err != nil {
		return fmt.Errorf("empty, paper, or m=3,4;sigma=0.1,1;C=1,10 (%v)", err)
	}
	return nil
}
