"""Build Hex Duel's shipped demo game: keys, signed order files and the manifest.

    python -m tests.conformance.duel.make_demo

The scripted player (:func:`.player.scripted`) gives each side's orders from its own view, and
:mod:`tests.conformance.scripted` plays them through the real command line, umpired, into
``tests/conformance/duel/orders/skirmish/``.  Run it again when the game file's first event
changes (every signed file names the game's identity); the same keys give the same dice chains,
so a rebuild replays the same skirmish.
"""
from __future__ import annotations

from hxref.kit import registry
from hxref.referee.engine import Engine

from tests.conformance import scripted

from .info import INFO
from .player import scripted as orders

DEMO = scripted.Demo(INFO, "skirmish")


def play(dec: dict, side: str) -> dict:
    eng = Engine.load("game.yaml")
    return orders(eng.system.view(eng.state, side, eng.mode), eng.system.hexmap(eng.state), side)


def say(dec: dict) -> str:
    return f"{dec['prompt']} ({dec['rule']}): the umpire mails {dec['sides'][0]} its report, what its units see (H8)."


if __name__ == "__main__":
    registry.register(INFO.name, "tests.conformance.duel")
    print("wrote", scripted.build(DEMO, play, say))
