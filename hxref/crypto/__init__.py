"""Crypto: canonical bytes and hashes (:mod:`.canon`), keys and signatures (:mod:`.signing`),
commit-reveal (:mod:`.commit`), verifiable dice (:mod:`.dice`), encrypted side reports
(:mod:`.crypt`) and what each key of this user has signed for (:mod:`.key_record`).
"""
