package app

import (
	"reflect"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// TestCompareGroups: one job per method, WKPI and WKPI-init together
// (one cross-validation gives both), in the order picked.
func TestCompareGroups(t *testing.T) {
	for _, c := range []struct {
		picked []string
		want   [][]string
	}{
		{[]string{"WKPI", "WKPI-init", "SW", "majority"}, [][]string{{"WKPI", "WKPI-init"}, {"SW"}, {"majority"}}},
		{[]string{"WL", "WKPI-init", "majority"}, [][]string{{"WL"}, {"WKPI-init"}, {"majority"}}},
		{[]string{"WKPI-init", "PF", "WKPI"}, [][]string{{"WKPI-init", "WKPI"}, {"PF"}}},
	} {
		if got := compareGroups(c.picked); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%v: %v, want %v", c.picked, got, c.want)
		}
	}
}

// TestCompareTableROCAUC: each method's ROC-AUC ± std stands beside its
// accuracy; a method without one says why.
func TestCompareTableROCAUC(t *testing.T) {
	auc, std := 0.9, 0.05
	tab := &CompareTab{Summary: &protocol.Summary{Name: "MUTAG"}, Results: []protocol.CompareMethod{
		{Name: protocol.MethodWKPI, Accuracy: 0.87, Std: 0.07, ROCAUC: &auc, ROCAUCStd: &std},
		{Name: protocol.MethodMajority, Accuracy: 0.66},
	}}
	html := app.HTMLString(tab.table())
	for _, want := range []string{"<th>ROC-AUC</th>", "0.900 ± 0.050", "none (every test fold has one class)"} {
		if !strings.Contains(html, want) {
			t.Errorf("no %q in the comparison table", want)
		}
	}
}
