#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The README is for a person deciding whether to use ddtime: at most 300
lines (issue 30). A feature's chapter belongs in a guide under docs/, a
figure in docs/performance.md, building and testing in docs/hacking.md.

    readme_length_test.py [REPO]
"""
import sys
from pathlib import Path

MAX_LINES = 300


def main() -> int:
    repo = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    lines = len((repo / "README.md").read_text(encoding="utf-8").splitlines())
    if lines > MAX_LINES:
        print(f"README.md: {lines} lines, more than {MAX_LINES}: move the detail to docs/")
        return 1
    print(f"README.md: {lines} lines, within {MAX_LINES}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
