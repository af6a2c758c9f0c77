"""Playing the report's games: seeded jobs, one trace per game, on every core.

A ``Job`` names everything a game depends on (the configured game, the bots in
seat order, the group's seed, the deal's seed, the game's index, the evaluator's
playouts), so a
worker process can replay it anywhere and ``Job.key`` can find it again in a
cache file: the report's runs are resumable. The deal depends on the run's seed
and the game's index only, not on the group, so every group (every team of a
cooperative game, every compared option value) plays game ``i`` on the same deal.
Each game becomes a ``Trace``: its result and the rules' reason for it, its
length, who moved at every ply, the number of legal moves before every ply, the
share of the board's sites that held a piece at some point and, for two-player
zero-sum games, the evaluator's view of every position.

The evaluator is the MCTS bot's leaf evaluator (``GreedyPlayouts``): the mean
result of ``playouts`` greedy playouts from the position (each side wins at once
when it can and never hands over a win it can avoid). It gives each position the
first player's expected score in [0, 1], the "state evaluation" Ludii's drama,
lead-change and decisiveness metrics are computed from.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from fourfold.analysis.match import DEFAULT_MAX_PLIES, LENGTH_CAP, play_game
from fourfold.analysis.report.facts import facts_of
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
    deal: int = 0  # the deal's seed, shared by every group of a run

    def key(self) -> str:
        c = self.config
        opts = ",".join(f"{k}={v}" for k, v in c.options)
        return (f"{TRACE_VERSION}|{c.game}|{c.variant}|{opts}|{self.group}|"
                f"{','.join(self.bots)}|{self.seed}|{self.deal}|{self.index}|{self.playouts}|"
                f"{self.max_plies}")


#: bumped when a trace gains fields, so that older cache lines are played again
TRACE_VERSION = "t2"


@dataclass
class Trace:
    """One finished game. ``winner`` is a seat (None for draws and cooperative games);
    ``result`` is ``win``, ``draw``, ``cap`` (the length cap: a draw), ``team-win`` or
    ``team-loss``, and ``reason`` the rules' words for it; ``movers[t]`` is the seat that
    played ply ``t`` (``movers[0]`` acted first); ``branching[t]`` counts the legal moves
    before ply ``t``; ``evals[t]`` is seat 0's expected score there (empty when not
    evaluated); ``optimum`` is the fewest actions that could have won this deal, where
    known; ``coverage`` the share of the board's sites that held a piece at some point
    (None for games without a registered board)."""

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
    reason: str = ""
    movers: list[int] = field(default_factory=list)
    coverage: float | None = None

    @property
    def first(self) -> int | None:
        """The seat that acted first (None for a game without a move)."""
        return self.movers[0] if self.movers else None

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Trace:
        return cls(**json.loads(text))


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
    """The deal's seed (games without a deal ignore it): the run's deal seed and the
    game's index, the same in every group."""
    return (job.deal * 7_919 + job.index * 104_729 + 17) % (1 << 61)


def coverage(game: Game[Any, Any], states: Sequence[Any]) -> float | None:
    """The share of the board's sites that held a piece in some of ``states`` (the sites
    are the game's ``report`` part's; ``None`` without a fixed set of sites)."""
    sites = facts_of(game).sites
    board = sites(game) if sites is not None else None
    if board is None:
        return None
    total, occupied = board
    used: set[Any] = set()
    for state in states:
        used |= occupied(state)
    return len(used) / total


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
    played = match.states[: len(match.moves)]
    branching = [len(game.legal_moves(s)) for s in played]
    movers = [game.to_move(s) for s in played]
    evals: list[float] = []
    if job.playouts > 0 and game.info.spec.utility is Utility.ZERO_SUM:
        engine = _engine(job.config)
        evaluator = GreedyPlayouts(job.playouts)
        for ply, state in enumerate(match.states[: len(match.moves)]):
            engine.load(state)
            r0, _ = evaluator.evaluate(engine, start_seed(job) + 1_000 * ply)
            evals.append(round((r0 + 1) / 2, 5))
    best = facts_of(game).optimum
    optimum = best(game, start) if best is not None else None
    return Trace(job.key(), job.group, job.index, list(job.bots), result, winner,
                 len(match.moves), branching, evals, optimum, outcome.reason,
                 [m for m in movers if m is not None], coverage(game, match.states))


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


class TraceCache:
    """The ``--cache`` file as the task runner's store: finished traces by their job's
    key, appended one JSON line each as they finish."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.traces = read_cache(path)

    def __contains__(self, key: str) -> bool:
        return key in self.traces

    def get(self, key: str) -> Trace:
        return self.traces[key]

    def record(self, key: str, trace: Trace) -> Trace:
        if self.path is not None:
            with self.path.open("a") as out:
                out.write(trace.to_json() + "\n")
        self.traces[key] = trace
        return trace


def run_jobs(
    jobs: Sequence[Job],
    workers: int,
    cache: Path | None = None,
    on_done: Callable[[Trace], None] | None = None,
    scheduler: str | None = None,
) -> list[Trace]:
    """Every job's trace, in job order: from the cache file when it holds the job, else
    played by the task runner (on ``workers`` processes, or on the Dask cluster at
    ``scheduler``) and appended to the cache as it finishes. Each game is seeded by its
    job, so the traces are the same wherever they are played."""
    from fourfold.distributed import executor_for, run_tasks

    store = TraceCache(cache)
    unique = list({j.key(): j for j in jobs}.values())
    if on_done is not None:
        for job in unique:
            if job.key() in store:
                on_done(store.get(job.key()))
    run_tasks(play_job, unique, keys=[j.key() for j in unique],
              executor=executor_for(scheduler, None if scheduler is not None else workers),
              journal=store, progress=False,
              on_result=None if on_done is None else lambda _, trace: on_done(trace))
    return [store.get(j.key()) for j in jobs]
