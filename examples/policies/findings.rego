# Findings that need a second look before approval, by rule ID (`gpu-advisor rules show ID` explains one).
#
# Defaults: warn on KNB001 (the chosen offer's list price is stale) and KNB003 (the stated utilization
# does not match the load); deny on none. Replace the lists with a data file, for example
#   findings:
#     warn_rule_ids: [KNB001]
#     deny_rule_ids: [RES003]
package gpu_advisor.findings

import rego.v1

default warn_rule_ids := ["KNB001", "KNB003"]

warn_rule_ids := data.findings.warn_rule_ids if is_array(data.findings.warn_rule_ids)

default deny_rule_ids := []

deny_rule_ids := data.findings.deny_rule_ids if is_array(data.findings.deny_rule_ids)

fired_rule_ids contains finding.rule_id if {
	some finding in input.findings
}

warn contains msg if {
	some rule_id in warn_rule_ids
	rule_id in fired_rule_ids
	msg := sprintf(
		"workload %s: finding %s needs review before approval (gpu-advisor rules show %s)",
		[input.workload.name, rule_id, rule_id],
	)
}

deny contains msg if {
	some rule_id in deny_rule_ids
	rule_id in fired_rule_ids
	msg := sprintf(
		"workload %s: finding %s blocks approval (gpu-advisor rules show %s)",
		[input.workload.name, rule_id, rule_id],
	)
}
