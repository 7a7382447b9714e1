# Budget: warn when the decision costs more per month than the budget.
#
# The budget comes from data.budget.usd_per_month (20000 USD when absent), for example a data file
#   budget:
#     usd_per_month: 15000
# passed as `conftest test --data DIR` or `opa eval --data FILE`.
package gpu_advisor.budget

import rego.v1

default budget_usd_per_month := 20000

budget_usd_per_month := data.budget.usd_per_month if valid_budget(data.budget.usd_per_month)

valid_budget(value) if {
	is_number(value)
	value > 0
}

decision_label := sprintf("%s (%s)", [input.decision.deployment, input.decision.offer]) if {
	is_string(input.decision.offer)
} else := input.decision.deployment

warn contains msg if {
	cost := input.decision.usd_per_month
	is_number(cost)
	cost > budget_usd_per_month
	msg := sprintf(
		"workload %s: the decision %s costs %d USD per month, over the budget of %d USD per month",
		[input.workload.name, decision_label, round(cost), round(budget_usd_per_month)],
	)
}

# A budget that is set but is not a positive number is a configuration error, not a silent default.
deny contains msg if {
	value := data.budget.usd_per_month
	not valid_budget(value)
	msg := sprintf("data.budget.usd_per_month must be a positive number of USD, got %v", [value])
}
