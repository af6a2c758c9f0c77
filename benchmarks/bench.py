"""Thin entry point: ``python benchmarks/bench.py [--quick] [--json]`` is ``fourfold bench``."""

import sys

from fourfold.cli.main import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
