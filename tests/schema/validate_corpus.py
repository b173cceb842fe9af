#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""validate_corpus — every JSON document the end-to-end tests kept
(tests/e2e/json_corpus.h, $DDTIME_JSON_CORPUS) validates against
docs/ddtime.schema.json.

  validate_corpus.py DIRECTORY --min N    fail on any document that does not
                                          validate, and on fewer than N
  validate_corpus.py --reset DIRECTORY    empty it (the fixture's set-up)

Fewer than N documents means the e2e tests did not run first, or the
harness no longer keeps what ddtime writes: either way nothing was
checked, which is a failure, not a pass."""
import argparse
import collections
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ddtime_schema  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory")
    parser.add_argument("--min", type=int, default=1)
    parser.add_argument("--reset", action="store_true")
    args = parser.parse_args()
    # A test preset that runs a subset of the e2e tests (the ThreadSanitizer
    # preset runs those labelled threads) sees fewer documents, and says how
    # many it expects.
    if os.environ.get("DDTIME_JSON_CORPUS_MIN"):
        args.min = int(os.environ["DDTIME_JSON_CORPUS_MIN"])
    if args.reset:
        shutil.rmtree(args.directory, ignore_errors=True)
        os.makedirs(args.directory)
        return 0
    schema = ddtime_schema.Schema()
    names = sorted(name for name in os.listdir(args.directory) if name.endswith(".json")) \
        if os.path.isdir(args.directory) else []
    kinds = collections.Counter()
    failed = 0
    for name in names:
        with open(os.path.join(args.directory, name), encoding="utf-8", errors="strict") as f:
            text = f.read()
        try:
            document = json.loads(text)
        except ValueError as error:
            failed += 1
            print("FAIL %s: not JSON: %s" % (name, error))
            continue
        kinds[ddtime_schema.kind_of(document)] += 1
        reasons = schema.errors(document)
        if reasons:
            failed += 1
            print("FAIL %s (%s):\n  %s" % (name, ddtime_schema.kind_of(document), "\n  ".join(reasons[:10])))
    print("%d documents, %d do not validate; by kind: %s" % (
        len(names), failed, ", ".join("%s %d" % item for item in sorted(kinds.items()))))
    if len(names) < args.min:
        print("FAIL: %d documents in %s, expected at least %d: did the e2e tests run first (ctest without -R)?"
              % (len(names), args.directory, args.min))
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
