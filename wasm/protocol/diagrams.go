package protocol

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Diagrams is the extended persistence of one graph; it mirrors
// core/persistence.Diagrams, JSON included, without importing it.
// Ord0 points have Birth < Death, Rel1 points Birth > Death, Ext0 one
// point (min, max) per component and Ext1 one point per cycle.
type Diagrams struct {
	Ord0 []Point `json:"ord0"`
	Rel1 []Point `json:"rel1"`
	Ext0 []Point `json:"ext0"`
	Ext1 []Point `json:"ext1"`
}

// Point is one point of a persistence diagram (persistence.Point). Death
// may be +Inf for an essential class of ordinary persistence.
type Point struct{ Birth, Death float64 }

// MarshalJSON writes a point as the array [birth, death], as
// persistence.Point does: JSON has no infinity, so an infinite coordinate
// is written as the string "Infinity" or "-Infinity", which JavaScript's
// Number() parses back.
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
