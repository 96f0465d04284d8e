"""The rules kit: what every game system uses, so that no system re-implements it.

- :mod:`.protocol`: the game-system protocol (:class:`GameSystem`, :class:`SystemInfo`) and the
  records it exchanges with the core (decisions, problems, sections, map views, results);
- :mod:`.registry`: the systems by name, their metadata without importing their rules;
- :mod:`.data`: the one reader of ``games/<folder>/``: charts, terrain types, maps, scenarios,
  and the files a game is played with, pinned in its first event (:mod:`.pins`: the pinned files
  of the game being played);
- :mod:`.published`: a game's pinned files and scenario against this hxref's (the join check);
- :mod:`.views`: views by allow-list; :mod:`.events`: an event's audience (``visible_to``);
- :mod:`.schema`: nested choice schemas; :mod:`.zoc`, :mod:`.walk`: zones of control and path walks.
"""
