# Spot capacity only for work that can wait.
#
# Input: the JSON of `gpu-advisor check PROPOSAL|DIR --format json` (a list, one entry per proposal).
package gpu_advisor.spot

import rego.v1

deny contains msg if {
	some result in input
	result.workload.latency_sensitive == true
	result.proposal.pricing == "spot"
	msg := sprintf(
		"%s (%s line %d): the workload is latency-sensitive, but the proposal rents spot capacity, which can be reclaimed at any time",
		[result.name, result.file, result.line],
	)
}
