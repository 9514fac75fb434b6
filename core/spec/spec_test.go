package spec

import (
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// Invalid is one row of testdata/invalid.json: a bad value for a field
// and the message every front end (CLI, page's workers, edge) must give.
type invalid struct {
	Field   string `json:"field"`
	Value   string `json:"value"`
	Message string `json:"message"`
}

func readInvalid(t *testing.T) []invalid {
	t.Helper()
	data, err := os.ReadFile("testdata/invalid.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []invalid
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestValidateTable: each bad value alone gives exactly its message, as
// one FieldError naming the field.
func TestValidateTable(t *testing.T) {
	for _, row := range readInvalid(t) {
		f, ok := Lookup(row.Field)
		if !ok {
			t.Fatalf("no field %q", row.Field)
		}
		s := Defaults()
		if err := f.Set(&s, row.Value); err != nil {
			t.Fatalf("%s: set %q: %v", row.Field, row.Value, err)
		}
		err := s.Validate()
		var errs Errors
		if !errors.As(err, &errs) || len(errs) != 1 {
			t.Fatalf("%s=%s: %v, want one field error", row.Field, row.Value, err)
		}
		if errs[0].Field != row.Field || err.Error() != row.Message {
			t.Errorf("%s=%s: %q, want %q", row.Field, row.Value, err, row.Message)
		}
	}
}

// TestValidateAllAtOnce: every bad field is reported, one line each, in
// the order of Fields.
func TestValidateAllAtOnce(t *testing.T) {
	s := Defaults()
	s.Sigma, s.Rows, s.Init = -1, 0, "x"
	err := s.Validate()
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "rows:") || !strings.HasPrefix(lines[1], "sigma:") || !strings.HasPrefix(lines[2], "init:") {
		t.Fatalf("errors %q", lines)
	}
	s = Defaults()
	s.EdgeValued, s.Rule = true, "mean"
	if err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), "edge-valued:") {
		t.Fatalf("edge-valued with rule mean: %v", err)
	}
}

// TestPresetsValid: the presets pass Validate, and each differs from the
// defaults where its documentation says.
func TestPresetsValid(t *testing.T) {
	for name, p := range Presets() {
		if err := p().Validate(); err != nil {
			t.Errorf("preset %s: %v", name, err)
		}
	}
	p := Paper()
	if p.Protocol() != "nested" || p.Automatic() || p.ChoosesSVM() || p.Extra != NoExtra || p.Prior != 0 || p.Contrast != 0 {
		t.Errorf("paper preset %+v", p)
	}
	if s := SizeAware(); !s.Raw || s.Automatic() || s.Sigma != SizeAwareSigma || s.Protocol() != "fixed" {
		t.Errorf("size-aware preset %+v", s)
	}
	if d := Defaults(); d.Protocol() != "auto" || !d.ChoosesSVM() {
		t.Errorf("defaults: protocol %s, chooses SVM %v", d.Protocol(), d.ChoosesSVM())
	}
	s := Defaults()
	s.Select = SelectCost
	if s.Protocol() != "cost" || s.Automatic() || s.ChoosesSVM() {
		t.Errorf("select cost alone: protocol %s", s.Protocol())
	}
}

// TestFieldsCoverSpec: every field of Spec has exactly one Field, and
// Get and Set round-trip its default.
func TestFieldsCoverSpec(t *testing.T) {
	d := Defaults()
	seen := map[uintptr]string{}
	for _, f := range Fields() {
		p := reflect.ValueOf(f.Ref(&d)).Pointer()
		if other, dup := seen[p]; dup {
			t.Errorf("fields %s and %s share a setting", f.Name, other)
		}
		seen[p] = f.Name
		s := Spec{}
		if err := f.Set(&s, f.Get(&d)); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
		if f.Get(&s) != f.Get(&d) {
			t.Errorf("%s: round trip %q -> %q", f.Name, f.Get(&d), f.Get(&s))
		}
		if f.Label == "" || f.Help == "" || f.Group == "" {
			t.Errorf("%s: missing label, help or group", f.Name)
		}
	}
	if n := reflect.TypeOf(Spec{}).NumField(); len(seen) != n {
		t.Errorf("%d fields describe %d settings", len(seen), n)
	}
}

// TestSplitAbsent: settings saved before split existed (a model file's
// JSON, decoded into a zero Spec) leave it empty, which is valid and
// means random; another empty choice is still refused.
func TestSplitAbsent(t *testing.T) {
	d := Defaults()
	data, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	old := strings.Replace(string(data), `,"split":"random"`, "", 1)
	if old == string(data) {
		t.Fatalf("no split in %s", data)
	}
	var s Spec
	if err := json.Unmarshal([]byte(old), &s); err != nil {
		t.Fatal(err)
	}
	if s.Split != "" || s.Validate() != nil {
		t.Fatalf("split %q: %v", s.Split, s.Validate())
	}
	s.Rule = ""
	if err := s.Validate(); err == nil || !strings.HasPrefix(err.Error(), "rule:") {
		t.Fatalf("empty rule: %v", err)
	}
	if d.Split != SplitRandom {
		t.Fatalf("default split %q", d.Split)
	}
}

// TestDecodeJSON: missing keys keep the defaults, unknown keys fail.
func TestDecodeJSON(t *testing.T) {
	s, err := DecodeJSON([]byte(`{"sigma": 0.5}`))
	if err != nil || s.Sigma != 0.5 || s.M != Defaults().M {
		t.Fatalf("%+v, %v", s, err)
	}
	if _, err := DecodeJSON([]byte(`{"sigmaa": 0.5}`)); err == nil || !strings.Contains(err.Error(), "sigmaa") {
		t.Fatalf("misspelt key: %v", err)
	}
}

func TestParseGrid(t *testing.T) {
	g, err := ParseGrid("m=3,4;sigma=0.1")
	if err != nil || !reflect.DeepEqual(g.M, []int{3, 4}) || !reflect.DeepEqual(g.Sigma, []float64{0.1}) || !reflect.DeepEqual(g.C, PaperGrid().C) {
		t.Fatalf("%+v, %v", g, err)
	}
	for _, bad := range []string{"m", "m=x", "m=2.5", "sigma=-1", "k=1"} {
		if _, err := ParseGrid(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestParseDescriptors(t *testing.T) {
	d, err := ParseDescriptors(" hks@0.5, degree ,bonds:C,en:N+O, hks@2:halogens+C,bonds:~O,hks:#3,degree:~#1+#12")
	want := []Descriptor{{Kind: "hks", Time: 0.5}, {Kind: "degree"}, {Kind: "bonds", Atoms: "C"}, {Kind: "en", Atoms: "N+O"}, {Kind: "hks", Time: 2, Atoms: "halogens+C"}, {Kind: "bonds", Atoms: "~O"}, {Kind: "hks", Atoms: "#3"}, {Kind: "degree", Atoms: "~#1+#12"}}
	if err != nil || !reflect.DeepEqual(d, want) {
		t.Fatalf("%+v, %v", d, err)
	}
	for i, molecular := range []bool{false, false, true, true, true, true, false, false} {
		if d[i].Molecular() != molecular || d[i].LabelGroup() != (i >= 6) {
			t.Errorf("%+v: Molecular %v, LabelGroup %v", d[i], d[i].Molecular(), d[i].LabelGroup())
		}
	}
	for _, bad := range []string{"curvature", "degree@2", "hks@-1", "hks@x", "hks@Inf", "bonds:", "bonds:c", "bonds:C+", "bonds:Cl2", "en:Xyzw", "bonds@2:C", "bonds:~", "bonds:O~", "hks:#", "hks:#1+C", "hks:C+#1", "hks:#1+", "hks:##1", "hks:#~1"} {
		if _, err := ParseDescriptors(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
