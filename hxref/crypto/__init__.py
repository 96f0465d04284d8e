"""Crypto: keys and signatures (:mod:`.signing`), commit-reveal (:mod:`.commit`), verifiable
dice (:mod:`.dice`), encrypted side reports (:mod:`.crypt`) and salted Merkle commitments to a
side's boxes (:mod:`.merkle`).
"""
