"""Playing the report's games: seeded jobs, one trace per game, on every core.

A ``Job`` names everything a game depends on (the configured game, the bots in
seat order, the group's seed, the game's index, the evaluator's playouts), so a
worker process can replay it anywhere and ``Job.key`` can find it again in a
cache file: the report's runs are resumable. Each game becomes a ``Trace``: its
result, its length, the number of legal moves before every ply and, for
two-player zero-sum games, the evaluator's view of every position.

The evaluator is the MCTS bot's leaf evaluator (``GreedyPlayouts``): the mean
result of ``playouts`` greedy playouts from the position (each side wins at once
when it can and never hands over a win it can avoid). It gives each position the
first player's expected score in [0, 1], the "state evaluation" Ludii's drama,
lead-change and decisiveness metrics are computed from.
"""

from __future__ import annotations

import json
import multiprocessing
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from fourfold.analysis.match import DEFAULT_MAX_PLIES, LENGTH_CAP, play_game
from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.core.outcome import Result
from fourfold.core.registry import load
from fourfold.core.spec import Utility


@dataclass(frozen=True)
class Config:
    """A configured game, as plain data that pickles and prints."""

    game: str
    variant: str | None = None
    options: tuple[tuple[str, str], ...] = ()

    def load(self) -> Game[Any, Any]:
        return load(self.game, self.variant, **dict(self.options))

    def label(self) -> str:
        return self.load().info.label()


@dataclass(frozen=True)
class Job:
    config: Config
    group: str
    bots: tuple[str, ...]
    seed: int
    index: int
    playouts: int  # evaluator playouts per position (0: no evaluation)
    max_plies: int = DEFAULT_MAX_PLIES

    def key(self) -> str:
        c = self.config
        opts = ",".join(f"{k}={v}" for k, v in c.options)
        return (f"{c.game}|{c.variant}|{opts}|{self.group}|{','.join(self.bots)}|{self.seed}|"
                f"{self.index}|{self.playouts}|{self.max_plies}")


@dataclass
class Trace:
    """One finished game. ``winner`` is a seat (None for draws and cooperative games);
    ``result`` is ``win``, ``draw``, ``cap`` (the length cap: a draw), ``team-win`` or
    ``team-loss``; ``branching[t]`` counts the legal moves before ply ``t``;
    ``evals[t]`` is the first player's expected score there (empty when not evaluated);
    ``optimum`` is the fewest actions that could have won this deal, where known."""

    key: str
    group: str
    index: int
    bots: list[str]
    result: str
    winner: int | None
    plies: int
    branching: list[int]
    evals: list[float] = field(default_factory=list)
    optimum: int | None = None

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Trace:
        return cls(**json.loads(text))


#: per-deal optima for cooperative games (``game name -> (game, start state) -> actions``),
#: registered by ``fourfold.analysis.report.solved``
OPTIMA: dict[str, Callable[[Game[Any, Any], Any], int]] = {}

_GAMES: dict[Config, Game[Any, Any]] = {}
_ENGINES: dict[Config, Any] = {}


def _game(config: Config) -> Game[Any, Any]:
    if config not in _GAMES:
        _GAMES[config] = config.load()
    return _GAMES[config]


def _engine(config: Config) -> Any:
    if config not in _ENGINES:
        from fourfold.kernels import engine_for

        _ENGINES[config] = engine_for(_game(config))
    return _ENGINES[config]


def start_seed(job: Job) -> int:
    """The deal's seed (games without a deal ignore it)."""
    return (job.seed * 7_919 + job.index * 104_729 + 17) % (1 << 61)


def play_job(job: Job) -> Trace:
    """Play one game and trace it (run in a worker process; deterministic in ``job``)."""
    from fourfold.ai.mcts import GreedyPlayouts

    game = _game(job.config)
    start = game.initial_state(seed=start_seed(job))
    match = play_game(game, job.bots, job.seed, job.index, max_plies=job.max_plies,
                      start=start)
    outcome = match.outcome
    assert outcome is not None
    if outcome.reason == LENGTH_CAP:
        result, winner = "cap", None
    elif outcome.result is Result.WIN:
        result, winner = "win", outcome.winner
    elif outcome.result is Result.DRAW:
        result, winner = "draw", None
    else:
        result, winner = outcome.result.value, None
    branching = [len(game.legal_moves(s)) for s in match.states[: len(match.moves)]]
    evals: list[float] = []
    if job.playouts > 0 and game.info.spec.utility is Utility.ZERO_SUM:
        engine = _engine(job.config)
        evaluator = GreedyPlayouts(job.playouts)
        for ply, state in enumerate(match.states[: len(match.moves)]):
            engine.load(state)
            r0, _ = evaluator.evaluate(engine, start_seed(job) + 1_000 * ply)
            evals.append(round((r0 + 1) / 2, 5))
    optimum = None
    if game.name in OPTIMA:
        optimum = OPTIMA[game.name](game, start)
    return Trace(job.key(), job.group, job.index, list(job.bots), result, winner,
                 len(match.moves), branching, evals, optimum)


def read_cache(path: Path | None) -> dict[str, Trace]:
    if path is None or not path.exists():
        return {}
    traces = {}
    for n, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip():
            continue
        try:
            trace = Trace.from_json(line)
        except (ValueError, TypeError) as exc:
            raise FourfoldError(f"{path}:{n}: not a trace of `fourfold analyze` ({exc})") from None
        traces[trace.key] = trace
    return traces


def run_jobs(
    jobs: Sequence[Job],
    workers: int,
    cache: Path | None = None,
    on_done: Callable[[Trace], None] | None = None,
    scheduler: str | None = None,
) -> list[Trace]:
    """Every job's trace, in job order: from the cache file when it holds the job, else
    played (on ``workers`` processes, or on the Dask cluster at ``scheduler``) and
    appended to the cache as it finishes. Each game is seeded by its job, so the traces
    are the same wherever they are played."""
    done = read_cache(cache)
    todo = [j for j in jobs if j.key() not in done]
    for job in jobs:
        if job.key() in done and on_done is not None:
            on_done(done[job.key()])
    out = cache.open("a") if cache is not None else None
    try:
        for trace in _play(todo, workers, scheduler):
            done[trace.key] = trace
            if out is not None:
                out.write(trace.to_json() + "\n")
                out.flush()
            if on_done is not None:
                on_done(trace)
    finally:
        if out is not None:
            out.close()
    return [done[j.key()] for j in jobs]


def _play(jobs: Sequence[Job], workers: int, scheduler: str | None = None
          ) -> Iterable[Trace]:
    if scheduler is not None and jobs:
        from fourfold.distributed.runner import run_tasks

        yield from run_tasks(play_job, jobs, keys=[j.key() for j in jobs],
                             scheduler=scheduler, progress=False, description="games")
        return
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield play_job(job)
        return
    # fork: workers start at once and share the parent's compiled kernels
    context = multiprocessing.get_context("fork" if os.name == "posix" else "spawn")
    with context.Pool(min(workers, len(jobs))) as pool:
        yield from pool.imap_unordered(play_job, jobs, chunksize=1)
