"""The game file and its log: the one file that is the game (:mod:`.game`), its hash-chained log
(:mod:`.eventlog`), its header (:mod:`.header`), the heads this machine has seen
(:mod:`.heads`), and the bundle a mail carries to keep two copies in step (:mod:`.bundle`).
"""
