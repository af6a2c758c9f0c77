"""The extension parts every placement game shares (Folio's grid variants, Quarto): its
bots, kernel, board codec, browser controller and RL observation serve any board and
piece set. Each game adds its own report, solvers, presenter and drawer over these."""

from fourfold.core.extensions import Extensions

PLACEMENT_PARTS = Extensions(
    bots="fourfold.games.placement.bots:BOTS",
    kernel="fourfold.games.placement.kernel_engine:compiled_engine",
    codec="fourfold.games.placement.wire:CODEC",
    browser="fourfold.games.placement:browser.js",
    observation="fourfold.games.placement.observe:OBSERVATION",
)
