"""Request bodies of the REST API (strict: unknown fields and wrong types are refused),
and the shapes of its answers, for the OpenAPI description at ``/docs``."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

MAX_VERSION = 2**53 - 1


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatEntry(Strict):
    player: str = Field(max_length=40, description="human, open or bot:LEVEL")
    name: str | None = Field(default=None, max_length=40, description="display name")


class ClockBody(Strict):
    base: float = Field(ge=1, le=86_400, description="seconds on each clock (1 s to 24 h)")
    increment: float = Field(default=0.0, ge=0, le=3_600, description="seconds added a move")


class CreateTable(Strict):
    game: str = Field(max_length=40, examples=["folio"])
    variant: str | None = Field(default=None, max_length=40)
    options: dict[str, str | int | float | bool] = Field(default_factory=dict,
                                                         max_length=16)
    seed: int | None = Field(default=None, ge=0, le=MAX_VERSION)
    setup: str | None = Field(default=None, max_length=4000,
                              description="a start position in the game's notation")
    seats: list[str | SeatEntry] = Field(
        min_length=1, max_length=8, examples=[["human", "bot:level3"]],
        description="per seat: 'human' (a link now), 'open' (taken from the lobby), "
                    "'bot:LEVEL'; or {'player': ..., 'name': ...}")
    clock: ClockBody | None = None
    private: bool = False


class MoveBody(Strict):
    move: str = Field(max_length=200, examples=["d4 Gs"])
    version: int = Field(ge=0, le=MAX_VERSION)


class VersionBody(Strict):
    version: int = Field(ge=0, le=MAX_VERSION)


class OfferBody(Strict):
    offer: str = Field(max_length=16, description="draw or undo")
    version: int = Field(ge=0, le=MAX_VERSION)


class AnswerBody(Strict):
    accept: bool


class JoinBody(Strict):
    seat: int | None = Field(default=None, ge=0, le=7, description="0-based; default: the"
                             " first open seat")
    name: str | None = Field(default=None, max_length=40)


class ImportBody(Strict):
    record: str = Field(max_length=60_000, description="a record in the project's format")
    seats: list[str | SeatEntry] | None = Field(default=None, max_length=8)
    private: bool = False


class SeatLink(BaseModel):
    seat: int
    token: str | None
    url: str


class Created(BaseModel):
    id: str
    url: str
    seats: list[SeatLink]
    you: int | None = None


class Joined(BaseModel):
    seat: int
    token: str
    url: str


class Done(BaseModel):
    ok: bool
    text: str
    state: dict[str, Any]
