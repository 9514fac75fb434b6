// Package filtration computes the descriptor functions that filter a graph
// before persistence: Ollivier-Ricci curvature and the Jaccard index on
// edges; degree, the heat kernel signature (HKS) and values given with the
// graph on vertices.
//
// For molecules there are chemistry-aware descriptors too (chem.go): the
// bond orders of the subdivided molecule (KindBonds), the atoms'
// electronegativity (KindElectronegativity) and partial charges
// (KindCharge), and any descriptor restricted
// to an element group (Options.Atoms); such a Function lives on a derived
// graph that Function.On maps back to the input's atoms and bonds.
//
// Compute turns one of them into a Function: a value per vertex, and with
// Options.EdgeValued a value per edge as well. An edge function reaches the
// vertices through Options.Rule (the minimum over incident edges, as in
// Zhao & Wang, NeurIPS 2019, or their mean); a vertex with no edge gets
// Options.Isolated (0 unless set).
//
// # Ollivier-Ricci curvature
//
// kappa(u,v) = 1 - W1(m_u, m_v) for an edge uv, where m_u puts alpha on u
// and (1-alpha)/deg(u) on each neighbour, and the ground cost is the
// shortest-path length in the whole graph.
//
// Distances: both supports lie within distance 1 of the edge, so any two of
// their points are at distance 0, 1, 2 or 3, and it is 2 exactly when they
// share a neighbour anywhere in the graph. The cost matrix is therefore read
// off neighbour lists, in time proportional to the degrees around the edge,
// instead of running all-pairs BFS (O(n m) time and O(n^2) memory per
// graph, most of it for pairs that are never used). Looking for the common
// neighbour only inside the two supports would be wrong: on the 5-cycle the
// two outer points are at distance 2 through a vertex outside both.
//
// Transport: W1 is solved exactly by a primal-dual min-cost flow (Dijkstra
// on reduced costs, then a Dinic max-flow on the zero reduced-cost arcs),
// written here rather than using gonum's optimize/convex/lp because the
// problems are tiny (deg+1 by deg+1) and numerous (81,044 edges in
// PROTEINS): a dense simplex allocates and pivots a tableau per edge, and
// took about 60 times as long on MUTAG when measured. The costs are small
// integers, so potentials are exact integers, and each phase raises the
// shortest path cost by at least one; Dinic's method terminates on
// real-valued capacities. Mass that both measures put on one point (u, v
// and common neighbours) is cancelled first, which leaves W1 unchanged for
// a metric cost and shrinks every problem. The tests check the solver
// against gonum's simplex and the curvature against POT's ot.emd2.
//
// # Heat kernel signature
//
// HKS(v,t) = sum_i exp(-t lambda_i) phi_i(v)^2 for the eigenpairs of the
// normalised Laplacian L = I - D^-1/2 A D^-1/2, that is the diagonal of
// exp(-tL). As networkx does, an isolated vertex has an all-zero row and
// column in L, so its HKS is exp(0) = 1 at every t.
//
// A dense eigendecomposition (gonum's mat.EigenSym) costs O(n^3) per graph,
// which dominates on PROTEINS, where the 50 largest graphs (up to 620
// nodes) hold nearly 90% of the sum of n^3. Sparse graphs therefore use a
// Chebyshev expansion of exp(-t(1+y)) in Y = L - I instead: about
// sqrt(70 t) + 16 sparse products with an n-by-n block, truncated where the
// coefficients fall below 1e-17, chosen whenever a rough flop count says it
// is cheaper. The two agree to 1e-12 in the tests.
//
// # Node labels
//
// LabelHeat gives the vertex functions of the node-label mode: for each
// label group k, h_k = exp(-tL) 1_k, the heat diffused for time t from
// the vertices carrying the label. It applies the same Chebyshev
// expansion to one vector per group (sparse products only, never a dense
// n-by-n block), and the tests check it against an eigendecomposition.
package filtration
