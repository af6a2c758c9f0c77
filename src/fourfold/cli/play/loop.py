"""The turn loop of ``fourfold play``, on a ``Table``: people type, bots and clocks run.

The loop only reads lines, shows what a person's seat may know and acts through the
table; the table decides everything (whose turn, legality, clocks, offers, bots).
Bots think on the table's worker thread, so while one thinks the loop waits for the
table's event (saying ``... is thinking...`` after half a second) and Ctrl-C is
handled at once. Time is the table's clock: the loop waits for a line no longer than
``table.next_deadline()`` and then calls ``table.advance()``, so a clock runs out on
screen while a person thinks.

Every bad line gets one friendly line quoting the rules' reason, and the prompt comes
back; a traceback is never shown. ``quit``, end of input and Ctrl-C end the session
(saving the record when asked); so does the end of the game, after the outcome.

``TurnLoop`` has a few methods a game's runner overrides (``intro``, ``show``,
``reading``, ``say_event``, ``final``, ``act``): the Quatrefoil session does.
"""

from __future__ import annotations

import time
from typing import Any

from fourfold.cli.play import session as session_module
from fourfold.cli.play.builtins import QUIT_WORDS, find_command
from fourfold.cli.play.console import Nothing
from fourfold.cli.play.context import PlayContext
from fourfold.cli.play.rules import title_label
from fourfold.cli.play.screen import show_position, show_turn
from fourfold.core.errors import FourfoldError, IllegalMoveError, NotationError
from fourfold.core.outcome import Outcome
from fourfold.core.spec import Utility
from fourfold.table import Event, EventKind, TableError

#: seconds left on a clock at which a person is warned
CLOCK_WARNINGS = (60, 30, 10)
#: the longest line read as a move or command (the longest real one is far shorter); a
#: longer line (a paste gone wrong) is refused in one line, not quoted back whole
MAX_LINE = 200


def complain(ctx: PlayContext, line: str, error: FourfoldError) -> None:
    """One line saying why ``line`` was not played."""
    if isinstance(error, NotationError):
        ctx.say(f"Cannot read {line!r}: {error.reason}. Type 'help' for how to write a move.")
    elif isinstance(error, IllegalMoveError):
        ctx.say(f"Illegal move {error.move!r}: {error.reason}.")
    elif isinstance(error, TableError):
        ctx.say(f"Not played: {error.reason}.")
    else:
        ctx.say(f"Not played: {error}")


def labels(ctx: PlayContext) -> tuple[str, ...]:
    return tuple(ctx.player_label(p) for p in range(ctx.game.num_players))


def play_line(ctx: PlayContext, text: str, version: int | None = None) -> bool:
    """Play a typed move for ``ctx.seat``: read and checked from the seat's view, then
    sent to the table. Returns whether it landed."""
    game, view = ctx.game, ctx.view()
    try:
        move = game.view_parse_move(view, text)
        refusal = game.view_error(view, move)
        if refusal is not None:
            raise refusal
        ctx.table.play(ctx.seat, move, version)
    except FourfoldError as error:
        complain(ctx, text, error)
        return False
    return True


def handle_line(ctx: PlayContext, text: str) -> bool:
    """Run a command or play a move typed by a person; return whether to show the board."""
    word, _, rest = text.partition(" ")
    command = find_command(ctx, word)
    if command is not None:
        return command.run(ctx, rest.strip())
    return play_line(ctx, text)


class TurnLoop:
    """One session's loop (see the module docstring); ``run`` returns the exit status."""

    def __init__(self, ctx: PlayContext) -> None:
        self.ctx = ctx
        self.table = ctx.table
        self.game = ctx.game
        #: (table version, seat) of the last screen drawn, to draw each one once
        self.shown: tuple[int, int] | None = None
        #: the last view the listening seat had, to explain the next move from it
        self.before: Any = None
        self.warned: set[tuple[int, int]] = set()
        #: seconds left on each clock when last looked at (-1: the shared clock)
        self.last_left: dict[int, float] = {}
        self.thinking: dict[tuple[int, ...], float] = {}

    # -- overridable -------------------------------------------------------------------
    def intro(self) -> None:
        ctx = self.ctx
        together = self.game.info.spec.utility is Utility.COOPERATIVE
        ctx.say(f"{title_label(self.game)}: "
                + (" with " if together else " vs ").join(labels(ctx)))
        if self.table.player_clock is not None:
            ctx.say(f"Clock: {self.table.player_clock.describe()} for each player;"
                    " who runs out of time loses.")
        ctx.say("Type 'help' for commands and how to write a move, 'moves' for the legal"
                " moves.")

    def person_to_act(self) -> int | None:
        """The person at this terminal who may act now, if any."""
        return next((p for p in self.table.actors() if self.ctx.is_human(p)), None)

    def reading(self) -> int | None:
        """The seat whose prompt should wait for a line now (``None``: no prompt)."""
        return self.person_to_act()

    def show(self, seat: int) -> None:
        show_position(self.ctx, seat)
        if seat in self.table.actors():
            show_turn(self.ctx, seat)

    def say_event(self, event: Event) -> None:
        """Show an event from the table (a person's own doings were shown already)."""
        if event.kind is not EventKind.MOVE or event.seat is None:
            return
        if self.ctx.is_human(event.seat):
            return
        said = f"{self.ctx.player_label(event.seat)} plays {event.move}"
        words = self.explain(event)
        self.ctx.say(f"{said}: {words}" if words else said)

    def explain(self, event: Event) -> str:
        if self.before is None or event.move is None:
            return ""
        try:
            move = self.game.view_parse_move(self.before, event.move)
            return self.ctx.presenter.explain_move(self.game, self.before.observation, move)
        except FourfoldError:
            return ""

    def final(self, outcome: Outcome) -> None:
        show_position(self.ctx, self.ctx.seat)
        self.ctx.say(f"Game over. {outcome.describe(labels(self.ctx))}")

    def act(self, seat: int, line: str) -> bool:
        """Handle a line typed by ``seat``; return whether to draw the screen again."""
        return handle_line(self.ctx, line)

    # -- the loop ----------------------------------------------------------------------
    def run(self) -> int:
        self.intro()
        try:
            return self.loop()
        except KeyboardInterrupt:  # while a bot or a hint thinks, or at the prompt
            self.ctx.console.drop_prompt()
            self.ctx.say("")
            return self.finish("Interrupted: game left unfinished.")
        finally:
            self.ctx.console.drop_prompt()
            self.ctx.close()

    def finish(self, message: str | None) -> int:
        """Say how the session ended and save the record if asked."""
        if message is not None:
            self.ctx.say(message)
        path = self.ctx.save()
        if path is not None:
            self.ctx.say(f"Record saved to {path}")
        return 0

    def report(self) -> None:
        while self.ctx.events:
            event = self.ctx.events.popleft()
            if event.kind is not EventKind.START:
                self.say_event(event)
            self.before = event.view

    def loop(self) -> int:
        ctx = self.ctx
        while True:
            self.table.advance()
            if self.table.outcome is not None:
                ctx.console.drop_prompt()  # the game is over: no prompt comes back
            self.report()
            self.warn_clock()
            outcome = self.table.outcome
            if outcome is not None:
                ctx.console.drop_prompt()
                self.final(outcome)
                return self.finish(None)
            seat = self.reading()
            if seat is not None:
                ctx.seat = seat
                if self.shown != (self.table.version, seat):
                    self.shown = (self.table.version, seat)
                    self.show(seat)
            timeout = self.timeout()
            if seat is None:
                self.wait_for_bots(timeout)
                continue
            got = ctx.console.wait(f"{ctx.player_label(seat)}> ", timeout)
            if isinstance(got, Nothing):
                continue
            if got is None or got.strip().lower() in QUIT_WORDS:
                return self.finish("Game left unfinished.")
            line = got.strip()
            if len(line) > MAX_LINE:
                ctx.say(f"Not read: that line is {len(line):,} characters long, and no move"
                        f" or command is longer than {MAX_LINE}. Type 'help' for how to"
                        " write a move.")
            elif line:
                ctx.seat = seat
                if self.act(seat, line):
                    self.shown = None

    def timeout(self) -> float | None:
        """Seconds until the table or a clock warning has something to do."""
        ctx = self.ctx
        times = [t for t in (ctx.seconds_to(self.table.next_deadline()), self.warning_in())
                 if t is not None]
        return min(times) if times else None

    # -- clocks ------------------------------------------------------------------------
    def running_clock(self) -> tuple[int, float] | None:
        """(whose clock: a seat, or -1 for the shared one; seconds left) for the clock a
        person here should be warned about, or ``None``."""
        clocks = self.table.clocks()
        if len(clocks) == 1:
            return -1, clocks[0]
        actors = self.table.actors()
        if clocks and actors and self.ctx.is_human(actors[0]):
            return actors[0], clocks[actors[0]]
        return None

    def warning_in(self) -> float | None:
        running = self.running_clock()
        if running is None:
            return None
        left = running[1]
        due = [left - mark for mark in CLOCK_WARNINGS if left > mark]
        return min(due) if due else None

    def warn_clock(self) -> None:
        """Say so when the running clock has just passed one of ``CLOCK_WARNINGS``."""
        running = self.running_clock()
        if running is None:
            return
        owner, left = running
        last = self.last_left.get(owner, left)
        self.last_left[owner] = left
        passed = [m for m in CLOCK_WARNINGS if left <= m < last and (owner, m) not in self.warned]
        if not passed:
            return
        self.warned.update((owner, m) for m in passed)
        if left > 0:
            whose = "" if owner < 0 else f" {self.ctx.player_label(owner)}:"
            self.ctx.say(f"[clock]{whose} {min(passed)} s left")

    # -- bots --------------------------------------------------------------------------
    def wait_for_bots(self, timeout: float | None) -> None:
        """Wait for a bot's move (or the next deadline), saying who is thinking."""
        thinking = self.table.thinking()
        if not thinking:
            self.ctx.console.wait(None, timeout)
            return
        key = (self.table.version, *thinking)
        started = self.thinking.setdefault(key, time.monotonic())
        left = session_module.THINKING_DELAY - (time.monotonic() - started)
        if left > 0:
            self.ctx.console.wait(None, left if timeout is None else min(left, timeout))
            return
        if started > 0:
            self.thinking[key] = -1.0  # said once
            names = " and ".join(self.ctx.player_label(p) for p in thinking)
            self.ctx.say(f"{names} {'is' if len(thinking) == 1 else 'are'} thinking...")
        self.ctx.console.wait(None, timeout)


def run_turns(ctx: PlayContext) -> int:
    """Play until the game ends or the person quits; return the exit status."""
    return TurnLoop(ctx).run()
