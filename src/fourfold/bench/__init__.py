"""Speed measurements behind ``fourfold bench``: readable rules, kernels and a C loop."""

from fourfold.bench.runner import RULESETS, BenchRow, run_bench

__all__ = ["RULESETS", "BenchRow", "run_bench"]
