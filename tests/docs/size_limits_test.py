#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Holds src/ to the sizes issue 29 set: no file over 500 lines, no
function over 60. A function that is mostly text for people (help, a
table of messages: at least half its lines hold a string literal) is
exempt, as a table is read row by row, not as logic.

Functions are found the way a reader finds them: a line that opens a body
with '{' after a ')' (a definition, at any indentation, outside a class
or namespace header), to the '}' that closes it, braces inside strings,
characters and comments not counted.

    size_limits_test.py [REPO]
"""
import re
import sys
from pathlib import Path
from typing import List, Tuple

MAX_FILE_LINES = 500
MAX_FUNCTION_LINES = 60
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
CHAR = re.compile(r"'(?:[^'\\\n]|\\.)'")
OPENS_BODY = re.compile(r"\)\s*(?:const\s*)?(?:noexcept(?:\([^)]*\))?\s*)?(?:override\s*)?(?:final\s*)?"
                        r"(?:->\s*[\w:<>,\s*&]+)?\{\s*$")
NOT_A_FUNCTION = re.compile(r"^\s*(?:if|for|while|switch|catch|else|do|return|namespace|struct|class|enum|union)\b"
                            r"|\[[^\]]*\]\s*\(|=\s*\[|\}\s*else")


def code_of(line: str) -> str:
    """The line without strings, characters and a // comment."""
    line = STRING.sub('""', line)
    line = CHAR.sub("''", line)
    cut = line.find("//")
    return line if cut < 0 else line[:cut]


def functions(text: str) -> List[Tuple[int, int, str, float]]:
    """(first line, lines, header, share of lines with a string) of each
    function definition."""
    lines = text.splitlines()
    found = []
    in_comment = False
    i = 0
    while i < len(lines):
        raw = lines[i]
        if in_comment:
            if "*/" in raw:
                in_comment = False
            i += 1
            continue
        if raw.lstrip().startswith("/*") and "*/" not in raw:
            in_comment = True
            i += 1
            continue
        code = code_of(raw)
        if OPENS_BODY.search(code) and not NOT_A_FUNCTION.search(code):
            depth = 0
            end = i
            for j in range(i, len(lines)):
                c = code_of(lines[j])
                depth += c.count("{") - c.count("}")
                if depth <= 0:
                    end = j
                    break
            body = lines[i:end + 1]
            with_text = sum(1 for line in body if STRING.search(line))
            found.append((i + 1, len(body), raw.strip(), with_text / max(len(body), 1)))
            i = end + 1
            continue
        i += 1
    return found


def check(repo: Path) -> List[str]:
    errors = []
    for path in sorted((repo / "src").rglob("*")):
        if path.suffix not in (".cc", ".h"):
            continue
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(repo).as_posix()
        count = text.count("\n")
        if count > MAX_FILE_LINES:
            errors.append(f"{name}: {count} lines, over {MAX_FILE_LINES}")
        for first, length, header, text_share in functions(text):
            if length > MAX_FUNCTION_LINES and text_share < 0.5:
                errors.append(f"{name}:{first}: a function of {length} lines, over {MAX_FUNCTION_LINES}: {header}")
    return errors


def self_test() -> List[str]:
    """The finder on a sample: it must see a long function and skip a
    long text table, or the check proves nothing."""
    long_body = "\n".join(f"  x += {n};" for n in range(70))
    text_body = "\n".join(f'  add("word{n}", "help text {n}");' for n in range(70))
    sample = f"int long_one(int x) {{\n{long_body}\n  return x;\n}}\n\nvoid table() {{\n{text_body}\n}}\n"
    found = functions(sample)
    problems = []
    if len(found) != 2 or found[0][1] != 73 or found[1][3] < 0.5:
        problems.append(f"size_limits_test.py: the function finder misread its sample: {found}")
    return problems


def main(argv: List[str]) -> int:
    repo = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[2]
    errors = self_test() + check(repo)
    for error in errors:
        print(error)
    if errors:
        print(f"size limits: {len(errors)} problem(s)")
        return 1
    print(f"size limits: every file in src/ within {MAX_FILE_LINES} lines, every function within "
          f"{MAX_FUNCTION_LINES} (text tables aside)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
