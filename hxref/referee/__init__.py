"""The referee: signed inputs in, events out.

The engine (:mod:`.engine`) is a reducer of signed inputs: each file is checked against what the
log allows (:mod:`.acceptance`, :mod:`.inputs`, :mod:`.trust`), deadlines and claims
(:mod:`.claims`), order files (:mod:`.orders`), and the audit that replays the whole log the same
way (:mod:`.audit`).  The rules are the system bound to the data the game pinned when it was made
(:mod:`.rules`, :mod:`.pinning`); a joining player compares that data with this hxref's own
(:mod:`.published`, remembered by :mod:`.scenario_memo`).
"""
