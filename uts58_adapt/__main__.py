"""``python -m uts58_adapt``: the ``uts58-adapt`` command line (:func:`uts58_adapt.cli.main`)."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
