# Data residency: personal data stays in the jurisdictions the law that applies admits.
#
# Input: the JSON result of `gpu-advisor recommend WORKLOAD --format json`.
#   conftest test --all-namespaces --policy examples/policies result.json
#   opa eval --format pretty --data examples/policies --input result.json data.gpu_advisor.residency.deny
#
# gpu-advisor's residency rules (rules/residency.yaml) decide the law from where the people are
# (workload.personal_data_region) and where the company is, and exclude every option outside the
# jurisdictions it admits (options[].excluded_by). This policy holds the chosen option to the same answer
# in two ways: the engine's own (a residency rule excluded options in the chosen option's jurisdiction),
# and the people's region alone, so that a result edited after the fact still fails.
package gpu_advisor.residency

import rego.v1

# The jurisdictions the law of the people's region admits (GDPR; revDSG with DSV Annex 1; UK GDPR with
# DPA 2018 Sch. 21; gpu-advisor's conservative default where it has no law table). People in the US: no
# limit of their own; the company's law may still set one, which the engine's exclusions carry.
admitted := {
	"eu": {"EU"},
	"ch": {"CH", "EU", "UK"},
	"uk": {"UK", "EU", "CH"},
	"other": {"EU"},
}

# The option gpu-advisor chose; none when the decision is an API, serverless or own hardware.
chosen_options contains option if {
	some option in input.options
	option.chosen == true
}

# Jurisdictions in which a residency rule excluded an option.
excluded_jurisdictions contains option.jurisdiction if {
	some option in input.options
	some rule_id in option.excluded_by
	startswith(rule_id, "RES")
}

outside contains option if {
	some option in chosen_options
	option.jurisdiction in excluded_jurisdictions
}

outside contains option if {
	some option in chosen_options
	not option.jurisdiction in admitted[input.workload.personal_data_region]
	input.workload.personal_data_region in object.keys(admitted)
}

deny contains msg if {
	input.workload.personal_data == true
	some option in outside
	msg := sprintf(
		"workload %s handles personal data (people in: %s), but the chosen option %s %s (%s, jurisdiction %s) lies outside the jurisdictions its law admits",
		[
			input.workload.name, input.workload.personal_data_region,
			option.provider, option.offer, option.pricing, option.jurisdiction,
		],
	)
}

# The managed API the decision sends the data to, where it processes requests outside the jurisdictions
# the people's law admits (api_costs[].jurisdiction, from the provider's statement in the catalog).
deny contains msg if {
	input.workload.personal_data == true
	input.workload.personal_data_region in object.keys(admitted)
	input.decision.deployment == "api"
	some api in input.api_costs
	api.api == input.decision.offer
	not api.jurisdiction in admitted[input.workload.personal_data_region]
	msg := sprintf(
		"workload %s handles personal data, but the decision sends it to the managed API %s (processing in %s)",
		[input.workload.name, input.decision.offer, api.jurisdiction],
	)
}
