#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The module map in docs/modules.md, and the folder order in
docs/architecture.md, against the code (review P2, issue 29).

Every source file under src/ (in its layer folder) belongs to one row of
the map: the row whose module is the file's stem, or the row that lists
the file in its first column (`driver` (`driver.cc`, `driver_session.cc`)).
Every `#include "folder/x.h"` of ours names the folder x.h is in, and must
stay inside the module or name a module in the row's "may use" column
(`all`; `—` for none; `report*` for every module whose name starts with
report). And the modules, joined by what they include, form no cycle. A
file without a row, an include without its folder, an include the map does
not allow, and a cycle are each reported with where they are. The folders
are layers: a file includes only its own folder's files and those of the
folders below it in architecture.md's "| folder | holds |" table.

    module_map_test.py [REPO]

Python 3 standard library only.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

TICKED = re.compile(r"`([^`]+)`")
FOLDER_ROW = re.compile(r"^\|\s*`([a-z]+)/`\s*\|")

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def table_lines(text: str, header: str) -> List[str]:
    """The lines of the Markdown table under the line that starts with
    header, up to the first line that is not the table's."""
    lines: List[str] = []
    inside = False
    for line in text.splitlines():
        if inside:
            if not line.startswith("|"):
                break
            lines.append(line)
        elif line.startswith(header):
            inside = True
    return lines


def stem(name: str) -> str:
    return re.sub(r"\.(h|cc)$", "", name)


class Map:
    def __init__(self, text: str, sources: List[str]):
        self.owner: Dict[str, str] = {}  # file name -> module
        self.may_use: Dict[str, Optional[Set[str]]] = {}  # None: all
        self.patterns: Dict[str, List[str]] = {}  # module -> wildcard prefixes
        self.errors: List[str] = []
        rows = self._rows(text)
        if not rows:
            self.errors.append("docs/modules.md: no '| module | job | may use |' table")
        for first, uses in rows:
            names = TICKED.findall(first)
            if not names:
                self.errors.append(f"docs/modules.md: a row names no module: {first!r}")
                continue
            module = stem(names[0])
            if module in self.may_use:
                self.errors.append(f"docs/modules.md: module '{module}' has two rows")
            words = TICKED.findall(uses)
            if uses.strip() == "all":
                self.may_use[module] = None
            else:
                self.may_use[module] = {w for w in words if not w.endswith("*")}
                self.patterns[module] = [w[:-1] for w in words if w.endswith("*")]
            for name in names:
                for source in sources:
                    if name in (source, stem(source)) or (name == names[0] and stem(source) == module):
                        self.owner.setdefault(source, module)
        for source in sources:
            if source not in self.owner:
                self.owner[source] = ""
                self.errors.append(f"src: {source}: no row of the module map holds it")

    @staticmethod
    def _rows(text: str) -> List[Tuple[str, str]]:
        rows = []
        for line in table_lines(text, "| module | job | may use |"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if set(cells[0]) <= set("-: "):
                continue
            rows.append((cells[0], cells[-1]))
        return rows

    def allows(self, user: str, used: str) -> bool:
        if user == used:
            return True
        uses = self.may_use.get(user, set())
        if uses is None:
            return True
        return used in uses or any(used.startswith(p) for p in self.patterns.get(user, []))


def find_cycle(edges: Dict[str, Set[str]]) -> Optional[List[str]]:
    state: Dict[str, int] = {}
    path: List[str] = []

    def visit(node: str) -> Optional[List[str]]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def folder_ranks(text: str) -> Dict[str, int]:
    """The folders of the "| folder | holds |" table, bottom up: 0, 1, ..."""
    ranks: Dict[str, int] = {}
    for line in table_lines(text, "| folder | holds |"):
        match = FOLDER_ROW.match(line)
        if match:
            ranks[match.group(1)] = len(ranks)
    return ranks


def check_folder_order(src: Path, paths: Dict[str, str], ranks: Dict[str, int]) -> List[str]:
    """A file includes only files of its own folder or of folders below it
    in the table's order; nothing is let off."""
    errors: List[str] = []
    if not ranks:
        return ["docs/architecture.md: no '| folder | holds |' table"]
    for path in sorted(paths.values()):
        if "/" not in path:
            continue  # main.cc, at the top
        folder = path.split("/", 1)[0]
        if folder not in ranks:
            errors.append(f"src/{path}: folder '{folder}/' is not in the architecture's folder table")
            continue
        text = (src / path).read_text(encoding="utf-8")
        for match in INCLUDE.finditer(text):
            written = match.group(1)
            target = written.split("/", 1)[0] if "/" in written else ""
            if target not in ranks or ranks[target] <= ranks[folder]:
                continue
            line = text.count("\n", 0, match.start()) + 1
            errors.append(f"src/{path}:{line}: includes \"{written}\", from {target}/ above {folder}/ in the folder order")
    return errors


def check(repo: Path) -> List[str]:
    src = repo / "src"
    paths = {p.name: p.relative_to(src).as_posix() for p in src.rglob("*") if p.suffix in (".cc", ".h")}
    sources = sorted(paths)
    architecture = (repo / "docs" / "architecture.md").read_text(encoding="utf-8")
    modules = (repo / "docs" / "modules.md").read_text(encoding="utf-8")
    table = Map(modules, sources)
    errors = list(table.errors)
    errors += check_folder_order(src, paths, folder_ranks(architecture))
    edges: Dict[str, Set[str]] = {}
    for source in sources:
        user = table.owner[source]
        if not user:
            continue
        text = (src / paths[source]).read_text(encoding="utf-8")
        for match in INCLUDE.finditer(text):
            written = match.group(1)
            included = written.rsplit("/", 1)[-1]
            if included not in table.owner:
                continue  # not one of ours (a generated or test header)
            if written != paths[included]:
                line = text.count("\n", 0, match.start()) + 1
                errors.append(f"src/{paths[source]}:{line}: includes \"{written}\"; it is \"{paths[included]}\"")
            used = table.owner[included]
            if not used or used == user:
                continue
            line = text.count("\n", 0, match.start()) + 1
            if table.may_use.get(user, set()) is not None:
                edges.setdefault(user, set()).add(used)
            if not table.allows(user, used):
                errors.append(f"src/{paths[source]}:{line}: includes {included} ({used}), which the map's row for "
                              f"'{user}' does not list under may use")
    cycle = find_cycle(edges)
    if cycle:
        errors.append("modules include each other in a cycle: " + " -> ".join(cycle))
    return errors


def main(argv: List[str]) -> int:
    repo = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parents[2]
    errors = check(repo)
    for error in errors:
        print(error)
    if errors:
        print(f"module map: {len(errors)} disagreement(s) between docs/modules.md, docs/architecture.md and src/")
        return 1
    print("module map: every file has a row, every include is allowed, no cycle, every folder includes only "
          "itself and the folders below it")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
