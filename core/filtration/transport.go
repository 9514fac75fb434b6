package filtration

import "math"

// massEps is the residual capacity below which an arc counts as saturated.
// Total mass is 1, so rounding leaves residues near 1e-16; treating them as
// mass would only add spurious augmentations.
const massEps = 1e-13

// arc is one residual arc; arcs come in pairs (2i forward, 2i+1 reverse),
// so an arc's partner is its index xor 1.
type arc struct {
	to   int
	cap  float64 // residual capacity
	cost int
}

// transport solves small transportation problems exactly. Its slices are
// reused from one problem to the next, so a caller that solves many (one
// per edge of a graph) allocates only while the supports grow.
type transport struct {
	arcs  []arc
	out   [][]int // arc indices leaving each node
	pot   []int   // node potentials: reduced costs stay >= 0
	dist  []int
	done  []bool
	queue [][]int // Dial's buckets: queue[d] holds nodes reached at distance d
	level []int
	next  []int // Dinic's current-arc pointer per node
	bfs   []int
}

// noPath is larger than any path cost.
const noPath = math.MaxInt32

// w1 returns min sum f_ij cost[i*len(b)+j] over nonnegative plans f with row
// sums a and column sums b (sum a = sum b), the Wasserstein-1 distance when
// cost holds ground distances. Costs must be small nonnegative integers:
// path lengths index the buckets of the shortest-path search.
func (w *transport) w1(a, b []float64, cost []int) float64 {
	k, l := len(a), len(b)
	n := k + l + 2
	s, t := 0, n-1
	w.reset(n)
	for i, m := range a {
		w.addArc(s, 1+i, m, 0)
	}
	for j, m := range b {
		w.addArc(1+k+j, t, m, 0)
	}
	first := len(w.arcs)
	for i := range k {
		for j := range l {
			w.addArc(1+i, 1+k+j, math.Inf(1), cost[i*l+j])
		}
	}
	for w.shortestPaths(s, t) {
		for w.levels(s, t) {
			for v := range w.next {
				w.next[v] = 0
			}
			for w.push(s, t, math.Inf(1)) > 0 {
			}
		}
	}
	total := 0.0
	for e := first; e < len(w.arcs); e += 2 {
		total += w.arcs[e^1].cap * float64(w.arcs[e].cost)
	}
	return total
}

func (w *transport) reset(n int) {
	w.arcs = w.arcs[:0]
	if cap(w.out) < n {
		w.out = make([][]int, n)
		w.pot = make([]int, n)
		w.dist = make([]int, n)
		w.done = make([]bool, n)
		w.level = make([]int, n)
		w.next = make([]int, n)
		w.bfs = make([]int, 0, n)
	}
	w.out = w.out[:n]
	w.pot, w.dist, w.done = w.pot[:n], w.dist[:n], w.done[:n]
	w.level, w.next = w.level[:n], w.next[:n]
	for v := range n {
		w.out[v] = w.out[v][:0]
		w.pot[v] = 0
	}
}

func (w *transport) addArc(from, to int, c float64, cost int) {
	w.out[from] = append(w.out[from], len(w.arcs))
	w.arcs = append(w.arcs, arc{to: to, cap: c, cost: cost})
	w.out[to] = append(w.out[to], len(w.arcs))
	w.arcs = append(w.arcs, arc{to: from, cap: 0, cost: -cost})
}

// shortestPaths runs Dijkstra from s on reduced costs over unsaturated arcs
// and moves the potentials so that arcs on shortest s-t paths get reduced
// cost 0. Capping every distance at dist(t) keeps all reduced costs
// nonnegative, and lets the search stop as soon as t is settled. It
// reports whether t is reachable.
//
// Reduced costs are small nonnegative integers, so the priority queue is
// an array of buckets (Dial's algorithm) rather than a heap.
func (w *transport) shortestPaths(s, t int) bool {
	for v := range w.dist {
		w.dist[v] = noPath
		w.done[v] = false
	}
	for d := range w.queue {
		w.queue[d] = w.queue[d][:0]
	}
	w.dist[s] = 0
	w.enqueue(s, 0)
search:
	for d := 0; d < len(w.queue); d++ {
		// The bucket may grow while it is scanned (zero-cost arcs).
		for i := 0; i < len(w.queue[d]); i++ {
			u := w.queue[d][i]
			if w.done[u] || w.dist[u] != d {
				continue // a stale entry
			}
			if u == t {
				break search // nodes not yet settled are at least as far
			}
			w.done[u] = true
			for _, e := range w.out[u] {
				a := &w.arcs[e]
				if a.cap <= massEps {
					continue
				}
				if dv := d + a.cost + w.pot[u] - w.pot[a.to]; dv < w.dist[a.to] {
					w.dist[a.to] = dv
					w.enqueue(a.to, dv)
				}
			}
		}
	}
	dt := w.dist[t]
	if dt == noPath {
		return false
	}
	for v, d := range w.dist {
		w.pot[v] += min(d, dt)
	}
	return true
}

func (w *transport) enqueue(v, d int) {
	for len(w.queue) <= d {
		w.queue = append(w.queue, nil)
	}
	w.queue[d] = append(w.queue[d], v)
}

// admissible reports whether arc e can carry flow in the current phase.
func (w *transport) admissible(from, e int) bool {
	a := w.arcs[e]
	return a.cap > massEps && a.cost+w.pot[from]-w.pot[a.to] == 0
}

// levels builds Dinic's BFS layering over admissible arcs and reports
// whether t is still reachable.
func (w *transport) levels(s, t int) bool {
	for v := range w.level {
		w.level[v] = -1
	}
	w.level[s] = 0
	w.bfs = append(w.bfs[:0], s)
	for h := 0; h < len(w.bfs); h++ {
		u := w.bfs[h]
		for _, e := range w.out[u] {
			if v := w.arcs[e].to; w.level[v] < 0 && w.admissible(u, e) {
				w.level[v] = w.level[u] + 1
				w.bfs = append(w.bfs, v)
			}
		}
	}
	return w.level[t] >= 0
}

// push sends up to limit units from u to t along the layering and returns
// the amount sent.
func (w *transport) push(u, t int, limit float64) float64 {
	if u == t {
		return limit
	}
	for ; w.next[u] < len(w.out[u]); w.next[u]++ {
		e := w.out[u][w.next[u]]
		v := w.arcs[e].to
		if w.level[v] != w.level[u]+1 || !w.admissible(u, e) {
			continue
		}
		if f := w.push(v, t, min(limit, w.arcs[e].cap)); f > 0 {
			w.arcs[e].cap -= f
			w.arcs[e^1].cap += f
			return f
		}
	}
	return 0
}
