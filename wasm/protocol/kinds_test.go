package protocol

import (
	"go/ast"
	"go/parser"
	"go/token"
	"testing"
)

// TestEveryKindHasARow: every Kind constant declared in this package
// (found in its source, not in the table) has exactly one row of Kinds,
// with words for the page, and every row is such a constant.
func TestEveryKindHasARow(t *testing.T) {
	declared := map[Kind]string{}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "protocol.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Kind" {
				continue
			}
			for i, name := range v.Names {
				lit := v.Values[i].(*ast.BasicLit)
				declared[Kind(lit.Value[1:len(lit.Value)-1])] = name.Name
			}
		}
	}
	if len(declared) < 11 {
		t.Fatalf("found only %d Kind constants in protocol.go: %v", len(declared), declared)
	}
	rows := map[Kind]int{}
	for _, j := range Kinds() {
		rows[j.Kind]++
		if _, ok := declared[j.Kind]; !ok {
			t.Errorf("row %q is no Kind constant", j.Kind)
		}
		if j.Words == "" || j.Kind.Words() != j.Words {
			t.Errorf("%q: words %q", j.Kind, j.Kind.Words())
		}
	}
	for k, name := range declared {
		if rows[k] != 1 {
			t.Errorf("%s (%q) has %d rows in Kinds, want 1", name, k, rows[k])
		}
	}
}

// TestKindRows: the rows the pool and the worker act on, as the job
// kinds' documentation states them.
func TestKindRows(t *testing.T) {
	for _, c := range []struct {
		kind                              Kind
		interactive, readsSet, classifier bool
	}{
		{Load, true, true, false}, {InspectData, true, false, true}, {Draw, true, true, false},
		{Explore, true, true, false}, {ChoiceScores, false, true, false}, {CrossValidate, false, true, false},
		{Train, false, true, false}, {Inspect, true, false, true}, {Predict, true, false, true},
		{Explain, true, false, true}, {Compare, false, true, false}, {MergeCV, true, false, false},
	} {
		j, ok := c.kind.About()
		if !ok || j.Interactive != c.interactive || j.ReadsDataset != c.readsSet || c.kind.Interactive() != c.interactive ||
			j.Classifier != c.classifier || c.kind.Classifier() != c.classifier {
			t.Errorf("%q: %+v (%v)", c.kind, j, ok)
		}
	}
	if Kind("nothing").Interactive() || Kind("nothing").Classifier() || Kind("nothing").Words() != "computing" {
		t.Error("an unknown kind")
	}
}
