package main

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
)

// checkStackedSpots: diagram points on one spot are drawn once with
// their count.
func checkStackedSpots(t *testing.T, ctx context.Context) {
	// MUTAG graph 0's Rel1 has 5 points on 3 spots.
	step(t, ctx, "Explore: points on one spot show how many they are",
		chromedp.Click(chromedp.CSS("#tab-explore")),
		until(`(() => { const s = document.querySelector("#descriptor"); s.value = "ricci";
			return s.dispatchEvent(new Event("change", {bubbles: true})); })()`),
		textContains("#panel", "Graph 0 coloured by ricci"),
		textContains("#diagram .legend", "Rel1 (5)"),
	)
	spots := value[[]int](t, ctx, `[...document.querySelectorAll("#diagram .rel1 .spot")].map(g => Number(g.dataset.count))`)
	sum, shown := 0, value[int](t, ctx, `[...document.querySelectorAll("#diagram .rel1 text.count")].length`)
	stacked := 0
	for _, n := range spots {
		sum += n
		if n > 1 {
			stacked++
		}
	}
	if sum != 5 || stacked == 0 || shown != stacked {
		t.Errorf("Rel1 spots %v (%d count labels): want 5 points with the stacked ones labelled", spots, shown)
	}

}
