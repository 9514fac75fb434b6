package protocol

import "wkpi-web/core/wire"

// Diagrams is the extended persistence of one graph (core/wire, the type
// of persistence.Diagrams). Ord0 points have Birth < Death, Rel1 points
// Birth > Death, Ext0 one point (min, max) per component and Ext1 one
// point per cycle.
type Diagrams = wire.Diagrams

// Point is one point of a persistence diagram. Death may be +Inf for an
// essential class of ordinary persistence; its JSON is [birth, death],
// with "Infinity" for an infinite coordinate.
type Point = wire.Point
