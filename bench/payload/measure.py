"""Kept for old commands: `trigsight payload` is the installed command; this calls it.

    python bench/payload/measure.py URL [URL ...] --budget 8192 --runs 3 [--reduced-motion] [--json FILE]

Every option of `trigsight payload --help` works here too.
"""
from __future__ import annotations

import sys

from trigsight.cli import main

if __name__ == "__main__":
    main(["payload", *sys.argv[1:]], prog_name="measure.py")
