package app

import (
	"fmt"
	"html"
	"sort"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// busy describes the jobs under way, e.g. "Working in the background:
// cross-validating (2 parts), training the final model."
func (r *Root) busy() string {
	var parts []string
	for kind, n := range r.kinds {
		w := kind.Words()
		if n > 1 {
			w += fmt.Sprintf(" (%d parts)", n)
		}
		parts = append(parts, w)
	}
	sort.Strings(parts)
	if len(parts) == 0 {
		return "Working in the background…"
	}
	return "Working in the background: " + strings.Join(parts, ", ") + "."
}

// scroller is a box that scrolls sideways when its content (a table) is
// wider than a small screen; it takes the keyboard focus, so that keys
// can scroll it too.
func scroller(label string) app.HTMLDiv {
	return app.Div().Class("scroll").TabIndex(0).Attr("role", "region").Aria("label", label)
}

// staticTabs writes the tab bar as HTML for the prerendered page, with
// tab current selected.
func staticTabs(current string) string {
	var b strings.Builder
	b.WriteString(`<nav aria-label="Sections"><div class="tabs" role="tablist" aria-label="Sections">`)
	for _, t := range tabs {
		selected, index := "false", "-1"
		if t[0] == current {
			selected, index = "true", "0"
		}
		fmt.Fprintf(&b, `<button id="tab-%s" class="tab" role="tab" aria-selected="%s" aria-controls="panel" tabindex="%s">%s</button>`,
			t[0], selected, index, html.EscapeString(t[1]))
	}
	b.WriteString(`</div></nav>`)
	return b.String()
}
