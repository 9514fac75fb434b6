package compare

import (
	"context"
	"encoding/json"
	"flag"
	"path/filepath"
	"testing"

	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/testenv"
	"wkpi-web/core/tu"
)

// update rewrites the golden files of TestWKPIProtocolsUnchanged.
var update = flag.Bool("update", false, "rewrite the golden files in testdata/protocols")

// TestWKPIProtocolsUnchanged: WKPI, WKPI-init and altWKPI under each of
// compare's protocols (fixed, the automatic choice of images, nested CV
// over a grid) give number for number what they gave when the golden
// files were written (before the protocols went through eval.Run), on
// core/eval/testdata/MUTAG38 with small settings.
func TestWKPIProtocolsUnchanged(t *testing.T) {
	ds, err := tu.ReadDir("../eval/testdata/MUTAG38")
	if err != nil {
		t.Fatal(err)
	}
	s := features.Default(filtration.KindRicci)
	s.Rows = 10
	set, err := features.Compute(context.Background(), ds, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		change func(*Options)
	}{
		{"fixed", func(o *Options) {}},
		{"auto", func(o *Options) { o.WKPIAuto = true }},
		{"nested", func(o *Options) {
			o.WKPIGrid, o.Inner = &eval.Grid{Ms: []int{2, 3}, Sigmas: []float64{0.01, 0.1}, Cs: []float64{1, 100}}, 2
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := NewData(ds, set)
			if err != nil {
				t.Fatal(err)
			}
			o := DefaultOptions()
			o.Folds, o.WKPI.Learn.M, o.WKPI.Learn.MaxIter = 3, 3, 30
			tc.change(&o)
			var methods []Method
			for _, name := range []string{WKPI, WKPIInit, AltWKPI} {
				m, err := RunMethod(context.Background(), d, name, o, nil)
				if err != nil {
					t.Fatal(err)
				}
				m.Seconds = 0
				methods = append(methods, m)
			}
			got, err := json.MarshalIndent(methods, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			testenv.Golden(t, filepath.Join("testdata", "protocols", tc.name+".golden"), got, *update)
		})
	}
}
