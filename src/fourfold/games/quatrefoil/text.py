"""Quatrefoil as text: the quatrefoil, the free token, the cards a seat may see, signals.

Everything here is a pure function of a seat's ``Observation`` (what that seat may
know), so a screen drawn for a seat can never show another seat's face-down card.
``draw_referee`` shows the whole deal, for a finished game or a spectator. The
interactive session is ``fourfold.games.quatrefoil.terminal``.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from fourfold.core.game import Game
from fourfold.games.quatrefoil.arrangement import (
    ACTION_NAMES,
    CORNERS,
    FREE,
    PUSHES,
    TOKEN_NAMES,
    TOKENS,
    Arrangement,
    act,
    format_arrangement,
)
from fourfold.games.quatrefoil.game import QuatrefoilGame
from fourfold.games.quatrefoil.solver import optimum
from fourfold.games.quatrefoil.state import Action, Observation, QuatrefoilState
from fourfold.render.presenter import Presenter
from fourfold.render.style import join_lines, to_string

#: Terminal colours of the tokens (the letter is always shown too).
TOKEN_STYLES = ("bold blue", "bold green", "bold magenta", "bold red", "bold yellow")


def _game(game: Game[Any, Any]) -> QuatrefoilGame:
    if not isinstance(game, QuatrefoilGame):
        raise TypeError(f"the quatrefoil presenter cannot show {game.name}")
    return game


def token(t: int | None) -> Text:
    if t is None:
        return Text("?", "dim")
    return Text(TOKENS[t], TOKEN_STYLES[t])


def quatrefoil_lines(arrangement: Arrangement, solution: Arrangement | None = None) -> list[Text]:
    """The 2x2 quatrefoil and the free token; with a known solution, the target beside it."""
    a = arrangement

    def row(left: int, right: int) -> Text:
        return Text.assemble("   | ", token(a[left]), " | ", token(a[right]), " |")

    def border() -> Text:
        return Text("   +---+---+")

    lines = [
        Text("       north"),
        border(),
        Text.assemble(row(0, 1), "   free token: ", token(a[FREE])),
        border(),
        row(2, 3),
        border(),
    ]
    if solution is not None:
        s = solution
        lines[1].append_text(Text("                   solution"))
        lines[2].append_text(Text.assemble("      ", token(s[0]), " ", token(s[1]),
                                           "   free ", token(s[FREE])))
        lines[4].append_text(Text.assemble("                         ", token(s[2]), " ",
                                           token(s[3])))
    return lines


def card_text(colour: int | None, position: int | None, dual: bool) -> Text:
    where = "?" if position is None else CORNERS[position]
    if dual:
        return Text(where, "dim" if position is None else "")
    return Text.assemble(token(colour), Text("@" + where, "dim" if position is None else ""))


def signal_text(up: bool) -> Text:
    return Text("up", "bold green") if up else Text("down", "dim")


def clock_text(obs: Observation, left: float | None) -> str:
    """The shared timer, from the seconds left that the table supplies."""
    if obs.clock is None or left is None:
        return ""
    whole = max(0, int(left))
    return f"clock {whole // 60}:{whole % 60:02d} left"


def counter_text(obs: Observation) -> str:
    """The players' count of actions, and in Nothing to Hide the optimum beside it."""
    text = f"actions {obs.version}"
    if obs.variant == "nothing-to-hide" and obs.solution is not None:
        text += f" (optimum {optimum(obs.start, obs.solution)})"
    return text


def _title(game: QuatrefoilGame) -> str:
    """``Quatrefoil (dual)``: the game as people write it, its variant and any options."""
    return game.info.label().replace(game.info.spec.name, game.info.spec.title, 1)


def observation_lines(game: QuatrefoilGame, obs: Observation,
                      clock_left: float | None = None) -> list[Text]:
    """Everything a seat (or a spectator) sees, as lines of styled text."""
    me = obs.seat
    who = "you are watching" if me is None else f"you are {game.player_name(me)}"
    head = [_title(game), who, counter_text(obs)]
    clock = clock_text(obs, clock_left)
    if clock:
        head.append(clock)
    lines = [Text(" | ".join(head))]
    lines.extend(quatrefoil_lines(obs.arrangement, obs.solution))
    cards = Text("Cards: ")
    for seat in range(4):
        cards.append(f"P{seat + 1} ")
        cards.append_text(card_text(obs.colour_cards[seat], obs.position_cards[seat],
                                    game.dual))
        cards.append(" (you)  " if seat == me else "  ")
    cards.rstrip()
    if not game.dual:
        cards.append("  ")
        cards.append("north ")
        cards.append_text(token(obs.north))
    lines.append(cards)
    if obs.signals is not None:
        signals = Text("Signals: ")
        for seat, up in enumerate(obs.signals[-1]):
            signals.append(f"P{seat + 1} ")
            signals.append_text(signal_text(up))
            if seat < 3:
                signals.append("  ")
        lines.append(signals)
    if obs.history:
        seat, action = obs.history[-1]
        lines.append(Text(f"Last action: {game.player_name(seat)} {ACTION_NAMES[action]}",
                          "dim"))
    if game.dual and me is not None and obs.outcome is None:
        card = obs.position_cards[me]
        assert card is not None
        mine = [ACTION_NAMES[a] for a in game.seat_actions(card)]
        lines.append(Text(f"Your actions: {' '.join(mine)}  (version {obs.version})"))
    elif obs.to_move is not None:
        whose = "your" if obs.to_move == me else f"{game.player_name(obs.to_move)}'s"
        lines.append(Text(f"It is {whose} turn."))
    return lines


def draw_observation(game: Game[Any, Any], obs: Observation, *, colour: bool = False,
                     clock_left: float | None = None) -> str:
    return to_string(join_lines(observation_lines(_game(game), obs, clock_left)), colour)


def draw_referee(game: Game[Any, Any], state: QuatrefoilState, *, colour: bool = False) -> str:
    """The whole deal: for a finished game or a spectator, never for a seat in play."""
    g = _game(game)
    deal = state.deal
    lines = [Text(f"{_title(g)} | actions {state.version}")]
    lines.extend(quatrefoil_lines(state.arrangement, deal.solution))
    cards = Text("Cards: ")
    for seat in range(4):
        cards.append(f"P{seat + 1} ")
        cards.append_text(card_text(None if g.dual else deal.colour(seat),
                                    deal.positions[seat], g.dual))
        cards.append("  ")
    cards.append("north ")
    cards.append_text(token(deal.north))
    lines.append(cards)
    best = optimum(state.start, deal.solution)
    lines.append(Text(f"Start {format_arrangement(state.start)}; the fewest actions that"
                      f" win from it: {best}", "dim"))
    return to_string(join_lines(lines), colour)


def explain(game: Game[Any, Any], state: QuatrefoilState, move: Any) -> str:
    """Words for an action: which token moved where and which was ejected."""
    if not isinstance(move, Action):
        return ""
    a = state.arrangement
    if move.action < len(PUSHES):
        _, enter, other = PUSHES[move.action]
        return (f"{TOKEN_NAMES[a[FREE]]} enters {CORNERS[enter]}, {TOKEN_NAMES[a[enter]]}"
                f" slides to {CORNERS[other]}, {TOKEN_NAMES[a[other]]} is ejected")
    if ACTION_NAMES[move.action] in ("cw", "ccw"):
        after = act(a, move.action)
        return f"twist {'clockwise' if move.action == 8 else 'anticlockwise'}" \
               f" to {format_arrangement(after)}"
    return "stack: the game ends"


class QuatrefoilPresenter(Presenter):
    """Screens for Quatrefoil; the session itself is ``fourfold.games.quatrefoil.terminal``."""

    def draw(self, game: Game[Any, Any], state: Any, last_move: Any | None, *,
             colour: bool = False, viewer: int | None = None) -> str:
        if viewer is None:
            return draw_referee(game, state, colour=colour)
        obs = game.view(state, viewer).observation
        return draw_observation(game, obs, colour=colour)

    def describe_turn(self, game: Game[Any, Any], state: Any) -> str:
        g = _game(game)
        if g.outcome(state) is not None:
            return "nothing to do: the game is over"
        if g.dual:
            return "act at any time: a twist, a push into your corner, or stack"
        return "push (e.g. N>NW), twist (cw, ccw) or stack"

    def explain_move(self, game: Game[Any, Any], before: Any, move: Any) -> str:
        return explain(game, before, move)

    def move_help(self, game: Game[Any, Any], state: Any) -> str:
        g = _game(game)
        lines = [
            "Pushes: W>NW N>NW E>NE N>NE W>SW S>SW E>SE S>SE (the free token enters that"
            " corner from that side).",
            "Twists: cw, ccw. Stack: stack (ends the game: everyone wins only if solved).",
        ]
        if g.dual:
            lines.append("Dual: type just the action; it is sent with the version you saw,"
                         " and refused if another action landed first.")
        if g.clock is not None:
            lines.append("The clock runs by itself; when it runs out, everyone loses.")
        return "\n".join(lines)

    def list_moves(self, game: Game[Any, Any], state: Any) -> list[str]:
        g = _game(game)
        if g.outcome(state) is not None:
            return ["No legal moves: the game is over."]
        if g.dual:
            return ["Each seat: its two pushes, cw, ccw, stack."]
        return ["Legal actions: " + " ".join(ACTION_NAMES)]


#: the ``presenter`` part of Quatrefoil's extension bundle
PRESENTER = QuatrefoilPresenter()
