package kernel

// Term returns the pixel function f of the kernel's divergence
// sum_s w_s f(A_s - B_s) (f(0) = 0), and Value turns a divergence into the
// kernel value, given total = sum_s w_s: together they let a caller split
// a kernel value pixel by pixel (core/explain) with the kernel's own
// arithmetic.
func (k Kernel) Term() func(d float64) float64 { return k.pixelFunc() }

// Value is the kernel value of a pair whose divergence is div; see Term.
func (k Kernel) Value(div, total float64) float64 { return k.fromDivergence(div, total) }
