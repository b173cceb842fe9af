#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Regenerates the fuzzers' seed corpora from the operand strings the unit
and end-to-end tests use. Each C++ string literal of the tests that reads as
an operand ("key=value", "--option", a bare number) gives the number corpus
its value and the operands corpus its text; the literals on one source line
together make one argv vector (NUL-separated). Run from the repository root:

    python3 tests/fuzz/make_seeds.py

Files are named after a hash of their content, so reruns only add seeds.
The committed corpora were then reduced to the seeds that add coverage:

    build/fuzz/tests/fuzz/fuzz_number -merge=1 NEW_DIR tests/fuzz/corpus/number

Regression inputs found by fuzzing live beside them as regress-*.
"""
import hashlib
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCES = sorted(ROOT.glob("tests/unit/*_test.cc")) + sorted(ROOT.glob("tests/e2e/*_test.cc"))
LITERAL = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
OPERAND = re.compile(r"^(?:[a-z_]+=.*|--[a-z][a-z-]*(?:=.*)?|-[a-zA-Z])$")
NUMBERISH = re.compile(r"^[0-9 +\-xX]")


def unescape(text):
    try:
        return text.encode("latin-1").decode("unicode_escape").encode("latin-1")
    except (UnicodeDecodeError, UnicodeEncodeError):
        return None


def write(directory, data):
    directory.mkdir(parents=True, exist_ok=True)
    name = "seed-" + hashlib.sha1(data).hexdigest()[:16]
    path = directory / name
    if not path.exists():
        path.write_bytes(data)


def main():
    numbers = set()
    vectors = set()
    for source in SOURCES:
        for line in source.read_text(errors="replace").splitlines():
            operands = []
            for literal in LITERAL.findall(line):
                value = unescape(literal)
                if value is None or len(value) > 200:
                    continue
                text = value.decode("latin-1")
                if OPERAND.match(text):
                    operands.append(value)
                    if b"=" in value:
                        numbers.add(value.split(b"=", 1)[1])
                elif NUMBERISH.match(text) and len(value) <= 40 and b"\n" not in value:
                    numbers.add(value)
            if operands:
                vectors.add(b"\0".join(operands))
    for value in sorted(numbers):
        write(ROOT / "tests/fuzz/corpus/number", value)
    for vector in sorted(vectors):
        write(ROOT / "tests/fuzz/corpus/operands", vector)
    print(f"{len(numbers)} number seeds, {len(vectors)} operand vectors")


if __name__ == "__main__":
    main()
