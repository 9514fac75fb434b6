package app

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// box is a rectangle of a plot, in its view box's units.
type box struct{ x0, y0, x1, y1 float64 }

func (b box) overlaps(o box) bool {
	return b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1
}

func (b box) inside(o box) bool {
	return b.x0 >= o.x0 && b.x1 <= o.x1 && b.y0 >= o.y0 && b.y1 <= o.y1
}

// tag is a label to put beside a mark of radius r at (x, y).
type tag struct {
	x, y, r float64
	text    string
}

// placed is a tag's text with its baseline's start; ok is false for a
// tag that found no place.
type placed struct {
	x, y float64
	text string
	ok   bool
}

// Text metrics in ems, generous for the system fonts' bold digits: a
// label is laid out from its estimated box, which must hold the real one.
const (
	emWidth   = 0.66 // per character
	emAscent  = 1.0
	emDescent = 0.3
)

// textBox is the box of text of font size size whose baseline starts at
// (x, y).
func textBox(x, y, size float64, text string) box {
	w := emWidth * size * float64(len([]rune(text)))
	return box{x, y - emAscent*size, x + w, y + emDescent*size}
}

// placeTags puts each tag's text beside its mark, inside bounds, where it
// covers no earlier tag's text and, if it can, no mark: the nearest free
// place of eight directions at growing distances. Tags come first in
// the order given; a tag that finds no free place is left out rather than
// drawn over another (legible or not shown), and counted in the second
// result. The places are in the order of tags.
func placeTags(tags []tag, size float64, bounds box) ([]placed, int) {
	marks := make([]box, len(tags))
	for i, t := range tags {
		marks[i] = box{t.x - t.r, t.y - t.r, t.x + t.r, t.y + t.r}
	}
	dirs := [][2]float64{{1, -1}, {1, 1}, {-1, -1}, {-1, 1}, {1, 0}, {-1, 0}, {0, -1}, {0, 1}}
	out := make([]placed, len(tags))
	var taken []box
	left := 0
	for k, t := range tags {
		w := emWidth * size * float64(len([]rune(t.text)))
		h := (emAscent + emDescent) * size
		found, clear := false, false
		var best placed
		for _, gap := range []float64{0.3, 1, 2.5, 4.5, 7, 10} {
			for _, d := range dirs {
				// The box's centre, so that its near side is gap from the mark.
				cx := t.x + d[0]*(t.r+gap+w/2)
				cy := t.y + d[1]*(t.r+gap+h/2)
				p := placed{cx - w/2, cy + h/2 - emDescent*size, t.text, true}
				b := textBox(p.x, p.y, size, p.text)
				if !b.inside(bounds) || overlapsAny(b, taken) {
					continue
				}
				if !overlapsAny(b, marks) {
					best, found, clear = p, true, true
					break
				}
				if !found {
					best, found = p, true
				}
			}
			// A place near the mark over another mark beats one far away.
			if clear || (found && gap >= 2.5) {
				break
			}
		}
		if !found {
			left++
			continue
		}
		out[k] = best
		taken = append(taken, textBox(best.x, best.y, size, best.text))
	}
	return out, left
}

func overlapsAny(b box, others []box) bool {
	for _, o := range others {
		if b.overlaps(o) {
			return true
		}
	}
	return false
}

// tagText draws a placed label of font size size (an inline style, which
// the stylesheet cannot make larger than placeTags assumed).
func tagText(p placed, class string, size float64) app.HTMLElem {
	return svg("text").Class(class).Attr("x", num(p.x)).Attr("y", num(p.y)).
		Style("font-size", num(size)+"px").Text(p.text)
}
