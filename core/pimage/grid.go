package pimage

import (
	"errors"
	"fmt"
	"math"

	"wkpi-web/core/persistence"
)

// Grid is a raster of square pixels in the (birth, persistence) plane;
// see the package comment for its layout.
type Grid struct {
	MinX  float64 `json:"minX"`  // birth at the left edge of column 0
	MinY  float64 `json:"minY"`  // persistence at the bottom edge of row 0
	Pixel float64 `json:"pixel"` // side of every pixel
	Rows  int     `json:"rows"`
	Cols  int     `json:"cols"`
}

const (
	// DefaultRows is the number of rows of the WKPI paper's images.
	DefaultRows = 40
	// PadTaus is the margin, in units of Tau, that FitGrid leaves around
	// the points on every side, so each Gaussian keeps at least
	// 99.7% of its mass along each axis inside the grid.
	PadTaus = 3
	// MaxAspect bounds Cols/Rows: when the births spread far wider than
	// the persistences, FitGrid extends the persistence range upwards
	// rather than produce thousands of columns of tiny pixels.
	MaxAspect = 4
	// MaxPixels bounds Rows·Cols of a valid grid, so a grid read from
	// JSON cannot demand an absurd allocation.
	MaxPixels = 1 << 22
)

// Transform maps a diagram point to the (birth, persistence) plane.
func Transform(p persistence.Point) (x, y float64) {
	return p.Birth, math.Abs(p.Death - p.Birth)
}

// finite reports whether a point lies in the plane, not at infinity.
func finite(p persistence.Point) bool {
	x, y := Transform(p)
	return !math.IsInf(x, 0) && !math.IsNaN(x) && !math.IsInf(y, 0) && !math.IsNaN(y)
}

// FitGrid returns the grid with rows rows that covers every finite point
// of every diagram, transformed, with a margin of PadTaus·tau on each side
// (so the grid may reach below persistence 0). Pixels are square: their
// side is the padded persistence extent over rows, and Cols is the padded
// birth extent over that side, rounded up, with the birth range centred.
// Fitting one grid to a whole dataset's diagrams makes all their images
// comparable pixel by pixel.
//
// Degenerate inputs (one point, identical points, no spread along an axis)
// still give a valid grid, since the margin alone spans 2·PadTaus·tau.
// Infinite points are ignored; it is an error if no finite point is left.
func FitGrid(diagrams [][]persistence.Point, rows int, tau float64) (Grid, error) {
	if rows <= 0 {
		return Grid{}, fmt.Errorf("persistence image: %d rows, want at least 1", rows)
	}
	if !(tau > 0) || math.IsInf(tau, 1) {
		return Grid{}, fmt.Errorf("persistence image: tau %v, want a positive number", tau)
	}
	minX, maxX := math.Inf(1), math.Inf(-1)
	minY, maxY := math.Inf(1), math.Inf(-1)
	for _, d := range diagrams {
		for _, p := range d {
			if !finite(p) {
				continue
			}
			x, y := Transform(p)
			minX, maxX = math.Min(minX, x), math.Max(maxX, x)
			minY, maxY = math.Min(minY, y), math.Max(maxY, y)
		}
	}
	if minX > maxX {
		return Grid{}, errors.New("persistence image: no finite diagram point to fit a grid to")
	}
	pad := PadTaus * tau
	width := maxX - minX + 2*pad
	height := math.Max(maxY-minY+2*pad, width/MaxAspect)
	g := Grid{MinY: minY - pad, Pixel: height / float64(rows), Rows: rows}
	// The tolerance keeps an exact fit from gaining a column to rounding.
	g.Cols = max(1, int(math.Ceil(width/g.Pixel*(1-1e-12))))
	g.MinX = minX - pad - (float64(g.Cols)*g.Pixel-width)/2
	if err := g.Validate(); err != nil {
		return Grid{}, err
	}
	return g, nil
}

// Validate reports whether the grid can hold an image: a positive finite
// pixel side, finite corner, and 1..MaxPixels pixels.
func (g Grid) Validate() error {
	switch {
	case !(g.Pixel > 0) || math.IsInf(g.Pixel, 1):
		return fmt.Errorf("persistence image grid: pixel side %v", g.Pixel)
	case math.IsInf(g.MinX, 0) || math.IsNaN(g.MinX) || math.IsInf(g.MinY, 0) || math.IsNaN(g.MinY):
		return fmt.Errorf("persistence image grid: corner (%v, %v)", g.MinX, g.MinY)
	case g.Rows <= 0 || g.Cols <= 0 || g.Rows > MaxPixels/g.Cols:
		return fmt.Errorf("persistence image grid: %d×%d pixels, want 1..%d", g.Rows, g.Cols, MaxPixels)
	}
	return nil
}

// Centers returns the centre of every pixel in the (birth, persistence)
// plane, in the images' row-major layout.
func (g Grid) Centers() [][2]float64 {
	cs := make([][2]float64, 0, g.Rows*g.Cols)
	for r := range g.Rows {
		for c := range g.Cols {
			cs = append(cs, [2]float64{
				g.MinX + (float64(c)+0.5)*g.Pixel,
				g.MinY + (float64(r)+0.5)*g.Pixel,
			})
		}
	}
	return cs
}
