"""Observation tensors: one seat's ``View`` as a float32 array, from the game's own encoder.

An encoder reads only a ``View`` (``game.view(state, seat)``), never the referee's
state, so an observation can hold nothing its seat may not know: two deals a seat
cannot tell apart give it identical tensors (tests/test_envs.py checks this). The
planes of every game are listed by ``plane_names`` and described in docs/envs.md.

What a game provides (its plugin protocol): the ``observation`` part of its extension
bundle (``fourfold.core.extensions``) names an ``Observation``, usually in the game's
folder (``fourfold.games.<game>.observe:OBSERVATION``)::

    OBSERVATION = Observation(
        encoder=MyEncoder,   # (game, max_steps) -> Encoder: tensors of one seat's view
        max_steps=300,       # the episode cap when the game sets none (default 10,000)
        vector="my_game.observe_vector:family",  # optional: the compiled fast path
        chance="my_game.observe_deal:DEALER",    # optional: a hidden deal, for OpenSpiel
    )

* ``encoder`` is called with the configured game and the episode cap (an encoder may
  scale a "steps so far" feature by it) and returns an ``Encoder``: ``shape``,
  ``plane_names()`` and ``encode(view)``, values in [0, 1]; ``observe(view)`` (tensor and
  the viewer's int8 legal-action mask) may be overridden when both come cheaper together.
* ``vector`` names a ``family(game) -> fourfold.envs.vector_kernels.Family``: the game's numba
  kernels, which give ``VectorEnv`` and the AEC env's compiled observations
  (``CompiledEncoder``). ``family`` raises ``ConfigurationError`` for a configuration its
  kernel does not cover. Without it, ``VectorEnv`` refuses the game with a clear error and
  the other envs use ``encoder``.
* ``chance`` names a ``Dealer``: for a game whose seats do not see everything, its
  hidden deal as a few chance outcomes drawn one after another (OpenSpiel's explicit
  chance nodes), the starting position they make, and the draws a seat cannot tell from
  the real ones (``resample_from_infostate``). A game with hidden information and no
  dealer gets no OpenSpiel game.

A game without an ``observation`` part gets no env: ``encoder_for`` raises
``ConfigurationError`` naming the missing part.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from fourfold.core.errors import ConfigurationError
from fourfold.core.extensions import resolve, typed_part
from fourfold.core.game import Game, View

if TYPE_CHECKING:
    from fourfold.envs.vector_kernels import Family

Tensor = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]

#: The episode cap of a game whose ``Observation`` sets none.
DEFAULT_MAX_STEPS = 10_000


class Encoder(ABC):
    """Turns one seat's view into a fixed-shape float32 tensor with values in [0, 1]."""

    def __init__(self, game: Game[Any, Any]) -> None:
        self.game = game

    @property
    @abstractmethod
    def shape(self) -> tuple[int, ...]:
        """``(planes, rows, columns)`` for board games, ``(features,)`` otherwise."""

    @abstractmethod
    def plane_names(self) -> list[str]:
        """One name per plane (or feature), in tensor order, for docs and debugging."""

    @abstractmethod
    def encode(self, view: View) -> Tensor:
        """The tensor of ``view`` (a new array)."""

    def observe(self, view: View) -> tuple[Tensor, Mask]:
        """The tensor of ``view`` and the viewer's legal-action mask (int8, all zeros when
        it does not act): what an env hands an agent each step."""
        mask = np.asarray(self.game.view_legal_action_mask(view), dtype=np.int8)
        return self.encode(view), mask


class Dealer(Protocol):
    """A hidden deal as chance outcomes (the ``chance`` of an ``Observation``)."""

    #: the most outcomes one draw can have
    max_outcomes: int

    def outcomes(self, drawn: Sequence[int]) -> list[tuple[int, float]]:
        """The next draw's ``(outcome, probability)`` pairs after ``drawn``."""
        ...

    def deal(self, game: Game[Any, Any], drawn: Sequence[int]) -> Any | None:
        """The starting position once ``drawn`` completes the deal, else ``None``."""
        ...

    def resample(self, game: Game[Any, Any], view: View) -> Sequence[tuple[int, ...]]:
        """Every complete sequence of draws whose position ``view``'s seat could not tell
        from the real one (given the moves it saw), each as likely as the others; the
        real draws among them. Read from the view only."""
        ...


@dataclass(frozen=True)
class Observation:
    """A game's part for the envs (the ``observation`` field of its extension bundle)."""

    #: ``(game, max_steps) -> Encoder``: the readable encoder of a configured game
    encoder: Callable[[Game[Any, Any], int], Encoder]
    #: the cap on an episode's plies when the game has no natural end and sets none
    max_steps: int = DEFAULT_MAX_STEPS
    #: ``"module:family"``, ``family(game) -> Family``: the game's compiled kernels
    vector: str | None = None
    #: ``"module:attribute"``, a ``Dealer``: the hidden deal as OpenSpiel chance
    chance: str | None = None

    def dealer(self) -> Dealer | None:
        """The ``Dealer`` of ``chance`` (imported on first use), or ``None``."""
        if self.chance is None:
            return None
        found: Dealer = resolve(self.chance)
        return found


def observation_of(game: Game[Any, Any]) -> Observation:
    """The ``observation`` part of a configured game (``ConfigurationError`` without)."""
    found = typed_part(game, "observation", Observation, None)
    if found is None:
        raise ConfigurationError(
            f"no observation encoder for {game.info.label()}: its extension bundle has no"
            " 'observation' part (fourfold.envs.observe describes it)")
    return found


def default_max_steps(game: Game[Any, Any]) -> int:
    """The cap on an episode's plies unless the caller sets one (the game's own
    ``max-plies`` option, when set, ends the game by its rules, a draw, first)."""
    return observation_of(game).max_steps


def vector_family(game: Game[Any, Any]) -> Family | None:
    """The compiled kernels of a configured game (``None`` if the game has none;
    ``ConfigurationError`` if its kernel does not cover this configuration)."""
    make = vector_factory(game)
    return None if make is None else make(game)


def vector_factory(game: Game[Any, Any]) -> Callable[[Game[Any, Any]], Family] | None:
    """The game's ``family`` function (imported on first use), or ``None``."""
    reference = observation_of(game).vector
    if reference is None:
        return None
    make: Callable[[Game[Any, Any]], Family] = resolve(reference)
    return make


def encoder_for(game: Game[Any, Any], max_steps: int | None = None) -> Encoder:
    """The readable encoder of a configured game (``max_steps``: the episode cap, which
    some encoders scale a "steps so far" feature by; the game's default when ``None``)."""
    observation = observation_of(game)
    cap = observation.max_steps if max_steps is None else max_steps
    return observation.encoder(game, cap)


def compiled_encoder_for(game: Game[Any, Any], max_steps: int | None = None) -> Encoder:
    """``encoder_for``, compiled where the game has kernels for every position (the same
    tensors, and the mask): perfect-information games with a ``vector`` family."""
    inner = encoder_for(game, max_steps)
    make = vector_factory(game) if game.info.spec.perfect_information else None
    if make is None:
        return inner
    try:
        family = make(game)
    except ConfigurationError:  # the kernel does not cover this configuration
        return inner
    return CompiledEncoder(game, inner, family)


class CompiledEncoder(Encoder):
    """A readable encoder's tensor and the legal mask, written by the game's kernel.

    The view's position is loaded into the kernel's arrays (``Family.load``) and the
    family's ``view`` kernel writes the very tensor of ``inner`` (tests/test_envs_fast_paths
    compares them position by position) and the mask, in a few microseconds instead of
    the readable encoder's and rules' hundreds.
    """

    def __init__(self, game: Game[Any, Any], inner: Encoder, family: Family) -> None:
        super().__init__(game)
        self.inner = inner
        self.family = family
        self.h = np.zeros((4, 20), dtype=np.int64)
        self.buf = np.zeros(family.width, dtype=np.int64)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.inner.shape

    def plane_names(self) -> list[str]:
        return self.inner.plane_names()

    def observe(self, view: View) -> tuple[Tensor, Mask]:
        family = self.family
        x, keys = family.load(view.observation)
        out = np.empty(self.shape, dtype=np.float32)
        mask = np.empty(self.game.num_actions, dtype=np.int8)
        viewer = -1 if view.player is None or view.declared is not None else view.player
        family.view(family.t, family.ot, x, self.h, keys, self.buf, viewer, out.reshape(-1),
                    mask)
        if view.declared is not None and view.player is not None:  # a declared ending
            out = self.inner.encode(view)
        return out, mask

    def encode(self, view: View) -> Tensor:
        return self.observe(view)[0]
