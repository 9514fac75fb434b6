package app

import (
	"strings"
	"testing"

	"wkpi-web/wasm/protocol"
)

func TestStatusWords(t *testing.T) {
	r := &Root{jobs: 3, kinds: map[protocol.Kind]int{protocol.CrossValidate: 2, protocol.Load: 1}}
	if got := r.busy(); got != "Working in the background: cross-validating (2 parts), reading the dataset." {
		t.Errorf("busy: %q", got)
	}
	html := staticTabs("train")
	if strings.Count(html, `aria-selected="true"`) != 1 || !strings.Contains(html, `id="tab-train" class="tab" role="tab" aria-selected="true"`) {
		t.Errorf("static tabs: %s", html)
	}
}
