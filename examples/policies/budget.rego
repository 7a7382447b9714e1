# Budget: what each proposal costs per month against the budget.
#
# Input: the JSON of `gpu-advisor check PROPOSAL|DIR --format json` (a list, one entry per proposal; its
# usd_per_month is what the proposal costs at the catalog's prices, null where it cannot be priced: such
# a proposal is warned, and denied under a hard limit).
# The budget comes from data (conftest test --data DIR, opa eval --data FILE), for example
#   budget:
#     usd_per_month: 15000        # warn above it (20000 when absent)
#     deny_usd_per_month: 50000   # deny above it (no limit when absent)
package gpu_advisor.budget

import rego.v1

default budget_usd_per_month := 20000

budget_usd_per_month := data.budget.usd_per_month if valid_budget(data.budget.usd_per_month)

valid_budget(value) if {
	is_number(value)
	value > 0
}

warn contains msg if {
	some result in input
	cost := result.usd_per_month
	is_number(cost)
	cost > budget_usd_per_month
	msg := sprintf(
		"%s (%s line %d): the proposal costs %d USD per month, over the budget of %d USD per month",
		[result.name, result.file, result.line, round(cost), round(budget_usd_per_month)],
	)
}

deny contains msg if {
	some result in input
	cost := result.usd_per_month
	is_number(cost)
	limit := data.budget.deny_usd_per_month
	valid_budget(limit)
	cost > limit
	msg := sprintf(
		"%s (%s line %d): the proposal costs %d USD per month, over the limit of %d USD per month",
		[result.name, result.file, result.line, round(cost), round(limit)],
	)
}

# A proposal the catalog cannot price (an offer it does not know, a misspelled one, a rental that names
# none) cannot be held to the budget: it is said, and under a hard limit it fails closed, as a critical
# check that cannot tell does.
warn contains msg if {
	some result in input
	not is_number(result.usd_per_month)
	not valid_budget(data.budget.deny_usd_per_month)
	msg := sprintf(
		"%s (%s line %d): the proposal has no monthly cost at the catalog's prices, so it is not held to the budget (its checks say what is missing)",
		[result.name, result.file, result.line],
	)
}

deny contains msg if {
	some result in input
	not is_number(result.usd_per_month)
	limit := data.budget.deny_usd_per_month
	valid_budget(limit)
	msg := sprintf(
		"%s (%s line %d): the proposal has no monthly cost at the catalog's prices, so it cannot be held to the limit of %d USD per month (its checks say what is missing)",
		[result.name, result.file, result.line, round(limit)],
	)
}

# A budget that is set but is not a positive number is a configuration error, not a silent default.
deny contains msg if {
	some key in ["usd_per_month", "deny_usd_per_month"]
	value := data.budget[key]
	not valid_budget(value)
	msg := sprintf("data.budget.%s must be a positive number of USD, got %v", [key, value])
}
