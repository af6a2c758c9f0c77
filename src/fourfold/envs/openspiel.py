"""Every game as an OpenSpiel game, through pyspiel's Python game API.

``openspiel_game("quarto")`` returns a ``pyspiel.Game``; each (game, variant) is
registered once as ``python_fourfold_<game>_<variant>`` (hyphens as underscores), so
``pyspiel.load_game("python_fourfold_icedao_standard(max_steps=200)")`` works too. Its
parameters are the variant's options (underscored names, values as strings, ``none``
for no value; from Python pass them to ``openspiel_game``, as game strings would read a
number as an int) and ``max_steps``, the cap on plies (every game ends by then).

Metadata comes from the game's spec: two-player games are zero-sum with perfect
information and no chance; a cooperative game has identical utility. A game with hidden
information deals as explicit chance, drawn by the ``Dealer`` of its ``observation`` part
(``fourfold.envs.observe``; Quatrefoil: the solution, the position cards, then the
start). A game where every seat acts at once (Quatrefoil Dual) is simultaneous: each
seat submits one of its own actions (``a`` is the game's action ``seat * width + a``, as
in the PettingZoo env) or ``wait`` (the last action); when several are submitted, a
chance node picks the one that lands (uniformly), as the first to arrive in real time,
and the others are stale.

The length cap ends a game with utility 0 for everyone (the sliding games' own
``max-plies`` option, when set, ends it first, as a draw by the rules). Observation
tensors are the adapters' (``fourfold.envs.observe``), flattened; observation strings
are the viewer's position (``game.view_position``); information-state strings add what
the viewer has seen along the way (the moves, and Quatrefoil's signals). An illegal
action raises ``FourfoldError``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel  # type: ignore[import-untyped,import-not-found,unused-ignore]

import fourfold
from fourfold.core.errors import FourfoldError
from fourfold.core.game import Game
from fourfold.core.spec import Utility
from fourfold.envs.common import (
    AgentActions,
    checked_move,
    is_dual,
    load_game,
)
from fourfold.envs.observe import Dealer, default_max_steps, encoder_for, observation_of
from fourfold.envs.openspiel_params import options_from, params_of, specification

PREFIX = "python_fourfold_"
_REGISTERED: dict[str, type[pyspiel.Game]] = {}


def short_name(name: str, variant: str) -> str:
    return f"{PREFIX}{name}_{variant}".replace("-", "_")


def _game_type(name: str, variant: str) -> pyspiel.GameType:
    spec = fourfold.get_spec(name)
    game = fourfold.load(name, variant)
    params = specification(spec, variant)
    params["max_steps"] = default_max_steps(game)
    cooperative = spec.utility is Utility.COOPERATIVE
    chance = not spec.perfect_information
    t = pyspiel.GameType
    return t(
        short_name=short_name(name, variant),
        long_name=f"Fourfold {spec.title} ({variant})",
        dynamics=t.Dynamics.SIMULTANEOUS if is_dual(game) else t.Dynamics.SEQUENTIAL,
        chance_mode=(t.ChanceMode.EXPLICIT_STOCHASTIC if chance or is_dual(game)
                     else t.ChanceMode.DETERMINISTIC),
        information=(t.Information.PERFECT_INFORMATION if spec.perfect_information
                     else t.Information.IMPERFECT_INFORMATION),
        utility=t.Utility.IDENTICAL if cooperative else t.Utility.ZERO_SUM,
        reward_model=t.RewardModel.TERMINAL,
        max_num_players=spec.num_players,
        min_num_players=spec.num_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def _rules(name: str, variant: str, params: dict[str, Any]) -> tuple[Game[Any, Any], int]:
    options = options_from(fourfold.get_spec(name), variant, params)
    game = fourfold.load(name, variant, **options)
    return game, int(params.get("max_steps", default_max_steps(game)))


def register(name: str, variant: str) -> str:
    """Register (once) the pyspiel game type of a variant; return its short name."""
    key = short_name(name, variant)
    if key in _REGISTERED:
        return key
    game_type = _game_type(name, variant)

    class _Game(FourfoldSpielGame):
        def __init__(self, params: dict[str, Any] | None = None) -> None:
            merged = {**game_type.parameter_specification, **(params or {})}
            rules, max_steps = _rules(name, variant, merged)
            super().__init__(game_type, rules, max_steps, merged)

    # pickle finds a pyspiel game's class by its module and name: this module's
    # ``__getattr__`` registers the class on demand in a process that has not yet.
    _Game.__name__ = _Game.__qualname__ = class_name(key)
    _Game.__module__ = __name__
    pyspiel.register_game(game_type, _Game)
    _REGISTERED[key] = _Game
    return key


def class_name(key: str) -> str:
    return f"Fourfold_{key}"


def __getattr__(attribute: str) -> Any:
    """The game class of a registered short name (registering it first): what unpickling a
    pyspiel game or state asks for in a fresh process (a process pool, a Dask worker)."""
    if attribute.startswith(class_name(PREFIX)):
        for name in fourfold.game_names():
            for variant in fourfold.get_spec(name).variants:
                key = short_name(name, variant.name)
                if class_name(key) == attribute and not variant.unavailable:
                    return _REGISTERED[register(name, variant.name)]
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")


class Config:
    """What states need of their game, shared (never copied) when pyspiel clones a state."""

    def __init__(self, rules: Game[Any, Any], max_steps: int) -> None:
        self.rules = rules
        self.max_steps = max_steps
        self.dual = is_dual(rules)
        self.chance = not rules.info.spec.perfect_information
        # each seat's own action numbers (Dual: its block of the encoding, then ``wait``)
        self.own = tuple(AgentActions(rules, seat) for seat in range(rules.num_players))
        self.length = 0
        self.encoder = encoder_for(rules, max_steps=max_steps)
        self.dealer = _dealer(rules) if self.chance else None

    def __deepcopy__(self, memo: dict[int, Any]) -> Config:
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        """A state's pickle carries its game's configuration, not the encoder's tables."""
        return (_config, (self.rules, self.max_steps, self.length))


def _dealer(rules: Game[Any, Any]) -> Dealer:
    dealer = observation_of(rules).dealer()
    if dealer is None:
        raise FourfoldError(
            f"{rules.info.label()} hides information but its observation part names no"
            " dealer ('chance'): OpenSpiel needs its deal as chance outcomes")
    return dealer


def _config(rules: Game[Any, Any], max_steps: int, length: int) -> Config:
    config = Config(rules, max_steps)
    config.length = length
    return config


class FourfoldSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A configured fourfold game as a ``pyspiel.Game``."""

    def __init__(self, game_type: pyspiel.GameType, rules: Game[Any, Any], max_steps: int,
                 params: dict[str, Any]) -> None:
        self.config = Config(rules, max_steps)
        self.rules = rules
        cap = getattr(rules, "max_plies", None)
        length = _natural_length(rules)
        if length is None:
            length = min(cap, max_steps) if cap else max_steps
        length = min(length, max_steps)
        zero_sum = rules.info.spec.utility is Utility.ZERO_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=self.config.own[0].size,
            max_chance_outcomes=self.config.dealer.max_outcomes if self.config.dealer else 0,
            num_players=rules.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=length,
        )
        self.config.length = length
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> FourfoldSpielState:
        return FourfoldSpielState(self, self.config)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(self.config, recall)


def _natural_length(rules: Game[Any, Any]) -> int | None:
    """The most plies a game can last by its rules, where they bound it."""
    pieces = getattr(rules, "pieces", None)
    if pieces is not None and hasattr(pieces, "total"):
        return int(pieces.total) + 1  # one give, then one ply per piece
    return None


class FourfoldSpielState(pyspiel.State):  # type: ignore[misc]
    """A game in progress: the rules' state, plus the deal under way and the cap."""

    def __init__(self, game: FourfoldSpielGame, config: Config) -> None:
        super().__init__(game)
        self.spiel = config
        self.rules = config.rules
        self.deal: list[int] = []
        self.value: Any = None if config.chance else self.rules.initial_state()
        self.steps = 0
        self.moves: list[str] = []  # the moves so far, in notation (public in every game)
        self.pending: list[Any] = []  # Dual: the actions submitted this moment
        self.capped = False

    # -- whose turn --------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if self.value is None or self.pending:
            return int(pyspiel.PlayerId.CHANCE)
        if self.spiel.dual:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        actors = self.rules.actors(self.value)
        return int(actors[0])

    def is_terminal(self) -> bool:
        return self.capped or (self.value is not None and self.rules.is_over(self.value))

    def returns(self) -> list[float]:
        if self.value is None or self.capped:
            return [0.0] * self.rules.num_players
        outcome = self.rules.outcome(self.value)
        if outcome is None:
            return [0.0] * self.rules.num_players
        return list(outcome.returns(self.rules.num_players))

    # -- chance --------------------------------------------------------------------------------
    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.pending:
            n = len(self.pending)
            return [(i, 1.0 / n) for i in range(n)]
        return self._dealer().outcomes(self.deal)

    def _dealer(self) -> Dealer:
        dealer = self.spiel.dealer
        if dealer is None:  # invariant: only games with a dealer have a deal under way
            raise FourfoldError(f"{self.rules.info.label()} has no deal")
        return dealer

    def _deal(self, outcome: int) -> None:
        self.deal.append(outcome)
        self.value = self._dealer().deal(self.rules, self.deal)

    # -- actions -------------------------------------------------------------------------------
    def _legal_actions(self, player: int) -> list[int]:
        if self.is_terminal() or self.value is None:
            return []
        view = self.rules.view(self.value, player)
        return [int(a) for a in np.flatnonzero(self.spiel.own[player].mask(view))]

    def _apply_action(self, action: int) -> None:
        if self.value is None:
            self._deal(action)
            return
        if self.pending:
            self._land(self.pending[action])
            return
        seat = self.current_player()
        self._land(checked_move(self.rules, self.value, seat, action))

    def _apply_actions(self, actions: list[int]) -> None:
        submitted = []
        for seat, action in enumerate(actions):
            number = self.spiel.own[seat].to_game(int(action))
            if number is not None:
                submitted.append(checked_move(self.rules, self.value, seat, number))
        if len(submitted) == 1:
            self._land(submitted[0])
        elif submitted:
            self.pending = submitted
        else:
            self._count_step()

    def _land(self, move: Any) -> None:
        self.pending = []
        self.moves.append(self.rules.format_move(self.value, move))
        self.value = self.rules.next_state(self.value, move)
        self._count_step()

    def _count_step(self) -> None:
        self.steps += 1
        if self.steps >= self.spiel.length and not self.rules.is_over(self.value):
            self.capped = True

    # -- resampling (ISMCTS) ------------------------------------------------------------------
    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Any) -> FourfoldSpielState:
        """A state ``player_id`` cannot tell from this one, drawn with ``probability_sampler``.

        Perfect-information games have one such state: this one. Otherwise the deal is
        drawn uniformly among the deals the seat's view allows (the game's ``Dealer``),
        and the history is replayed on it: the same actions, the same chance landings."""
        if not self.spiel.chance or self.value is None:
            same: FourfoldSpielState = self.clone()
            return same
        deals = self._dealer().resample(self.rules, self.rules.view(self.value, player_id))
        return self._replayed(deals[pick(len(deals), probability_sampler)])

    def _replayed(self, draws: tuple[int, ...]) -> FourfoldSpielState:
        """This game's actions replayed on another deal (``draws``, the dealer's).

        Where seats act at once (Quatrefoil Dual) a submission that did not land is
        unknown to the other seats; one that the new deal makes illegal (a push onto
        another corner) is replayed as ``wait``, and the landing draw then picks the same
        action that landed."""
        history = self.history()
        state: FourfoldSpielState = self.get_game().new_initial_state()
        for outcome in draws:
            state.apply_action(outcome)
        players, at = self.rules.num_players, len(draws)
        while at < len(history):
            if not state.is_simultaneous_node():
                state.apply_action(history[at])
                at += 1
                continue
            joint = list(history[at:at + players])
            at += players
            sent = [p for p in range(players) if self.spiel.own[p].to_game(joint[p]) is not None]
            for p in sent:
                if joint[p] not in state.legal_actions(p):
                    joint[p] = self.spiel.own[p].size - 1  # wait
            kept = [p for p in sent if joint[p] != self.spiel.own[p].size - 1]
            state.apply_actions(joint)
            if len(sent) > 1 and at < len(history):  # a landing draw followed
                landed = sent[history[at]]
                at += 1
                if len(kept) > 1:
                    state.apply_action(kept.index(landed))
        return state

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            if self.pending:
                return f"lands:{action}"
            return f"deal:{len(self.deal)}:{action}"
        number = self.spiel.own[player].to_game(action) if self.spiel.dual else action
        if number is None:
            return "wait"
        move = self.rules.decode(number)
        try:
            return self.rules.format_move(self.value, move)
        except (FourfoldError, ValueError, TypeError, AttributeError):
            return f"action {action}"

    def __str__(self) -> str:
        if self.value is None:
            return f"dealing ({len(self.deal)} chance outcomes drawn)"
        return str(self.rules.format_position(self.value))


def pick(count: int, sampler: Any) -> int:
    """An index in ``0..count-1`` from a sampler of uniform numbers in [0, 1)
    (``pyspiel.UniformProbabilitySampler`` or any callable returning one)."""
    return min(int(float(sampler()) * count), count - 1)


class Observer:
    """pyspiel's Python observer: a seat's tensor and strings, from its view only."""

    def __init__(self, game: Config, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        shape = game.encoder.shape
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: FourfoldSpielState, player: int) -> None:
        if state.value is None:
            self.tensor.fill(0.0)
            return
        view = self.game.rules.view(state.value, player)
        self.dict["observation"][...] = self.game.encoder.encode(view)

    def string_from(self, state: FourfoldSpielState, player: int) -> str:
        if state.value is None:
            return f"p{player} dealing"
        rules = self.game.rules
        view = rules.view(state.value, player)
        text = f"p{player} {rules.view_position(view)}"
        if not self.perfect_recall:
            return text
        signals = getattr(view.observation, "signals", None)
        if signals:
            text += " signals=" + ",".join(
                "".join("1" if s else "0" for s in row) for row in signals)
        elif rules.info.spec.perfect_information:
            text += " moves=" + ",".join(state.moves)
        if state.pending:  # Dual: what this seat submitted itself is known to it
            text += " pending"
        return text


def openspiel_game(game: str | Game[Any, Any], variant: str | None = None, *,
                   max_steps: int | None = None, **options: Any) -> pyspiel.Game:
    """The pyspiel game of a fourfold game (registered on first use)."""
    configured = load_game(game, variant, **options)
    name, variant_name = configured.name, configured.info.variant
    key = register(name, variant_name)
    params = params_of(configured.info.spec, variant_name, configured.info.options)
    if max_steps is not None:
        params["max_steps"] = int(max_steps)
    return pyspiel.load_game(key, params)
