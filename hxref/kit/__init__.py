"""The rules kit: what every game system uses, so that no system re-implements it.

- :mod:`.protocol`: the game-system protocol (:class:`GameSystem`, :class:`SystemInfo`) and the
  records it exchanges with the core (decisions, problems, sections, map views, results);
- :mod:`.registry`: the systems by name, their metadata without importing their rules;
- :mod:`.data`: the one reader of ``games/<folder>/``: charts, scenarios, and the charts a game
  is played with, pinned in its first event.
"""
