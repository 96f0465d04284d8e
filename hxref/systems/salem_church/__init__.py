"""Musket & Sabre: Salem Church: the rules of the game.

``info.py`` is what the core knows of it without loading the rules; ``system.py`` is the
game-system object the core calls.
"""
