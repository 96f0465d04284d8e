"""What every layer stands on: the user errors (:mod:`.errors`), the one YAML reader and writer
(:mod:`.yamlio`) and where the shipped data lives (:mod:`.paths`).  It imports nothing of hxref's
above it.
"""
