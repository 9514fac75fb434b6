package protocol

// Method names of the baseline comparison (CompareJob.Methods,
// CompareMethod.Name): core/compare's, in the order of the paper's
// tables, so that the page need not link core/compare.
const (
	MethodWKPI      = "WKPI"
	MethodWKPIInit  = "WKPI-init"
	MethodAltWKPI   = "altWKPI"
	MethodTrainPWGK = "trainPWGK"
	MethodPIConst   = "PI-CONST"
	MethodPIPL      = "PI-PL"
	MethodPILinear  = "PI-linear"
	MethodSW        = "SW"
	MethodPWGK      = "PWGK"
	MethodPF        = "PF"
	MethodWL        = "WL"
	MethodECFP      = "ecfp"
	MethodStats     = "stats"
	MethodMajority  = "majority"
)

// Methods lists every method of the comparison, as compare.Names.
func Methods() []string {
	return []string{MethodWKPI, MethodWKPIInit, MethodAltWKPI, MethodTrainPWGK, MethodPIConst, MethodPIPL,
		MethodPILinear, MethodSW, MethodPWGK, MethodPF, MethodWL, MethodECFP, MethodStats, MethodMajority}
}
