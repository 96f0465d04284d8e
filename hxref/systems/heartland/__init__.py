"""The Army of the Heartland (seed 000, digest ``rules/heartland.md``): the rules of the game.

``info.py`` is what the core knows of it without loading the rules; ``system.py`` is the
game-system object the core calls, and the rules modules follow the sequence of play.
"""
