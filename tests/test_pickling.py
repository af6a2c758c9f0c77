"""Every configured game and every state pickles, in this process and in a fresh one.

A game pickles as (name, variant, options) and comes back through the registry, so
process pools, Dask workers and OpenSpiel's serialisation all get the same configuration.
"""

from __future__ import annotations

import multiprocessing
import pickle
import random
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

import fourfold
from fourfold.core.game import Game
from fourfold.core.spec import GameSpec
from support.gamecases import case_id, load_case, playable_cases

CASES = playable_cases()
#: configurations away from the defaults, so that options survive the round trip
OPTIONED: list[tuple[str, str | None, dict[str, Any]]] = [
    ("folio", "fixed-grid", {"line-rule": "same-colour-or-size"}),
    ("folio", "no-grid", {"extra": "Ys,Gm,Rl,Bs"}),
    ("folio", "freeform", {"strict": True, "tolerance": 0.25, "table": 12}),
    ("quatrefoil", "half-and-half", {"face-up": "position"}),
    ("quatrefoil", "dual", {"clock": True, "clock-seconds": 90}),
    ("icedao", None, {"first": "green", "max-plies": 60}),
    ("dao", None, {"max-plies": 40}),
]


def _played(game: Game[Any, Any], plies: int, seed: int) -> Any:
    rng = random.Random(seed)
    state = game.initial_state(seed)
    for _ in range(plies):
        moves = game.legal_moves(state)
        if not moves:
            break
        state = game.apply(state, rng.choice(list(moves)))
    return state


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_games_and_states_round_trip(case: tuple[str, str]) -> None:
    game = load_case(case)
    again = pickle.loads(pickle.dumps(game))
    assert again is game  # the registry's own configured game
    state = _played(game, 3 if case == ("folio", "freeform") else 9, seed=5)
    copy = pickle.loads(pickle.dumps(state))
    assert copy == state
    assert game.format_position(copy) == game.format_position(state)
    assert game.legal_actions(copy) == game.legal_actions(state)


@pytest.mark.parametrize("name,variant,options", OPTIONED)
def test_options_survive_the_round_trip(name: str, variant: str | None,
                                        options: dict[str, Any]) -> None:
    game = fourfold.load(name, variant, **options)
    again = pickle.loads(pickle.dumps(game))
    assert again.info.options == game.info.options
    assert again.info.label() == game.info.label()


def _describe(blob: bytes) -> tuple[str, dict[str, str], str, list[int]]:
    """Unpickle a (game, state) pair in a fresh process and say what arrived."""
    game, state = pickle.loads(blob)
    return (game.info.label(), game.info.option_strings(), game.format_position(state),
            game.legal_actions(state))


def test_a_fresh_process_loads_the_same_configuration() -> None:
    pairs = []
    for name, variant, options in OPTIONED[:1] + OPTIONED[2:]:
        game = fourfold.load(name, variant, **options)
        pairs.append((game, _played(game, 6, seed=2)))
    spawn = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=spawn) as pool:
        results = list(pool.map(_describe, [pickle.dumps(p) for p in pairs], timeout=120))
    for (game, state), (label, options, position, actions) in zip(pairs, results, strict=True):
        assert label == game.info.label()
        assert options == game.info.option_strings()
        assert position == game.format_position(state)
        assert actions == game.legal_actions(state)


def test_specs_pickle_as_the_registry_s_own() -> None:
    for name in fourfold.game_names():
        spec = fourfold.get_spec(name)
        assert pickle.loads(pickle.dumps(spec)) is spec
        assert pickle.loads(pickle.dumps(spec.rules_text)) == spec.rules_text


def test_a_game_outside_the_registry_refuses_to_pickle_clearly() -> None:
    quarto = fourfold.get_spec("quarto")
    stray = GameSpec(name="stray", summary="not registered", factory=quarto.factory,
                     rules_text=quarto.rules_text)
    game = stray.factory(stray.resolve(None, {}))
    with pytest.raises(pickle.PicklingError, match="'stray' is not in the registry"):
        pickle.dumps(game)
