package filtration

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ParseList reads a comma-separated list of descriptors, as the CLI's
// -extra and the page's extra descriptors give them: kind names, with
// hks@t for the heat kernel signature at time t ("hks,hks@0.5,degree").
// Blank entries are skipped.
func ParseList(text string) ([]Options, error) {
	var out []Options
	for _, part := range strings.Split(text, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, at, timed := strings.Cut(part, "@")
		o := Options{Kind: Kind(name)}
		if !slices.Contains(Kinds(), o.Kind) {
			return nil, fmt.Errorf("unknown descriptor %q (want ricci, jaccard, degree, hks, hks@t or given)", name)
		}
		if timed {
			t, err := strconv.ParseFloat(at, 64)
			if o.Kind != KindHKS || err != nil || !(t > 0) || math.IsInf(t, 0) {
				return nil, fmt.Errorf("%q: only hks takes @t, with t a positive number", part)
			}
			o.HKSTime = t
		}
		out = append(out, o)
	}
	return out, nil
}

// FormatList writes descriptors as ParseList reads them.
func FormatList(list []Options) string {
	parts := make([]string, len(list))
	for i, o := range list {
		parts[i] = string(o.Kind)
		if o.HKSTime != 0 {
			parts[i] = fmt.Sprintf("%s@%g", o.Kind, o.HKSTime)
		}
	}
	return strings.Join(parts, ",")
}
