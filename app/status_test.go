package app

import (
	"strings"
	"testing"

	"wkpi-web/wasm/protocol"
)

func TestStatusWords(t *testing.T) {
	for _, c := range []struct {
		kinds map[protocol.Kind]int
		want  string
	}{
		{map[protocol.Kind]int{protocol.CrossValidate: 2, protocol.Load: 1}, "Working in the background: cross-validating (2 parts), reading the dataset."},
		// Once shown as "computing".
		{map[protocol.Kind]int{protocol.Explain: 1, protocol.InspectData: 1}, "Working in the background: explaining a prediction, reading the columns of a file."},
		{map[protocol.Kind]int{}, "Working in the background…"},
	} {
		r := &Root{kinds: c.kinds}
		if got := r.busy(); got != c.want {
			t.Errorf("busy: %q, want %q", got, c.want)
		}
	}
	html := staticTabs("train")
	if strings.Count(html, `aria-selected="true"`) != 1 || !strings.Contains(html, `id="tab-train" class="tab" role="tab" aria-selected="true"`) {
		t.Errorf("static tabs: %s", html)
	}
}
