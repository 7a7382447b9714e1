"""gpu-advisor's engine: workload model, knowledge loading, calculators, the rules adapter and results."""
