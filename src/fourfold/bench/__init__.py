"""Speed measurements behind ``fourfold bench``: readable rules, kernels and a C loop."""

from fourfold.bench.runner import BenchRow, rulesets, run_bench

__all__ = ["BenchRow", "rulesets", "run_bench"]
