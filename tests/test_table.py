"""The table referee: seats, versions, refusals from the actor's view, clocks supplied from
outside, offers, resignation, bots off the caller's thread, and events per recipient."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

import fourfold
from fourfold.ai import make_bot
from fourfold.ai.base import Bot
from fourfold.core.game import View
from fourfold.core.match import Match
from fourfold.core.outcome import Result
from fourfold.table import ClockSettings, Event, EventKind, ManualClock, Seat, Table, TableError


def quarto_vs_bot(**kwargs: Any) -> tuple[Table, ManualClock]:
    game = fourfold.load("quarto")
    clock = ManualClock()
    bot = make_bot("random", game, 1, seed=1)
    table = Table(game, [Seat.human("Ann"), Seat.of_bot(bot)], clock=clock, inline_bots=True,
                  **kwargs)
    return table, clock


def two_people(name: str = "icedao", **kwargs: Any) -> tuple[Table, ManualClock]:
    game = fourfold.load(name)
    clock = ManualClock()
    return Table(game, [Seat.human("Ann"), Seat.human("Bob")], clock=clock, **kwargs), clock


def test_versions_rise_with_each_change_and_stale_actions_are_refused() -> None:
    table, _ = two_people()
    assert table.version == 0 and table.actors() == (0,)
    first = table.legal_moves(0)[0]
    table.play(0, first, version=0)
    assert table.version == 1 and table.actors() == (1,)
    with pytest.raises(TableError, match="stale: sent on version 0, but 1 change landed"):
        table.play(1, table.legal_moves(1)[0], version=0)
    with pytest.raises(TableError, match="does not exist yet"):
        table.play(1, table.legal_moves(1)[0], version=7)
    table.play(1, table.legal_moves(1)[0], version=1)
    assert table.version == 2


def test_refusals_say_why_from_the_actors_view() -> None:
    table, _ = two_people()
    with pytest.raises(TableError, match="it is Ann's turn, not yours"):
        table.play(1, "a1-a2")
    with pytest.raises(TableError, match="cannot read move"):
        table.play(0, "not a move")
    with pytest.raises(TableError, match="no seat 5"):
        table.play(5, "a1-a2")
    assert table.version == 0 and table.plies == 0


def test_a_bot_answers_at_once_inline_and_undo_against_it_is_immediate() -> None:
    table, _ = quarto_vs_bot()
    assert table.version == 1  # the bot (second player) gave first
    table.play(0, table.legal_moves(0)[0])
    assert table.version == 3 and table.plies == 3
    assert table.offer(0, "undo") == "took back 2 moves"
    assert table.plies == 1 and table.actors() == (0,)


def test_undo_and_draw_between_people_need_consent() -> None:
    table, _ = two_people()
    seen: list[Event] = []
    table.subscribe(1, seen.append)
    table.play(0, table.legal_moves(0)[0])
    assert table.offer(0, "undo") == "offer sent"
    assert table.pending_offer() == ("undo", 0)
    assert seen[-1].kind is EventKind.OFFER and seen[-1].offer == "undo"
    with pytest.raises(TableError, match="no offer for you"):
        table.answer(0, True)
    assert table.answer(1, False) == "declined" and table.plies == 1
    table.offer(0, "undo")
    assert table.answer(1, True) == "took back 1 move" and table.plies == 0
    table.offer(1, "draw")
    assert table.answer(0, True) == "draw agreed"
    assert table.outcome is not None and table.outcome.result is Result.DRAW
    assert seen[-1].kind is EventKind.END


def test_a_bot_refuses_draws_and_resigning_loses() -> None:
    table, _ = quarto_vs_bot()
    with pytest.raises(TableError, match="a bot does not accept draws"):
        table.offer(0, "draw")
    table.resign(0)
    assert table.outcome is not None and table.outcome.winner == 1
    with pytest.raises(TableError, match="the game is over"):
        table.play(0, "a1")


def test_running_out_of_time_loses_and_the_increment_is_added() -> None:
    table, clock = two_people(player_clock=ClockSettings(10, 2))
    clock.advance(4)
    table.play(0, table.legal_moves(0)[0])
    assert table.clocks() == (8.0, 10.0)  # 10 - 4 + 2
    assert table.next_deadline() == 14.0
    clock.advance(9.5)
    table.advance()
    assert table.outcome is None and table.clocks() == (8.0, 0.5)
    clock.advance(0.5)
    table.advance()
    outcome = table.outcome
    assert outcome is not None and outcome.winner == 0
    assert outcome.reason.endswith("ran out of time")


def dead_quarto_position() -> Any:
    """A real Quarto position, one placement from a drawn end, where no line can be won:
    found by seeded random play."""
    import random

    game = fourfold.load("quarto")
    rng = random.Random(7)
    for _ in range(2000):
        state = game.initial_state()
        trail = []
        while game.outcome(state) is None:
            trail.append(state)
            state = game.apply(state, rng.choice(game.legal_moves(state)))
        if state.line is None:
            return trail[-1]
    raise AssertionError("no drawn game found")


def test_a_timeout_is_a_draw_when_the_other_side_could_no_longer_win() -> None:
    game = fourfold.load("quarto")
    start = dead_quarto_position()
    mover = game.to_move(start)
    assert not game.could_still_win(start, 1 - mover)
    clock = ManualClock()
    table = Table(game, [Seat.human("A"), Seat.human("B")], start=start, clock=clock,
                  player_clock=ClockSettings(5))
    clock.advance(5)
    table.advance()
    outcome = table.outcome
    assert outcome is not None and outcome.result is Result.DRAW
    assert "could no longer win" in outcome.reason
    # and from the start, where lines are open, running out of time loses
    fresh = Table(game, [Seat.human("A"), Seat.human("B")], clock=clock,
                  player_clock=ClockSettings(5))
    clock.advance(5)
    fresh.advance()
    assert fresh.outcome is not None and fresh.outcome.result is Result.WIN


def test_the_shared_timer_of_race_the_clock_ends_in_a_team_loss_and_reveals_the_cards() -> None:
    game = fourfold.load("quatrefoil", "race-the-clock", clock_seconds=30)
    clock = ManualClock()
    seats = [Seat.human("me")] + [
        Seat.of_bot(make_bot("quatrefoil", game, p, seed=p), pace=5.0) for p in (1, 2, 3)]
    table = Table(game, seats, start=game.initial_state(8), clock=clock, inline_bots=True,
                  seed=1)
    events: list[Event] = []
    table.subscribe(None, events.append)
    assert table.clocks() == (30.0,)
    assert events[0].view.observation.solution is None
    clock.advance(30)
    table.advance()
    outcome = table.outcome
    assert outcome is not None and outcome.result is Result.TEAM_LOSS
    assert outcome.reason == "the 30-second clock ran out"
    assert events[-1].kind is EventKind.END
    referee = Match.from_record(table.referee_record())
    assert events[-1].view.observation.solution == referee.state.deal.solution


def test_dual_bots_act_at_their_pace_and_a_stale_action_is_refused() -> None:
    game = fourfold.load("quatrefoil", "dual")
    clock = ManualClock()
    seats = [Seat.human("me")] + [
        Seat.of_bot(make_bot("quatrefoil", game, p, seed=p), pace=2.0) for p in (1, 2, 3)]
    table = Table(game, seats, start=game.initial_state(5), clock=clock, inline_bots=True,
                  seed=3)
    assert table.actors() == (0, 1, 2, 3) and table.real_time
    mine = table.legal_moves(0)
    assert all(m.startswith("1:") for m in mine)
    for _ in range(60):
        if table.version:
            break
        clock.advance(0.5)
        table.advance()
    assert table.version >= 1
    with pytest.raises(TableError, match="stale"):
        table.play(0, mine[0].split("@")[0] + "@0", version=0)


class SlowBot(Bot):
    """Waits for a signal before choosing: a search that can be overtaken."""

    name = "slow"

    def __init__(self, game: Any, player: int) -> None:
        super().__init__(game, player)
        self.go = threading.Event()
        self.started = threading.Event()

    def choose(self, view: View) -> Any:
        self.started.set()
        self.go.wait(10)
        return self.game.view_legal_moves(view)[0]


def drain(worker: ThreadPoolExecutor) -> None:
    """Return once everything ``worker`` (one thread) started has finished, its done
    callbacks (the table's handling of a bot's answer) included: a job queued behind
    them runs only after they have."""
    try:
        worker.submit(lambda: None).result(timeout=10)
    except TimeoutError:
        raise AssertionError("waited 10s in vain for the bot's worker to finish") from None


def test_bots_think_off_the_callers_thread_and_dropped_work_never_lands() -> None:
    game = fourfold.load("icedao")
    bot = SlowBot(game, 1)
    worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-bot")
    table = Table(game, [Seat.human("Ann"), Seat.of_bot(bot)], executor=worker)
    try:
        table.play(0, table.legal_moves(0)[0])
        assert bot.started.wait(10)
        assert table.thinking() == (1,)
        assert table.offer(0, "undo") == "took back 1 move"  # the bot's work is dropped
        bot.go.set()
        drain(worker)  # the bot answered and the table has dealt with the answer
        assert table.plies == 0 and table.version == 2 and table.thinking() == ()
        bot.go.clear()
        bot.started.clear()
        table.play(0, table.legal_moves(0)[0])
        assert bot.started.wait(10)
        bot.go.set()
        drain(worker)
        assert table.plies == 2 and table.actors() == (0,)
    finally:
        table.close()
        worker.shutdown(wait=True, cancel_futures=True)


def test_each_recipient_gets_its_own_view_in_events() -> None:
    game = fourfold.load("quatrefoil")
    table = Table(game, start=game.initial_state(3))
    streams: dict[Any, list[Event]] = {r: [] for r in (None, 0, 1, 2, 3)}
    for recipient, stream in streams.items():
        table.subscribe(recipient, stream.append)
    table.play(0, "cw")
    for recipient, stream in streams.items():
        assert [e.kind for e in stream] == [EventKind.START, EventKind.MOVE]
        assert all(e.recipient == recipient and e.view.player == recipient for e in stream)
        obs = stream[-1].view.observation
        shown = [s for s in range(4) if obs.position_cards[s] is not None]
        assert shown == ([] if recipient is None else [recipient])
        assert stream[-1].move == "cw" and stream[-1].version == 1


def test_a_change_that_cannot_be_saved_does_not_count() -> None:
    saved: list[int] = []
    fail = {"now": False}

    def save(table: Table) -> None:
        if fail["now"]:
            raise OSError("disk full")
        saved.append(table.version)

    game = fourfold.load("icedao")
    table = Table(game, [Seat.human("A"), Seat.human("B")], on_change=save)
    seen: list[Event] = []
    table.subscribe(None, seen.append)
    table.play(0, table.legal_moves(0)[0])
    assert saved == [1]
    fail["now"] = True
    before = (table.version, table.record_for(None).moves, len(seen))
    with pytest.raises(TableError, match="could not be saved, so it did not count"):
        table.play(1, table.legal_moves(1)[0])
    with pytest.raises(TableError, match="could not be saved"):
        table.resign(1)
    assert (table.version, table.record_for(None).moves, len(seen)) == before
    assert table.outcome is None and table.actors() == (1,)
    fail["now"] = False
    table.play(1, table.legal_moves(1)[0])
    assert saved == [1, 2]


def test_clocks_are_saved_and_restored_without_the_time_between() -> None:
    game = fourfold.load("icedao")
    clock = ManualClock()
    table = Table(game, [Seat.human("A"), Seat.human("B")], clock=clock,
                  player_clock=ClockSettings(60, 1))
    clock.advance(10)
    table.play(0, table.legal_moves(0)[0])
    clock.advance(5)
    state = table.clock_state()
    assert state.left == (51.0, 55.0)
    clock.advance(1000)  # the server was down: that time is not counted
    again = Table(game, [Seat.human("A"), Seat.human("B")],
                  match=Match.from_record(table.referee_record()),
                  version=table.version, clock=clock, player_clock=ClockSettings(60, 1),
                  clock_state=state)
    assert again.clocks() == (51.0, 55.0) and again.version == 1
    race = fourfold.load("quatrefoil", "race-the-clock", clock_seconds=100)
    timed = Table(race, clock=clock)
    clock.advance(30)
    saved = timed.clock_state()
    assert saved.shared_elapsed == 30.0
    clock.advance(500)
    assert Table(race, clock=clock, clock_state=saved).clocks() == (70.0,)


def test_after_a_declared_ending_every_view_says_so_and_offers_no_move() -> None:
    for name, variant in (("icedao", None), ("quatrefoil", "base")):
        game = fourfold.load(name, variant)
        table = Table(game)
        table.resign(0)
        for recipient in (None, *range(game.num_players)):
            view = table.view(recipient)
            assert game.view_outcome(view) == table.outcome
            assert game.view_actors(view) == () and table.legal_moves(recipient) == []
        assert table.actors() == ()


def test_a_snapshot_is_one_recipients_table_at_one_instant() -> None:
    game = fourfold.load("quarto")
    table = Table(game, [Seat.human("A"), Seat.human("B")])
    first = table.snapshot(None)
    assert (first.version, first.moves, first.last_move, first.offer) == (0, (), None, None)
    mover = table.actors()[0]
    played = table.play(mover, table.legal_moves(mover)[0])
    table.offer(1 - mover, "draw")
    snap = table.snapshot(mover)
    assert snap.version == 1 and snap.recipient == mover and snap.moves == (played,)
    assert snap.view == table.view(mover) and snap.offer == ("draw", 1 - mover)
    assert snap.last_move is not None
    assert game.view_format_move(first.view, snap.last_move) == played
    assert snap.outcome is None and snap.clocks == ()


def test_history_shows_hidden_cards_only_once_the_game_is_over() -> None:
    """The table owns the rule: a perfect-information game's past at any time; a game
    with face-down cards, refused while it is on and shown revealed once it is over."""
    quarto = fourfold.load("quarto")
    open_game = Table(quarto, [Seat.human("A"), Seat.human("B")])
    mover = open_game.actors()[0]
    played = open_game.play(mover, open_game.legal_moves(mover)[0])
    history = open_game.history_for(1 - mover)
    assert [p.move for p in history.plies] == [None, played]
    assert [p.by for p in history.plies] == [None, mover]
    assert history.plies[1].to_move == open_game.actors()[0]
    assert history.plies[1].view == open_game.view(1 - mover)

    game = fourfold.load("quatrefoil")
    table = Table(game, start=game.initial_state(3))
    table.play(0, "cw")
    with pytest.raises(TableError, match="hidden cards are shown once it is over") as refused:
        table.history_for(0)
    assert refused.value.kind == "hidden" and not table.shows_the_past()
    table.resign(1)
    assert table.shows_the_past() and open_game.shows_the_past()
    history = table.history_for(None)
    assert [p.move for p in history.plies] == [None, "cw"]
    assert history.outcome is not None and history.declared is not None
    assert history.plies[0].view == game.revealed_view(
        Match.from_record(table.referee_record()).start, None)
    assert history.plies[-1].view == table.view(None)
