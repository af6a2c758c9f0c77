"""Quatrefoil at the terminal: one person, three bots, a shared clock, real time (its
``terminal`` part, ``fourfold.cli.play.rules``: ``RULES``, and ``DUAL_RULES`` for Dual).

``fourfold play quatrefoil [--variant V] [--seat N] [--pace S]``. The person takes one
seat, chosen before any screen is drawn (``--seat``, or the menu); the quatrefoil bots
take the other three. Every screen is drawn from that seat's view only: its own cards
and the face-up ones, every seat's signal and, in Race the Clock (or a timed Dual), the
time left on the table's clock. No screen ever shows two seats' hidden cards; when the
game ends every card is shown face up.

The table keeps time (the real clock, or one a test moves by hand), runs the bots at a
human-like pace (``--pace`` seconds on average, give or take 40%) and declares the loss
when the shared clock runs out. In Dual every bot draws its pause again after each
action, whoever made it, so the gap a person sees between two actions is the shortest
of three pauses: the default ``DEFAULT_DUAL_PACE`` of 6 s keeps each screen up for at
least 3.6 s (about 4.8 s on average), time to read it and type a push; ``--pace`` or the
``pace S`` command changes it. Bot actions print in the notation a person types
(``Bot quatrefoil (seat 2): E>NE (red enters NE, ...)``), never the record's ``2:E>NE@0``. In
Race the Clock and Dual the prompt stays open while the bots act; after their output
the prompt is printed again.

In Dual there are no turns. A typed action is sent with the version of the screen the
person was looking at: the newest one shown at least ``REACTION`` seconds before the
line arrived (nobody reacts faster). If another action landed after that screen, the
action is refused as stale, with the reason, and the new screen is shown.
"""

from __future__ import annotations

from typing import Any

from fourfold.ai import Bot, make_bot
from fourfold.cli.play.builtins import confirmed, find_command, no_undo
from fourfold.cli.play.context import Command, PlayContext
from fourfold.cli.play.loop import TurnLoop, play_line
from fourfold.cli.play.rules import PlayRules, title_label
from fourfold.core.errors import FourfoldError, NotationError
from fourfold.core.game import Game
from fourfold.core.outcome import Outcome
from fourfold.games.quatrefoil.arrangement import ACTION_NAMES, parse_action_name
from fourfold.games.quatrefoil.bots_seat import QuatrefoilBot
from fourfold.games.quatrefoil.game import QuatrefoilGame
from fourfold.games.quatrefoil.state import Action
from fourfold.games.quatrefoil.text import draw_observation, draw_referee, explain
from fourfold.table import Event, EventKind, Seat

#: A Dual bot's mean seconds per action: with three bots re-drawing their pauses (0.6x
#: to 1.4x) after every action, a screen stays up at least 3.6 s, about 4.8 s on average
DEFAULT_DUAL_PACE = 6.0
DEFAULT_TIMED_PACE = 2.0
#: the action that ends the game for everyone (asked a second time)
STACK = ACTION_NAMES.index("stack")
#: Seconds a person needs to react to a new screen: a Dual action typed sooner after a
#: bot's action was chosen on the screen before it (and is refused as stale).
REACTION = 0.8
NO_HOT_SEAT = (
    "Quatrefoil hides each seat's cards, so two people cannot share one screen: play it"
    " online with `fourfold serve` (one screen per person), or here against the"
    " quatrefoil bots (drop --vs human)"
)


def _quatrefoil(game: Game[Any, Any]) -> QuatrefoilGame:
    if not isinstance(game, QuatrefoilGame):
        raise FourfoldError(f"the Quatrefoil session cannot run {game.name}")
    return game


def default_pace(game: Game[Any, Any]) -> float:
    g = _quatrefoil(game)
    if g.dual:
        return DEFAULT_DUAL_PACE
    return DEFAULT_TIMED_PACE if g.clock is not None else 0.0


def patience(pace: float) -> float:
    """How long a Dual bot waits for the seat whose push is next before a detour."""
    return max(6.0, 3 * pace)


def make_quatrefoil_bot(name: str, game: Game[Any, Any], seat: int, seed: int | None,
                        people: frozenset[int]) -> Bot:
    """The quatrefoil bots (and the levels that read team-mates) read each other's actions
    as bot choices, but not a person's."""
    if name == "quatrefoil":
        return QuatrefoilBot(game, seat, seed, trusted=frozenset(range(4)) - people)
    bot = make_bot(name, game, seat, seed)
    if isinstance(bot, QuatrefoilBot):
        bot.trusted = bot.trusted - people
    return bot


class QuatrefoilLoop(TurnLoop):
    """The turn loop with Quatrefoil's screens, real-time input and Dual versions."""

    def __init__(self, ctx: PlayContext) -> None:
        super().__init__(ctx)
        self.quatrefoil = _quatrefoil(ctx.game)
        self.me = min(ctx.people)
        #: (table time shown, actions count) of every screen drawn for the person
        self.screens: list[tuple[float, int]] = []
        self.refused = 0
        for seat in ctx.table.seats:
            if isinstance(seat.bot, QuatrefoilBot):
                seat.bot.patience = patience(seat.pace)

    # -- screens -----------------------------------------------------------------------
    def intro(self) -> None:
        ctx, game = self.ctx, self.quatrefoil
        others = {s.name for p, s in enumerate(ctx.table.seats) if p != self.me}
        ctx.say(f"{title_label(game)}: you are {game.player_name(self.me)};"
                f" the other seats are {' and '.join(sorted(others))} bots.")
        extra = " You act at any time; so do the bots." if game.dual else ""
        words = [w for w in ("help", "moves", "hint", "undo", "board", "rules", "pace S")
                 if find_command(ctx, w.split()[0]) is not None
                 and (w != "undo" or no_undo(ctx) is None)]
        ctx.say("Type an action (N>NW, cw, stack, ...), or " + ", ".join(words)
                + ", resign (the team gives up), quit." + extra)

    def reading(self) -> int | None:
        if self.quatrefoil.dual or self.quatrefoil.clock is not None:
            return self.me  # the prompt stays open while the bots act
        return self.person_to_act()

    def show(self, seat: int) -> None:
        ctx = self.ctx
        obs = ctx.table.view(self.me).observation
        clocks = ctx.table.clocks()
        ctx.say("")
        ctx.say(draw_observation(self.quatrefoil, obs, colour=ctx.colour,
                                 clock_left=clocks[0] if clocks else None))
        self.screens.append((ctx.now(), obs.version))

    def say_event(self, event: Event) -> None:
        if event.kind is not EventKind.MOVE or event.seat is None or event.move is None:
            return
        words, name = "", event.move
        if self.before is not None:
            try:
                move = self.game.view_parse_move(self.before, event.move)
                words = explain(self.game, self.before.observation, move)
                name = ACTION_NAMES[move.action]  # as typed: E>NE, not Dual's 2:E>NE@0
            except FourfoldError:
                words = ""
        label = self.label(event.seat)
        self.ctx.say(f"{label}: {name}" + (f" ({words})" if words else ""))

    def label(self, seat: int) -> str:
        """One name per seat, as the page says it: "Bot quatrefoil (seat 3)"."""
        return self.ctx.player_label(seat)

    def final(self, outcome: Outcome) -> None:
        ctx = self.ctx
        ctx.say("")
        ctx.say(f"Game over. {outcome.describe()}")
        ctx.say("The cards, face up:")
        ctx.say(draw_referee(self.quatrefoil, ctx.match.state, colour=ctx.colour))
        if ctx.replay_seed is not None:  # told only now: it gives the whole deal
            ctx.say(f"Deal {ctx.replay_seed} (play it again with --seed {ctx.replay_seed}).")

    # -- what the person types -----------------------------------------------------------
    def version_seen(self, arrived: float) -> int:
        """The actions count a line typed now was chosen on: the newest screen shown at
        least ``REACTION`` seconds before it arrived, else the first screen."""
        seen = self.screens[0][1] if self.screens else 0
        for shown, version in self.screens:
            if shown <= arrived - REACTION:
                seen = version
        return seen

    def act(self, seat: int, line: str) -> bool:
        ctx = self.ctx
        word, _, rest = line.partition(" ")
        command = find_command(ctx, word)
        if command is not None:
            return command.run(ctx, rest.strip())
        if line.lower().startswith("wait"):
            ctx.say("The clock runs by itself; just type your action when ready.")
            return False
        if not self.quatrefoil.dual:
            actors = self.table.actors()
            if self.me not in actors:
                whose = ctx.player_label(actors[0]) if actors else "nobody"
                ctx.say(f"It is {whose}'s turn; yours comes after.")
                return False
        if self.stacks(line) and not confirmed(
                ctx, "Stack ends the game for all four players, solved or not.", "stack",
                "Not stacked"):
            return False
        if not self.quatrefoil.dual:
            return play_line(ctx, line)
        return self.dual_action(line)

    def stacks(self, line: str) -> bool:
        """Whether ``line`` is the stack (typed ``stack``, or in the record's notation)."""
        action = parse_action_name(line)
        if action is None:
            try:
                move = self.game.view_parse_move(self.ctx.table.view(self.me), line)
            except FourfoldError:
                return False
            action = move.action if isinstance(move, Action) else None
        return action == STACK

    def dual_action(self, line: str) -> bool:
        ctx, game = self.ctx, self.quatrefoil
        view = ctx.table.view(self.me)
        action = parse_action_name(line)
        if action is None:
            try:
                move = game.view_parse_move(view, line)
            except NotationError as error:
                ctx.say(f"Cannot read {line!r}: not an action ({' '.join(ACTION_NAMES)})"
                        f" or {error.reason}.")
                return False
        else:
            move = Action(action, self.me, self.version_seen(ctx.now()))
        refusal = game.view_error(view, move)
        if refusal is None:
            try:
                ctx.table.play(self.me, move)
                return False
            except FourfoldError as error:
                reason = str(error)
        else:
            reason = refusal.reason
        self.refused += 1
        ctx.say(f"Refused: {reason}.")
        self.shown = None
        return True


def run_quatrefoil(ctx: PlayContext) -> int:
    """The Quatrefoil session; returns the exit status."""
    return QuatrefoilLoop(ctx).run()


# -- commands ------------------------------------------------------------------------------

def quatrefoil_hint(ctx: PlayContext, argument: str) -> bool:
    """What the quatrefoil bot would do in the person's seat, from that seat's view only."""
    game = _quatrefoil(ctx.game)
    view = ctx.view()
    if not game.view_legal_moves(view):
        ctx.say("No hint: " + ("the game is over." if game.view_outcome(view) is not None
                               else "it is not your turn."))
        return False
    bot = QuatrefoilBot(game, ctx.seat, ctx.seed, trusted=frozenset(range(4)) - ctx.people)
    move = ctx.wait_for("The quatrefoil bot", lambda: bot.propose(view, idle=float("inf")))
    if move is None:
        ctx.say("Hint: wait for a team-mate's push.")
        return False
    name = ACTION_NAMES[move.action]
    ctx.say(f"Hint (what the quatrefoil bot would do from your view): {name}"
            f" ({explain(game, view.observation, move)})")
    return False


def change_pace(ctx: PlayContext, argument: str) -> bool:
    try:
        pace = float(argument)
    except ValueError:
        pace = -1.0
    if not 0 <= pace <= 60:
        ctx.say("Write pace SECONDS, from 0 to 60 (the bots' mean time per action).")
        return False
    for p, seat in enumerate(ctx.table.seats):
        if seat.is_bot:
            if isinstance(seat.bot, QuatrefoilBot):
                seat.bot.patience = patience(pace)
            ctx.table.set_seat(p, Seat.of_bot(seat.bot, pace))
    ctx.say(f"Bots now take about {pace:g} s per action.")
    return False


HINT = Command("hint", "what the quatrefoil bot would do in your seat, from your view",
               quatrefoil_hint)
PACE = Command("pace", "pace SECONDS: the bots' mean time per action", change_pace)

RULES = PlayRules(commands=(HINT, PACE), without=frozenset({"hint"}), runner=run_quatrefoil,
                  opponent="quatrefoil", no_hot_seat=NO_HOT_SEAT, make_bot=make_quatrefoil_bot,
                  pace=default_pace)
#: Dual has no turns, so no undo either
DUAL_RULES = PlayRules(
    commands=RULES.commands, without=frozenset({"hint", "undo"}), runner=run_quatrefoil,
    opponent="quatrefoil", no_hot_seat=NO_HOT_SEAT, make_bot=make_quatrefoil_bot,
    pace=default_pace)
