package eval_test

import (
	"context"
	"fmt"

	"wkpi-web/core/eval"
	"wkpi-web/core/features"
	"wkpi-web/core/filtration"
	"wkpi-web/core/tu"
)

// Cross-validate WKPI on a TU dataset: features once, then 10 folds that
// share one pass over the pairs of images.
func ExampleWKPI_CrossValidate() {
	ds, err := tu.Read("data/MUTAG")
	if err != nil {
		fmt.Println(err)
		return
	}
	set, err := features.Compute(context.Background(), ds, features.Default(filtration.KindRicci), nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	w, err := eval.NewWKPI(set, ds.Labels, len(ds.Classes))
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := w.CrossValidate(context.Background(), eval.DefaultConfig(), eval.Plan{Folds: 10, Seed: 1}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("learned %.3f ± %.3f, unlearned %.3f ± %.3f\n",
		rep.Learned.Accuracy, rep.Learned.Std, rep.Baseline.Accuracy, rep.Baseline.Std)
}
