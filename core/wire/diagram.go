package wire

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Point is one point of a persistence diagram. Death may be +Inf for an
// essential class of ordinary persistence.
type Point struct{ Birth, Death float64 }

// Diagrams holds the extended persistence of one graph.
//
// Conventions (as GUDHI): Ord0 points have Birth < Death (sublevel pairs);
// Rel1 points have Birth > Death (superlevel pairs, mirrored); Ext0 has one
// point (min, max) per connected component; Ext1 has one point per
// independent cycle with Birth >= Death.
type Diagrams struct {
	Ord0 []Point `json:"ord0"`
	Rel1 []Point `json:"rel1"`
	Ext0 []Point `json:"ext0"`
	Ext1 []Point `json:"ext1"`
}

// DropZero returns the diagrams without their zero-persistence points
// (Birth == Death), each sub-diagram in its order in a new slice:
// vertices joined at their own value, cycles whose vertices all share one
// value, and the Ext0 point of an isolated vertex or of a component on
// which the function is constant. These carry no information for a
// persistence image and GUDHI omits some of them, so callers normally drop
// them; persistence.Extended keeps them so that the diagram sizes follow
// the graph.
func (d Diagrams) DropZero() Diagrams {
	return Diagrams{
		Ord0: dropZero(d.Ord0),
		Rel1: dropZero(d.Rel1),
		Ext0: dropZero(d.Ext0),
		Ext1: dropZero(d.Ext1),
	}
}

// dropZero returns the points with Birth != Death, in their order, in a
// new slice.
func dropZero(ps []Point) []Point {
	out := make([]Point, 0, len(ps))
	for _, p := range ps {
		if p.Birth != p.Death {
			out = append(out, p)
		}
	}
	return out
}

// MarshalJSON writes a point as the array [birth, death]. JSON has no
// infinity, so an infinite coordinate is written as the string "Infinity"
// or "-Infinity", which JavaScript's Number() parses back.
func (p Point) MarshalJSON() ([]byte, error) {
	b := []byte{'['}
	for i, v := range [2]float64{p.Birth, p.Death} {
		if i > 0 {
			b = append(b, ',')
		}
		switch {
		case math.IsNaN(v):
			return nil, fmt.Errorf("persistence point %v: NaN coordinate", p)
		case math.IsInf(v, 1):
			b = append(b, `"Infinity"`...)
		case math.IsInf(v, -1):
			b = append(b, `"-Infinity"`...)
		default:
			b = strconv.AppendFloat(b, v, 'g', -1, 64)
		}
	}
	return append(b, ']'), nil
}

// UnmarshalJSON reads the form MarshalJSON writes.
func (p *Point) UnmarshalJSON(data []byte) error {
	var raw []json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return fmt.Errorf("persistence point: %w", err)
	}
	if len(raw) != 2 {
		return fmt.Errorf("persistence point: %d coordinates, want 2", len(raw))
	}
	var v [2]float64
	for i, r := range raw {
		var s string
		if err := json.Unmarshal(r, &s); err == nil {
			switch s {
			case "Infinity":
				v[i] = math.Inf(1)
			case "-Infinity":
				v[i] = math.Inf(-1)
			default:
				return fmt.Errorf("persistence point: coordinate %q", s)
			}
			continue
		}
		if err := json.Unmarshal(r, &v[i]); err != nil {
			return fmt.Errorf("persistence point: %w", err)
		}
	}
	p.Birth, p.Death = v[0], v[1]
	return nil
}
