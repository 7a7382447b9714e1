# Checks that need a person's review, or block approval, whatever gpu-advisor's own verdict.
#
# Input: the JSON of `gpu-advisor check PROPOSAL|DIR --format json` (a list, one entry per proposal, each
# with results[]: rule_id, status pass|warn|fail|unknown, waived).
# Data (optional): findings.warn_rule_ids (default KNB006, a waiver past its end date) and
# findings.deny_rule_ids (default none). A check counts when it warned or failed without a waiver.
package gpu_advisor.findings

import rego.v1

default warn_rule_ids := ["KNB006"]

warn_rule_ids := data.findings.warn_rule_ids if is_array(data.findings.warn_rule_ids)

default deny_rule_ids := []

deny_rule_ids := data.findings.deny_rule_ids if is_array(data.findings.deny_rule_ids)

# Each proposal's checks that warned or failed without a waiver: where, and the rule.
raised contains sprintf("%s (%s line %d): %s", [result.name, result.file, result.line, item.rule_id]) if {
	some result in input
	some item in result.results
	item.rule_id in array.concat(warn_rule_ids, deny_rule_ids)
	item.status in ["warn", "fail"]
	item.waived == false
}

warn contains sprintf("%s needs review before approval (gpu-advisor rules show %s)", [where, rule_id]) if {
	some where in raised
	some rule_id in warn_rule_ids
	endswith(where, sprintf(": %s", [rule_id]))
}

deny contains sprintf("%s blocks approval (gpu-advisor rules show %s)", [where, rule_id]) if {
	some where in raised
	some rule_id in deny_rule_ids
	endswith(where, sprintf(": %s", [rule_id]))
}
