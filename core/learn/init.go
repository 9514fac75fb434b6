package learn

import (
	"fmt"
	"math"
	"math/rand/v2"

	"wkpi-web/core/kernel"
)

// Initialisation methods for the mixture centres.
const (
	InitKCenter = "kcenter" // Gonzalez farthest-first traversal of the diagram points
	InitKMeans  = "kmeans"  // Lloyd's k-means with k-means++ seeding on the diagram points
	InitRandom  = "random"  // uniform over the image domain
)

// kmeansIterations bounds Lloyd's iterations; they stop earlier when no
// assignment changes.
const kmeansIterations = 100

// InitMixture returns the starting weight function: o.M centres chosen by
// o.Init among the training diagram points (or in domain =
// {minx, miny, maxx, maxy} for "random"), every W_r = 1 and every Sigma_r
// equal to the mean distance from a centre to its nearest other centre
// (so neighbouring Gaussians overlap), or half the domain diagonal when
// that is 0 (m = 1, or coincident centres). Deterministic for o.Seed.
func InitMixture(points [][2]float64, domain [4]float64, o Options) (kernel.Mixture, error) {
	if o.M < 1 {
		return kernel.Mixture{}, fmt.Errorf("learn: %d mixture components", o.M)
	}
	for _, v := range domain {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return kernel.Mixture{}, fmt.Errorf("learn: domain %v is not finite", domain)
		}
	}
	if domain[2] < domain[0] || domain[3] < domain[1] {
		return kernel.Mixture{}, fmt.Errorf("learn: empty domain %v", domain)
	}
	rng := rand.New(rand.NewPCG(uint64(o.Seed), 0x9e3779b97f4a7c15))
	var centres [][2]float64
	switch o.Init {
	case InitRandom:
		for r := 0; r < o.M; r++ {
			centres = append(centres, [2]float64{
				domain[0] + rng.Float64()*(domain[2]-domain[0]),
				domain[1] + rng.Float64()*(domain[3]-domain[1]),
			})
		}
	case InitKMeans, InitKCenter, "":
		if len(points) == 0 {
			return kernel.Mixture{}, fmt.Errorf("learn: %q initialisation needs diagram points", o.Init)
		}
		for i, p := range points {
			if math.IsNaN(p[0]) || math.IsInf(p[0], 0) || math.IsNaN(p[1]) || math.IsInf(p[1], 0) {
				return kernel.Mixture{}, fmt.Errorf("learn: diagram point %d (%v) is not finite", i, p)
			}
		}
		if o.Init == InitKMeans {
			centres = kmeans(points, o.M, rng)
		} else {
			centres = kcenter(points, o.M, rng)
		}
	default:
		return kernel.Mixture{}, fmt.Errorf("learn: unknown initialisation %q", o.Init)
	}

	mix := kernel.Mixture{}
	for _, c := range centres {
		mix.X = append(mix.X, c[0])
		mix.Y = append(mix.Y, c[1])
		mix.W = append(mix.W, 1)
	}
	sigma := meanNearest(centres)
	if !(sigma > 0) {
		sigma = math.Hypot(domain[2]-domain[0], domain[3]-domain[1]) / 2
	}
	if !(sigma > 0) {
		sigma = 1 // a single-point domain: any positive width will do
	}
	for range centres {
		mix.Sigma = append(mix.Sigma, sigma)
	}
	return mix, nil
}

func dist2(a, b [2]float64) float64 {
	dx, dy := a[0]-b[0], a[1]-b[1]
	return dx*dx + dy*dy
}

// meanNearest returns the mean over centres of the distance to the nearest
// other centre (0 for fewer than two).
func meanNearest(c [][2]float64) float64 {
	if len(c) < 2 {
		return 0
	}
	var total float64
	for i := range c {
		best := math.Inf(1)
		for j := range c {
			if j != i {
				best = min(best, dist2(c[i], c[j]))
			}
		}
		total += math.Sqrt(best)
	}
	return total / float64(len(c))
}

// kcenter is Gonzalez's farthest-first traversal (a 2-approximation of the
// k-center problem), from a random first point. Hand-written: gonum has no
// clustering.
func kcenter(points [][2]float64, m int, rng *rand.Rand) [][2]float64 {
	centres := [][2]float64{points[rng.IntN(len(points))]}
	d := make([]float64, len(points))
	for i, p := range points {
		d[i] = dist2(p, centres[0])
	}
	for len(centres) < m {
		far := 0
		for i := range d {
			if d[i] > d[far] {
				far = i
			}
		}
		c := points[far]
		centres = append(centres, c)
		for i, p := range points {
			d[i] = min(d[i], dist2(p, c))
		}
	}
	return centres
}

// kmeans runs Lloyd's algorithm from k-means++ seeds (Arthur and
// Vassilvitskii 2007). Hand-written: gonum has no clustering. When there
// are fewer distinct points than m, seeds repeat points.
func kmeans(points [][2]float64, m int, rng *rand.Rand) [][2]float64 {
	centres := [][2]float64{points[rng.IntN(len(points))]}
	d := make([]float64, len(points))
	for i, p := range points {
		d[i] = dist2(p, centres[0])
	}
	for len(centres) < m {
		var total float64
		for _, v := range d {
			total += v
		}
		pick := rng.IntN(len(points))
		if total > 0 {
			u := rng.Float64() * total
			for i, v := range d {
				if u -= v; u < 0 {
					pick = i
					break
				}
			}
		}
		c := points[pick]
		centres = append(centres, c)
		for i, p := range points {
			d[i] = min(d[i], dist2(p, c))
		}
	}

	assign := make([]int, len(points))
	for i := range assign {
		assign[i] = -1
	}
	for it := 0; it < kmeansIterations; it++ {
		changed := false
		for i, p := range points {
			best := 0
			for r := range centres {
				if dist2(p, centres[r]) < dist2(p, centres[best]) {
					best = r
				}
			}
			if assign[i] != best {
				assign[i], changed = best, true
			}
		}
		if !changed {
			break
		}
		sums := make([][3]float64, m)
		for i, p := range points {
			s := &sums[assign[i]]
			s[0] += p[0]
			s[1] += p[1]
			s[2]++
		}
		for r, s := range sums {
			if s[2] > 0 { // an empty cluster keeps its centre
				centres[r] = [2]float64{s[0] / s[2], s[1] / s[2]}
			}
		}
	}
	return centres
}
