package app

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"

	"wkpi-web/wasm/protocol"
)

// classifyState is the Classify tab's: the typed SMILES, and the
// predictions of the last input by the current model
// (modelsState.current).
type classifyState struct {
	running bool // reading the files or classifying
	job     slot // the running classification
	err     string
	smiles  string           // the text area's content
	graphs  []protocol.Graph // predictions of the last input
	inputs  []protocol.File  // the input they are of, for explaining them
	csvURL  string           // of graphs as CSV, for download
	chosen  int              // the graph shown
	explain explainState     // the Explain view of a graph
	// fromLink says the SMILES came with a link (#classify?smiles=...)
	// and are classified by whichever model is current once the models
	// are restored or loaded; linked is the model they were last sent to.
	fromLink bool
	linked   *trained
}

func (r *Root) classifyTab() app.UI {
	cl := &r.classify
	t := &ClassifyTab{
		Running: cl.running, Error: cl.err, SMILES: cl.smiles, Graphs: cl.graphs, Chosen: cl.chosen, CSV: cl.csvURL,
		Waiting:     r.waitingFor(),
		Explanation: r.explainView(),
		OnSMILES: func(s string) {
			r.act(func(app.Context) { cl.smiles, cl.fromLink = s, false })
		},
		OnClassify: func() { r.act(func(ctx app.Context) { cl.fromLink = false; r.classifySMILES(ctx) }) },
		OnUpload: func(files app.Value) {
			r.act(func(ctx app.Context) { cl.fromLink = false; r.classifyFiles(ctx, files) })
		},
		OnChoose: func(i int) {
			r.act(func(ctx app.Context) {
				cl.chosen = i
				// An explanation drawn while another graph was shown has
				// no picture to download yet.
				if ex := &cl.explain; ex.result != nil && ex.graph == i && ex.svgURL == "" && !ex.depicting {
					ctx.Defer(r.keepPicture)
				}
			})
		},
		OnExplain: func() { r.act(r.explainChosen) },
	}
	if ex := &cl.explain; ex.graph == cl.chosen {
		t.Explaining, t.ExplainError = ex.job.busy(), ex.err
	}
	if m := r.models.current; m != nil {
		t.Model, t.Weight = m.info, m.after
	} else if t.Error == "" && len(r.siteModels()) > 0 {
		t.Error = r.models.err // why the site's model is missing
	}
	return t
}

// waitingFor says what Classify waits for before a model is current: the
// kept models (restoring), or the site's own; "" when it waits for
// nothing.
func (r *Root) waitingFor() string {
	switch {
	case r.models.current != nil:
		return ""
	case r.models.restoring:
		return loadingModels
	case r.siteWaiting():
		return "Loading this site's model…"
	}
	return ""
}

// linkSMILES reads the query of a #classify?smiles=... link: every
// smiles parameter (URL-encoded; a '+' is a plus, as SMILES charges
// need, not a space) gives lines of the text area, which are classified
// as soon as a model is current.
func (r *Root) linkSMILES(ctx app.Context, query string) {
	var lines []string
	for _, kv := range strings.Split(query, "&") {
		k, v, _ := strings.Cut(kv, "=")
		if k != "smiles" {
			continue
		}
		s, err := url.PathUnescape(v)
		if err != nil {
			s = v
		}
		if s = strings.TrimSpace(s); s != "" {
			lines = append(lines, s)
		}
	}
	if len(lines) == 0 {
		return
	}
	cl := &r.classify
	cl.smiles, cl.fromLink, cl.linked = strings.Join(lines, "\n"), true, nil
	r.classifyLinked(ctx)
}

// classifyLinked classifies the SMILES of a link with the current model,
// once per model: restoring the kept models may make another one
// current after the first.
func (r *Root) classifyLinked(ctx app.Context) {
	cl := &r.classify
	m := r.models.current
	if !cl.fromLink || m == nil || cl.linked == m || r.Backend == nil {
		return
	}
	cl.linked = m
	r.classifySMILES(ctx)
}

// classifySMILES has a worker classify the text area's SMILES with the
// current model, as a .smi file (protocol.TypedSMILES).
func (r *Root) classifySMILES(ctx app.Context) {
	cl := &r.classify
	if strings.TrimSpace(cl.smiles) == "" {
		cl.err = "Type or paste a SMILES first, e.g. c1ccc(cc1)[N+](=O)[O-] nitrobenzene."
		return
	}
	r.classifyInputs(ctx, []protocol.File{{Name: protocol.TypedSMILES, Data: []byte(cl.smiles)}})
}

// classifyFiles has a worker classify the graphs of files (a JS array of
// File) with the current model.
func (r *Root) classifyFiles(ctx app.Context, files app.Value) {
	if r.models.current == nil {
		return
	}
	cl := &r.classify
	cl.running, cl.err = true, ""
	r.Backend.ReadFiles(files, func(fs []protocol.File, err error) {
		ctx.Dispatch(func(ctx app.Context) {
			if err != nil {
				cl.running, cl.err = false, fmt.Sprintf("Could not read the files: %v", err)
				return
			}
			r.classifyInputs(ctx, fs)
		})
	})
}

// classifyInputs has a worker classify inputs with the current model; a
// classification still running is canceled.
func (r *Root) classifyInputs(ctx app.Context, inputs []protocol.File) {
	model := r.models.current
	cl := &r.classify
	if model == nil {
		cl.running = false
		return
	}
	cl.job.drop(r.Backend)
	cl.running, cl.err = true, ""
	r.run(ctx, &cl.job, protocol.Request{Kind: protocol.Predict, Model: model.data, Inputs: inputs}, jobCalls{
		Done: func(ctx app.Context, resp protocol.Response) {
			cl.running = false
			if r.models.current != model {
				// Another model became current meanwhile (loaded,
				// chosen or trained): the click is answered with it.
				r.classifyInputs(ctx, inputs)
				return
			}
			r.forgetExplanation()
			cl.graphs, cl.inputs, cl.chosen = resp.Graphs, inputs, 0
			if cl.csvURL != "" {
				r.Backend.RevokeURL(cl.csvURL)
			}
			cl.csvURL = r.Backend.ObjectURL(predictionsCSV(resp.Graphs), "text/csv")
		},
		Fail: func(ctx app.Context, err error) {
			cl.running = false
			cl.err = "Could not classify: " + err.Error()
			if len(cl.graphs) > 0 {
				cl.err += "\nThe earlier predictions below still stand."
			}
		},
	})
}
