package protocol

import (
	"bytes"
	"encoding/json"
)

// Evaluation mirrors model.Evaluation: the cross-validation of the
// settings that trained a model, as its file keeps it.
type Evaluation struct {
	Folds    int     `json:"folds"`
	Accuracy float64 `json:"accuracy"` // mean over the folds, learned kernel
	Std      float64 `json:"std"`
}

// WithEvaluation returns a model file (a worker's Train output, which
// has neither field) with its name and evaluation added as the last
// fields of its JSON object. The page adds them once the run's
// cross-validation ends, after the model, without a worker decoding and
// encoding the whole file again; model.Load reads them as model.Model's
// Name and Evaluation. Data that is not a JSON object comes back as it
// is (a worker's Inspect refuses it anyway).
func WithEvaluation(model []byte, name string, e Evaluation) []byte {
	end := bytes.LastIndexByte(model, '}')
	if end < 0 || len(bytes.TrimSpace(model)) == 0 || bytes.TrimSpace(model)[0] != '{' {
		return model
	}
	fields, err := json.Marshal(struct {
		Name       string     `json:"name,omitempty"`
		Evaluation Evaluation `json:"evaluation"`
	}{name, e})
	if err != nil {
		return model
	}
	out := make([]byte, 0, len(model)+len(fields))
	out = append(out, model[:end]...)
	if !bytes.HasSuffix(bytes.TrimSpace(model[:end]), []byte("{")) {
		out = append(out, ',')
	}
	out = append(out, fields[1:]...) // without its own '{'
	return append(out, model[end+1:]...)
}
