#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""json_doc — the reference half of docs/json.md, generated from
docs/ddtime.schema.json: a table per document kind and per shared part,
every key the schema names, its type and what it means.

  json_doc.py --check docs/json.md   exit 1 if the page's generated part
                                     is not what the schema gives now
  json_doc.py --write docs/json.md   rewrite that part in place

The page's first half (what each document is, when it is written, the
examples) is written by hand; the examples are validated by schema_test.py.
Needs nothing beyond the standard library."""
import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "..", "docs", "ddtime.schema.json")
MARK = "<!-- Generated from ddtime.schema.json by tests/schema/json_doc.py --write; edit the schema, not below. -->"

# The sections in reading order: the documents, then the parts they share.
ORDER = ["run", "snapshot", "session", "session_run", "plan", "summary_row", "figure", "profile", "profile_row",
         "profile_mix_side", "profile_run", "profile_latency", "comparison", "compared_row", "compared_side", "row_key", "capacity",
         "capacity_probe", "capacity_extent", "error",
         "environment", "file_facts", "device_facts", "operands", "flags", "position", "records", "times", "rates",
         "engine", "latency", "latency_side", "random_range", "mix", "mix_side", "time", "timeline", "sample_latency", "steady",
         "residency_side"]


class Page:
    def __init__(self, schema):
        self.defs = schema["$defs"]
        missing = [name for name in self.defs if name not in ORDER and not self._scalar(self.defs[name])
                   and name != "run_outcome"]
        if missing:
            raise SystemExit("json_doc.py: give these $defs a place in ORDER: " + ", ".join(missing))

    @staticmethod
    def _scalar(node):
        return "properties" not in node and "oneOf" not in node and "items" not in node or (
            "items" in node and "enum" not in node.get("items", {}) and "$ref" not in node.get("items", {})
            and "properties" not in node.get("items", {}))

    def type_words(self, node):
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[1]
            target = self.defs[name]
            if name in ORDER:
                return "[%s](#%s)" % (name, name)
            return self.type_words(target)
        if "const" in node:
            return "`%s`" % json.dumps(node["const"], ensure_ascii=False)
        if "enum" in node:
            return " \\| ".join("`%s`" % json.dumps(v, ensure_ascii=False) for v in node["enum"])
        if "oneOf" in node:
            return " or ".join(self.type_words(option) for option in node["oneOf"])
        kinds = node.get("type")
        if kinds is None:
            return "any"
        kinds = kinds if isinstance(kinds, list) else [kinds]
        words = []
        for kind in kinds:
            if kind == "array" and "items" in node:
                words.append("array of " + self.type_words(node["items"]))
            elif kind == "integer" and node.get("minimum") == 1:
                words.append("integer ≥ 1")
            elif kind in ("integer", "number") and node.get("minimum") == 0:
                words.append(kind + " ≥ 0")
            else:
                words.append(kind)
        return " or ".join(words)

    def description(self, node):
        if "description" in node:
            return node["description"]
        if "$ref" in node:
            name = node["$ref"].rsplit("/", 1)[1]
            if name not in ORDER:
                return self.defs[name].get("description", "")
        return ""

    @staticmethod
    def _inline_object(node):
        """The object node inside node, when it is written in place (not a $ref)."""
        if node.get("type") == "object" and "properties" in node:
            return node
        for option in node.get("oneOf", []):
            if option.get("type") == "object" and "properties" in option:
                return option
        return None

    def rows(self, node, prefix=""):
        required = set(node.get("required", []))
        for key, child in node["properties"].items():
            always = "yes" if key in required else "no"
            yield prefix + key, self.type_words(child) if not self._inline_object(child) else self._object_words(child), \
                always, self.description(child)
            inner = self._inline_object(child)
            if inner is not None:
                yield from self.rows(inner, prefix + key + ".")
            elif child.get("type") == "array" and "properties" in child.get("items", {}):
                yield from self.rows(child["items"], prefix + key + "[].")

    def _object_words(self, node):
        if "oneOf" in node:
            return " or ".join("object" if "properties" in o else self.type_words(o) for o in node["oneOf"])
        return "object"

    def section(self, name):
        node = self.defs[name]
        lines = ["### %s" % name, ""]
        if node.get("description"):
            lines += [node["description"], ""]
        if "type" not in node and "properties" in node:
            # A constraint on another kind's keys (snapshot), not an object of its own.
            lines += ["| key | value |", "|---|---|"]
            lines += ["| `%s` | %s |" % (key, self.type_words(child)) for key, child in node["properties"].items()]
            return lines + [""]
        objects = [node] if "properties" in node else [o for o in node.get("oneOf", []) if "properties" in o]
        if not objects:
            lines += ["Type: " + self.type_words(node) + ".", ""]
        for number, obj in enumerate(objects):
            if len(objects) > 1:
                lines += ["One of (%d):" % (number + 1), ""]
            elif "oneOf" in node:
                lines += ["Type: " + self._object_words(node) + ".", ""]
            lines += ["| key | type | always | meaning |", "|---|---|---|---|"]
            for key, kind, always, words in self.rows(obj):
                lines.append("| `%s` | %s | %s | %s |" % (key, kind, always, words.replace("|", "\\|")))
            lines.append("")
        return lines

    def text(self):
        lines = [MARK, "", "## Reference", ""]
        lines += ["Generated from `docs/ddtime.schema.json`. \"always\": the key is in every such object; "
                  "otherwise the meaning says when it is there.", ""]
        for name in ORDER:
            lines += self.section(name)
        return "\n".join(lines).rstrip("\n") + "\n"


def split(page_text):
    at = page_text.find(MARK)
    if at < 0:
        raise SystemExit("json_doc.py: the page has no line\n%s\nabove its generated part" % MARK)
    return page_text[:at], page_text[at:]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--check", metavar="PAGE")
    group.add_argument("--write", metavar="PAGE")
    parser.add_argument("--schema", default=SCHEMA)
    args = parser.parse_args()
    with open(args.schema, encoding="utf-8") as f:
        generated = Page(json.load(f)).text()
    path = args.check or args.write
    with open(path, encoding="utf-8") as f:
        head, tail = split(f.read())
    if args.write:
        with open(path, "w", encoding="utf-8") as f:
            f.write(head + generated)
        return 0
    if tail != generated:
        sys.stderr.write("FAIL: %s's reference is not what docs/ddtime.schema.json gives: run\n"
                         "  python3 tests/schema/json_doc.py --write docs/json.md\n" % path)
        return 1
    print("docs/json.md's reference matches the schema (%d sections)" % len(ORDER))
    return 0


if __name__ == "__main__":
    sys.exit(main())
