"""``python -m bottleimp``: the command line (the same as the ``bottleimp`` command)."""

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
