# Spot capacity only for work that can wait.
#
# Input: the JSON of `gpu-advisor check PROPOSAL|DIR --format json` (a list, one entry per proposal).
package gpu_advisor.spot

import rego.v1

# Spot in the proposal: its pricing, or a hybrid's busier hours on a spot offer (which the spot checks'
# evidence records as spot_in_proposal).
spot(result) if result.proposal.pricing == "spot"

spot(result) if {
	some item in result.results
	item.evidence.spot_in_proposal == true
}

deny contains msg if {
	some result in input
	result.workload.latency_sensitive == true
	spot(result)
	msg := sprintf(
		"%s (%s line %d): the workload is latency-sensitive, but the proposal rents spot capacity, which can be reclaimed at any time",
		[result.name, result.file, result.line],
	)
}

# A business-critical service (not a batch) loses spot capacity without a promise to get it back.
deny contains msg if {
	some result in input
	result.workload.business_critical == true
	result.workload.load_pattern != "batch"
	spot(result)
	msg := sprintf(
		"%s (%s line %d): the service is business-critical, but the proposal rents spot capacity, which can be reclaimed at any time",
		[result.name, result.file, result.line],
	)
}

# Any other service that is not a batch: spot is for work that restarts what an interruption stops.
warn contains msg if {
	some result in input
	result.workload.latency_sensitive != true
	result.workload.business_critical != true
	result.workload.load_pattern != "batch"
	spot(result)
	msg := sprintf(
		"%s (%s line %d): spot capacity for a service that is not a batch: its requests wait whenever the capacity is reclaimed",
		[result.name, result.file, result.line],
	)
}
