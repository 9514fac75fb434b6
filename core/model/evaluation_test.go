package model

import (
	"bytes"
	"strings"
	"testing"
)

// TestEvaluationRoundTrip: a model's name and evaluation are saved and
// loaded back as they were; a file without them (as wkpi train and
// earlier builds write) loads with none.
func TestEvaluationRoundTrip(t *testing.T) {
	m := small()
	m.Name, m.Evaluation = "chembl (2)", &Evaluation{Folds: 10, Accuracy: 0.8125, Std: 0.0625}
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"name":"chembl (2)"`, `"evaluation":{"folds":10,"accuracy":0.8125,"std":0.0625}`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the file lacks %s", want)
		}
	}
	got, err := Load(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "chembl (2)" || got.Evaluation == nil || *got.Evaluation != (Evaluation{Folds: 10, Accuracy: 0.8125, Std: 0.0625}) {
		t.Errorf("loaded name %q, evaluation %+v", got.Name, got.Evaluation)
	}
	old := encode(t, small())
	if strings.Contains(old, "evaluation") || strings.Contains(old, `"name"`) {
		t.Fatalf("a model without them writes %s", old)
	}
	got, err = Load(strings.NewReader(old))
	if err != nil || got.Name != "" || got.Evaluation != nil {
		t.Errorf("an old file: name %q, evaluation %+v, %v", got.Name, got.Evaluation, err)
	}
}

func TestEvaluationRejects(t *testing.T) {
	for _, tt := range []struct {
		e    Evaluation
		want string
	}{
		{Evaluation{Folds: 1, Accuracy: 0.5}, "over 1 folds"},
		{Evaluation{Folds: 10, Accuracy: 1.5}, "accuracy 1.5"},
		{Evaluation{Folds: 10, Accuracy: -0.1}, "accuracy -0.1"},
		{Evaluation{Folds: 10, Accuracy: 0.5, Std: -1}, "standard deviation -1"},
	} {
		m := small()
		m.Evaluation = &tt.e
		_, err := Load(strings.NewReader(encode(t, m)))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %v, want one containing %q", tt.e, err, tt.want)
		}
	}
	nan := strings.Replace(encode(t, small()), "{", `{"evaluation":{"folds":10,"accuracy":0.5,"std":1e999},`, 1)
	if _, err := Load(strings.NewReader(nan)); err == nil {
		t.Error("an overflowing standard deviation loads")
	}
}
