package app

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// AtomMark is where RDKit drew one atom, in the drawing's coordinates:
// the centre and radius of its highlight.
type AtomMark struct {
	Atom    int
	X, Y, R float64
}

// atomRings lays focusable rings over RDKit's drawing of a molecule (in
// a view box of its width and height), one per mark, so that pointer and
// keyboard can point at an atom, which RDKit's SVG text cannot take
// handlers for: the ring of atom linked is drawn, and so is the one with
// focus. name names an atom for screen readers; link(i) handles the
// pointer or focus coming to atom i, link(-1) its leaving.
func atomRings(marks []AtomMark, width, height, linked int, name func(int) string, link func(int) app.EventHandler) app.UI {
	return svg("svg").Class("atom-marks").Attr("viewBox", fmt.Sprintf("0 0 %d %d", width, height)).
		Attr("role", "group").Aria("label", "The atoms of the drawing, in the order of their numbers").Body(
		app.Range(marks).Slice(func(i int) app.UI {
			a := marks[i]
			class := "atom-mark"
			if a.Atom == linked {
				class += " linked"
			}
			return svg("circle").Class(class).DataSet("atom", a.Atom).
				Attr("cx", num(a.X)).Attr("cy", num(a.Y)).Attr("r", num(a.R)).
				Attr("tabindex", "0").Attr("role", "img").Aria("label", name(a.Atom)).
				On("mouseenter", link(a.Atom)).On("focus", link(a.Atom)).
				On("mouseleave", link(-1)).On("blur", link(-1))
		}),
	)
}

// rdkitAtom matches the highlight RDKit draws under atom i of a drawing
// with highlights: <ellipse cx='..' cy='..' rx='..' ry='..' class='atom-i'.
var rdkitAtom = regexp.MustCompile(`<ellipse cx='([-0-9.]+)' cy='([-0-9.]+)' rx='([-0-9.]+)' ry='([-0-9.]+)' class='atom-(\d+)'`)

// atomPlaces reads where RDKit drew each highlighted atom, in order of
// the atoms; the radius is the larger of the ellipse's.
func atomPlaces(svg string) []AtomMark {
	var out []AtomMark
	for _, m := range rdkitAtom.FindAllStringSubmatch(svg, -1) {
		var f [4]float64
		ok := true
		for k := range f {
			v, err := strconv.ParseFloat(m[k+1], 64)
			f[k], ok = v, ok && err == nil
		}
		atom, err := strconv.Atoi(m[5])
		if !ok || err != nil {
			continue
		}
		out = append(out, AtomMark{Atom: atom, X: f[0], Y: f[1], R: max(f[2], f[3])})
	}
	slices.SortStableFunc(out, func(a, b AtomMark) int { return cmp.Compare(a.Atom, b.Atom) })
	return out
}
