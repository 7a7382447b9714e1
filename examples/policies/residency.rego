# Data residency: a proposal that handles personal data runs only in the jurisdictions the law that
# applies admits.
#
# Input: the JSON of `gpu-advisor check PROPOSAL|DIR --format json`, a list with one entry per proposal:
#   gpu-advisor check proposals/ --format json --output check.json
#   conftest test --all-namespaces --policy examples/policies check.json
#   opa eval --format pretty --data examples/policies --input check.json data.gpu_advisor.residency
#
# Each entry holds the workload as evaluated (workload.personal_data, workload.personal_data_region), the
# proposal, where it may run (location.jurisdictions: EU, US, UK, CH, or unknown for a marketplace with
# variable locations) and the result of every check (results[]). This policy denies in two ways: by the
# people's region alone, so that a result edited after the fact still fails, and by gpu-advisor's own
# residency checks (RES005 and the organization's residency rules) that failed without a waiver.
# A waiver in the proposal file does not lift the first: the proposal's author writes the waivers, the
# platform team this policy.
package gpu_advisor.residency

import rego.v1

# The jurisdictions the law of the people's region admits (GDPR; revDSG with DSV Annex 1; UK GDPR with
# DPA 2018 Sch. 21; gpu-advisor's conservative default where it has no law table). People in the US: no
# limit of their own; the company's law may still set one, which gpu-advisor's RES005 applies.
admitted := {
	"eu": ["EU"],
	"ch": ["CH", "EU", "UK"],
	"uk": ["EU", "UK", "CH"],
	"other": ["EU"],
}

# Deployments that run in a provider's regions.
hosted := ["dedicated_cloud", "hybrid", "serverless", "api"]

deny contains msg if {
	some result in input
	result.workload.personal_data == true
	allowed := admitted[result.workload.personal_data_region]
	some jurisdiction in result.location.jurisdictions
	not jurisdiction in allowed
	msg := sprintf(
		"%s (%s line %d): personal data of people in %s, but the proposal may run in jurisdiction %s, outside those its law admits",
		[result.name, result.file, result.line, result.workload.personal_data_region, jurisdiction],
	)
}

deny contains msg if {
	some result in input
	some item in result.results
	item.topic == "residency"
	item.status == "fail"
	item.waived == false
	msg := sprintf(
		"%s (%s line %d): %s failed: %s",
		[result.name, result.file, result.line, item.rule_id, item.title],
	)
}

warn contains msg if {
	some result in input
	result.workload.personal_data == true
	result.proposal.deployment in hosted
	count(result.location.jurisdictions) == 0
	msg := sprintf(
		"%s (%s line %d): personal data, but the proposal names no provider, offer or region, so where it runs is not known",
		[result.name, result.file, result.line],
	)
}
