package persistence

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
