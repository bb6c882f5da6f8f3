"""The UNO games' rules engines: Split UNO (``games.split_uno``, the referee engine of
RULES.md, issue 3) and the games played against the computer, Trois and CPT-113 (issue 18).

Each is a pure package (standard library only, no Django): a game is its record, replayed to a
state. ``games.common`` holds the few pieces Trois and CPT-113 share (the one error type,
effects in words, the record file helpers).
"""
