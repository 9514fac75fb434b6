package main

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"wkpi-web/core/eval"
	"wkpi-web/core/learn"
)

// setInput types text into a number field as a user would (input event).
func setInput(id, text string) chromedp.Action[chromedp.Void] {
	return until(fmt.Sprintf(`(() => { const e = document.querySelector("#%s"); e.value = %q;
		return e.dispatchEvent(new Event("input", {bubbles: true})); })()`, id, text))
}

// checkTrainForm: the Train form refuses what the worker would replace
// silently, and its presets set what they say (issue 10, point 1; issue 8).
func checkTrainForm(t *testing.T, ctx context.Context) {
	// Point 1: the form refuses what the worker would replace silently.
	d := eval.DefaultConfig()
	step(t, ctx, "Train form: 0, -1 and empty are refused next to the field; reset restores the defaults",
		chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.WaitEnabled(chromedp.CSS("#train-run")),
		setInput("train-sigma", "0"),
		textContains("#train-sigma-error", "more than 0"),
		until(`document.querySelector("#train-run").disabled && document.querySelector("#train-sigma").getAttribute("aria-invalid") === "true"`),
		setInput("train-sigma", "-1"),
		textContains("#train-sigma-error", "more than 0"),
		setInput("train-m", ""),
		textContains("#train-m-error", "Enter a number"),
		// C is chosen in every fold by default; fixing the SVM shows its field.
		until(`!document.querySelector("#train-C") && document.querySelector("#train-svm").value === "auto"`),
		until(`(() => { const s = document.querySelector("#train-svm"); s.value = "wkpi";
			return s.dispatchEvent(new Event("change", {bubbles: true})); })()`),
		chromedp.WaitVisible(chromedp.CSS("#train-C")),
		setInput("train-C", "0"),
		textContains("#train-C-error", "more than 0"),
		setInput("train-folds", "1000"),
		textContains("#train-folds-error", "At most 188"),
		textContains("#train-invalid", "Correct the fields"),
	)
	checkAxe(t, ctx, "the Train form with errors")
	step(t, ctx, "Train form: the paper's settings, then the defaults again",
		chromedp.Click(chromedp.CSS("#train-paper")),
		until(fmt.Sprintf(`document.querySelector("#train-prior").value === "0" && document.querySelector("#train-contrast").value === "0" &&
			document.querySelector("#train-protocol").value === "nested" && document.querySelector("#train-inner").value === "10" &&
			document.querySelector("#train-iterations").value === "%d" && !document.querySelector("#train-sigma") &&
			document.querySelector("#train-extra").value === "none" && document.querySelector("#train-images").value === "unit"`, learn.DefaultOptions().MaxIter)),
		chromedp.Click(chromedp.CSS("#train-reset")),
		until(`document.querySelector("#train-svm").value === "auto" && !document.querySelector("#train-C")`),
		until(fmt.Sprintf(`document.querySelector("#train-sigma").value === %q && document.querySelector("#train-m").value === "%d" &&
			document.querySelector("#train-prior").value === %q && !document.querySelector("#train-invalid") && !document.querySelector("#train-run").disabled`,
			strconv.FormatFloat(d.Sigma, 'g', -1, 64), d.Learn.M, strconv.FormatFloat(d.Learn.Prior, 'g', -1, 64))),
		until(`[...document.querySelectorAll("#train-descriptor option")].some(o => o.textContent === "Ollivier-Ricci curvature")`),
	)
	step(t, ctx, "Train form (issue 8): the size-aware preset sets raw images and sigma 1 with the default descriptor set; reset clears them",
		until(`document.querySelector("#train-extra").value === "default" && document.querySelector("#train-images").value === "auto" &&
			document.querySelector("#train-objective").value === "tc" && document.querySelector("#train-scales").value === "off"`),
		chromedp.Click(chromedp.CSS("#train-size")),
		until(`document.querySelector("#train-extra").value === "default" && document.querySelector("#train-images").value === "raw" &&
			document.querySelector("#train-sigma").value === "1"`),
		chromedp.Click(chromedp.CSS("#train-reset")),
		until(`document.querySelector("#train-extra").value === "default" && document.querySelector("#train-images").value === "auto"`),
	)
	// The descriptor menu is wide enough for its longest entry.
	if w := value[[]float64](t, ctx, `(() => { const s = document.querySelector("#train-descriptor"), c = document.createElement("canvas").getContext("2d");
		c.font = getComputedStyle(s).font; return [s.clientWidth, c.measureText("Ollivier-Ricci curvature").width]; })()`); w[0] < w[1]+20 {
		t.Errorf("descriptor menu %.0f px wide for a %.0f px label", w[0], w[1])
	}

}
