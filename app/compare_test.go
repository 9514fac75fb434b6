package app

import (
	"reflect"
	"testing"
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
