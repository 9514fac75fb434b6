package main

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"wkpi-web/core/spec"
)

// setInput types text into a field as a user would (input event).
func setInput(id, text string) chromedp.Action[chromedp.Void] {
	return until(fmt.Sprintf(`(() => { const e = document.querySelector("#%s"); e.value = %q;
		return e.dispatchEvent(new Event("input", {bubbles: true})); })()`, id, text))
}

// choose picks value in menu id as a user would (change event).
func choose(id, value string) chromedp.Action[chromedp.Void] {
	return until(fmt.Sprintf(`(() => { const s = document.querySelector("#%s"); s.value = %q;
		return s.dispatchEvent(new Event("change", {bubbles: true})); })()`, id, value))
}

// formFits is JavaScript that lists every control of the Train form
// whose label or chosen menu entry is cut off.
const formFits = `(() => {
	const c = document.createElement("canvas").getContext("2d"), cut = [];
	for (const s of document.querySelectorAll("#train-form select")) {
		c.font = getComputedStyle(s).font;
		const text = s.options[s.selectedIndex].textContent;
		if (s.clientWidth < c.measureText(text).width + 20) cut.push(s.id + ": " + text);
	}
	for (const l of document.querySelectorAll("#train-form label, #train-form legend, #train-form summary")) {
		if (l.scrollWidth > l.clientWidth + 1) cut.push("label " + l.textContent);
	}
	return cut;
})()`

// checkTrainForm: the Train form shows the common settings and every other
// one under Advanced; it refuses bad values next to their field with the
// settings spec's words; the presets set what they say; every label and
// chosen menu entry is readable at 1280 and 390 px.
func checkTrainForm(t *testing.T, ctx context.Context) {
	d := spec.Defaults()
	step(t, ctx, "Train form: bad values are refused next to their field; reset restores the defaults",
		chromedp.Click(chromedp.CSS("#tab-train")),
		chromedp.WaitEnabled(chromedp.CSS("#train-run")),
		until(`!document.querySelector("#train-advanced").open`),
		chromedp.Click(chromedp.CSS("#train-advanced summary")),
		until(`document.querySelector("#train-advanced").open && document.querySelectorAll("#train-advanced fieldset").length === 6`),
		setInput("train-sigma", "0"),
		textContains("#train-sigma-error", "Enter a number > 0."),
		until(`document.querySelector("#train-run").disabled && document.querySelector("#train-sigma").getAttribute("aria-invalid") === "true"`),
		setInput("train-sigma", "-1"),
		textContains("#train-sigma-error", "> 0"),
		setInput("train-m", ""),
		textContains("#train-m-error", "whole number from 1 to 100"),
		until(`document.querySelector("#train-svm-choice").value === "on"`),
		choose("train-svm-choice", "off"),
		setInput("train-C", "0"),
		textContains("#train-C-error", "> 0"),
		setInput("train-folds", "1000"),
		textContains("#train-folds-error", "whole number from 2 to 100"),
		textContains("#train-invalid", "Correct the fields"),
	)
	checkAxe(t, ctx, "the Train form with errors")
	step(t, ctx, "Train form: the paper's settings, then the defaults again",
		chromedp.Click(chromedp.CSS("#train-paper")),
		until(`document.querySelector("#train-prior").value === "0" && document.querySelector("#train-contrast").value === "0" &&
			document.querySelector("#train-grid").value === "paper" && document.querySelector("#train-inner").value === "10" &&
			document.querySelector("#train-extra").value === "none" && document.querySelector("#train-auto").value === "off" &&
			document.querySelector("#train-svm-choice").value === "off" && document.querySelector("#train-keep-zero").value === "on" &&
			!document.querySelector("#train-invalid")`),
		chromedp.Click(chromedp.CSS("#train-reset")),
		until(fmt.Sprintf(`document.querySelector("#train-svm-choice").value === "on" && document.querySelector("#train-sigma").value === %q &&
			document.querySelector("#train-m").value === "%d" && document.querySelector("#train-prior").value === %q &&
			document.querySelector("#train-iter").value === "%d" && !document.querySelector("#train-invalid") && !document.querySelector("#train-run").disabled`,
			strconv.FormatFloat(d.Sigma, 'g', -1, 64), d.M, strconv.FormatFloat(d.Prior, 'g', -1, 64), d.Iterations)),
		until(`[...document.querySelectorAll("#train-filtration option")].some(o => o.textContent === "Ollivier-Ricci curvature")`),
	)
	step(t, ctx, "Train form: the size-aware preset sets unnormalised images and sigma 1 with the default descriptor set; reset clears them",
		// Reset puts the data's default: the molecules preset for MUTAG,
		// unit images without the automatic choice.
		until(fmt.Sprintf(`document.querySelector("#train-extra").value === %q && document.querySelector("#train-mode").dataset.mode === "molecules"`, spec.MoleculesExtra)),
		until(`document.querySelector("#train-raw").value === "off" &&
			document.querySelector("#train-auto").value === "off" && document.querySelector("#train-objective").value === "tc" &&
			document.querySelector("#train-channel-scales").value === "off"`),
		chromedp.Click(chromedp.CSS("#train-size")),
		until(`document.querySelector("#train-extra").value === "default" && document.querySelector("#train-raw").value === "on" &&
			document.querySelector("#train-sigma").value === "1"`),
		chromedp.Click(chromedp.CSS("#train-reset")),
		until(`document.querySelector("#train-raw").value === "off" && document.querySelector("#train-auto").value === "off"`),
	)
	for _, width := range []int64{1280, 390} {
		step(t, ctx, fmt.Sprintf("Train form at %d px", width), chromedp.EmulateViewport(width, 900), chromedp.Sleep(200e6))
		if cut := value[[]string](t, ctx, formFits); len(cut) > 0 {
			t.Errorf("%d px: cut off: %q", width, cut)
		}
	}
	step(t, ctx, "Train form: Advanced closed again",
		chromedp.EmulateViewport(1280, 900),
		chromedp.Click(chromedp.CSS("#train-advanced summary")),
		until(`!document.querySelector("#train-advanced").open`),
	)
}
