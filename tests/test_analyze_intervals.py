"""The report's interval math: Wilson, Student's t, the bootstrap, Knuth in log10."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from fourfold.analysis.report.intervals import (
    bootstrap,
    log10_mean_exp10,
    mean_t,
    proportion,
    t_quantile,
)
from fourfold.analysis.report.metrics import decided_at, lead_changes, leaders


def test_wilson_matches_the_formula_and_stays_in_bounds() -> None:
    e = proportion(30, 100)
    z = 1.959963984540054
    p, n = 0.3, 100
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert e.value == 0.3
    assert e.low == pytest.approx(centre - half) and e.high == pytest.approx(centre + half)
    assert proportion(0, 20).low == 0.0 and proportion(0, 20).high > 0.1
    assert proportion(20, 20).high == 1.0 and proportion(20, 20).low < 0.9
    assert proportion(0, 0).n == 0 and proportion(0, 0).text() == "n/a"


def test_t_quantiles_match_the_tables() -> None:
    # two-sided 95% quantiles of Student's t (standard tables)
    for df, q in ((1, 12.706), (2, 4.303), (10, 2.228), (30, 2.042), (40, 2.021),
                  (60, 2.000), (120, 1.980)):
        assert t_quantile(df) == pytest.approx(q, abs=1e-3)
    assert t_quantile(10**6) == pytest.approx(1.95996, abs=1e-4)
    with pytest.raises(ValueError):
        t_quantile(0)


def test_mean_t_interval() -> None:
    values = [1.0, 2.0, 3.0, 4.0, 5.0]
    e = mean_t(values)
    half = 2.776 * statistics.stdev(values) / math.sqrt(5)
    assert e.value == 3.0 and e.low == pytest.approx(3 - half) and e.high == pytest.approx(3 + half)
    assert mean_t([2.0]).low == mean_t([2.0]).high == 2.0
    assert mean_t([]).n == 0


def test_t_interval_covers_the_mean_about_95_percent_of_the_time() -> None:
    rng = random.Random(5)
    hits = 0
    for _ in range(400):
        e = mean_t([rng.gauss(10, 3) for _ in range(12)])
        hits += e.low <= 10 <= e.high
    assert 360 <= hits <= 396


def test_bootstrap_is_seeded_and_brackets_the_statistic() -> None:
    data = [float(x % 7) for x in range(60)]
    a = bootstrap(data, statistics.fmean, seed=3)
    b = bootstrap(data, statistics.fmean, seed=3)
    assert a == b
    assert a.low <= a.value <= a.high
    t = mean_t(data)
    assert abs(a.low - t.low) < 0.3 and abs(a.high - t.high) < 0.3


def test_log10_mean_exp10_does_not_overflow() -> None:
    assert log10_mean_exp10([400.0, 400.0]) == pytest.approx(400.0)
    assert log10_mean_exp10([0.0, 1.0]) == pytest.approx(math.log10(5.5))


def test_lead_changes_ignore_level_stretches_and_decided_at() -> None:
    assert leaders([0.5, 0.9, 0.55, 0.1, 0.2, 0.5, 0.8]) == [0, 1, 1, 0]
    assert lead_changes([0.5, 0.9, 0.55, 0.1, 0.2, 0.5, 0.8]) == 2
    # the winner's curve: the loser's best is 1 - 0.3 = 0.7; the winner passes it at ply 3
    assert decided_at([0.5, 0.3, 0.6, 0.8, 0.9]) == pytest.approx(3 / 5)
