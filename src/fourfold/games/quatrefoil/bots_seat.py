"""Quatrefoil bots: one seat each, acting only on that seat's view.

Hidden variants. A deal is the solution arrangement plus which seat holds which
position card (120 x 24 = 2,880 deals; colour cards and north follow from them). The
bot keeps the set of deals consistent with everything its seat has seen: its own
and any face-up cards, every seat's signal after the deal and after every action,
and the other seats' actions: a deal stays possible only if, under it, each other
seat's bot would have chosen the action that seat took, from what that seat saw then
(``belief`` and ``team_choice``, memoised on the public record; a session does not
read a person's actions this way, and if no deal survives the reading the bot falls
back on cards and signals). It never stacks unless every consistent deal says the
quatrefoil is solved, which happens exactly when all four signals are up, so a bot
never loses by stacking. Otherwise it takes the action that minimises, over the
consistent deals and the signals each would show next, the expected distance to the
solution plus ``curiosity`` times the log2 of the number of solutions still possible:
a one-step look-ahead that trades progress against information.

Dual. The solution is face up, so each bot follows a shortest path. Among the first
steps of shortest paths it takes one it is allowed to take (a twist, or a push into
its own corner); when every first step is someone else's push it waits for that seat
(``propose`` returns ``None``), and after ``patience`` idle seconds it takes its own
best detour instead, so a slow partner cannot stall it. Stale refusals cost nothing:
the bot simply chooses again on the new view. ``consistent_deals`` also gives the
deals a Dual seat holds possible (which corner each other seat holds, learnt from
their pushes), but the policy needs only the public solution and the seat's own card.
"""

from __future__ import annotations

import math
from dataclasses import KW_ONLY, dataclass
from functools import lru_cache
from typing import Any

from fourfold.ai.base import Bot, game_for
from fourfold.core.errors import ConfigurationError, FourfoldError
from fourfold.core.game import Game, View
from fourfold.games.quatrefoil.arrangement import (
    ALL_ARRANGEMENTS,
    CW,
    INDEX,
    MOVING_ACTIONS,
    NEXT,
    STACK,
    Arrangement,
    act,
    push_corner,
)
from fourfold.games.quatrefoil.deals import DEALS, signal_pattern
from fourfold.games.quatrefoil.game import QuatrefoilGame
from fourfold.games.quatrefoil.solver import distance_table
from fourfold.games.quatrefoil.state import Action, Observation

DEFAULT_CURIOSITY = 0.3  # tuned on seeds 0..2999; the benchmark uses other seeds


def _pattern_of(signals: tuple[bool, bool, bool, bool]) -> int:
    return sum(1 << k for k in range(4) if signals[k])


@lru_cache(maxsize=4096)
def _card_consistent(
    colours: tuple[int | None, ...],
    positions: tuple[int | None, ...],
    north: int | None,
    solution: Arrangement | None,
) -> tuple[int, ...]:
    """Deals that agree with the cards a seat can see."""
    out = []
    for d, (s, p) in enumerate(DEALS):
        sol = ALL_ARRANGEMENTS[s]
        if solution is not None and sol != solution:
            continue
        if north is not None and sol[4] != north:
            continue
        if any(positions[k] is not None and p[k] != positions[k] for k in range(4)):
            continue
        if any(colours[k] is not None and sol[p[k]] != colours[k] for k in range(4)):
            continue
        out.append(d)
    return tuple(out)


def arrangements_of(obs: Observation) -> list[Arrangement]:
    seq = [obs.start]
    for _, action in obs.history:
        seq.append(act(seq[-1], action))
    return seq


def consistent_deals(obs: Observation) -> list[int]:
    """Every deal consistent with all that ``obs`` shows (cards, signals, Dual pushes)."""
    deals = list(_card_consistent(obs.colour_cards, obs.position_cards, obs.north,
                                  obs.solution))
    seq = arrangements_of(obs)
    if obs.signals is not None:
        for arrangement, signals in zip(seq, obs.signals, strict=True):
            want = _pattern_of(signals)
            i = INDEX[arrangement]
            deals = [d for d in deals if signal_pattern(i, d) == want]
    for seat, action in obs.history:
        corner = push_corner(action)
        if obs.signals is None and corner is not None:
            deals = [d for d in deals if DEALS[d][1][seat] == corner]
    return deals


def solutions_of(deals: list[int]) -> list[int]:
    """The distinct solution indices of ``deals``."""
    return sorted({DEALS[d][0] for d in deals})


def score_action(here: int, action: int, deals: list[int], curiosity: float) -> float:
    """Expected distance to the solution after ``action``, plus the uncertainty left.

    The deals are split by the signals each would show after the action; each part
    costs its mean distance plus ``curiosity * log2(solutions in it)``.
    """
    table = distance_table()
    nxt = NEXT[here][action]
    groups: dict[int, list[int]] = {}
    for d in deals:
        groups.setdefault(signal_pattern(nxt, d), []).append(d)
    total = 0.0
    row = table[nxt]
    for members in groups.values():
        dist = sum(row[DEALS[d][0]] for d in members)
        sols = len({DEALS[d][0] for d in members})
        total += dist + len(members) * curiosity * math.log2(sols)
    return total / len(deals)


def visible_cards(
    face_up: str, deal: int, seat: int
) -> tuple[tuple[int | None, ...], tuple[int | None, ...], int | None]:
    """The colour cards, position cards and north that ``seat`` sees under ``deal``."""
    s, p = DEALS[deal]
    sol = ALL_ARRANGEMENTS[s]
    colours_up = face_up in ("all", "colour")
    positions_up = face_up in ("all", "position")
    colours = tuple(sol[p[k]] if colours_up or k == seat else None for k in range(4))
    positions = tuple(p[k] if positions_up or k == seat else None for k in range(4))
    return colours, positions, sol[4] if colours_up else None


Key = tuple[str, float, Arrangement, tuple[tuple[int, int], ...], tuple[int, ...],
            frozenset[int]]


def belief(
    key: Key,
    seat: int,
    colours: tuple[int | None, ...],
    positions: tuple[int | None, ...],
    north: int | None,
) -> list[int]:
    """The deals a turn-based seat holds possible (see ``QuatrefoilBot``).

    ``key`` is the public record: the face-up rule, the bots' curiosity, the start, the
    actions so far as (seat, action), the signal patterns after each, and the seats
    whose actions may be read as a bot's choices. First the deals that fit the cards
    and every signal; then, of those, the ones under which each trusted seat's past
    actions are what that seat's bot would have chosen from what it saw then. If no
    deal passes the second test (someone played differently), the first set stands.
    """
    face_up, curiosity, start, history, signals, trusted = key
    deals = list(_card_consistent(colours, positions, north, None))
    arrangement = start
    for u, want in enumerate(signals):
        if u:
            arrangement = act(arrangement, history[u - 1][1])
        i = INDEX[arrangement]
        deals = [d for d in deals if signal_pattern(i, d) == want]
    inferred = deals
    for u, (other, action) in enumerate(history):
        if other == seat or other not in trusted or action == STACK:
            continue
        past: Key = (face_up, curiosity, start, history[:u], signals[:u + 1], trusted)
        inferred = [
            d for d in inferred
            if team_choice(past, other, *visible_cards(face_up, d, other)) == action
        ]
    return inferred or deals


@lru_cache(maxsize=200_000)
def team_choice(
    key: Key,
    seat: int,
    colours: tuple[int | None, ...],
    positions: tuple[int | None, ...],
    north: int | None,
) -> int:
    """The action a turn-based bot in ``seat`` takes, seeing these cards and ``key``."""
    deals = belief(key, seat, colours, positions, north)
    start, history = key[2], key[3]
    here_arrangement = start
    for _, action in history:
        here_arrangement = act(here_arrangement, action)
    here = INDEX[here_arrangement]
    if not deals:  # cannot happen with truthful signals; stay safe: never stack
        return CW
    if all(DEALS[d][0] == here for d in deals):
        return STACK
    curiosity = key[1]
    return min(MOVING_ACTIONS, key=lambda a: (score_action(here, a, deals, curiosity), a))


#: every seat: whose actions a bot reads as its team-mates' choices unless told otherwise
ALL_SEATS = frozenset(range(4))


def seat_observation(game: Game[Any, Any], view: View, player: int, bot: str) -> Observation:
    """The observation of ``view`` if it is ``player``'s own Quatrefoil view (a seat bot
    reads no other); ``ConfigurationError`` naming the ``bot`` otherwise."""
    obs = view.observation
    if not isinstance(obs, Observation) or view.player != player:
        raise ConfigurationError(
            f"the {bot} bot of {game.player_name(player)} needs that seat's Quatrefoil view")
    return obs


@dataclass(eq=False)
class QuatrefoilBot(Bot):
    """A cooperative Quatrefoil player for one seat (every variant)."""

    name = "quatrefoil"

    _: KW_ONLY
    curiosity: float = DEFAULT_CURIOSITY
    patience: float = 6.0
    #: seats whose actions are read as this bot's team-mates' choices (all, by default;
    #: a session leaves out the person's seat, whose choices no model predicts)
    trusted: frozenset[int] = ALL_SEATS

    def __post_init__(self) -> None:
        self.quatrefoil = game_for("quatrefoil", self.game, QuatrefoilGame, "Quatrefoil")
        super().__post_init__()

    # -- the choice ---------------------------------------------------------------------
    def choose(self, view: View) -> Any:
        obs = self._observation(view)
        if obs.outcome is not None:
            raise FourfoldError("no legal move: the game is over")
        if self.quatrefoil.dual:
            move = self.propose(view, idle=math.inf)
            assert move is not None
            return move
        if obs.to_move != self.player:
            raise FourfoldError(f"it is not {self.game.player_name(self.player)}'s turn")
        return Action(self.best_action(obs))

    def best_action(self, obs: Observation) -> int:
        """The action a turn-based seat takes: stack when surely solved, else look ahead."""
        assert obs.signals is not None
        key: Key = (
            self.quatrefoil.face_up,
            self.curiosity,
            obs.start,
            obs.history,
            tuple(_pattern_of(s) for s in obs.signals),
            self.trusted,
        )
        return team_choice(key, self.player, obs.colour_cards, obs.position_cards, obs.north)

    def belief(self, obs: Observation) -> list[int]:
        """The deals this seat holds possible now (turn-based variants)."""
        assert obs.signals is not None
        key: Key = (self.quatrefoil.face_up, self.curiosity, obs.start, obs.history,
                    tuple(_pattern_of(s) for s in obs.signals), self.trusted)
        return belief(key, self.player, obs.colour_cards, obs.position_cards, obs.north)

    def propose(self, view: View, idle: float = 0.0) -> Action | None:
        """The action to take now, or ``None`` to wait. Turn-based variants: the choice on
        this seat's turn. Dual: ``None`` lets the seat whose push it is act.

        ``idle`` is how long (seconds) nothing has landed; past ``patience`` the bot
        takes its own best move even when it is a detour.
        """
        obs = self._observation(view)
        if obs.outcome is not None:
            return None
        if not self.quatrefoil.dual:  # turn-based: choose on one's own turn
            return Action(self.best_action(obs)) if obs.to_move == self.player else None
        card = obs.position_cards[self.player]
        solution = obs.solution
        assert card is not None and solution is not None
        here = INDEX[obs.arrangement]
        goal = INDEX[solution]
        mine = self.quatrefoil.seat_actions(card)
        version = obs.version
        if here == goal:
            return Action(STACK, self.player, version)
        table = distance_table()
        d = table[here][goal]
        first = [a for a in MOVING_ACTIONS if table[NEXT[here][a]][goal] == d - 1]
        own_first = [a for a in first if a in mine]
        if own_first:
            # Prefer a push of ours (only we can make it) over a twist anyone could make.
            pushes = [a for a in own_first if a < CW]
            return Action((pushes or own_first)[0], self.player, version)
        if idle < self.patience:
            return None
        moving = [a for a in mine if a != STACK]
        detour = min(moving, key=lambda a: (table[NEXT[here][a]][goal], a))
        return Action(detour, self.player, version)

    def _observation(self, view: View) -> Observation:
        return seat_observation(self.game, view, self.player, "quatrefoil")


# -- whole games of four bots (the benchmark and the tests use these) ----------------------

class TeamResult:
    """How a game of four bots went: the final state, landed actions, stale refusals, the
    simulated seconds it took, and its outcome (a timed loss is declared from outside the
    rules, so it is not in ``state``)."""

    def __init__(self, game: QuatrefoilGame, state: Any, actions: int, refused: int,
                 seconds: float) -> None:
        self.state = state
        self.actions = actions
        self.refused = refused
        self.seconds = seconds
        self.outcome = game.outcome(state)
        if self.outcome is None and game.clock is not None and seconds >= game.clock:
            self.outcome = game.time_out(state, None)


def play_turns(
    game: QuatrefoilGame,
    seed: int,
    *,
    seconds_per_action: int = 0,
    max_actions: int = 500,
    curiosity: float = DEFAULT_CURIOSITY,
    read_actions: bool = True,
) -> TeamResult:
    """Four bots play the deal of ``seed`` in turn; in timed variants each action takes
    ``seconds_per_action`` seconds of thought first, in simulated time.
    ``read_actions=False`` makes the bots infer from cards and signals only."""
    state = game.initial_state(seed)
    trusted = ALL_SEATS if read_actions else frozenset[int]()
    bots = [QuatrefoilBot(game, p, seed, curiosity=curiosity, trusted=trusted)
            for p in range(4)]
    actions = 0
    now = 0
    while game.outcome(state) is None and actions < max_actions:
        player = game.to_move(state)
        assert player is not None
        move = bots[player].choose(game.view(state, player))
        if game.clock is not None:
            now += seconds_per_action
            if now >= game.clock:
                now = game.clock
                break
        state = game.apply(state, move)
        actions += 1
    return TeamResult(game, state, actions, 0, float(now))


def play_dual(
    game: QuatrefoilGame,
    seed: int,
    *,
    reaction: tuple[float, float] = (1.0, 3.0),
    commit: float = 0.4,
    max_actions: int = 500,
) -> TeamResult:
    """Four Dual bots in simulated real time.

    Each bot decides a reaction time (drawn uniformly from ``reaction`` seconds, from a
    generator seeded by ``seed``) after the version it last saw landed. A bot whose
    decision falls within ``commit`` seconds after another action landed had already
    committed to it: it submits its move chosen on the old version, the engine refuses
    it as stale (counted in ``refused``), and the bot decides again on the new view.
    In timed games the game ends once the simulated time reaches the clock.
    """
    import random

    from fourfold.core.errors import IllegalMoveError

    rng = random.Random(seed)
    state = game.initial_state(seed)
    # A bot waits for the seat whose push is next for twice the slowest reaction.
    bots = [QuatrefoilBot(game, p, seed, patience=2 * reaction[1]) for p in range(4)]
    #: seat -> (time of its next decision, version it decides on)
    pending = {seat: (rng.uniform(*reaction), 0) for seat in range(4)}
    actions = refused = 0
    now = last_landed = 0.0
    while game.outcome(state) is None and actions < max_actions:
        seat = min(pending, key=lambda k: (pending[k][0], k))
        now, seen = pending[seat]
        if game.clock is not None and now >= game.clock:
            now = float(game.clock)
            break
        seen_state = state if seen == state.version else _state_at(state, seen)
        move = bots[seat].propose(game.view(seen_state, seat), idle=now - last_landed)
        if move is None:
            if seen != state.version:  # it looked at an old version: look again
                pending[seat] = (now + rng.uniform(*reaction), state.version)
            else:
                pending[seat] = (now + bots[seat].patience, seen)
            continue
        try:
            state = game.apply(state, move)
        except IllegalMoveError:
            refused += 1
            pending[seat] = (now + rng.uniform(*reaction), state.version)
            continue
        actions += 1
        last_landed = now
        for other in range(4):
            due, _ = pending[other]
            if other == seat or due > now + commit:
                pending[other] = (now + rng.uniform(*reaction), state.version)
    return TeamResult(game, state, actions, refused, now)


def _state_at(state: Any, version: int) -> Any:
    """The state as it was after ``version`` actions (same deal)."""
    return type(state)(state.deal, state.start, state.history[:version])
