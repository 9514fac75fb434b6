package filtration

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"wkpi-web/core/spec"
)

func TestParseList(t *testing.T) {
	for _, tc := range []struct {
		text, err string
		want      []Options
	}{
		{text: "", want: nil},
		{text: " hks , degree,", want: []Options{{Kind: KindHKS}, {Kind: KindDegree}}},
		{text: "hks@0.5,ricci", want: []Options{{Kind: KindHKS, HKSTime: 0.5}, {Kind: KindRicci}}},
		{text: "curvature", err: `unknown descriptor "curvature"`},
		{text: "degree@2", err: "only hks takes @t"},
		{text: "hks@-1", err: "only hks takes @t"},
		{text: "hks@x", err: "only hks takes @t"},
	} {
		got, err := ParseList(tc.text)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v, want %q", tc.text, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%q: %v, %v; want %v", tc.text, got, err, tc.want)
		}
		// FormatList writes what ParseList reads back.
		if again, err := ParseList(FormatList(got)); err != nil || !reflect.DeepEqual(again, got) {
			t.Errorf("%q: round trip gives %v, %v", tc.text, again, err)
		}
	}
}

// TestKindsMatchSpec: the settings spec names the same descriptor kinds
// as the filtrations that compute them.
func TestKindsMatchSpec(t *testing.T) {
	var kinds []string
	for _, k := range Kinds() {
		kinds = append(kinds, string(k))
	}
	if !slices.Equal(kinds, spec.DescriptorKinds()) {
		t.Fatalf("filtration kinds %v, spec kinds %v", kinds, spec.DescriptorKinds())
	}
}
