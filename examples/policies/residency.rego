# Data residency: personal data (DSGVO/GDPR) stays on EU infrastructure.
#
# Input: the JSON result of `gpu-advisor recommend WORKLOAD --format json`.
#   conftest test --all-namespaces --policy examples/policies result.json
#   opa eval --format pretty --data examples/policies --input result.json data.gpu_advisor.residency.deny
package gpu_advisor.residency

import rego.v1

# The option gpu-advisor chose; none when the decision is an API, serverless or own hardware.
chosen_options contains option if {
	some option in input.options
	option.chosen == true
}

deny contains msg if {
	input.workload.personal_data == true
	some option in chosen_options
	option.eu == false
	msg := sprintf(
		"workload %s handles personal data, but the chosen option %s %s (%s, jurisdiction %s) is not in the EU",
		[input.workload.name, option.provider, option.offer, option.pricing, option.jurisdiction],
	)
}

deny contains msg if {
	input.workload.personal_data == true
	input.decision.deployment == "api"
	msg := sprintf(
		"workload %s handles personal data, but the decision sends it to the managed API %s",
		[input.workload.name, input.decision.offer],
	)
}
