package app

import "testing"

func TestNeighbourTab(t *testing.T) {
	first, last := tabs[0][0], tabs[len(tabs)-1][0]
	tests := []struct {
		from, key, want string
		ok              bool
	}{
		{first, "ArrowRight", tabs[1][0], true},
		{first, "ArrowLeft", last, true}, // wraps around
		{last, "ArrowRight", first, true},
		{tabs[2][0], "Home", first, true},
		{tabs[2][0], "End", last, true},
		{first, "a", "", false},
	}
	for _, tt := range tests {
		got, ok := neighbourTab(tt.from, tt.key)
		if got != tt.want || ok != tt.ok {
			t.Errorf("neighbourTab(%q, %q) = %q, %v; want %q, %v", tt.from, tt.key, got, ok, tt.want, tt.ok)
		}
	}
}
