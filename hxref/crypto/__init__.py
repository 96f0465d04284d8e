"""Crypto: keys and signatures (:mod:`.signing`), commit-reveal (:mod:`.commit`), verifiable
dice (:mod:`.dice`) and encrypted side reports (:mod:`.crypt`).
"""
