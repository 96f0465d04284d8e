"""The rules kit: what a game system is written with, so that no system re-implements it.  It
imports nothing of the referee, the game file or the commands above it.

- :mod:`.protocol`: the game-system protocol (:class:`GameSystem`, :class:`SystemInfo`) and the
  records it exchanges with the referee (decisions, problems, sections, map views, results);
- :mod:`.registry`: the systems by name, their metadata without importing their rules;
- :mod:`.charts`: the data a game plays with, given to the rules as a value
  (:meth:`GameSystem.bind`); :mod:`.data`: the files of ``games/<folder>/``, which a game pins,
  read from the game or the disk, and the checks a pinned text passes;
- :mod:`.results`: a combat results table read from a chart; :mod:`.fog`: which enemy units a side sees;
- :mod:`.views`: views by allow-list; :mod:`.events`: an event's audience (``visible_to``);
- :mod:`.schema`: nested choice schemas; :mod:`.zoc`, :mod:`.walk`: zones of control and path walks;
- :mod:`.secret_kinds`: where a side's secrets lie in the state.
"""
