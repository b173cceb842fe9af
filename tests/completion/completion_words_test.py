#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The words the zsh or the fish completion offers are those that
`ddtime --help` lists, both ways: dd's operands, the words of conv=,
iflag=/oflag= and status=, the --long options, and the values --help names
for --units, --engine, --cache, --pattern and --profile. The completion
file is read as text, so that the test runs without the shell; the
completion.*.load tests run it in the real one.

Usage: completion_words_test.py zsh|fish COMPLETION_FILE DDTIME_BINARY
"""
import re
import subprocess
import sys


def help_sections(text):
    """{heading: [first word of each entry]} for the headed lists."""
    sections, heading = {}, None
    for line in text.splitlines():
        if line and not line.startswith(" "):
            heading = line if line.endswith(":") else None
            if heading:
                sections[heading] = []
        elif heading and re.match(r"^  [a-z]", line):
            sections[heading].append(line.split()[0].split("=")[0])
    return sections


def section(sections, part):
    (words,) = [w for h, w in sections.items() if part in h]
    return set(words)


def option_texts(text):
    """{long option: its description, lines joined}."""
    texts, name = {}, None
    for line in text.splitlines():
        m = re.match(r"^ +--([a-z0-9-]+)(\S*)\s*(.*)", line)
        if m:
            name = m.group(1)
            texts[name] = m.group(3)
        elif name and line.startswith("       "):
            texts[name] += " " + line.strip()
        else:
            name = None
    return texts


def listed_values(description):
    """The words of "...: a, b, c or d[; ...]" or of "... (a, b, c): ...",
    leaving out placeholders such as 0xHH."""
    m = re.search(r"\(([a-z, -]+)\)", description)
    listed = m.group(1) if m else description.rsplit(": ", 1)[-1].split(";")[0]
    words = re.split(r",\s*|\s+or\s+", listed.strip())
    return {w for w in words if re.fullmatch(r"[a-z][a-z_-]*", w)}


def expected(text):
    sections = help_sections(text)
    options = option_texts(text)
    flags = section(sections, "iflag=")
    flag_lines = {
        line.split()[0]: line for line in text.splitlines() if re.match(r"^  [a-z_]+ ", line)}
    return {
        "operands": section(sections, "Operands"),
        "conv": section(sections, "conv="),
        "flags": flags,
        "iflag only": {f for f in flags if "(iflag" in flag_lines.get(f, "")},
        "oflag only": {f for f in flags if "(oflag" in flag_lines.get(f, "")},
        "status": section(sections, "status="),
        "long options": set(options),
        **{"--" + o: listed_values(options[o]) for o in ("units", "engine", "cache", "pattern", "profile")},
    }


def zsh_offered(source):
    arrays = {name: body for name, body in re.findall(r"^(\w+)=\(\n(.*?)\n\)", source, re.S | re.M)}
    words = {name: re.findall(r"^\s*'(?:\([^)]*\))?([a-z_]+)\[", body, re.M) for name, body in arrays.items()}
    specs = re.findall(r"^\s*'(?:\([^)]*\))?--([a-z0-9-]+)([^\n]*)'$", arrays["long_options"], re.M)
    offered = {
        "operands": words["operands"],
        "conv": words["conv_words"],
        "iflag": words["iflag_words"],
        "oflag": words["oflag_words"],
        "status": words["status_words"],
        "long options": [name for name, _ in specs],
    }
    for name, rest in specs:
        m = re.search(r":\w+:\(([^)]*)\)$", rest)
        offered["--" + name] = m.group(1).split() if m else []
    return offered


def fish_offered(source):
    bodies = dict(re.findall(r"^function __ddtime_(\w+)\n(.*?)^end$", source, re.S | re.M))
    words = {name: re.findall(r"^\s+(?!printf )(\S+?) '", body, re.M) for name, body in bodies.items()}
    specs = re.findall(r"^complete -c ddtime -l (\S+)(.*)$", source, re.M)
    offered = {
        "operands": [w.rstrip("=") for w in words["operands"]],
        "conv": words["conv_words"],
        "iflag": words["iflag_words"],
        "oflag": words["oflag_words"],
        "status": words["status_words"],
        "long options": [name for name, _ in specs],
    }
    for name, rest in specs:
        m = re.search(r" -a '([^']*)'", rest)
        offered["--" + name] = m.group(1).split() if m else []
    return offered


def main():
    shell, path, binary = sys.argv[1:4]
    text = subprocess.run([binary, "--help"], check=True, capture_output=True, text=True).stdout
    want = expected(text)
    with open(path, encoding="utf-8") as f:
        got = {"zsh": zsh_offered, "fish": fish_offered}[shell](f.read())
    failed = 0

    def check(name, ok, detail):
        nonlocal failed
        if not ok:
            failed += 1
            print(f"FAIL: {name}\n  {detail}")

    def same(name, offered, listed):
        dupes = sorted({w for w in offered if offered.count(w) > 1})
        check(f"{name}: a word offered twice", not dupes, dupes)
        check(f"{name} differ", set(offered) == listed,
              f"--help:     {sorted(listed)}\n  completion: {sorted(set(offered))}")

    for name in ("operands", "conv", "status", "long options", "--units", "--engine", "--cache",
                 "--pattern", "--profile"):
        same(name, got[name], want[name])
    same("iflag and oflag flags", list(set(got["iflag"]) | set(got["oflag"])), want["flags"])
    for side in ("iflag", "oflag"):
        dupes = sorted({w for w in got[side] if got[side].count(w) > 1})
        check(f"{side}: a word offered twice", not dupes, dupes)
    check("a flag --help marks iflag-only is offered for oflag=",
          not want["iflag only"] & set(got["oflag"]), sorted(want["iflag only"] & set(got["oflag"])))
    check("a flag --help marks oflag-only is offered for iflag=",
          not want["oflag only"] & set(got["iflag"]), sorted(want["oflag only"] & set(got["iflag"])))
    for name, words in want.items():
        check(f"--help lists no {name}", bool(words) or "only" in name, "the --help parser found nothing")
    print(f"{shell}: {'FAILED' if failed else 'all words match'} ({failed} failures)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
