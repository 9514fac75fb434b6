package app

import (
	"reflect"
	"testing"
)

// TestAtomPlaces reads the highlights of RDKit MinimalLib 2026.9.1's
// get_svg_with_highlights (copied from its output for nitrobenzene), in
// the order of the atoms whatever the SVG's order.
func TestAtomPlaces(t *testing.T) {
	for _, c := range []struct {
		name, svg string
		want      []AtomMark
	}{
		{"none", "<svg><path class='bond-0 atom-0 atom-1' d='M 1,2 L 3,4'/></svg>", nil},
		{"two atoms, the later first", `<svg>
<ellipse cx='111.5' cy='180.0' rx='27.7' ry='22.0' class='atom-6'  style='fill:#FF7F7F' />
<ellipse cx='432.0' cy='180.0' rx='22.0' ry='22.0' class='atom-0'  style='fill:#FF0000' />
<path class='atom-6' d='M 96.4 165.9'/></svg>`, []AtomMark{{Atom: 0, X: 432, Y: 180, R: 22}, {Atom: 6, X: 111.5, Y: 180, R: 27.7}}},
	} {
		if got := atomPlaces(c.svg); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: got %+v, want %+v", c.name, got, c.want)
		}
	}
}
