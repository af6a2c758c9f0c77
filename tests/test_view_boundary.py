"""The view is a typed boundary: observer methods read a ``View[O]``, never a state.

``Game[S, M, O]`` computes everything a recipient is told (legal moves, masks, errors,
positions, move text) from a ``View[O]``. For a hidden-information game ``O`` is a
redacted observation, so handing an observer method the referee's state ``S`` is a type
error (checked here by running mypy on a snippet written for every registered game) and
is refused at run time too (for callers that are not type-checked). There is no default
that turns a state into an observation: perfect-information games say ``O = S`` by
deriving from ``PerfectInformation``, and the class must agree with the spec.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import fourfold
from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.core.game import Game, PerfectInformation, View
from fourfold.games.quatrefoil.game import QuatrefoilGame

SRC = Path(fourfold.__file__).resolve().parent.parent

#: every observer method and the arguments after the view (``move``: a legal move of the
#: seat; ``text``: its notation)
OBSERVERS: dict[str, tuple[str, ...]] = {
    "observed_actors": (),
    "observed_outcome": (),
    "view_actors": (),
    "view_outcome": (),
    "view_legal_moves": (),
    "view_legal_action_mask": (),
    "view_position": (),
    "view_illegal_reason": ("move",),
    "view_error": ("move",),
    "view_format_move": ("move",),
    "view_describe_move": ("move",),
    "view_parse_move": ("text",),
}
#: the observer methods a game must write itself unless it derives from PerfectInformation
ABSTRACT_OBSERVERS = {"view", "observed_actors", "observed_outcome", "view_legal_moves",
                      "view_illegal_reason", "view_parse_move", "view_format_move",
                      "view_position"}


def configured_games() -> Iterator[Game[Any, Any, Any]]:
    """Every registered game in each of its playable variants (default options)."""
    for name in fourfold.game_names():
        for variant in fourfold.get_spec(name).variants:
            if not variant.unavailable:
                yield fourfold.load(name, variant.name)


def hidden_games() -> list[Game[Any, Any, Any]]:
    games = [g for g in configured_games() if not g.info.spec.perfect_information]
    assert games, "no hidden-information game is registered: these tests would be vacuous"
    return games


def midgame(game: Game[Any, Any, Any], seed: int = 3, plies: int = 5) -> Any:
    """A state a few random moves in (not over), so that hidden cards are still hidden."""
    rng = random.Random(seed)
    state = game.initial_state(seed)
    for _ in range(plies):
        moves = game.legal_moves(state)
        after = game.apply(state, rng.choice(list(moves)))
        if game.is_over(after):
            break
        state = after
    return state


# -- no default: the declaration is explicit ---------------------------------------------------


def test_the_base_game_turns_no_state_into_an_observation() -> None:
    assert Game.__abstractmethods__ >= ABSTRACT_OBSERVERS
    assert not ABSTRACT_OBSERVERS & PerfectInformation.__abstractmethods__


def test_the_class_must_agree_with_the_spec() -> None:
    quatrefoil = fourfold.load("quatrefoil")
    dao = fourfold.load("dao")

    class Leaky(PerfectInformation[Any, Any], QuatrefoilGame):
        """Quatrefoil's rules claiming that every seat sees the whole state."""

    with pytest.raises(ConfigurationError, match="declares hidden information"):
        Leaky(quatrefoil.info)
    with pytest.raises(ConfigurationError, match="does not derive from PerfectInformation"):
        QuatrefoilGame(dao.info)
    for game in configured_games():
        assert isinstance(game, PerfectInformation) == game.info.spec.perfect_information


def test_every_hidden_game_types_its_observer_methods_with_its_observation() -> None:
    """The annotations name ``View[Observation]``: not a bare ``View``, ``Any`` or the state."""
    for game in hidden_games():
        state_type = type(game.initial_state())
        observation_type = type(game.view(game.initial_state(), 0).observation)
        assert observation_type is not state_type
        for name in ABSTRACT_OBSERVERS:
            hints = typing.get_type_hints(getattr(type(game), name))
            view_hint = hints["return"] if name == "view" else hints["view"]
            assert typing.get_origin(view_hint) is View, (game, name, view_hint)
            assert typing.get_args(view_hint) == (observation_type,), (game, name, view_hint)


# -- at run time: a state is refused where a view is required ----------------------------------


def calls(game: Game[Any, Any, Any], state: Any, seat: int) -> dict[str, Callable[[Any], Any]]:
    """Each observer method, as a function of the view it is given."""
    view = game.view(state, seat)
    moves = list(game.view_legal_moves(view))
    assert moves, f"{game.info.label()}: seat {seat} has no move to try"
    move = moves[0]
    values = {"move": move, "text": game.view_format_move(view, move)}
    return {name: (lambda v, name=name, args=args: getattr(game, name)(
                v, *(values[a] for a in args)))
            for name, args in OBSERVERS.items()}


def test_a_hidden_game_refuses_a_state_where_a_view_is_required() -> None:
    for game in hidden_games():
        state = midgame(game)
        seat = game.actors(state)[0]
        for name, call in calls(game, state, seat).items():
            call(game.view(state, seat))  # the view itself is accepted
            for wrong in (state, View(seat, state), View(None, state)):
                if name == "view_describe_move":
                    # it writes error messages, so it never raises: it falls back to the
                    # move's own repr, which holds nothing of the state
                    move = game.view_legal_moves(game.view(state, seat))[0]
                    assert call(wrong) == repr(move)
                    continue
                with pytest.raises(FourfoldError, match="observer methods read"):
                    call(wrong)


def test_apply_describes_the_position_from_the_public_view() -> None:
    """``apply``'s errors (an illegal move, a move after the end) write the position as the
    spectator's view does, never the referee's position string."""
    hidden_cases = 0
    for game in hidden_games():
        rng = random.Random(5)
        state = game.initial_state(5)
        cases = []
        for _ in range(500):
            refused = [m for m in (game.decode(a) for a in range(game.num_actions))
                       if game.illegal_reason(state, m) is not None]
            if refused and not cases:
                cases.append((state, refused[0]))
            move = rng.choice(list(game.legal_moves(state)))
            state = game.apply(state, move)
            if game.is_over(state):
                cases.append((state, move))
                break
        assert game.is_over(state), f"{game.info.label()}: 500 random moves and no end"
        hidden_cases += len(cases) - 1
        for before, move in cases:
            with pytest.raises(FourfoldError) as caught:
                game.apply(before, move)
            message = str(caught.value)
            assert game.view_position(game.view(before, None)) in message
            assert game.format_position(before) not in message
    assert hidden_cases, "no illegal move was tried while cards were hidden"


# -- statically: mypy refuses a state where an observation is required ------------------------

SNIPPET_HEAD = """from __future__ import annotations

from fourfold.core.game import View
"""


def snippet(games: list[Game[Any, Any, Any]]) -> tuple[str, set[int], set[int]]:
    """A module calling each observer method of each game class with a view (accepted),
    a state and, for hidden-information games, a ``View`` around a state (refused).

    Returns the text, the lines that must be refused and the lines that must pass."""
    lines = SNIPPET_HEAD.splitlines()
    refused: set[int] = set()
    accepted: set[int] = set()
    seen: set[type] = set()
    for game in games:
        cls = type(game)
        if cls in seen:
            continue
        seen.add(cls)
        state_cls = type(game.initial_state())
        k = len(seen)
        lines += [
            f"from {cls.__module__} import {cls.__qualname__} as Game{k}",
            f"from {state_cls.__module__} import {state_cls.__qualname__} as State{k}",
            "",
            "",
            f"def check_{k}(game: Game{k}, state: State{k}, text: str) -> None:",
            "    move = game.legal_moves(state)[0]",
            "    view = game.view(state, 0)",
        ]
        hidden = not game.info.spec.perfect_information
        for name, args in OBSERVERS.items():
            rest = "".join(f", {a}" for a in args)
            cases = [("view", accepted), ("state", refused),
                     ("View(0, state)", refused if hidden else accepted)]
            for given, bucket in cases:
                lines.append(f"    game.{name}({given}{rest})")
                bucket.add(len(lines))
    return "\n".join(lines) + "\n", refused, accepted


def test_mypy_refuses_a_state_where_an_observation_is_required(tmp_path: Path) -> None:
    games = list(configured_games())
    text, refused, accepted = snippet(games)
    assert refused and accepted
    module = tmp_path / "boundary_snippet.py"
    module.write_text(text)
    config = tmp_path / "mypy.ini"
    config.write_text(f"[mypy]\npython_version = 3.11\nmypy_path = {SRC}\n")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(config), "--strict",
         "--follow-imports=silent", "--cache-dir", str(tmp_path / "cache"),
         "--no-error-summary", "--show-error-codes", "--hide-error-context", str(module)],
        capture_output=True, text=True, timeout=600, cwd=tmp_path, check=False)
    flagged: set[int] = set()
    for line in result.stdout.splitlines():
        found = re.match(rf"{re.escape(module.name)}:(\d+): error: .*\[([a-z-]+)\]$", line)
        assert found, f"unexpected mypy output: {line}\n{result.stderr}"
        assert found.group(2) in ("arg-type", "type-var"), line
        flagged.add(int(found.group(1)))
    listing = text.splitlines()
    missed = sorted(refused - flagged)
    assert not missed, "mypy accepted a state here:\n" + "\n".join(listing[i - 1] for i in missed)
    wrong = sorted(flagged - refused)
    assert not wrong, "mypy refused a view here:\n" + "\n".join(listing[i - 1] for i in wrong)
