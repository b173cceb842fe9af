#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""schema_test — docs/ddtime.schema.json is a valid draft 2020-12 schema,
every example in docs/json.md validates (and there is one of each kind),
and documents broken on purpose do not: the validation the corpus and
combo.py rely on is not a no-op.

Needs python3-jsonschema; without it the test fails (ddtime_schema.require)."""
import copy
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ddtime_schema  # noqa: E402

PAGE = os.path.join(os.path.dirname(ddtime_schema.SCHEMA), "json.md")
KINDS = {"run", "snapshot", "session", "profile", "comparison", "capacity", "error"}


def examples():
    with open(PAGE, encoding="utf-8") as f:
        return [json.loads(block) for block in re.findall(r"```json\n(.*?)```", f.read(), re.S)]


def broken(by_kind):
    """(what was broken, document) pairs, each one change away from valid."""
    run, session, profile = by_kind["run"], by_kind["session"], by_kind["profile"]
    comparison, error, snapshot = by_kind["comparison"], by_kind["error"], by_kind["snapshot"]
    capacity = by_kind["capacity"]

    def changed(document, change):
        document = copy.deepcopy(document)
        change(document)
        return document

    return [
        ("a key the schema does not name", changed(run, lambda d: d.update(new_key=1))),
        ("a key left out", changed(run, lambda d: d.pop("exit_status"))),
        ("a time as a string", changed(run, lambda d: d["times"].update(real="0.1"))),
        ("a negative time", changed(run, lambda d: d["times"].update(copy=-1))),
        ("an unknown status=", changed(run, lambda d: d["operands"].update(status="loud"))),
        ("an unknown conversion", changed(run, lambda d: d["operands"]["conv"].append("upper"))),
        ("a finished run without an exit status", changed(run, lambda d: d.update(exit_status=None))),
        ("an exit status GNU dd never gives", changed(run, lambda d: d.update(exit_status=2))),
        ("a snapshot with an exit status", changed(snapshot, lambda d: d.update(exit_status=0))),
        ("a complete run with a phase", changed(run, lambda d: d.update(phase="ramp"))),
        ("a run with environment null", changed(run, lambda d: d.update(environment=None))),
        ("an environment with a new fact", changed(run, lambda d: d["environment"].update(uptime=5))),
        ("a session run without its pass", changed(session, lambda d: d["runs"][0].pop("pass"))),
        ("a session run with an environment",
         changed(session, lambda d: d["runs"][0].update(environment=d["environment"]))),
        ("a session snapshot with a summary", changed(session, lambda d: d.update(complete=False, exit_status=None))),
        ("a summary figure without its interval", changed(session, lambda d: d["summary"][0]["real"].pop("median_ci95"))),
        ("a profile row on a third side", changed(profile, lambda d: d["rows"][0].update(side="both"))),
        ("a profile without schema", changed(profile, lambda d: d.pop("schema"))),
        ("a comparison's unknown verdict", changed(comparison, lambda d: d["comparison"]["rows"][0].update(verdict="better"))),
        ("a comparison's row key mixing kinds",
         changed(comparison, lambda d: d["comparison"]["rows"][0]["key"].update(side="read"))),
        ("a capacity verdict --capacity never gives",
         changed(capacity, lambda d: d["capacity"].update(verdict="fake"))),
        ("a capacity probe without its outcome", changed(capacity, lambda d: d["capacity"]["probes"][0].pop("outcome"))),
        ("a capacity probe of another mode", changed(capacity, lambda d: d["capacity"].update(mode="slow"))),
        ("a capacity extent of no blocks",
         changed(capacity, lambda d: d["capacity"].update(
             mode="full", probes=None,
             extents=[{"offset": 0, "blocks": 0, "outcome": "good", "holds": None, "error": None}]))),
        ("a capacity pass that is no run", changed(capacity, lambda d: d["capacity"].update(mode="full", passes=[{}]))),
        ("an error that exits 0", changed(error, lambda d: d.update(exit_status=0))),
        ("an error without errors", changed(error, lambda d: d.update(errors=[]))),
        ("another tool's document", changed(run, lambda d: d.update(tool="fio"))),
        ("not an object", [run]),
    ]


def main():
    schema = ddtime_schema.Schema()
    failures = []
    found = examples()
    by_kind = {}
    for document in found:
        kind = ddtime_schema.kind_of(document)
        by_kind.setdefault(kind, document)
        for reason in schema.errors(document):
            failures.append("example (%s) in docs/json.md does not validate: %s" % (kind, reason))
    if set(by_kind) != KINDS:
        failures.append("docs/json.md's examples cover %s, not every kind of %s" % (sorted(by_kind), sorted(KINDS)))
    else:
        cases = broken(by_kind)
        for what, document in cases:
            if not schema.errors(document):
                failures.append("validates though broken: " + what)
    for failure in failures:
        print("FAIL: " + failure)
    if failures:
        return 1
    print("%d examples validate, %d broken documents are refused" % (len(found), len(cases)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
