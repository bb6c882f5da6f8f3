"""``python -m duels.engine``, as RULES.md section 8 names it: ``games.split_uno``'s command line
(``python -m games.split_uno``) under its old name."""

import sys

from games.split_uno.__main__ import main

if __name__ == "__main__":
    sys.exit(main(prog="python -m duels.engine"))
