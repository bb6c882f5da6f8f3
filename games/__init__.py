"""UNO games other than Split UNO, played against the computer (issue 18).

``games.trois`` and ``games.cpt113`` are pure rules engines (standard library only, no
Django): a game is its seed and its moves, replayed to a state; ``games.common`` holds the
few pieces both share (the one error type, effects in words, the record file helpers).
"""
