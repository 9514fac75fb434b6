package persistence

import "wkpi-web/core/wire"

// Point is one point of a persistence diagram (wire.Point, with its JSON
// form). Death may be +Inf for an essential class of ordinary
// persistence.
type Point = wire.Point

// Diagrams holds the extended persistence of one graph (wire.Diagrams,
// whose DropZero removes the zero-persistence points).
type Diagrams = wire.Diagrams
