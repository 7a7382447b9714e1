# Spot capacity can be reclaimed at any time: not for a latency-sensitive workload.
#
# Input: the JSON result of `gpu-advisor recommend WORKLOAD --format json`.
package gpu_advisor.spot

import rego.v1

deny contains msg if {
	input.workload.latency_sensitive == true
	some option in input.options
	option.chosen == true
	option.pricing == "spot"
	msg := sprintf(
		"workload %s is latency-sensitive, but the chosen option %s %s is spot capacity, which can be reclaimed at any time",
		[input.workload.name, option.provider, option.offer],
	)
}
