"""The terminal session of Quatrefoil: one person, three bots, a clock, real time.

``fourfold play quatrefoil [--variant V]`` hands its session to ``run_session`` (the
Quatrefoil presenter's ``session``); ``python -m fourfold.cli.play_quatrefoil`` runs
the same session on its own, with ``--seat`` and ``--pace``.

The person takes one seat (``seat N`` before the first action, or ``--seat``); the
quatrefoil bots take the other three. The screen is drawn from that seat's view only,
so it shows that seat's cards and the face-up ones, every seat's signal and, in Race
the Clock (or a timed Dual), the clock. Time is real: the session moves the game's
clock with ``wait`` plies as whole seconds pass, so the record replays exactly.

In Dual there are no turns: bots act at a human-like pace (``pace`` seconds on
average, give or take 40%) while the person types actions. A typed action is sent
with the version of the screen the person was looking at (the newest one shown at
least ``REACTION`` seconds before the line arrived); if a bot's action landed after
that screen, the action is refused as stale, with the reason, and the new screen is
shown.

Time and input are injectable (``Clock``, ``LineSource``), so tests can run whole
real-time sessions in simulated time.
"""

from __future__ import annotations

import argparse
import math
import queue
import random
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Protocol

from fourfold.ai.quatrefoil import QuatrefoilBot
from fourfold.core.errors import FourfoldError, IllegalMoveError, NotationError
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.core.record import format_record
from fourfold.core.registry import load
from fourfold.games.quatrefoil.arrangement import ACTION_NAMES, parse_action_name
from fourfold.games.quatrefoil.game import QuatrefoilGame
from fourfold.games.quatrefoil.state import Action, Wait
from fourfold.render.presenter import PlayContext, Presenter
from fourfold.render.quatrefoil import (
    QuatrefoilPresenter,
    draw_observation,
    draw_referee,
    explain,
)

QUIT_WORDS = ("quit", "exit", "q")
DEFAULT_DUAL_PACE = 2.5
DEFAULT_TIMED_PACE = 2.0
CLOCK_WARNINGS = (60, 30, 10)
#: Seconds a person needs to react to a new screen: a Dual action typed sooner after a
#: bot's action was chosen on the screen before it (and is refused as stale).
REACTION = 0.8


class Clock(Protocol):
    def __call__(self) -> float:
        """Seconds on a monotonic clock."""
        ...


class LineSource(Protocol):
    def poll(self, timeout: float | None) -> tuple[bool, str | None]:
        """Wait up to ``timeout`` seconds (``None``: as long as it takes) for a line.

        ``(False, None)``: nothing yet. ``(True, line)``: a line. ``(True, None)``: input
        has ended.
        """
        ...


class DirectLines:
    """Read a line only when asked: for turn-based games without a clock."""

    def __init__(self, ask: Callable[[], str | None]) -> None:
        self.ask = ask

    def poll(self, timeout: float | None) -> tuple[bool, str | None]:
        if timeout is not None:
            time.sleep(timeout)
            return False, None
        return True, self.ask()


class ThreadedLines:
    """Read lines on a background thread, so that time and bots go on while one types."""

    def __init__(self, ask: Callable[[], str | None]) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.ask = ask
        self.thread = threading.Thread(target=self._read, daemon=True)

    def _read(self) -> None:
        while True:
            line = self.ask()
            self.lines.put(line)
            if line is None:
                return

    def poll(self, timeout: float | None) -> tuple[bool, str | None]:
        if not self.thread.is_alive() and self.lines.empty() and self.thread.ident is None:
            self.thread.start()  # the first prompt comes after the first screen
        try:
            return True, self.lines.get(timeout=timeout)
        except queue.Empty:
            return False, None


class QuatrefoilSession:
    """One running session; ``run`` returns the exit status."""

    def __init__(
        self,
        ctx: PlayContext,
        *,
        seat: int | None = None,
        pace: float | None = None,
        clock: Clock | None = None,
        lines: LineSource | None = None,
    ) -> None:
        game = ctx.game
        if not isinstance(game, QuatrefoilGame):
            raise FourfoldError(f"the Quatrefoil session cannot run {game.name}")
        self.ctx = ctx
        self.game = game
        humans = [p for p in range(4) if ctx.is_human(p)]
        self.human = seat if seat is not None else (humans[0] if humans else 0)
        if pace is None:
            pace = DEFAULT_DUAL_PACE if game.dual else (
                DEFAULT_TIMED_PACE if game.clock is not None else 0.0)
        self.pace = pace
        self.rng = random.Random(ctx.seed)
        self.now: Clock = clock or time.monotonic
        self.lines = lines or self._default_lines()
        self.bots = self._make_bots()
        self.started = self.now() - ctx.match.state.elapsed
        self.bot_due: dict[int, float] = {}
        self.turn_due: float | None = None
        self.last_landed = self.now()
        self.warned: set[int] = set()
        self.refused = 0
        #: (time shown, version) of every screen drawn for the person
        self.screens: list[tuple[float, int]] = []

    # -- set-up -----------------------------------------------------------------------------
    def _default_lines(self) -> LineSource:
        def ask() -> str | None:
            return self.ctx.ask(f"{self.game.player_name(self.human)}> ")

        if self.game.dual or self.game.clock is not None:
            return ThreadedLines(ask)
        return DirectLines(ask)

    def _make_bots(self) -> dict[int, QuatrefoilBot]:
        seed = self.ctx.seed
        # The bots read each other's actions as bot choices, but not the person's.
        trusted = frozenset(p for p in range(4) if p != self.human)
        return {
            p: QuatrefoilBot(self.game, p, None if seed is None else seed + p, trusted=trusted,
                             patience=self._patience())
            for p in range(4) if p != self.human
        }

    def _patience(self) -> float:
        """How long a Dual bot waits for the seat whose push is next before a detour."""
        return max(6.0, 3 * self.pace)

    def label(self, seat: int) -> str:
        who = "you" if seat == self.human else "bot"
        return f"{self.game.player_name(seat)} ({who})"

    def _jitter(self) -> float:
        return self.pace * self.rng.uniform(0.6, 1.4)

    def _schedule_bots(self, now: float) -> None:
        self.bot_due = {p: now + self._jitter() for p in self.bots}

    # -- screen -------------------------------------------------------------------------------
    def show(self) -> None:
        state = self.ctx.match.state
        obs = self.game.view(state, self.human).observation
        self.ctx.say("")
        self.ctx.say(draw_observation(self.game, obs, colour=self.ctx.colour))
        self.screens.append((self.now(), state.version))

    def version_seen(self, arrived: float) -> int:
        """The version a line typed now was chosen on: the newest screen shown at least
        ``REACTION`` seconds before it arrived (nobody reacts faster), else the first."""
        seen = self.screens[0][1] if self.screens else self.ctx.match.state.version
        for shown, version in self.screens:
            if shown <= arrived - REACTION:
                seen = version
        return seen

    def intro(self) -> None:
        game = self.game
        self.ctx.say(f"{game.info.label()}: you are {game.player_name(self.human)};"
                     " the other seats are quatrefoil bots.")
        extra = " You act at any time; so do the bots." if game.dual else ""
        self.ctx.say("Type an action (N>NW, cw, stack, ...), or help, board, rules,"
                     " seat N (before the first action), pace S, quit." + extra)

    def finish(self, message: str | None = None) -> int:
        match = self.ctx.match
        outcome = match.outcome
        if outcome is not None:
            self.ctx.say("")
            self.ctx.say(f"Game over. {outcome.describe()}")
            self.ctx.say("The cards, face up:")
            self.ctx.say(draw_referee(self.game, match.state, colour=self.ctx.colour))
        else:
            self.ctx.say(message or "Game left unfinished.")
        path = self.ctx.save()
        if path is not None:
            self.ctx.say(f"Record saved to {path}")
        return 0

    # -- the loop -----------------------------------------------------------------------------
    def run(self) -> int:
        self.intro()
        self.show()
        if self.game.dual:
            self._schedule_bots(self.now())
        while True:
            match = self.ctx.match
            if match.outcome is not None:
                return self.finish()
            now = self.now()
            if self._move_clock(now):
                continue
            next_event = math.inf
            if self.game.dual:
                seat = min(self.bot_due, key=lambda p: (self.bot_due[p], p))
                if self.bot_due[seat] <= now:
                    self._dual_bot(seat, now)
                    continue
                next_event = self.bot_due[seat]
            else:
                mover = self.game.to_move(match.state)
                if mover is not None and mover in self.bots:
                    if self.turn_due is None:
                        self.turn_due = now + (self._jitter() if self.pace else 0.0)
                    if self.turn_due <= now:
                        self.turn_due = None
                        self._turn_bot(mover)
                        continue
                    next_event = self.turn_due
            if self.game.clock is not None:
                next_event = min(next_event, self.started + match.state.elapsed + 1)
            timeout = None if next_event == math.inf else max(0.0, next_event - now)
            got, line = self.lines.poll(timeout)
            if not got:
                continue
            if line is None or line.strip().lower() in QUIT_WORDS:
                return self.finish()
            self.handle(line.strip())

    def _move_clock(self, now: float) -> bool:
        """Record the whole seconds that have passed as a ``wait``; True if it did."""
        limit = self.game.clock
        state = self.ctx.match.state
        if limit is None:
            return False
        target = min(int(now - self.started), limit)
        if target <= state.elapsed:
            return False
        self.ctx.play(Wait(target - state.elapsed))
        left = limit - target
        for mark in CLOCK_WARNINGS:
            if left <= mark and mark not in self.warned:
                self.warned.add(mark)
                if left > 0:
                    self.ctx.say(f"[clock] {left} s left")
        return True

    def _turn_bot(self, seat: int) -> None:
        state = self.ctx.match.state
        move = self.bots[seat].choose(self.game.view(state, seat))
        notation = self.ctx.play(move)
        self.ctx.say(f"{self.label(seat)}: {notation} ({explain(self.game, state, move)})")
        self.show()

    def _dual_bot(self, seat: int, now: float) -> None:
        bot = self.bots[seat]
        state = self.ctx.match.state
        move = bot.propose(self.game.view(state, seat), idle=now - self.last_landed)
        if move is None:
            self.bot_due[seat] = now + max(self._jitter(), 0.5)
            return
        self._land(seat, move, now)

    def _land(self, seat: int, move: Action | Wait, now: float) -> bool:
        state = self.ctx.match.state
        try:
            notation = self.ctx.play(move)
        except IllegalMoveError as error:
            if seat == self.human:
                self.refused += 1
                self.ctx.say(f"Refused: {error.reason}.")
                self.show()
            return False
        self.ctx.say(f"{self.label(seat)}: {notation} ({explain(self.game, state, move)})")
        self.last_landed = now
        if self.game.dual:
            self._schedule_bots(now)
        self.show()
        return True

    # -- what the person types ------------------------------------------------------------------
    def handle(self, text: str) -> None:
        if not text:
            return
        word, _, rest = text.partition(" ")
        command = word.lower()
        if command in ("help", "?"):
            self.ctx.say(QuatrefoilPresenter().move_help(self.game, self.ctx.match.state))
            self.ctx.say("Commands: board, rules, seat N, pace SECONDS, quit.")
            return
        if command == "board":
            self.show()
            return
        if command == "rules":
            info = self.game.info
            self.ctx.say(info.spec.rules_text(info.variant).rstrip())
            return
        if command == "seat":
            self._change_seat(rest.strip())
            return
        if command == "pace":
            self._change_pace(rest.strip())
            return
        self._human_action(text)

    def _change_seat(self, text: str) -> None:
        if any(isinstance(m, Action) for m in self.ctx.match.moves):
            self.ctx.say("The seat can be changed only before the first action.")
            return
        if text not in ("1", "2", "3", "4"):
            self.ctx.say("Write seat 1, seat 2, seat 3 or seat 4.")
            return
        self.human = int(text) - 1
        self.bots = self._make_bots()
        if self.game.dual:
            self._schedule_bots(self.now())
        self.ctx.say(f"You are now {self.game.player_name(self.human)}.")
        self.show()

    def _change_pace(self, text: str) -> None:
        try:
            pace = float(text)
        except ValueError:
            pace = -1.0
        if not 0 <= pace <= 60 or not math.isfinite(pace):
            self.ctx.say("Write pace SECONDS, from 0 to 60 (the bots' mean time per action).")
            return
        self.pace = pace
        for bot in self.bots.values():
            bot.patience = self._patience()
        self.ctx.say(f"Bots now take about {pace:g} s per action.")

    def _human_action(self, text: str) -> None:
        game, match = self.game, self.ctx.match
        state = match.state
        if text.lower().startswith("wait"):
            self.ctx.say("The clock moves by itself; just type your action when ready.")
            return
        if game.dual:
            action = parse_action_name(text)
            if action is None:
                try:
                    move = game.parse_move(state, text)
                except NotationError as error:
                    self.ctx.say(f"Cannot read {text!r}: not an action ({' '.join(ACTION_NAMES)})"
                                 f" or {error.reason}.")
                    return
                if not isinstance(move, Action) or move.seat != self.human:
                    self.ctx.say(f"You can act only as {game.player_name(self.human)}.")
                    return
            else:
                move = Action(action, self.human, self.version_seen(self.now()))
            self._land(self.human, move, self.now())
            return
        if game.to_move(state) != self.human:
            mover = game.to_move(state)
            whose = game.player_name(mover) if mover is not None else "nobody"
            self.ctx.say(f"It is {whose}'s turn; yours comes after.")
            return
        try:
            move = game.parse_move(state, text)
        except NotationError as error:
            self.ctx.say(f"Cannot read {text!r}: {error.reason}. Type 'help' for the actions.")
            return
        self._land(self.human, move, self.now())


def run_session(
    ctx: PlayContext,
    *,
    seat: int | None = None,
    pace: float | None = None,
    clock: Clock | None = None,
    lines: LineSource | None = None,
) -> int:
    """Run a Quatrefoil session on a play context; return the exit status."""
    _announce_deal(ctx)
    return QuatrefoilSession(ctx, seat=seat, pace=pace, clock=clock, lines=lines).run()


def _announce_deal(ctx: PlayContext) -> None:
    """Say which deal this is, so that it can be dealt again with ``--seed``."""
    if ctx.seed is not None and not ctx.match.moves:
        ctx.say(f"Deal {ctx.seed} (play it again with --seed {ctx.seed}).")


# -- standalone: python -m fourfold.cli.play_quatrefoil ---------------------------------------

class StandaloneContext:
    """A ``PlayContext`` of its own, for running the session without ``fourfold play``."""

    def __init__(self, match: Match[Any, Any], seat: int, seed: int | None,
                 save_path: Path | None, stdin: Any = None, stdout: Any = None) -> None:
        self.match = match
        self.presenter: Presenter = QuatrefoilPresenter()
        self.seed = seed
        self.seat = seat
        self.save_path = save_path
        self.stdin = stdin or sys.stdin
        self.stdout = stdout or sys.stdout
        self.colour = bool(getattr(self.stdout, "isatty", lambda: False)())

    @property
    def game(self) -> Game[Any, Any]:
        return self.match.game

    def is_human(self, player: int) -> bool:
        return player == self.seat

    def player_label(self, player: int) -> str:
        return self.game.player_name(player) + (" (you)" if player == self.seat else " (bot)")

    def bot_move(self, player: int) -> Any:
        return QuatrefoilBot(self.game, player, self.seed).choose(
            self.game.view(self.match.state, player))

    def play(self, move: Any) -> str:
        self.match.play(move)
        return str(self.match.notation[-1])

    def say(self, text: str) -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def ask(self, prompt: str) -> str | None:
        self.stdout.write(prompt)
        self.stdout.flush()
        try:
            line = self.stdin.readline()
        except KeyboardInterrupt:
            return None
        if not line:
            return None
        text = str(line).rstrip("\r\n")
        if not bool(getattr(self.stdin, "isatty", lambda: False)()):
            self.say(text)  # echo piped input, so the transcript reads like the session
        return text

    def save(self) -> str | None:
        if self.save_path is None:
            return None
        self.save_path.write_text(format_record(self.match.to_record()), encoding="utf-8")
        return str(self.save_path)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fourfold.cli.play_quatrefoil",
        description="Play Quatrefoil at the terminal: you take one seat, bots the others.",
    )
    parser.add_argument("--variant", "-v", default=None,
                        help="base, nothing-to-hide, half-and-half, race-the-clock, dual")
    parser.add_argument("--option", "-o", action="append", default=[], metavar="K=V")
    parser.add_argument("--seat", type=int, default=1, choices=(1, 2, 3, 4))
    parser.add_argument("--seed", type=int, default=None, help="the deal (default: random)")
    parser.add_argument("--pace", type=float, default=None,
                        help="bots' mean seconds per action (Dual and timed games)")
    parser.add_argument("--save", type=Path, default=None, metavar="RECORD")
    args = parser.parse_args(argv)
    try:
        from fourfold.cli.common import parse_options

        game = load("quatrefoil", args.variant, **parse_options(args.option))
        seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 2**31)
        match: Match[Any, Any] = Match(game, game.initial_state(seed))
        ctx = StandaloneContext(match, args.seat - 1, seed, args.save)
        if args.seed is None:
            ctx.say(f"Deal {seed} (play it again with --seed {seed}).")
        return run_session(ctx, seat=args.seat - 1, pace=args.pace)
    except FourfoldError as exc:
        print(f"play_quatrefoil: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
