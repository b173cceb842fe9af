#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The docs show what a user types, never a build machine (issue 30).

Fails on an absolute path of the machine the docs were written on (a
build tree, a home or work directory, a scratch directory: /work/, /home/,
/root/, /tmp/, /var/tmp/, a /build/ directory) and on a build tree's
program used as a command (`build/release/ddtime if=...`), in README.md,
in every text file under docs/ (the SVG charts' text included: their
heading is the command line as run) and in man/. The README's first
command is the one exception: it builds ddtime and runs it from the build
tree, and CI runs it as written.

    docs_paths_test.py [REPO]
"""
import re
import sys
from pathlib import Path
from typing import Iterator, List, Tuple

# The README's first command, which CI and a checker run as written.
FIRST_COMMAND = ("packaging/install-build-deps.sh && cmake --workflow --preset release"
                 " && build/release/ddtime if=/dev/zero of=/dev/null bs=1M count=4096")
MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?:work|home|root|tmp|var/tmp)/|(?<![\w.~-])/(?:[\w.+-]+/)*build/")
# A build tree's program run as a command: where a command starts (a line's
# start, a prompt, a shell operator, a backtick) and followed by an argument;
# the program named as a file (`build/release/ddtime` alone) is not a command.
BUILD_COMMAND = re.compile(r"(?:^|\$ |&& |\|\| |; |\| |`)\s*(?:\./)?build/[\w.-]+/(?:ddtime|ddtime-compare|dd)(?=[ \t]+\S)")
TEXT_SUFFIXES = {".md", ".svg", ".json", ".txt", ".1", ".html"}


def documents(repo: Path) -> Iterator[Path]:
    yield repo / "README.md"
    for folder in ("docs", "man"):
        for path in sorted((repo / folder).rglob("*")):
            if path.is_file() and (path.suffix in TEXT_SUFFIXES or folder == "man"):
                yield path


def problems(name: str, text: str) -> List[Tuple[int, str, str]]:
    """(line number, what, line) for each machine path in text."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        checked = line.replace(FIRST_COMMAND, "") if name == "README.md" else line
        hit = MACHINE_PATH.search(checked)
        if hit:
            found.append((number, f"a build machine's path '{hit.group(0)}'", line.strip()))
        hit = BUILD_COMMAND.search(checked)
        if hit:
            found.append((number, "a build tree's program as a command (show `ddtime ...`)", line.strip()))
    return found


def check(repo: Path) -> List[str]:
    errors = []
    for path in documents(repo):
        name = path.relative_to(repo).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, what, line in problems(name, text):
            errors.append(f"{name}:{number}: {what}: {line[:160]}")
    readme = (repo / "README.md").read_text(encoding="utf-8")
    if FIRST_COMMAND not in readme:
        errors.append("README.md: the first command is not there as CI runs it")
    return errors


def self_test() -> List[str]:
    """The patterns catch what they are for, and let the rest through."""
    wrong = [
        ("README.md", "$ /work/main/build/release/ddtime if=/dev/zero of=/dev/null"),
        ("docs/x.md", "ddtime if=/var/tmp/run.img of=/dev/null"),
        ("docs/x.md", "build/release/ddtime if=/dev/zero of=/dev/null"),
        ("docs/x.md", "$ build/release/ddtime --help"),
        ("docs/x.md", "run `build/release/ddtime if=/dev/zero of=/dev/null`"),
        ("docs/x.svg", '<text class="command">/home/me/src/ddtime/build/release/ddtime bs=1M</text>'),
        ("man/ddtime.1", ".Dl /tmp/x/ddtime if=a"),
    ]
    right = [
        ("README.md", FIRST_COMMAND),
        ("docs/x.md", "ddtime if=/dev/loop0 of=/dev/null bs=4k iflag=direct"),
        ("docs/x.md", "tests/gnu/run-gnu-dd-tests.sh build/release/ddtime"),
        ("docs/x.md", "ctest --test-dir build/release -R docs"),
        ("docs/x.md", "The package puts the link in /usr/lib/ddtime/bin/dd"),
        ("docs/x.md", "cmake --install build/release --prefix ~/.local"),
        ("docs/x.md", "| the programs, `build/release/ddtime` and `ddtime-compare` |"),
    ]
    errors = [f"self-test: not caught: {line}" for name, line in wrong if not problems(name, line)]
    errors += [f"self-test: caught wrongly: {line}" for name, line in right if problems(name, line)]
    return errors


def main() -> int:
    repo = Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
    errors = self_test() + check(repo)
    for error in errors:
        print(error)
    if errors:
        print(f"docs paths: {len(errors)} problem(s)")
        return 1
    print("docs paths: README.md, docs/ and man/ show no build machine")
    return 0


if __name__ == "__main__":
    sys.exit(main())
