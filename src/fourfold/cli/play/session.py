"""One play session: the match, who sits in each seat, the terminal and the record file.

``Session`` implements ``fourfold.render.PlayContext``, the interface that
game-specific commands and custom session runners are written against.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fourfold.ai import Bot
from fourfold.cli.play.errors import PlayError
from fourfold.cli.play.terminal import Terminal
from fourfold.core.game import Game
from fourfold.core.match import Match
from fourfold.core.record import format_record
from fourfold.render.presenter import Presenter


@dataclass
class Session:
    """Everything a running game needs. ``bots`` maps a seat to its bot; other seats are
    people at this terminal."""

    match: Match[Any, Any]
    presenter: Presenter
    terminal: Terminal
    bots: dict[int, Bot] = field(default_factory=dict)
    seed: int | None = None
    save_path: Path | None = None

    @property
    def game(self) -> Game[Any, Any]:
        return self.match.game

    @property
    def colour(self) -> bool:
        return self.terminal.colour

    def is_human(self, player: int) -> bool:
        return player not in self.bots

    def player_label(self, player: int) -> str:
        name = self.game.player_name(player)
        if player in self.bots:
            return f"{name} ({self.bots[player].name})"
        return f"{name} (you)" if self.bots else name

    def bot_move(self, player: int) -> Any:
        return self.bots[player].choose(self.game.view(self.match.state, player))

    def play(self, move: Any) -> str:
        self.match.play(move)
        self.tell_bots()
        return self.match.notation[-1]

    def tell_bots(self) -> None:
        for player, bot in self.bots.items():
            bot.observe(self.game.view(self.match.state, player))

    def say(self, text: str) -> None:
        self.terminal.say(text)

    def ask(self, prompt: str) -> str | None:
        return self.terminal.ask(prompt)

    def save(self) -> str | None:
        if self.save_path is None:
            return None
        text = format_record(self.match.to_record())
        try:
            self.save_path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise PlayError(f"cannot save the record to {self.save_path}", exc.strerror
                            or str(exc)) from None
        return str(self.save_path)


def plies_to_undo(match: Match[Any, Any], is_human: Callable[[int], bool]) -> int:
    """How many plies take the game back to before the latest ply a person made (0: none)."""
    for i in range(len(match.moves) - 1, -1, -1):
        mover = match.game.to_move(match.states[i])
        if mover is not None and is_human(mover):
            return len(match.moves) - i
    return 0
