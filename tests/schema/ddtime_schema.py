# SPDX-License-Identifier: GPL-3.0-or-later
"""ddtime_schema — docs/ddtime.schema.json as a validator, shared by the
corpus check, the schema's own test and combo.py.

Needs python3-jsonschema (Debian's; packaging/install-build-deps.sh
installs it). Without it `require()` says so and exits 1: a test that
cannot validate fails rather than passing silently."""
import json
import os
import sys

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "ddtime.schema.json")

# Which $defs entry a document claims to be, by the key only that kind has:
# to name the kind in a failure and to count the kinds validated.
_KINDS = (("comparison", "comparison"), ("capacity", "capacity"), ("profile", "profile"), ("plan", "session"),
          ("refused", "error"), ("operands", "run"))


def require():
    """The jsonschema module, or exit 1 with the reason (never a skip)."""
    try:
        import jsonschema
    except ImportError as error:
        sys.stderr.write(
            "FAIL: cannot validate JSON against docs/ddtime.schema.json: %s\n"
            "      (%s has no jsonschema: apt-get install python3-jsonschema, or run /usr/bin/python3)\n"
            % (error, sys.executable))
        sys.exit(1)
    return jsonschema


def kind_of(document):
    """"run", "snapshot", "session", "profile", "comparison", "capacity", "error" or "unknown"."""
    if not isinstance(document, dict):
        return "unknown"
    for key, kind in _KINDS:
        if key in document:
            if kind in ("run", "session") and document.get("complete") is False and document.get("signal") is None:
                return "snapshot"
            return kind
    return "unknown"


class Schema:
    def __init__(self, path=SCHEMA):
        jsonschema = require()
        with open(path, encoding="utf-8") as f:
            self.schema = json.load(f)
        jsonschema.Draft202012Validator.check_schema(self.schema)
        self.validator = jsonschema.Draft202012Validator(self.schema)
        self._jsonschema = jsonschema

    def errors(self, document):
        """The reasons document does not validate, [] when it does. For a
        document of a known kind the reasons are its kind's (the top-level
        oneOf alone would only say that no kind matched)."""
        if self.validator.is_valid(document):
            return []
        kind = kind_of(document)
        kind = "run" if kind == "snapshot" and "operands" in document else kind
        kind = "session" if kind == "snapshot" else kind
        target = self.validator
        if kind in self.schema["$defs"]:
            target = self.validator.evolve(schema={"$ref": "#/$defs/" + kind, "$defs": self.schema["$defs"]})
        found = []
        for error in sorted(target.iter_errors(document), key=lambda e: list(e.absolute_path)):
            where = "/".join(str(part) for part in error.absolute_path) or "(document)"
            found.append("%s: %s" % (where, _short(error.message)))
        return found or ["does not validate"]


def _short(text, limit=300):
    return text if len(text) <= limit else text[:limit] + "..."


def documents_in(text):
    """The JSON documents in text: one per line (as ddtime writes them) or
    the whole text as one value."""
    stripped = text.strip()
    if not stripped:
        return []
    try:
        return [json.loads(stripped)]
    except ValueError:
        pass
    return [json.loads(line) for line in text.splitlines() if line.strip()]
