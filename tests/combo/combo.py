#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Combination test of dd's operands and ddtime's options (issue 19).

Generates random command lines that combine dd operands (bs, ibs/obs,
count, skip, seek, conv=notrunc/fdatasync, oflag=append, direct I/O,
fullblock, count_bytes, skip_bytes, seek_bytes) with ddtime's options
(--size, --repeat, --warmup, --sweep, --readback, --verify, --preallocate,
--pattern, --iodepth, --engine, --json, --csv, --cache, --latency,
--split-times, --units, --progress, --random, --time, --ramp, --timeline,
--steady, --jobs, and rarely --profile), including report paths that alias the
data files on purpose, runs each in a fresh directory of a small file
system made here (a loop-mounted ext4 image, else a size-limited tmpfs) and
checks the invariants of issue 19:

  exit-status          exit status 0 or 1, never killed by a signal
  hang                 still running after --timeout seconds
  other-files          no file but of= and the report files is created,
                       changed or removed
  refusal-changes-nothing  a refused command (exit 1, no GNU summary)
                       leaves every file as it was and creates none
  warmup-not-counted   a session's warm-up runs are "counted": false in
                       its JSON (issue 28, B13)
  rule1-scratch        no --profile/--pattern without --force changes an
                       existing non-empty file: it is refused (issue 28,
                       rule 1); a forced profile never grows the file
  report-path-refused  a report path that names if=, of=, the other report,
                       a directory, a missing directory, or nothing, is
                       refused
  output-equals-gnu    of= ends byte for byte as GNU dd leaves it for the
                       same operands (each run of a session is a GNU run)
  outside-range        nothing is written outside the range GNU dd writes
  pattern-bytes        --pattern's bytes (0xHH exactly, stamp sectors)
  mix-counts           a --mix run's reads and writes add up to its
                       records and bytes (JSON, CSV lines, timeline CSV
                       samples), and a run that ends at its range's end
                       did every record once
  interrupted-output   after SIGINT every byte of of= is the copy's or the
                       old one (or, under --random or a timed --jobs, a hole past the old
                       end: a block not written yet), and nothing lies
                       beyond the copy's range
  status-equals-gnu    a copy that ran exits as GNU dd's does
  summary-equals-gnu   the records and bytes lines (and GNU's messages) are
                       GNU's; invoked as dd, only extensions add lines;
                       --jobs after an error: GNU's messages, each once,
                       and one summary (every job's records count);
                       --latency's JSON holds a write sample for every
                       record written (every job's, merged)
  summary-last         nothing follows GNU's summary
  rule8-words          ddtime's own lines never contain copied, bytes,
                       records in, records out
  report-parse         --json/--csv parse, replace all text on stderr
  report-agrees        --json/--csv agree with GNU's summary, the exit
                       status and the number of runs
  openmetrics-parse    --openmetrics=PATH, after exit status 0, is the
                       Prometheus text format (each family's HELP and
                       TYPE before its samples, names and labels well
                       formed), and its bytes out are the summary's
  svg-parse            --svg=PATH, after exit status 0, is well-formed XML
                       whose root is <svg> with width and height
  svg-layout           in that chart no two text boxes overlap, none
                       leaves the page or is cut (issue 28 rule 8; the
                       boxes as tests/svg/svg_render_test.py computes them)
  stdout-empty         nothing on standard output when of= is given
  handlers-before-open no file of the case is open while the SIGINT or
                       SIGUSR1 handler is not yet in (GNU dd installs them
                       before its first open)
  signal-usr1          SIGUSR1 never kills the process
  usr1-prints          SIGUSR1 prints the statistics so far
  signal-int           SIGINT ends the process by SIGINT within the bound
  option-dropped       an option that was accepted shows its effect (rule 7):
                       --split-times, --latency, --cache, --engine, --units,
                       --random (its line and the JSON's access; of= must
                       still end as GNU's sequential copy leaves it),
                       --time (its line and JSON object; of= ends as a copy
                       of the range's whole blocks leaves it, the summary
                       counts whole blocks), --timeline (JSON samples; with
                       --csv, the samples' schema), --jobs (the JSON
                       engine's jobs object)
  figures              a figure that was not measured is null, never 0
  profile              a --profile case (rare, and cheap: --size=1M,
                       --time=30ms, one run, no warm-up, no pause) exits 0
                       with a JSON row per test and side, each with its
                       run counted, a table row per test on stderr and no
                       GNU summary; it has no GNU twin (gnu_plan is not
                       asked), so no GNU comparison applies
  capacity             a --capacity case (rare: of= a regular file of 1-3
                       MiB, or empty) says the file holds what it reports
                       and exits 0 (JSON verdict "holds"), or refuses a
                       range without a block; of= keeps its size, changes
                       only in probed blocks inside the range, and not at
                       all with --keep; no GNU twin
  compare-self         --compare of a --json=PATH document with itself
                       exits 0, its --json parses with a row per row of the
                       document, and every verdict is ~ (no run is faster
                       than itself)
  compare-escape       --compare of the document against a copy whose
                       environment holds control bytes, ESC, a newline and
                       U+202E prints none of them (issue 28, rule 7)
  json-numbers         every number of --json=PATH's document and of the
                       comparison's JSON is finite and in its shortest
                       form: no fraction ending in 0, at most 17
                       significant digits (never fixed-point)
  report-environment   every JSON document (a run's, a session's, a
                       snapshot, a refusal) has its "environment" right
                       after "version", with the command line exactly as
                       executed, the host, and the date in ISO 8601 UTC

Some cases write to a block device of the test's own ($DEV: a loop device
over an 8 MiB file, filled with 0xAA before each run), where there is no
truncation and where the read-back passes and --iodepth write in place.

GNU dd (--gnu, default /bin/dd) is the reference: every case is first run
with /bin/dd in a twin directory holding the same starting files, one GNU
command per run of the session, with ddtime's options translated (--size=N
is count=N iflag=count_bytes; a bs sweep row sets bs= and keeps skip= and
seek= at their byte offsets; --pattern reads /dev/zero and its bytes are
then checked apart).

  python3 tests/combo/combo.py --ddtime build/release/ddtime --seed 1 --cases 300
  python3 tests/combo/combo.py --ddtime build/release/ddtime --seed 1 --case 17
  python3 tests/combo/combo.py --seed 1 --case 17 --setup /tmp/c17   (files only)
  python3 tests/combo/combo.py --ddtime ... --seed 1 --case 17 --minimize

Needs root (it mounts a file system); exits 77 when it cannot mount one.
Prints "N passed, M failed" last; exits 0 only when nothing failed.
Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import atexit
import csv
import dataclasses
import hashlib
import io
import json
import math
import mmap
import os
import random
import re
import select
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

REPO_ROOT = Path(__file__).resolve().parents[2]
# Rule 8's text boxes, computed once for both tests.
sys.path.insert(0, str(REPO_ROOT / "tests" / "svg"))
from svg_render_test import layout_problems_of as svg_layout_problems  # noqa: E402
# Every JSON document a case parses is validated against docs/ddtime.schema.json.
sys.path.insert(0, str(REPO_ROOT / "tests" / "schema"))
import ddtime_schema  # noqa: E402

# Made in main (it needs python3-jsonschema); None while only listing cases.
SCHEMA: Optional["ddtime_schema.Schema"] = None
# How many documents the run validated, by kind, for its last lines.
SCHEMA_COUNTS: Dict[str, int] = {}


def schema_problems(doc: object) -> List[str]:
    """Why doc does not validate against docs/ddtime.schema.json ([] when it does), counting it."""
    if SCHEMA is None:
        return []
    kind = ddtime_schema.kind_of(doc)
    SCHEMA_COUNTS[kind] = SCHEMA_COUNTS.get(kind, 0) + 1
    return SCHEMA.errors(doc)
KiB = 1024
MiB = 1024 * KiB
SKIP = 77
ENV = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "LC_ALL": "C"}
FILL = 0xAA  # what an existing of= is filled with, to see writes out of range
CSV_HEADER = ["bs", "iodepth", "pass", "repeat", "warmup", "cache", "bytes", "records", "real_s",
              "user_s", "sys_s", "cpu_percent", "bytes_per_second", "iops", "exit_status", "read_percent",
              "read_ios", "read_bytes", "write_ios", "write_bytes"]
# With --timeline the CSV is the samples, a line each.
TIMELINE_CSV_HEADER = ["bs", "iodepth", "pass", "repeat", "warmup", "sample", "end_s", "bytes", "records",
                       "interval_s", "interval_bytes", "bytes_per_second", "iops", "read_p50_ns", "read_p99_ns",
                       "read_max_ns", "write_p50_ns", "write_p99_ns", "write_max_ns", "read_bytes_per_second",
                       "write_bytes_per_second"]
# Extensions that may add lines to what GNU dd prints when invoked as dd.
PRINTING_EXTENSIONS = ("units", "split_times", "progress", "latency", "cache", "pattern",
                       "readback", "verify")


def log(message: str) -> None:
    print(f"combo: {message}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------
# A case: its starting files, dd's operands, ddtime's options, signals.

@dataclasses.dataclass
class Case:
    number: int
    program: str                                   # argv[0]: "ddtime" or "dd"
    files: Dict[str, tuple]                        # name -> ("random", n) | ("fill", n, byte) | ("dir",) | ("text", s) | ("symlink", target)
    dd: Dict[str, object]                          # dd operands; numbers are (value, spelling)
    ext: Dict[str, object]                         # ddtime options
    order: List[str]                               # keys of dd and ext in command-line order
    # ("USR1" | "INT", seconds, marker): sent that long after the start, or
    # after the marker (a regular expression) shows on stderr; a negative
    # delay is "right at the start", resolved when the case runs.
    signals: List[Tuple[str, float, Optional[str]]]

    def clone(self) -> "Case":
        return Case(self.number, self.program, dict(self.files),
                    {k: (list(v) if isinstance(v, list) else v) for k, v in self.dd.items()},
                    dict(self.ext), list(self.order), list(self.signals))


def num(value: int, spelling: Optional[str] = None) -> Tuple[int, str]:
    return (value, spelling if spelling is not None else str(value))


def spell(rng: random.Random, value: int) -> Tuple[int, str]:
    """value in one of dd's spellings (always exact)."""
    if rng.random() < 0.5:
        return (value, str(value))
    choices = [str(value)]
    for suffix, scale in (("k", KiB), ("K", KiB), ("M", MiB), ("b", 512), ("kB", 1000)):
        if value and value % scale == 0:
            choices.append(f"{value // scale}{suffix}")
    if value and value % 2 == 0 and value > 2:
        choices.append(f"2x{value // 2}")
    return (value, rng.choice(choices))


DEVICE_MIB = 8  # the block device some cases write to (of=$DEV)


def render(case: Case, device: str = "$DEV") -> List[str]:
    """The command line; of=@dev names the test's block device."""
    args: List[str] = []
    for key in case.order:
        if key in case.dd:
            value = case.dd[key]
            if value == "@dev":
                args.append(f"{key}={device}")
            elif isinstance(value, list):
                if value:
                    args.append(f"{key}={','.join(value)}")
            elif isinstance(value, tuple):
                args.append(f"{key}={value[1]}")
            else:
                args.append(f"{key}={value}")
        elif key in case.ext:
            value = case.ext[key]
            name = "--" + key.replace("_", "-")
            if key in ("sweep_bs", "sweep_iodepth"):
                args.append(f"--sweep={value[1]}")
            elif value is True:
                args.append(name)
            elif key in ("json", "csv"):
                args.append(name if value is None else f"{name}={value}")
            elif isinstance(value, tuple):
                args.append(f"{name}={value[1]}")
            else:
                args.append(f"{name}={value}")
    return args


# ---------------------------------------------------------------------------
# The generator. Weighted so that most command lines are accepted.

BS_ANY = [512, 1000, 1024, 3000, 4096, 4096, 4096, 8192, 12288, 65536, 65536, 131072, MiB]
BS_ALIGNED = [512, 1024, 1536, 4096, 4096, 8192, 65536, 65536, 131072, MiB]
DEPTHS = [1, 2, 4, 8, 32]


def pick(rng: random.Random, weighted: Sequence[Tuple[object, float]]):
    total = sum(w for _, w in weighted)
    x = rng.random() * total
    for item, w in weighted:
        x -= w
        if x < 0:
            return item
    return weighted[-1][0]


def input_length(rng: random.Random, long: bool) -> int:
    if long:
        return rng.choice([2 * MiB, 3 * MiB, 3 * MiB - 1000])
    return pick(rng, [(0, 2), (1, 2), (511, 1), (512, 2), (4096, 2), (1000000, 10), (3000, 2),
                      (65537, 3), (rng.randint(0, 3 * MiB), 8), (3 * MiB, 2), (rng.randint(1, 70000), 5)])


PROFILE_TESTS = {"diskmark": 4, "nvme": 4, "flash": 4, "peak": 2, "real": 2}
PROFILE_SHARE = 0.03  # of the cases: a profile runs some 8 tests


def profile_case(rng: random.Random, number: int) -> Case:
    """--profile with the cheapest settings, reading if= or writing of=."""
    ext: Dict[str, object] = {"profile": rng.choice(sorted(PROFILE_TESTS)), "time": "30ms", "repeat": "1",
                              "warmup": "0", "pause": "0", "size": "1M", "json": "profile.json"}
    if rng.random() < 0.3:
        ext["csv"] = "profile.csv"
    dd: Dict[str, object] = {"if": "in"} if rng.random() < 0.5 else {"of": "out"}
    files: Dict[str, tuple] = {"in": ("random", 2 * MiB)}
    order = list(dd) + list(ext)
    rng.shuffle(order)
    # Rule 1 of issue 28: an existing non-empty of= (as big as the range)
    # is refused without --force, and stays its size with it.
    if "of" in dd and rng.random() < 0.3:
        files["out"] = ("fill", MiB, FILL)
        if rng.random() < 0.5:
            ext["force"] = True
            order.append("force")
    # CrystalDiskMark's Mix: a mix row per test after the writes. Drawn
    # from a stream of its own, so that the cases above stay as they were.
    mix_rng = random.Random(f"ddtime-combo-profile-mix-{number}")
    if "of" in dd and mix_rng.random() < 0.4:
        ext["mix"] = mix_rng.choice([0, 30, 70, 100])
        order.insert(mix_rng.randrange(len(order) + 1), "mix")
    return Case(number, "ddtime", files, dd, ext, order, [])


def is_profile(case: Case) -> bool:
    return "profile" in case.ext


CAPACITY_SHARE = 0.02  # of the cases: --capacity probes a file


def capacity_case(rng: random.Random, number: int) -> Case:
    """--capacity over of=out, a regular file (which holds what it says):
    empty, or 1-3 MiB of random bytes; quick or full; with or without
    --force, --keep, bs=, seek=, count= and --json, and for full (whose
    passes take them) --iodepth, --timeline and --svg."""
    size = pick(rng, [(0, 1), (MiB, 3), (3 * MiB - 1000, 2), (2 * MiB + 4096, 2)])
    files: Dict[str, tuple] = {"out": ("random", size)}
    dd: Dict[str, object] = {"of": "out"}
    ext: Dict[str, object] = {"capacity": rng.choice([True, "quick", "full"])}
    if ext["capacity"] == "full":
        if rng.random() < 0.4:
            ext["iodepth"] = rng.choice([1, 4, 16])
        if rng.random() < 0.4:
            ext["timeline"] = rng.choice([True, "10ms"])
        if rng.random() < 0.4:
            ext["svg"] = "capacity.svg"
    if rng.random() < 0.4:
        dd["bs"] = num(rng.choice([4096, 8192, 65536]))
    if rng.random() < 0.3:
        dd["seek"] = num(rng.choice([1, 8, 64]))
    if rng.random() < 0.3:
        dd["count"] = num(rng.choice([16, 128, 1000]))
    # Full refuses --keep: rarely asked, so that most full cases run.
    if rng.random() < (0.15 if ext["capacity"] == "full" else 0.5):
        ext["keep"] = True
    if rng.random() < 0.85:
        ext["force"] = True
    if rng.random() < 0.6:
        ext["json"] = "capacity.json"
    order = list(dd) + list(ext)
    rng.shuffle(order)
    return Case(number, "ddtime", files, dd, ext, order, [])


def is_capacity(case: Case) -> bool:
    return "capacity" in case.ext


def scratch_offered(files: Dict[str, tuple], dd: Dict[str, object]) -> Optional[bool]:
    """Whether of= is a file the user offers as scratch (absent or empty):
    None when of= is not the case's file "out"."""
    if dd.get("of") != "out":
        return None
    spec = files.get("out")
    return spec is None or spec[0] != "fill" or spec[1] == 0


def scratch_protected(case: Case) -> bool:
    """Generator data (--pattern, --profile) over an existing non-empty
    of= without --force: rule 1 says it is refused and changes nothing."""
    writes_own = "pattern" in case.ext or ("profile" in case.ext and "of" in case.dd)
    return writes_own and not case.ext.get("force") and scratch_offered(case.files, case.dd) is False


def generate(seed: int, number: int) -> Case:
    # Its own generator, so that the other cases stay as they were.
    profile_rng = random.Random(f"ddtime-combo-profile:{seed}:{number}")
    if profile_rng.random() < PROFILE_SHARE:
        return profile_case(profile_rng, number)
    capacity_rng = random.Random(f"ddtime-combo-capacity:{seed}:{number}")
    if capacity_rng.random() < CAPACITY_SHARE:
        return capacity_case(capacity_rng, number)
    rng = random.Random(f"ddtime-combo:{seed}:{number}")
    kind = pick(rng, [("plain", 82), ("usr1", 9), ("int", 9)])
    long = kind != "plain"
    program = "dd" if rng.random() < 0.15 else "ddtime"
    files: Dict[str, tuple] = {}
    dd: Dict[str, object] = {}
    ext: Dict[str, object] = {}

    source = pick(rng, [("file", 72), ("zero", 8), ("pattern", 20)])
    in_len = input_length(rng, long and source == "file")
    files["in"] = ("random", in_len)
    files["keep"] = ("random", rng.randint(0, 5000))
    if source == "file":
        dd["if"] = "in"
    elif source == "zero":
        dd["if"] = "/dev/zero"
    else:
        ext["pattern"] = pick(rng, [("zero", 2), ("ones", 2), (f"0x{rng.randint(0, 255):02x}", 2),
                                    (f"0X{rng.randint(0, 255):02X}", 1), ("random", 4), ("stamp", 5)])
    roll = rng.random()
    of = "out" if roll < 0.83 else "@dev" if roll < 0.90 else "/dev/null"
    dd["of"] = of
    if rng.random() < 0.55:
        files["out"] = ("fill", pick(rng, [(rng.randint(0, 20000), 3), (rng.randint(0, 4 * MiB), 3),
                                           (in_len, 1), (1, 1)]), FILL)

    direct_in = source == "file" and rng.random() < 0.12
    direct_out = of in ("out", "@dev") and rng.random() < 0.12
    aligned = direct_in or direct_out
    sizes = BS_ALIGNED if aligned else BS_ANY
    if rng.random() < 0.12:
        dd["ibs"] = spell(rng, rng.choice(sizes))
        dd["obs"] = spell(rng, rng.choice(sizes))
    elif rng.random() < 0.93:
        dd["bs"] = spell(rng, rng.choice(sizes))
    ibs = dd["bs"][0] if "bs" in dd else dd["ibs"][0] if "ibs" in dd else 512
    obs = dd["bs"][0] if "bs" in dd else dd["obs"][0] if "obs" in dd else 512

    iflag: List[str] = []
    oflag: List[str] = []
    conv: List[str] = []
    budget = 3 * MiB if not long else (24 * MiB if source != "file" else 3 * MiB)
    # How much to copy: count= (in blocks or bytes) or --size.
    unbounded = source != "file"
    how = pick(rng, [("none", 3 if not unbounded else 0), ("count", 3), ("size", 3)])
    if how == "count":
        if rng.random() < 0.2:
            iflag.append("count_bytes")
            value = rng.randint(0, budget)
            if direct_in and rng.random() < 0.9:
                value -= value % 512
            dd["count"] = spell(rng, value)
        else:
            dd["count"] = spell(rng, rng.randint(0, max(1, budget // ibs)))
    elif how == "size":
        value = pick(rng, [(1, 1), (100, 1), (512, 1), (4096, 1), (1000000, 3), (65537, 1),
                           (rng.randint(1, budget), 4), (budget, 1)])
        if direct_in and rng.random() < 0.9:
            value = max(512, value - value % 512)
        ext["size"] = spell(rng, value)
    if source == "file" and rng.random() < 0.22:
        if rng.random() < 0.25:
            iflag.append("skip_bytes")
            value = rng.randint(0, in_len + 10)
            if direct_in:
                value -= value % 512
            dd["skip"] = spell(rng, value)
        else:
            dd["skip"] = spell(rng, rng.randint(0, in_len // max(ibs, 1) + 2))
    if of in ("out", "@dev") and rng.random() < 0.25:
        if rng.random() < 0.25:
            oflag.append("seek_bytes")
            value = rng.randint(0, MiB)
            if direct_out:
                value -= value % 512
            dd["seek"] = spell(rng, value)
        else:
            dd["seek"] = spell(rng, rng.randint(0, max(1, MiB // obs)))
    if source == "file" and rng.random() < 0.1:
        iflag.append("fullblock")
    if direct_in:
        iflag.append("direct")
    if direct_out:
        oflag.append("direct")
    if of in ("out", "@dev") and rng.random() < (0.10 if of == "out" else 0.25) and not (of == "@dev" and source == "pattern"):
        oflag.append("append")
        if rng.random() < 0.75:
            conv.append("notrunc")
    if of == "out" and "notrunc" not in conv and rng.random() < (0.35 if "out" in files else 0.15):
        conv.append("notrunc")
    if rng.random() < 0.10:
        conv.append("fdatasync")
    rng.shuffle(iflag)
    rng.shuffle(conv)
    dd["iflag"], dd["oflag"], dd["conv"] = iflag, oflag, conv

    # Sessions.
    if rng.random() < 0.2:
        ext["repeat"] = rng.randint(2, 4)
    if rng.random() < 0.1:
        ext["warmup"] = rng.randint(1, 2)
    roll = rng.random()
    if roll < 0.12:
        pool = BS_ALIGNED if aligned else BS_ANY
        if rng.random() < 0.7:
            values = sorted(set(rng.sample(pool, rng.randint(2, 3))), key=lambda v: rng.random())
            if len(values) < 2:
                values = [4096, 65536]
            text = ",".join(spell(rng, v)[1] for v in values)
        else:
            first = rng.choice([512, 1024, 4096, 8192])
            last = first * rng.choice([2, 4, 8, 16])
            values, v = [], first
            while v <= last:
                values.append(v)
                v *= 2
            text = f"{spell(rng, first)[1]}..{spell(rng, last)[1]}"
        ext["sweep_bs"] = (values, f"bs={text}")
    elif roll < 0.15 and "append" not in oflag:
        ext["sweep_bs"] = ("auto", "bs=auto")
    if rng.random() < 0.08 and not (ext.get("sweep_bs") and ext["sweep_bs"][0] == "auto"):
        depths = sorted(rng.sample([1, 2, 4, 8, 16], 2), key=lambda v: rng.random())
        ext["sweep_iodepth"] = (depths, "iodepth=" + ",".join(map(str, depths)))
    if rng.random() < 0.14:
        ext["verify" if rng.random() < 0.5 else "readback"] = True
        if rng.random() < 0.85:
            for key in ("repeat", "warmup", "sweep_bs", "sweep_iodepth"):
                ext.pop(key, None)
        if dd["of"] == "/dev/null" and rng.random() < 0.9:
            dd["of"] = of = "out"
    if rng.random() < 0.08:
        ext["preallocate"] = True
    if rng.random() < (0.2 if of != "@dev" else 0.4):
        ext["iodepth"] = rng.choice(DEPTHS)
        if "ibs" in dd and rng.random() < 0.9:
            dd.pop("ibs"), dd.pop("obs")
            dd["bs"] = spell(rng, rng.choice(sizes))
    if rng.random() < 0.1:
        ext["jobs"] = rng.choice([2, 3, 4, 8, 16])
        if "ibs" in dd and rng.random() < 0.9:
            dd.pop("ibs"), dd.pop("obs")
            dd["bs"] = spell(rng, rng.choice(sizes))
    if rng.random() < 0.15:
        engine = rng.choice(["auto", "io_uring", "threads", "libaio", "sync"])
        if engine == "sync" and (ext.get("iodepth", 1) > 1 or "sweep_iodepth" in ext or "jobs" in ext) and rng.random() < 0.9:
            engine = "auto"
        ext["engine"] = engine
    if rng.random() < 0.01:
        # Issue 28's rule 3: the most --jobs and --iodepth allow, which the
        # threads engine cannot start everywhere: no more slots (and
        # workers) than each job's part has records, and a refusal, where
        # the machine cannot take them, changes no file.
        ext["jobs"], ext["iodepth"] = 64, 1024
        ext["engine"] = rng.choice(["auto", "threads"])
        if "ibs" in dd:
            dd.pop("ibs"), dd.pop("obs")
            dd["bs"] = spell(rng, rng.choice(sizes))
    if rng.random() < 0.15:
        roll = rng.random()
        ext["cache"] = "cold-system" if roll < 0.03 else "as-is" if roll < 0.2 else "cold" if roll < 0.6 else "warm"
    if rng.random() < 0.15:
        ext["latency"] = True
    if rng.random() < 0.12:
        ext["random"] = True if rng.random() < 0.5 else rng.randint(0, 1 << 40)
    if rng.random() < 0.15:
        ext["split_times"] = True
    if rng.random() < 0.15:
        ext["units"] = rng.choice(["si", "iec", "both", "bytes", "all"])
    if rng.random() < 0.05:
        ext["progress"] = True
    # --time only where the range has an end (GNU's twin must end too):
    # a file's rest, count=, --size, or the rest of the device.
    ranged = source == "file" or "count" in dd or "size" in ext or of == "@dev"
    if ranged and rng.random() < 0.08 and ext.get("repeat", 1) <= 3:
        ext["time"] = rng.choice(["30ms", "60ms", "0.1s"])
        if rng.random() < 0.25:
            ext["ramp"] = "20ms"
        if rng.random() < 0.15:
            ext["steady"] = True if rng.random() < 0.5 else "5%"
    if rng.random() < 0.06:
        ext["timeline"] = True if rng.random() < 0.6 else rng.choice(["10ms", "25ms"])
    # Reports: to stderr (None) or to a file.
    if rng.random() < 0.25:
        if rng.random() < 0.35:
            ext["json"] = None
        else:
            ext["json"] = "r.json"
            if rng.random() < 0.2:
                files["r.json"] = ("text", "old report\n")
    if rng.random() < 0.15:
        if rng.random() < 0.35 and not ("json" in ext and ext["json"] is None):
            ext["csv"] = None
        else:
            ext["csv"] = "r.csv"
            if rng.random() < 0.2:
                files["r.csv"] = ("text", "old,report\n")
    if rng.random() < 0.08:
        ext["svg"] = "r.svg"
    # Report paths that alias the data files, or cannot be opened, on purpose.
    if rng.random() < 0.07:
        trick = rng.choice(["json=of", "json=./of", "json=in", "csv=of", "csv=in", "same", "json=dir",
                            "csv=dir", "json=nodir", "csv=nodir", "json=empty", "csv=empty", "json=link",
                            "svg=of", "svg=dir", "svg=json", "svg=empty"])
        if trick.endswith("of") and dd["of"] != "out":
            dd["of"] = "out"
        if trick == "json=of":
            ext["json"] = "out"
        elif trick == "json=./of":
            ext["json"] = "./out"
        elif trick == "json=in":
            ext["json"] = "in"
        elif trick == "csv=of":
            ext["csv"] = "out"
        elif trick == "csv=in":
            ext["csv"] = "in"
        elif trick == "same":
            ext["json"] = ext["csv"] = "same.rep"
        elif trick in ("json=dir", "csv=dir"):
            files["adir"] = ("dir",)
            ext[trick[:trick.index("=")]] = "adir"
        elif trick in ("json=nodir", "csv=nodir"):
            ext[trick[:trick.index("=")]] = "nodir/r.rep"
        elif trick in ("json=empty", "csv=empty"):
            ext[trick[:trick.index("=")]] = ""
        elif trick == "svg=of":
            ext["svg"] = "out"
        elif trick == "svg=json":
            ext["json"] = ext["svg"] = "same.rep"
        elif trick == "svg=dir":
            files["adir"] = ("dir",)
            ext["svg"] = "adir"
        elif trick == "svg=empty":
            ext["svg"] = ""
        elif trick == "json=link":
            dd["of"] = "out"
            files["link-out"] = ("symlink", "out")
            ext["json"] = "link-out"
    if rng.random() < 0.05:
        files["adir"] = ("dir",)

    # Cases for signals last long enough for a signal to land in some phase.
    if long:
        stretch = rng.choice(["repeat", "fdatasync", "cache", "verify", "pattern"])
        if stretch == "repeat" and not (ext.get("readback") or ext.get("verify")):
            ext["repeat"] = rng.randint(10, 40)
        elif stretch == "fdatasync" and "fdatasync" not in conv:
            conv.append("fdatasync")
        elif stretch == "cache":
            ext["cache"] = rng.choice(["cold", "warm"])
        elif stretch == "verify" and dd["of"] in ("out", "@dev") and not any(k in ext for k in ("repeat", "warmup", "sweep_bs", "sweep_iodepth")):
            ext["verify"] = True
            if "pattern" in ext:  # a long compare
                ext["pattern"] = "random"
                ext.pop("size", None)
                dd.pop("count", None)
                ext["size"] = spell(rng, rng.randint(16, 24) * MiB)
        elif stretch == "pattern" and "pattern" in ext:
            ext["pattern"] = "random"
        if "size" not in ext and "count" not in dd and source != "file":
            ext["size"] = spell(rng, budget)

    # oflag=append grows the output once per run: keep every run of the
    # session (and GNU's twin of it) well inside the file system.
    if "append" in oflag:
        per_run = in_len if source == "file" else budget
        if "size" in ext:
            per_run = min(per_run, ext["size"][0])
        elif "count" in dd:
            per_run = min(per_run, dd["count"][0] * (1 if "count_bytes" in iflag else ibs))

        def runs() -> int:
            rows = len(ext["sweep_bs"][0]) if "sweep_bs" in ext else 1
            rows *= len(ext["sweep_iodepth"][0]) if "sweep_iodepth" in ext else 1
            return rows * (ext.get("repeat", 1) + ext.get("warmup", 0))

        for key in ("repeat", "warmup", "sweep_iodepth", "sweep_bs"):
            if runs() * per_run <= 24 * MiB:
                break
            ext.pop(key, None)

    # O_DIRECT writes of small blocks crawl on the loop device (a few MB/s):
    # keep a case with them well under a second.
    if "direct" in oflag:
        per_run = in_len if source == "file" else budget
        if "size" in ext:
            per_run = min(per_run, ext["size"][0])
        elif "count" in dd:
            per_run = min(per_run, dd["count"][0] * (1 if "count_bytes" in iflag else ibs))
        smallest = min([obs] + (list(ext["sweep_bs"][0]) if "sweep_bs" in ext and ext["sweep_bs"][0] != "auto" else []))
        rows = len(ext["sweep_bs"][0]) if "sweep_bs" in ext and ext["sweep_bs"][0] != "auto" else 4 if "sweep_bs" in ext else 1
        rows *= len(ext["sweep_iodepth"][0]) if "sweep_iodepth" in ext else 1
        runs_total = rows * (ext.get("repeat", 1) + ext.get("warmup", 0))
        if runs_total * (per_run // smallest + 1) > 2000:
            cap = max(smallest, 2000 // runs_total * smallest)
            cap -= cap % 512
            dd.pop("count", None)
            if "count_bytes" in iflag:
                iflag.remove("count_bytes")
            ext["size"] = spell(rng, max(512, cap))

    # Every case ends well inside the harness's timeout, even a sanitizer's
    # build on a loaded 2-core machine: a session's runs times its records
    # (35 runs of 16 MB in 512-byte records to ext4 on a loop device took
    # 22 s, combo seed 3590904016 case 606) and its bytes are bounded.
    if any(k in ext for k in ("repeat", "warmup", "sweep_bs", "sweep_iodepth")):
        per_run = in_len if source == "file" else budget
        if "size" in ext:
            per_run = min(per_run, ext["size"][0])
        elif "count" in dd:
            per_run = min(per_run, dd["count"][0] * (1 if "count_bytes" in iflag else ibs))
        listed = ext["sweep_bs"][0] if "sweep_bs" in ext and ext["sweep_bs"][0] != "auto" else []
        smallest = min([ibs, obs] + list(listed))
        rows = len(listed) if listed else 4 if "sweep_bs" in ext else 1
        rows *= len(ext["sweep_iodepth"][0]) if "sweep_iodepth" in ext else 1
        runs_total = rows * (ext.get("repeat", 1) + ext.get("warmup", 0))
        calls_limit, bytes_limit = 250_000, 384 * MiB
        if runs_total * (per_run // smallest + 1) > calls_limit or runs_total * per_run > bytes_limit:
            cap = min(calls_limit // runs_total * smallest, bytes_limit // runs_total)
            cap = max(512, min(cap, per_run) - min(cap, per_run) % 512)
            dd.pop("count", None)
            if "count_bytes" in iflag:
                iflag.remove("count_bytes")
            ext["size"] = spell(rng, cap)

    signals: List[Tuple[str, float, Optional[str]]] = []
    if long:
        name = "USR1" if kind == "usr1" else "INT"
        text_on_stderr = not (("json" in ext and ext["json"] is None) or ("csv" in ext and ext["csv"] is None))
        for _ in range(rng.randint(1, 3) if kind == "usr1" else 1):
            roll = rng.random()
            if roll < 0.3:
                signals.append((name, -rng.uniform(0.0, 1.0), None))
            elif roll < 0.55 and text_on_stderr and program == "ddtime" and ext.get("verify"):
                # In the verify pass, which starts when the read pass is reported.
                signals.append((name, rng.uniform(0.0, 0.02), r"^ddtime: read: "))
            elif roll < 0.55 and text_on_stderr and program == "ddtime" and ext.get("repeat", 1) >= 5:
                run = rng.randint(2, ext["repeat"])
                signals.append((name, rng.uniform(0.0, 0.005), rf"run {run} of "))
            else:
                signals.append((name, rng.uniform(0.005, 0.4), None))
        signals.sort(key=lambda s: (s[2] is not None, (0, -s[1]) if s[1] < 0 else (1, s[1])))

    # Rule 1 of issue 28: --pattern over an existing non-empty of= is
    # refused unless --force; most such cases give it, to go on testing
    # the copy. Its own generator: the other cases stay as they were.
    if "pattern" in ext and scratch_offered(files, dd) is False:
        if random.Random(f"ddtime-combo-force:{seed}:{number}").random() < 0.8:
            ext["force"] = True

    # --mix (issue 31): a pattern case's target read and written at once,
    # which must hold the range (else ddtime refuses it: those cases test
    # the refusal). Its own generator: the other cases stay as they were.
    mix_rng = random.Random(f"ddtime-combo-mix:{seed}:{number}")
    if "pattern" in ext and dd.get("of") in ("out", "@dev") and mix_rng.random() < 0.2:
        ext["mix"] = mix_rng.choice([0, 30, 50, 70, 70, 100])
        # Blocks are the old ones or the generator's: random or stamp,
        # whose ranges the model leaves to the generator.
        ext["pattern"] = mix_rng.choice(["random", "stamp"])
        if dd["of"] == "out" and mix_rng.random() < 0.85:
            files["out"] = ("fill", 4 * MiB + mix_rng.randint(0, 8192), FILL)
        if mix_rng.random() < 0.9:
            ext["force"] = True

    # --openmetrics=PATH now and then, as ddtime. Its own generator: the
    # other cases stay as they were.
    if program == "ddtime" and random.Random(f"ddtime-combo-openmetrics:{seed}:{number}").random() < 0.08:
        ext["openmetrics"] = "r.prom"

    keys = [k for k in ("if", "of", "bs", "ibs", "obs", "count", "skip", "seek", "conv", "iflag", "oflag") if k in dd]
    ext_keys = list(ext)
    if rng.random() < 0.3:
        order = keys + ext_keys
        rng.shuffle(order)
    else:
        rng.shuffle(ext_keys)
        order = keys + ext_keys
    return Case(number, program, files, dd, ext, order, signals)


# ---------------------------------------------------------------------------
# What the case means: expected refusals and the GNU dd model.

def report_paths(case: Case) -> Dict[str, Optional[str]]:
    return {k: case.ext[k] for k in ("json", "csv", "svg", "openmetrics") if k in case.ext}


def norm(path: str) -> str:
    return os.path.normpath(path)


def expected_refusal(case: Case) -> Optional[str]:
    """Why issue 19's rule 2 says this command must be refused, or None."""
    reports = report_paths(case)
    data = {}
    if isinstance(case.dd.get("if"), str) and not case.dd["if"].startswith("/dev/"):
        data[norm(case.dd["if"])] = "if="
    if isinstance(case.dd.get("of"), str) and not case.dd["of"].startswith("/dev/"):
        data[norm(case.dd["of"])] = "of="
    resolved = {}
    for key, path in reports.items():
        if path is None:
            continue
        if path == "":
            return f"--{key}= names no file"
        target = norm(path)
        spec = case.files.get(target)
        if spec and spec[0] == "symlink":
            target = norm(spec[1])
        if target in data:
            return f"--{key}={path} is the same file as {data[target]}"
        if spec and spec[0] == "dir":
            return f"--{key}={path} is a directory"
        if "/" in target and target.split("/")[0] not in case.files:
            return f"--{key}={path} is in a directory that does not exist"
        resolved[key] = target
    if len(set(resolved.values())) < len(resolved):
        return "--" + " and --".join(resolved) + " name the same file"
    if scratch_protected(case):
        return "rule 1: generator data over an existing non-empty of= without --force"
    return None


def ibs_obs(dd: Dict[str, object]) -> Tuple[int, int]:
    if "bs" in dd:
        return dd["bs"][0], dd["bs"][0]
    return (dd["ibs"][0] if "ibs" in dd else 512, dd["obs"][0] if "obs" in dd else 512)


def seek_offset(dd: Dict[str, object]) -> int:
    if "seek" not in dd:
        return 0
    return dd["seek"][0] if "seek_bytes" in dd["oflag"] else dd["seek"][0] * ibs_obs(dd)[1]


def empties_output(dd: Dict[str, object]) -> bool:
    """Whether GNU dd empties of= when it opens it (O_TRUNC), rather than
    cutting it at the seek offset: seek= has no whole output block."""
    if "notrunc" in dd.get("conv", []):
        return False
    if "seek" not in dd:
        return True
    records = dd["seek"][0] // ibs_obs(dd)[1] if "seek_bytes" in dd["oflag"] else dd["seek"][0]
    return records == 0


def session_runs(case: Case) -> int:
    if case.ext.get("readback") or case.ext.get("verify"):
        return 1
    return case.ext.get("repeat", 1) + case.ext.get("warmup", 0)


PlanStep = Tuple[List[str], int, Optional[int]]


def timed_range(case: Case, row: Dict[str, object]) -> None:
    """--time's range in whole blocks, as count= in bytes on the row."""
    ibs, _ = ibs_obs(row)
    count = None
    if "count" in row:
        count = row["count"][0] if "count_bytes" in row["iflag"] else row["count"][0] * ibs
    if row.get("if") == "in":
        # count= bounded by what the file holds past skip=.
        skip = 0
        if "skip" in row:
            skip = row["skip"][0] if "skip_bytes" in row["iflag"] else row["skip"][0] * ibs
        rest = max(0, case.files["in"][1] - skip)
        count = rest if count is None else min(count, rest)
    if count is None:
        return
    row["count"] = num(count // ibs * ibs)
    if "count_bytes" not in row["iflag"]:
        row["iflag"] = row["iflag"] + ["count_bytes"]


def mix_range(case: Case, row: Dict[str, object]) -> None:
    """--mix's range: whole blocks inside of= (count=, --size or the rest
    past seek=), as count= in bytes on the row."""
    ibs, _ = ibs_obs(row)
    size = DEVICE_MIB * MiB if row.get("of") == "@dev" else (case.files.get("out") or ("", 0))[1]
    rest = max(0, size - seek_offset(row))
    count = rest
    if "count" in row:
        count = min(rest, row["count"][0] if "count_bytes" in row["iflag"] else row["count"][0] * ibs)
    row["count"] = num(count // ibs * ibs)
    if "count_bytes" not in row["iflag"]:
        row["iflag"] = row["iflag"] + ["count_bytes"]


def gnu_plan(case: Case, device: str = "$DEV") -> Tuple[List[PlanStep], bool]:
    """The GNU dd commands that do what the case does, each with the byte
    offset of its seek=, and whether the list is exact (a bs=auto sweep has
    as many rows as it finds; its rows are modelled as one)."""
    dd = case.clone().dd
    if "pattern" in case.ext:
        dd["if"] = "/dev/zero"
    if "mix" in case.ext and "notrunc" not in dd["conv"]:
        dd["conv"] = dd["conv"] + ["notrunc"]  # --mix never cuts of=
    if "size" in case.ext:
        dd["count"] = case.ext["size"]
        if "count_bytes" not in dd["iflag"]:
            dd["iflag"] = dd["iflag"] + ["count_bytes"]
    if (("random" in case.ext or "time" in case.ext) and "count" not in dd and dd.get("if") == "/dev/zero"
            and dd.get("of") == "@dev"):
        # --random's range from an endless source is the device's rest
        # past seek=, and ends there rather than at the device's end.
        dd["count"] = num(max(0, DEVICE_MIB * MiB - seek_offset(dd)))
        if "count_bytes" not in dd["iflag"]:
            dd["iflag"] = dd["iflag"] + ["count_bytes"]
    exact = True
    rows: List[Dict[str, object]] = []
    sweep = case.ext.get("sweep_bs")
    if sweep and sweep[0] != "auto":
        ibs, obs = ibs_obs(dd)
        for b in sweep[0]:
            row = {k: (list(v) if isinstance(v, list) else v) for k, v in dd.items()}
            for key in ("ibs", "obs"):
                row.pop(key, None)
            row["bs"] = num(b)
            if "skip" in dd and "skip_bytes" not in dd["iflag"]:
                row["skip"] = num(dd["skip"][0] * ibs)
                row["iflag"] = row["iflag"] + ["skip_bytes"]
            if "seek" in dd and "seek_bytes" not in dd["oflag"]:
                row["seek"] = num(dd["seek"][0] * obs)
                row["oflag"] = row["oflag"] + ["seek_bytes"]
            if "count" in dd and "count_bytes" not in dd["iflag"]:
                row["count"] = num(dd["count"][0] * ibs)
                row["iflag"] = row["iflag"] + ["count_bytes"]
            # A row cuts of= as the command line does (ddtime keeps the
            # user's bytes before seek= whatever block the row counts in):
            # where GNU would cut the row otherwise, the harness cuts first
            # and runs the row with conv=notrunc.
            if empties_output(row) != empties_output(dd):
                row["precut"] = 0 if empties_output(dd) else seek_offset(dd)
                row["conv"] = list(row.get("conv", [])) + ["notrunc"]
            rows.append(row)
    else:
        exact = not sweep
        rows.append(dd)
    if "mix" in case.ext:
        for row in rows:
            mix_range(case, row)
    if "time" in case.ext:
        # A timed run goes round its range's whole blocks: of= ends as a
        # copy of those alone leaves it; the records are the time's.
        exact = False
        for row in rows:
            timed_range(case, row)
    depths = len(case.ext["sweep_iodepth"][0]) if "sweep_iodepth" in case.ext else 1
    plan = []
    for row in rows:
        operands = []
        for key in ("if", "of", "bs", "ibs", "obs", "count", "skip", "seek", "conv", "iflag", "oflag"):
            if key not in row:
                continue
            value = row[key]
            if value == "@dev":
                operands.append(f"{key}={device}")
            elif isinstance(value, list):
                if value:
                    operands.append(f"{key}={','.join(value)}")
            elif isinstance(value, tuple):
                operands.append(f"{key}={value[1]}")
            else:
                operands.append(f"{key}={value}")
        for _ in range(depths * session_runs(case)):
            plan.append((operands, seek_offset(row), row.get("precut")))
    return plan, exact


# ---------------------------------------------------------------------------
# Reading what dd prints.

RE_IN = re.compile(r"^(\d+)\+(\d+) records in$")
RE_OUT = re.compile(r"^(\d+)\+(\d+) records out$")
RE_BYTES = re.compile(r"^(\d+) bytes? (?:\([^)]*\) )?copied, ")
RE_TRUNC = re.compile(r"^\d+ truncated records?$")
RULE8 = re.compile(r"\b(copied|bytes)\b|records (in|out)")
GNU_SHAPES_WITH_WORDS = [re.compile(p) for p in (
    r"warning: partial read \(\d+ bytes?\); suggest iflag=fullblock",
    r"failed to truncate to \d+ bytes in output file",
    r"memory exhausted by (input|output) buffer of size \d+ bytes",
    r"offset too large: cannot truncate to a length of seek=")]


def is_summary_line(line: str) -> bool:
    return bool(RE_IN.match(line) or RE_OUT.match(line) or RE_BYTES.match(line) or RE_TRUNC.match(line))


def mask(line: str) -> str:
    """A line with GNU's elapsed time and rate taken out."""
    m = RE_BYTES.match(line)
    if m:
        return line[:m.end()] + "<time>"
    return line


@dataclasses.dataclass
class Summary:
    in_full: int
    in_partial: int
    out_full: int
    out_partial: int
    bytes: Optional[int]
    end: int  # index of its last line

    def text(self) -> str:
        b = "?" if self.bytes is None else self.bytes
        return f"{self.in_full}+{self.in_partial} in, {self.out_full}+{self.out_partial} out, {b} bytes"

    def key(self) -> tuple:
        return (self.in_full, self.in_partial, self.out_full, self.out_partial, self.bytes)


def summaries(lines: Sequence[str]) -> List[Summary]:
    found = []
    i = 0
    while i < len(lines):
        m_in = RE_IN.match(lines[i])
        m_out = RE_OUT.match(lines[i + 1]) if m_in and i + 1 < len(lines) else None
        if m_in and m_out:
            j = i + 2
            if j < len(lines) and RE_TRUNC.match(lines[j]):
                j += 1
            m_b = RE_BYTES.match(lines[j]) if j < len(lines) else None
            end = j if m_b else j - 1
            found.append(Summary(int(m_in[1]), int(m_in[2]), int(m_out[1]), int(m_out[2]),
                                 int(m_b[1]) if m_b else None, end))
            i = end + 1
        else:
            i += 1
    return found


PROM_NAME = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
PROM_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"')
PROM_TYPES = ("counter", "gauge", "summary", "histogram", "untyped")


def ref_name_of(summary: "Summary") -> str:
    return summary.text()


def parse_prometheus_text(text: str) -> Tuple[List[Tuple[str, Dict[str, str], str]], Optional[str]]:
    """([(name, labels, value)], problem) of a text in Prometheus's format
    0.0.4: every family's HELP and TYPE come before its samples, a family's
    samples are together, names and labels are well formed, values are
    floats."""
    samples: List[Tuple[str, Dict[str, str], str]] = []
    helped, typed, done = set(), {}, set()
    current = None
    if text and not text.endswith("\n"):
        return samples, "the last line has no newline"
    for line in text.splitlines():
        if line.startswith("# HELP ") or line.startswith("# TYPE "):
            parts = line.split(" ", 3)
            if len(parts) < 4 or not PROM_NAME.fullmatch(parts[2]):
                return samples, f"bad comment {line!r}"
            if parts[1] == "HELP":
                helped.add(parts[2])
            elif parts[3] not in PROM_TYPES:
                return samples, f"bad type {line!r}"
            else:
                typed[parts[2]] = parts[3]
            continue
        if line.startswith("#") or not line.strip():
            continue
        match = re.fullmatch(r"([^{ ]+)(?:\{(.*)\})? (\S+)", line)
        if not match or not PROM_NAME.fullmatch(match[1]):
            return samples, f"bad sample {line!r}"
        name, label_text, value = match[1], match[2] or "", match[3]
        family = name
        for suffix in ("_sum", "_count", "_bucket"):
            if name.endswith(suffix) and typed.get(name[: -len(suffix)]) in ("summary", "histogram"):
                family = name[: -len(suffix)]
        if family not in helped or family not in typed:
            return samples, f"{name} has no HELP or TYPE before it"
        if family != current:
            if family in done:
                return samples, f"the samples of {family} are not together"
            if current is not None:
                done.add(current)
            current = family
        labels: Dict[str, str] = {}
        rest = label_text
        while rest:
            m = PROM_LABEL.match(rest)
            if not m:
                return samples, f"bad labels {label_text!r}"
            labels[m[1]] = m[2]
            rest = rest[m.end():]
            if rest.startswith(","):
                rest = rest[1:]
            elif rest:
                return samples, f"bad labels {label_text!r}"
        try:
            float(value)
        except ValueError:
            return samples, f"bad value {line!r}"
        samples.append((name, labels, value))
    return samples, None


def signature_of(text: str) -> str:
    text = re.sub(r"'[^']*'", "'…'", text)
    text = re.sub(r"\d+(\.\d+)?", "#", text)
    return text[:110]


# ---------------------------------------------------------------------------
# The bounded file system.

class Skip(Exception):
    pass


class Scratch:
    """A small file system mounted in a temporary directory: a loop-mounted
    ext4 image (O_DIRECT, fallocate), else a size-limited tmpfs. Unmounted
    and detached again whatever happens; no other device is touched."""

    def __init__(self, image_mib: int, prefer: str = "loop"):
        self.image_mib = image_mib
        self.prefer = prefer
        self.top = Path(tempfile.mkdtemp(prefix="ddtime-combo."))
        self.mnt = self.top / "mnt"
        self.mnt.mkdir()
        self.loop: Optional[str] = None
        self.device: Optional[str] = None  # a small loop device of its own, for of=$DEV
        self.mounted = False
        self.kind = ""

    def _run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(list(args), capture_output=True, text=True, timeout=60)

    def setup(self) -> None:
        if os.geteuid() != 0:
            raise Skip("needs root to mount its bounded file system")
        errors = []
        if self.prefer == "loop":
            try:
                image = self.top / "fs.img"
                with open(image, "wb") as f:
                    f.truncate(self.image_mib * MiB)
                done = self._run("mkfs.ext4", "-q", "-F", "-m", "0", str(image))
                if done.returncode != 0:
                    raise OSError(f"mkfs.ext4: {done.stderr.strip()}")
                done = self._run("losetup", "-f", "--show", str(image))
                if done.returncode != 0:
                    raise OSError(f"losetup: {done.stderr.strip()}")
                self.loop = done.stdout.strip()
                done = self._run("mount", "-t", "ext4", self.loop, str(self.mnt))
                if done.returncode != 0:
                    raise OSError(f"mount: {done.stderr.strip()}")
                self.mounted = True
                self.kind = f"ext4 on {self.loop} ({self.image_mib} MiB)"
                image = self.top / "dev.img"
                with open(image, "wb") as f:
                    f.truncate(DEVICE_MIB * MiB)
                done = self._run("losetup", "-f", "--show", str(image))
                if done.returncode == 0:
                    self.device = done.stdout.strip()
                    self.kind += f", and {self.device} ({DEVICE_MIB} MiB) for of=$DEV"
                return
            except (OSError, subprocess.SubprocessError) as error:
                errors.append(str(error))
                self._detach()
                (self.top / "fs.img").unlink(missing_ok=True)
        done = self._run("mount", "-t", "tmpfs", "-o", "size=64m,mode=0755", "tmpfs", str(self.mnt))
        if done.returncode == 0:
            self.mounted = True
            self.kind = "tmpfs (64 MiB)"
            return
        errors.append(f"mount tmpfs: {done.stderr.strip()}")
        raise Skip("cannot mount a bounded file system: " + "; ".join(errors))

    def _detach(self) -> None:
        if self.device:
            self._run("losetup", "-d", self.device)
            self.device = None
        if self.loop:
            self._run("losetup", "-d", self.loop)
            self.loop = None

    def cleanup(self) -> None:
        try:
            if self.mounted:
                for attempt in range(5):
                    if self._run("umount", str(self.mnt)).returncode == 0:
                        break
                    time.sleep(0.2)
                else:
                    self._run("umount", "-l", str(self.mnt))
                self.mounted = False
            self._detach()
        finally:
            shutil.rmtree(self.top, ignore_errors=True)

    def fill_device(self) -> None:
        """Every byte of the device 0xAA, written past the page cache."""
        block = mmap.mmap(-1, MiB)
        block.write(bytes([FILL]) * MiB)
        fd = os.open(self.device, os.O_WRONLY | os.O_DIRECT)
        try:
            for i in range(DEVICE_MIB):
                os.pwritev(fd, [block], i * MiB)
        finally:
            os.close(fd)

    def read_device(self) -> bytes:
        """The device's bytes, read past the page cache (a direct read
        writes the dirty cached pages back first)."""
        block = mmap.mmap(-1, MiB)
        data = bytearray()
        fd = os.open(self.device, os.O_RDONLY | os.O_DIRECT)
        try:
            for i in range(DEVICE_MIB):
                got = os.preadv(fd, [block], i * MiB)
                data += block[:got]
        finally:
            os.close(fd)
        return bytes(data)

    def fresh(self, name: str) -> Path:
        path = self.mnt / name
        if path.exists():
            shutil.rmtree(path)
        path.mkdir()
        return path


def file_bytes(seed: int, number: int, name: str, spec: tuple) -> bytes:
    if spec[0] == "random":
        return random.Random(f"ddtime-combo:{seed}:{number}:{name}").randbytes(spec[1])
    if spec[0] == "fill":
        return bytes([spec[2]]) * spec[1]
    if spec[0] == "text":
        return spec[1].encode()
    raise ValueError(spec)


def make_files(directory: Path, case: Case, seed: int) -> None:
    for name, spec in case.files.items():
        path = directory / name
        if spec[0] == "dir":
            path.mkdir()
        elif spec[0] == "symlink":
            os.symlink(spec[1], path)
        else:
            path.write_bytes(file_bytes(seed, case.number, name, spec))


def describe_files(case: Case) -> str:
    parts = []
    for name, spec in case.files.items():
        if spec[0] == "random":
            parts.append(f"{name}: {spec[1]} random bytes")
        elif spec[0] == "fill":
            parts.append(f"{name}: {spec[1]} bytes of 0x{spec[2]:02x}")
        elif spec[0] == "text":
            parts.append(f"{name}: the text {spec[1]!r}")
        elif spec[0] == "dir":
            parts.append(f"{name}/: an empty directory")
        elif spec[0] == "symlink":
            parts.append(f"{name} -> {spec[1]} (symlink)")
    if "out" not in case.files and case.dd.get("of") == "out":
        parts.append("out: absent")
    if case.dd.get("of") == "@dev":
        parts.append(f"$DEV: a loop device of {DEVICE_MIB} MiB (losetup -f --show over an {DEVICE_MIB} MiB file), "
                     f"every byte 0x{FILL:02x}")
    return "; ".join(parts)


def snapshot(directory: Path) -> Dict[str, tuple]:
    state = {}
    for root, dirs, names in os.walk(directory):
        for name in dirs + names:
            path = Path(root) / name
            rel = str(path.relative_to(directory))
            st = os.lstat(path)
            if os.path.islink(path):
                state[rel] = ("symlink", os.readlink(path))
            elif path.is_dir():
                state[rel] = ("dir",)
            else:
                digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
                state[rel] = ("file", st.st_size, digest)
    return state


def describe_entry(entry: Optional[tuple]) -> str:
    if entry is None:
        return "absent"
    if entry[0] == "file":
        return f"{entry[1]} bytes (sha256 {entry[2]})"
    if entry[0] == "symlink":
        return f"symlink to {entry[1]}"
    return "a directory"


# ---------------------------------------------------------------------------
# Running GNU dd (the model) and ddtime.

GNU_TIMEOUT = "(GNU dd did not finish within 120 s)"


@dataclasses.dataclass
class GnuRun:
    operands: List[str]
    status: int
    lines: List[str]
    seek: int
    size_before: int
    size_after: int
    summary: Optional[Summary]
    # of= as this run left it, kept when no earlier run left the same bytes
    # (rows of a timed bs= sweep go round different whole-block ranges, so
    # a session interrupted after one row holds that row's copy, not the
    # last row's: combo seed 3973964561 case 451).
    output: Optional[bytes] = None


# How much of GNU's distinct per-run outputs a case keeps, in all.
GNU_OUTPUTS_KEPT = 128 << 20


def size_of(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def run_gnu(case: Case, directory: Path, gnu: str, device: Optional[str]) -> Tuple[List[GnuRun], bool]:
    plan, exact = gnu_plan(case, device or "$DEV")
    runs = []
    of = case.dd["of"]
    of_path = directory / of if not of.startswith(("/", "@")) else None
    kept = set()
    kept_bytes = 0
    for operands, seek, precut in plan:
        if precut is not None and of_path and of_path.is_file():
            os.truncate(of_path, precut)
        before = size_of(of_path) if of_path else 0
        try:
            done = subprocess.run(["dd"] + operands, executable=gnu, cwd=directory, env=ENV,
                                  stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
        except subprocess.TimeoutExpired as expired:
            # A copy with no end (a minimized case can be one): no model.
            done = subprocess.CompletedProcess(expired.cmd, None, b"", expired.stderr or b"")
        lines = done.stderr.decode("utf-8", "surrogateescape").splitlines()
        if done.returncode is None:
            lines.append(GNU_TIMEOUT)
        found = summaries(lines)
        runs.append(GnuRun(operands, done.returncode, lines, seek, before,
                           size_of(of_path) if of_path else 0, found[-1] if found else None))
        if of_path and of_path.is_file() and kept_bytes + size_of(of_path) <= GNU_OUTPUTS_KEPT:
            output = of_path.read_bytes()
            digest = hashlib.sha256(output).digest()
            if digest not in kept:
                kept.add(digest)
                kept_bytes += len(output)
                runs[-1].output = output
        if done.returncode != 0:
            break
    return runs, exact


def endless(case: Case) -> bool:
    """A copy from /dev/zero or --pattern to /dev/null with no count: it
    never ends, for GNU dd either."""
    source_endless = case.dd.get("if") == "/dev/zero" or "pattern" in case.ext
    return (source_endless and case.dd.get("of") == "/dev/null" and "count" not in case.dd
            and "size" not in case.ext)


@dataclasses.dataclass
class Sent:
    name: str
    at: float            # seconds after the start
    caught: bool         # the process caught the signal when it was sent
    handlers: str        # the caught-signal mask, in words
    open_fds: int
    err_offset: int      # how much stderr held when it was sent
    unguarded: List[str] = dataclasses.field(default_factory=list)  # the case's files open while no handler was


@dataclasses.dataclass
class DdtimeRun:
    status: int          # returncode: negative for a signal
    stdout: bytes
    stderr: str
    timed_out: bool
    elapsed: float
    sent: List[Sent]
    exited_before_signal: bool
    exit_at: float       # seconds after the start
    argv: List[str] = dataclasses.field(default_factory=list)  # as executed, argv[0] included


def signal_mask(pid: int) -> Tuple[int, int]:
    caught = blocked = 0
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    caught = int(line.split()[1], 16)
                elif line.startswith("SigBlk:"):
                    blocked = int(line.split()[1], 16)
    except OSError:
        pass
    return caught, blocked


def open_fd_count(pid: int) -> int:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return -1


def data_files_open(pid: int, directory: Path, device: Optional[str]) -> List[str]:
    """The case's own files (in its directory, or its device) the process
    holds open: what a signal must not find open without a handler."""
    names = []
    try:
        for fd in os.listdir(f"/proc/{pid}/fd"):
            try:
                target = os.readlink(f"/proc/{pid}/fd/{fd}")
            except OSError:
                continue
            if target.startswith(str(directory) + "/") or (device and target == device):
                names.append(target)
    except OSError:
        pass
    return names


def child_setup() -> None:
    # A harness started in the background of a non-interactive shell has
    # SIGINT ignored; the child must meet it with its default action.
    for sig in (signal.SIGINT, signal.SIGUSR1, signal.SIGTERM, signal.SIGQUIT):
        signal.signal(sig, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_SETMASK, [])


# A sanitizer build's options reach the binary under test.
DDTIME_ENV = dict(ENV, **{k: v for k, v in os.environ.items()
                          if k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "TSAN_OPTIONS")})


def run_ddtime(case: Case, binary: str, directory: Path, scratch_dir: Path, timeout: float,
               early_floor: float, handler_bound: float, device: Optional[str]) -> DdtimeRun:
    args = [case.program] + render(case, device or "$DEV")
    out_path = scratch_dir / "stdout"
    err_path = scratch_dir / "stderr"
    with open(out_path, "wb") as out_file, open(err_path, "wb") as err_file:
        process = subprocess.Popen(args, executable=binary, cwd=directory, env=DDTIME_ENV,
                                   stdin=subprocess.DEVNULL, stdout=out_file, stderr=err_file,
                                   restore_signals=True, start_new_session=True,
                                   preexec_fn=child_setup)
    start = time.monotonic()
    pidfd = os.pidfd_open(process.pid)
    poller = select.poll()
    poller.register(pidfd, select.POLLIN)
    sent: List[Sent] = []
    exit_at = None
    exited_before = False
    timed_out = False
    try:
        for name, delay, marker in case.signals:
            if delay < 0:  # right at the start: a few ms, well after GNU dd's handlers would be in
                delay = early_floor + (-delay) * 0.010
            base = start
            if marker is not None:
                pattern = re.compile(marker, re.M)
                while time.monotonic() - start < timeout / 2:
                    if poller.poll(1):
                        break
                    if pattern.search(err_path.read_bytes().decode("utf-8", "replace")):
                        break
                base = time.monotonic()
            wait = base + delay - time.monotonic()
            if poller.poll(max(0, int(wait * 1000))) or poller.poll(0):
                exit_at = time.monotonic()
                exited_before = True
                break
            remaining = base + delay - time.monotonic()
            if remaining > 0:
                time.sleep(remaining)
            number = getattr(signal, "SIG" + name)
            # A binary slow to start (a sanitizer's build, a loaded machine)
            # has its handlers in later than GNU dd: the signal waits for
            # them, up to a bound well past the binary's own measured
            # start-up; handlers still missing then are a defect.
            # Meanwhile, one of the case's files open with no handler yet is
            # rule 5 of issue 28 broken: GNU dd's are in before its first
            # open (defect C2).
            unguarded: List[str] = []
            while time.monotonic() - start < handler_bound:
                caught, _ = signal_mask(process.pid)
                if caught & (1 << (number - 1)) or poller.poll(1):
                    break
                if not unguarded:
                    held = data_files_open(process.pid, directory, device)
                    # Only a handler still missing after the files were seen
                    # was missing while they were open: the process may have
                    # installed it and opened them between the two reads
                    # (combo seed 280500 case 644, on a loaded machine).
                    if held and not signal_mask(process.pid)[0] & (1 << (number - 1)):
                        unguarded = held
            caught, _ = signal_mask(process.pid)
            fds = open_fd_count(process.pid)
            os.kill(process.pid, number)
            sent.append(Sent(name, time.monotonic() - start, bool(caught & (1 << (number - 1))),
                             caught_names(caught), fds, size_of(err_path), unguarded))
        if exit_at is None:
            deadline = start + timeout
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    timed_out = True
                    os.killpg(process.pid, signal.SIGKILL)
                    break
                if poller.poll(int(remaining * 1000) + 1):
                    exit_at = time.monotonic()
                    break
    finally:
        if process.poll() is None and not timed_out:
            # Interrupted (Ctrl-C, an error here): end the child's own
            # process group, and no other, before waiting for it.
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        os.close(pidfd)
    end = exit_at if exit_at is not None else time.monotonic()
    return DdtimeRun(process.returncode, out_path.read_bytes(),
                     err_path.read_bytes().decode("utf-8", "surrogateescape"), timed_out, end - start,
                     sent, exited_before, end - start, args)


def caught_names(mask: int) -> str:
    names = []
    for sig in (signal.SIGINT, signal.SIGUSR1, signal.SIGPIPE, signal.SIGTERM):
        if mask & (1 << (sig - 1)):
            names.append(sig.name)
    return ",".join(names) if names else "none"


def handler_delay(binary: str) -> float:
    """How long a dd takes from exec to catching SIGUSR1 here: signals
    "right at the start" are sent a few times later than GNU dd's, and a
    signal waits for the handlers of a binary that starts slower (a
    sanitizer's build) up to several times its own."""
    worst = 0.0
    for _ in range(5):
        process = subprocess.Popen(["dd", "if=/dev/zero", "of=/dev/null", "count=100000000"],
                                   executable=binary, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, env=ENV, start_new_session=True,
                                   preexec_fn=child_setup)
        start = time.monotonic()
        delay = 0.05
        while time.monotonic() - start < 1.0:
            caught, _ = signal_mask(process.pid)
            if caught & (1 << (signal.SIGUSR1 - 1)):
                delay = time.monotonic() - start
                break
        process.kill()
        process.wait()
        worst = max(worst, delay)
    return worst


# ---------------------------------------------------------------------------
# Checking the invariants.

@dataclasses.dataclass
class Failure:
    invariant: str
    signature: str
    evidence: str


def hexbytes(data: bytes) -> str:
    return data.hex(" ") if data else "(none)"


def explain_bytes(found: bytes, input_data: bytes, original: bytes, offset: int) -> str:
    if not found:
        return "nothing (the file ends there)"
    if found == bytes(len(found)):
        return "zero bytes"
    if offset < len(original) and found == original[offset:offset + len(found)]:
        return "the file's old bytes"
    if len(found) >= 16 and input_data:
        where = input_data.find(found[:16])
        if where >= 0:
            return f"bytes of 'in' from offset {where}"
    if len(set(found)) == 1:
        return f"bytes 0x{found[0]:02x}"
    return "other bytes"


def first_difference(a: bytes, b: bytes, skip: Sequence[Tuple[int, int]] = ()) -> Optional[int]:
    """First offset where a and b differ outside the ranges in skip; the
    shorter length when one is a prefix of the other."""
    limit = min(len(a), len(b))
    cuts = [0]
    for s, e in sorted(skip):
        cuts += [max(0, min(s, limit)), max(0, min(e, limit))]
    cuts.append(limit)
    for i in range(0, len(cuts), 2):
        s, e = cuts[i], cuts[i + 1]
        if s >= e or a[s:e] == b[s:e]:
            continue
        step = 4096
        for c in range(s, e, step):
            ce = min(e, c + step)
            if a[c:ce] != b[c:ce]:
                for k in range(c, ce):
                    if a[k] != b[k]:
                        return k
    if len(a) != len(b):
        return limit
    return None


def in_ranges(offset: int, ranges: Sequence[Tuple[int, int]]) -> bool:
    return any(s <= offset < e for s, e in ranges)


class Checker:
    def __init__(self, case: Case, seed: int, gnu_runs: List[GnuRun], exact: bool, gnu_final: Optional[bytes],
                 run: DdtimeRun, before: Dict[str, tuple], after: Dict[str, tuple], directory: Path,
                 sigint_bound: float, sigint_grace: float, device_data: Optional[bytes] = None):
        self.case = case
        self.device_data = device_data  # of=$DEV's bytes after ddtime's run
        self.gnu_final = gnu_final  # of= as GNU dd's runs left it (None: no such file)
        self.seed = seed
        self.gnu = gnu_runs
        self.exact = exact
        self.run = run
        self.before = before
        self.after = after
        self.dir = directory
        self.bound = sigint_bound
        # A normal exit this soon after SIGINT is a copy that had finished
        # (past its last check of the signal) when the signal came.
        self.grace = min(sigint_bound, sigint_grace)
        self.failures: List[Failure] = []
        self.lines = run.stderr.splitlines()
        self.prog = case.program
        # Invoked as dd, --units, --split-times and --latency turn the timing
        # report on, and the output is then ddtime's (one GNU summary, last).
        self.as_dd = case.program == "dd" and not any(k in case.ext for k in ("units", "split_times", "latency"))
        self.refusal = expected_refusal(case)
        # GNU's twin filled the file system (not the device's end, which is
        # the same for both): no model to compare with.
        self.model_full = any(GNU_TIMEOUT in r.lines for r in gnu_runs) or case.dd.get("of") != "@dev" and any(
            "No space left on device" in l for r in gnu_runs for l in r.lines)
        self.json_stderr = "json" in case.ext and case.ext["json"] is None
        self.csv_stderr = "csv" in case.ext and case.ext["csv"] is None and not self.json_stderr
        self.text_mode = not self.json_stderr and not self.csv_stderr
        self.killed = run.status < 0
        self.signal = -run.status if self.killed else 0
        self.sent_int = [s for s in run.sent if s.name == "INT"]
        self.sent_usr1 = [s for s in run.sent if s.name == "USR1"]
        # A copy ended by SIGINT (or killed by any signal) is judged as
        # an interrupted one: a prefix of the copy over the old file. One
        # that exited normally claims to be complete, signal or not.
        self.interrupted = self.killed
        self.refused = False
        self.json_docs: List[dict] = []
        self.input_data = b""
        spec = case.files.get("in")
        if spec:
            self.input_data = file_bytes(seed, case.number, "in", spec)
        out_spec = case.files.get("out")
        self.original = file_bytes(seed, case.number, "out", out_spec) if out_spec and out_spec[0] != "dir" else b""
        if case.dd.get("of") == "@dev":
            self.original = bytes([FILL]) * (DEVICE_MIB * MiB)

    def fail(self, invariant: str, signature: str, evidence: str) -> None:
        self.failures.append(Failure(invariant, signature, evidence))

    def check_schema(self, doc: object, where: str) -> None:
        """doc is one of the documents docs/ddtime.schema.json describes."""
        problems = schema_problems(doc)
        if problems:
            self.fail("json-schema", f"{where}: a {ddtime_schema.kind_of(doc)} document does not validate "
                      f"({problems[0].split(':')[0]})", "\n".join(problems[:10]))

    # -- helpers
    def gnu_status(self) -> int:
        return 0 if all(r.status == 0 for r in self.gnu) else 1

    def gnu_last(self) -> Optional[Summary]:
        return self.gnu[-1].summary if self.gnu else None

    def stderr_tail(self, n: int = 12) -> str:
        tail = self.lines[-n:]
        return "\n".join("      | " + line for line in tail) if tail else "      | (nothing on stderr)"

    def printed(self) -> List[Summary]:
        return summaries(self.lines) if self.text_mode else []

    def signal_cut_a_read(self) -> bool:
        """A signal cuts a read of /dev/zero short: the kernel returns the
        bytes it has copied once one is pending, to GNU dd as to ddtime
        (GNU counts 0+1 for a bs=256M read that SIGUSR1 met). A run that
        caught SIGUSR1 mid-read counts a partial record, or a shorter one,
        where its GNU twin, signalled at other moments, did not (combo
        seed 1887780229 case 757, seed 2812061 case 3215)."""
        if not self.sent_usr1 or self.case.dd.get("if") != "/dev/zero":
            return False
        printed, last = self.printed(), self.gnu_last()
        if not printed or last is None or printed[-1].bytes is None or last.bytes is None:
            return False
        got = printed[-1]
        # A cut read is a partial record (0+1 even where GNU's read of
        # the same --size was partial too) that copied no more than GNU's.
        return got.in_partial > 0 and got.bytes <= last.bytes and got.key() != last.key()

    # -- the checks
    def check(self) -> List[Failure]:
        self.check_exit()
        self.parse_stderr_reports()
        for doc in self.stderr_json:
            self.check_environment(doc, "--json on stderr")
        said_only_a_diagnostic = (not self.printed() and not self.stderr_report_has_runs()
                                  and not self.stderr_has_report())
        self.refused = self.run.status == 1 and not self.run.timed_out and said_only_a_diagnostic
        if (self.refusal and self.killed and said_only_a_diagnostic and self.lines
                and self.lines[0].startswith(f"{self.case.program}: ")
                and self.sent_int and self.signal == signal.SIGINT):
            # Refused, then a signal the harness sent arrived while the
            # process was exiting (a sanitizer build's exit checks take long).
            self.refused = True
        if scratch_protected(self.case) and self.before.get("out") != self.after.get("out"):
            self.fail("rule1-scratch", "--pattern without --force changed an existing non-empty of=",
                      f"out before {self.before.get('out')}, after {self.after.get('out')}\n" + self.stderr_tail(4))
        if self.refused:
            self.check_refusal()
            self.check_stderr_report_format()
            return self.failures
        if self.refusal:
            self.fail("report-path-refused", self.refusal_signature(),
                      f"{self.refusal}; yet it was not refused: exit status {self.status_text()}\n"
                      + self.stderr_tail(6))
        self.check_other_files()
        if self.run.timed_out:
            return self.failures
        if self.model_full:
            return self.failures  # GNU's twin ran out of room: no model to compare with
        if not self.refusal:
            self.check_stderr_report_format()
            self.check_reports()  # first: the output check needs the runs' seeds
        self.check_output()
        if not self.interrupted and not self.refusal:
            self.check_status()
        self.check_stdout()
        if self.refusal:
            return self.failures  # what it printed and wrote is not a report: it should not have run
        if self.text_mode:
            self.check_lines()
        self.check_options()
        self.check_usr1_prints()
        return self.failures

    def refusal_signature(self) -> str:
        r = self.refusal
        if "same file as of=" in r:
            return "report path names of="
        if "same file as if=" in r:
            return "report path names if="
        if "directory that does not exist" in r:
            return "report path in a missing directory"
        if "is a directory" in r:
            return "report path is a directory"
        if "names no file" in r:
            return "empty report path"
        if r.startswith("rule 1"):
            return "generator data over a non-empty of="
        return "json and csv name one file"

    def status_text(self) -> str:
        if self.run.timed_out:
            return "none (killed by the harness after the timeout)"
        if self.killed:
            return f"killed by {signal.Signals(self.signal).name}"
        return str(self.run.status)

    def check_exit(self) -> None:
        run = self.run
        if run.timed_out:
            self.fail("hang", "still running at the timeout",
                      f"killed by the harness after {run.elapsed:.1f} s; stderr so far:\n" + self.stderr_tail())
            return
        if self.killed:
            name = signal.Signals(self.signal).name
            if self.signal == signal.SIGINT and self.sent_int:
                pass
            elif self.signal == signal.SIGUSR1:
                s = self.sent_usr1[0] if self.sent_usr1 else None
                phase = "" if s is None else (
                    f"; the first SIGUSR1 was sent {s.at * 1000:.1f} ms after the start, when the process "
                    f"caught: {s.handlers}, with {s.open_fds} file descriptors open")
                where = "before" if s is not None and not s.caught else "while"
                self.fail("signal-usr1", f"killed by SIGUSR1 {where} it caught the signal",
                          f"the process died of SIGUSR1{phase}\n" + self.stderr_tail(6))
            else:
                self.fail("exit-status", f"killed by {name}",
                          f"the process died of {name}\n" + self.stderr_tail())
        elif run.status not in (0, 1):
            self.fail("exit-status", f"exit status {run.status}", f"exit status {run.status}\n" + self.stderr_tail())
        for s in self.run.sent:
            if s.unguarded:
                self.fail("handlers-before-open", f"{s.name} found a file open before its handler",
                          f"before {s.name} was sent {s.at * 1000:.1f} ms after the start, the process held "
                          f"{', '.join(s.unguarded)} open with no handler for it")
                break
        if self.sent_int and not run.exited_before_signal and not run.timed_out:
            latency = run.exit_at - self.sent_int[-1].at
            if self.killed and self.signal == signal.SIGINT:
                if latency > self.bound:
                    self.fail("signal-int", "ended by SIGINT too late",
                              f"SIGINT sent {self.sent_int[-1].at * 1000:.1f} ms after the start; the process "
                              f"ended by it {latency * 1000:.0f} ms later (bound {self.bound * 1000:.0f} ms)\n"
                              + self.stderr_tail(6))
            elif not self.killed:
                # What it printed after the signal shows whether it went on
                # with its work (a new pass, a new run) or was finishing.
                after = run.stderr.encode("utf-8", "surrogateescape")[self.sent_int[-1].err_offset:]
                went_on = re.search(rb"verify: (ok|mismatch)|^\S+: (read|write): real|\brun \d+ of|warm-up \d+ of",
                                    after, re.M)
                if latency > self.grace or went_on:
                    self.fail("signal-int", "SIGINT ignored: the process exited normally",
                              f"SIGINT sent {self.sent_int[-1].at * 1000:.1f} ms after the start (it caught: "
                              f"{self.sent_int[-1].handlers}); the process exited with status {run.status} "
                              f"{latency * 1000:.0f} ms later"
                              + (f", and printed this after the signal: {went_on.group(0).decode()!r}..." if went_on else "")
                              + "\n" + self.stderr_tail(6))

    def check_refusal(self) -> None:
        changed = self.diff_files(set())
        if changed:
            message = next((l for l in self.lines if l.strip()), "(no message)")
            self.fail("refusal-changes-nothing", "refused command changed files: " + signature_of(
                      "; ".join(c.split(":")[0] for c in changed)) + " / " + signature_of(message)[:60],
                      "exit status 1 and no summary (refused), but:\n"
                      + "\n".join("      " + c for c in changed) + "\n" + self.stderr_tail(4))

    def diff_files(self, allowed: set) -> List[str]:
        changes = []
        for name in sorted(set(self.before) | set(self.after)):
            if name in allowed:
                continue
            a, b = self.before.get(name), self.after.get(name)
            if a == b:
                continue
            if a is None:
                changes.append(f"{name}: created, {describe_entry(b)}")
            elif b is None:
                changes.append(f"{name}: removed (was {describe_entry(a)})")
            else:
                changes.append(f"{name}: changed from {describe_entry(a)} to {describe_entry(b)}")
        return changes

    def allowed_changes(self) -> set:
        allowed = set()
        of = self.case.dd["of"]
        if not of.startswith(("/", "@")):
            allowed.add(norm(of))
        data = {norm(str(self.case.dd.get("if", ""))), "keep"}
        for path in report_paths(self.case).values():
            if path and norm(path) not in data and self.case.files.get(norm(path), ("",))[0] not in ("dir", "symlink"):
                allowed.add(norm(path))
        return allowed

    def check_other_files(self) -> None:
        changed = self.diff_files(self.allowed_changes())
        if changed:
            self.fail("other-files", "changed: " + signature_of(", ".join(c.split(":")[0] + ":" + c.split(":")[1].split(",")[0]
                                                                      for c in changed)),
                      "\n".join("      " + c for c in changed))

    # -- of=
    def written_ranges(self) -> List[Tuple[int, int, int]]:
        """(start, end, run index) of what each GNU run wrote."""
        ranges = []
        append = "append" in self.case.dd["oflag"] and self.case.dd["of"] != "@dev"
        for i, r in enumerate(self.gnu):
            written = r.summary.bytes if r.summary and r.summary.bytes is not None else 0
            if append:
                ranges.append((r.size_after - written, r.size_after, i))
            else:
                ranges.append((r.seek, r.seek + written, i))
        return ranges

    def check_output(self) -> None:
        of = self.case.dd["of"]
        if of.startswith("/") or not self.gnu:
            return
        twin = self.gnu_final
        if of == "@dev":
            got = self.device_data
            of = "$DEV"
        else:
            path = self.dir / of
            got = path.read_bytes() if path.is_file() else None
        if twin is None and got is None:
            return
        expected = bytearray(twin or b"")
        ranges = self.written_ranges()
        spans = [(s, e) for s, e, _ in ranges if e > s]
        wild: List[Tuple[int, int]] = []
        pattern = self.case.ext.get("pattern")
        if pattern:
            if pattern in ("random", "stamp"):
                wild = [(s, min(e, len(expected))) for s, e in spans]
            elif pattern != "zero":
                byte = 0xFF if pattern == "ones" else int(pattern[2:], 16)
                for s, e in spans:
                    expected[s:min(e, len(expected))] = bytes([byte]) * max(0, min(e, len(expected)) - s)
        expected = bytes(expected)
        got_b = got or b""
        # A timed run may end before its first pass is done: as after a
        # signal, every byte is the copy's or the old one. Once it moved a
        # whole pass, of= is the copy's exactly. So after an error under
        # --jobs on a device, which no cut can shorten: the error ends
        # every job, and blocks of earlier parts not written yet keep their
        # old bytes (combo seed 1252673611 case 902).
        jobs_error_on_device = "jobs" in self.case.ext and self.case.dd.get("of") == "@dev" and self.run.status not in (0, None)
        if (self.interrupted or jobs_error_on_device or self.signal_cut_a_read()
                or ("time" in self.case.ext and not self.timed_pass_done(spans))):
            # Every row's pattern bytes may stand, past the last row's end
            # too: a timed bs= sweep's rows go round their own whole blocks,
            # and a row of smaller blocks can end further (seed 31 case 435).
            unpredictable = list(spans) if pattern in ("random", "stamp") else wild
            self.check_interrupted(got_b, expected, unpredictable, spans)
            return
        if got is None:
            self.fail("output-equals-gnu", "of= missing", f"GNU dd leaves '{of}' {len(expected)} bytes long; ddtime "
                      "leaves no file")
            return
        sweep = self.case.ext.get("sweep_bs")
        if "time" in self.case.ext and sweep and sweep[0] == "auto" and len(got_b) < len(expected):
            # A timed bs=auto sweep's last row goes round the range's whole
            # blocks of a size found at run time, which the model (one row
            # of the first bs) cannot know: of= is those blocks' copy.
            expected = expected[:len(got_b)]
            # Earlier rows' ranges past that end were cut by the last row,
            # as GNU's copy of that row cuts them (combo seed 280500 case 2854).
            ranges = [(s, min(e, len(got_b)), i) for s, e, i in ranges if s < len(got_b)]
        at = first_difference(got_b, expected, wild)
        if at is not None:
            inside = in_ranges(at, spans)
            invariant = "output-equals-gnu" if inside else "outside-range"
            found = got_b[at:at + 16]
            want = expected[at:at + 16]
            what = explain_bytes(got_b[at:at + 64], self.input_data, self.original, at)
            wanted = explain_bytes(expected[at:at + 64], self.input_data, self.original, at)
            if len(got_b) != len(expected):
                shape = "longer" if len(got_b) > len(expected) else "shorter"
                sig = f"of= {shape} than GNU's; at the first difference ddtime has {re.sub(r' from offset .*', '', what)}"
            else:
                sig = f"of= differs {'inside' if inside else 'outside'} the written range: ddtime has {re.sub(r' from offset .*', '', what)}, GNU {re.sub(r' from offset .*', '', wanted)}"
            span_text = ", ".join(f"[{s}, {e})" for s, e in spans[:4]) + (" ..." if len(spans) > 4 else "")
            self.fail(invariant, sig,
                      f"'{of}' is {len(got_b)} bytes, GNU dd's is {len(expected)}; GNU's runs wrote "
                      f"{span_text or 'nothing'}; first difference at byte {at}: ddtime {hexbytes(found)} "
                      f"({what}), GNU {hexbytes(want)} ({wanted})")
        elif pattern in ("random", "stamp") and "mix" not in self.case.ext:
            # A mixed run's reads leave their blocks as they were.
            self.check_generated(got_b, ranges, pattern)

    def check_generated(self, data: bytes, ranges: List[Tuple[int, int, int]], pattern: str) -> None:
        seeds = self.run_seeds()
        for s, e, i in ranges:
            if e - s >= 64 and len(set(data[s:e])) == 1:
                what = explain_bytes(data[s:e], self.input_data, self.original, s)
                self.fail("pattern-bytes", f"--pattern={pattern} range holds {what}",
                          f"bytes [{s}, {e}) are all 0x{data[s]:02x} ({what})")
                return
        if pattern != "stamp":
            return
        # The last run to write a sector decides what it holds.
        for s, e, i in ranges:
            seed = seeds[i] if seeds and i < len(seeds) else None
            later = [(s2, e2) for s2, e2, j in ranges if j > i]
            for p in range(s, e, 512):
                if in_ranges(p, later):
                    continue
                want = p.to_bytes(8, "little") + (seed.to_bytes(8, "little") if seed is not None else b"")
                take = min(len(want), e - p)
                if data[p:p + take] != want[:take]:
                    found = data[p:p + take]
                    what = explain_bytes(data[p:min(e, p + 64)], self.input_data, self.original, p)
                    if what in ("zero bytes", "the file's old bytes", "nothing (the file ends there)"):
                        self.fail("pattern-bytes", f"--pattern=stamp range holds {what}, not stamps",
                                  f"the sector at byte {p} (run {i + 1}'s range [{s}, {e})) starts with "
                                  f"{hexbytes(found)} ({what})")
                        return
                    stamped = int.from_bytes(found[:8], "little") if len(found) >= 8 else None
                    detail = (f"the sector at byte {p} (run {i + 1}'s range [{s}, {e})) starts with "
                              f"{hexbytes(found)}; want offset {p}" + (f" and seed {seed}" if seed is not None else ""))
                    if stamped is not None and stamped != p:
                        detail += f"; it says offset {stamped} ({stamped - p:+d})"
                    elif seed is not None:
                        detail += f"; the seed there is {int.from_bytes(found[8:16], 'little') if len(found) >= 16 else '?'}"
                    sig = "stamp sectors carry the wrong offset" if stamped is not None and stamped != p else "stamp sectors carry the wrong seed"
                    self.fail("pattern-bytes", sig, detail)
                    return

    def run_seeds(self) -> Optional[List[int]]:
        doc = self.final_json()
        if not doc or "runs" not in doc:
            return None
        seeds = [r.get("seed") for r in doc["runs"] if r.get("pass") in ("copy", "write")]
        if any(not isinstance(s, int) for s in seeds) or len(seeds) != len(self.gnu):
            return None
        return seeds

    def random_hole_start(self, original: bytes) -> int:
        dd = self.case.dd
        if "notrunc" in dd.get("conv", []) or dd.get("of") == "@dev":
            return len(original)
        return min(len(original), seek_offset(dd))

    def timed_pass_done(self, spans: List[Tuple[int, int]]) -> bool:
        printed = self.printed()
        if not printed or printed[-1].out_full is None or len(self.gnu) != 1:
            return False
        # --jobs' jobs each go round their own part (as fio's numjobs with
        # offset_increment and time_based): records enough for a pass in
        # all may leave a slow job's part unfinished, its blocks not
        # written yet.
        if "jobs" in self.case.ext:
            return False
        return printed[-1].out_full * ibs_obs(self.case.dd)[0] >= sum(e - s for s, e in spans)

    def check_interrupted(self, got: bytes, full: bytes, wild: List[Tuple[int, int]],
                          spans: List[Tuple[int, int]]) -> None:
        original = self.original if "out" in self.case.files or self.case.dd["of"] == "@dev" else b""
        # Every run's copy is one the session may have stopped after.
        models = [full, original] + [r.output for r in self.gnu if r.output is not None]
        limit = max(len(m) for m in models)
        bad = None
        if len(got) > limit:
            bad = limit
        else:
            step = 4096
            for c in range(0, len(got), step):
                ce = min(len(got), c + step)
                if any(got[c:ce] == m[c:ce] for m in models):
                    continue
                for k in range(c, ce):
                    v = got[k]
                    if any(k < len(m) and m[k] == v for m in models) or in_ranges(k, wild):
                        continue
                    # --random writes its blocks out of order: one not yet
                    # written, where the old bytes are gone (past the old
                    # end, or past the cut at seek= without notrunc), is a
                    # hole.
                    # So do --jobs' parts of a timed run, each written
                    # from its start.
                    scattered = "random" in self.case.ext or ("jobs" in self.case.ext and "time" in self.case.ext)
                    if scattered and v == 0 and k >= self.random_hole_start(original):
                        continue
                    bad = k
                    break
                if bad is not None:
                    break
        if bad is not None:
            what = explain_bytes(got[bad:bad + 64], self.input_data, self.original, bad)
            self.fail("interrupted-output", "after a signal, of= holds bytes neither the copy nor the old file has: "
                      + re.sub(r" from offset .*", "", what),
                      f"'{self.case.dd['of'].replace('@dev', '$DEV')}' is {len(got)} bytes (the whole copy would leave {len(full)}, the "
                      f"old file was {len(original)}); byte {bad}: {hexbytes(got[bad:bad + 16])} ({what}); the copy "
                      f"would put {hexbytes(full[bad:bad + 16])} there, the old file had "
                      f"{hexbytes(original[bad:bad + 16])}")

    def check_status(self) -> None:
        if self.killed or self.run.timed_out:
            return
        want = self.gnu_status()
        if self.run.status != want:
            errors = [l for l in self.lines if l.startswith(self.prog + ": ") and not any(
                g == l.replace(self.prog + ": ", "dd: ", 1) for r in self.gnu for g in r.lines)]
            for doc in self.stderr_json:
                for run in [doc] + list(doc.get("runs", [])):
                    errors += [self.prog + ": " + e for e in run.get("errors", []) if isinstance(e, str)]
            errors += [l for l in self.stderr_csv_text if l.startswith(self.prog + ": ")]
            telling = [l for l in errors if re.search(r"error|fail|cannot|differ|refus|invalid|not a|does not", l, re.I)]
            message = (telling or errors or ["(no message)"])[0]
            self.fail("status-equals-gnu", f"exit status {self.run.status} where GNU's is {want}: "
                      + signature_of(message.replace(self.prog + ": ", "", 1)),
                      f"GNU dd exits {want} for the same operands; ddtime {self.run.status}\n" + self.stderr_tail(8))

    def check_stdout(self) -> None:
        if self.run.stdout:
            self.fail("stdout-empty", "output on stdout with of= given",
                      f"{len(self.run.stdout)} bytes on stdout: {self.run.stdout[:80]!r}")

    # -- reports
    def parse_stderr_reports(self) -> None:
        self.stderr_json: List[dict] = []
        self.stderr_json_bad: List[str] = []
        self.stderr_csv: Optional[List[List[str]]] = None
        self.stderr_csv_text: List[str] = []
        if self.json_stderr:
            for line in self.lines:
                if not line.strip():
                    continue
                try:
                    value = json.loads(line)
                    if isinstance(value, dict):
                        self.stderr_json.append(value)
                        self.check_schema(value, "--json to stderr")
                    else:
                        self.stderr_json_bad.append(line)
                except ValueError:
                    self.stderr_json_bad.append(line)
        elif self.csv_stderr:
            self.stderr_csv_text = []
            timeline = "timeline" in self.case.ext or "steady" in self.case.ext
            header = ",".join(TIMELINE_CSV_HEADER if timeline else CSV_HEADER)
            at = self.lines.index(header) if header in self.lines else len(self.lines)
            self.stderr_csv_text = [l for l in self.lines[:at] if l.strip()]
            try:
                self.stderr_csv = list(csv.reader(io.StringIO("\n".join(self.lines[at:]))))
            except csv.Error:
                self.stderr_csv = None

    def stderr_has_report(self) -> bool:
        """A JSON document of a run, or a CSV table, anywhere on stderr
        (--json= with an empty PATH goes there too, today)."""
        for i, line in enumerate(self.lines):
            if line.startswith("{") and '"records_in"' in line:
                return True
            if line == ",".join(self.csv_header()) and i + 1 < len(self.lines) and self.lines[i + 1].strip():
                return True
        return False

    def stderr_report_has_runs(self) -> bool:
        if self.json_stderr:
            return any("records_in" in d or d.get("runs") for d in self.stderr_json)
        if self.csv_stderr and self.stderr_csv:
            return len(self.stderr_csv) > 1 and self.stderr_csv[0] == self.csv_header()
        return False

    def csv_header(self) -> List[str]:
        timeline = "timeline" in self.case.ext or "steady" in self.case.ext
        return TIMELINE_CSV_HEADER if timeline else CSV_HEADER

    def check_stderr_report_format(self) -> None:
        if self.json_stderr and self.stderr_json_bad and not self.killed:
            first = self.stderr_json_bad[0]
            kind = "refusal printed as text" if self.refused else "text on stderr besides the JSON"
            self.fail("report-parse", f"--json to stderr: {kind}: " + signature_of(first.replace(self.prog + ": ", "", 1))[:60],
                      f"--json without PATH replaces all text on stderr, diagnostics included; stderr has "
                      f"{len(self.stderr_json_bad)} line(s) that are not JSON, first: {first!r}")
        if self.csv_stderr and not self.killed and self.run.stderr.strip():
            rows = self.stderr_csv
            # A CSV table has no place for a refusal: it is the one line of
            # text, and no table follows (unlike JSON, which has a document
            # for it).
            if self.stderr_csv_text and not self.refused:
                first = self.stderr_csv_text[0]
                kind = "text on stderr besides the CSV"
                self.fail("report-parse", f"--csv to stderr: {kind}: " + signature_of(first.replace(self.prog + ": ", "", 1))[:60],
                          f"--csv without PATH replaces all text on stderr, as --json does; stderr has "
                          f"{len(self.stderr_csv_text)} line(s) besides the table, first: {first!r}")
            if self.refused:
                pass
            elif (rows is None or not rows or rows[0] != self.csv_header()
                  or any(len(r) != len(self.csv_header()) for r in rows[1:])):
                bad = next((r for r in (rows or [])[1:] if len(r) != len(self.csv_header())), None)
                self.fail("report-parse", "--csv to stderr is not one CSV table",
                          f"first line {self.lines[0]!r}; bad row {bad!r}")

    def final_json(self) -> Optional[dict]:
        return self.json_docs[-1] if self.json_docs else None

    def load_report(self, key: str) -> Tuple[Optional[str], Optional[str]]:
        """(text, problem) of the report asked for with --key=PATH."""
        path = self.case.ext.get(key)
        if not path:
            return None, None
        target = self.dir / path
        entry_before = self.before.get(norm(path))
        entry_after = self.after.get(norm(path))
        if entry_after is None or entry_after[0] != "file":
            return None, "not written"
        if entry_before == entry_after:
            return None, "left as it was"
        return target.read_text("utf-8", "surrogateescape"), None

    def copy_runs(self, doc: dict) -> List[dict]:
        if "runs" in doc:
            return [r for r in doc["runs"] if r.get("pass") in ("copy", "write")]
        return [doc]

    def check_warmups_not_counted(self, doc: dict) -> None:
        """Issue 28, B13: a warm-up is listed and never counted."""
        for run in doc.get("runs", []) if isinstance(doc.get("runs"), list) else []:
            if isinstance(run, dict) and run.get("warmup") is True and run.get("counted") is not False:
                self.fail("warmup-not-counted", "a warm-up run is counted in the JSON", json.dumps(run)[:300])
                return

    def check_reports(self) -> None:
        if self.refusal:
            return  # its files are not reports; the refusal is what failed
        printed = self.printed()
        reference = printed[-1] if printed else None
        ref_name = "the summary ddtime printed"
        if reference is None and not self.interrupted and self.gnu_last() is not None and self.exact:
            reference = self.gnu_last()
            ref_name = "GNU dd's summary for the same operands"
        # JSON
        docs: List[dict] = []
        text, problem = self.load_report("json")
        if problem and not self.killed:
            self.fail("report-parse", f"--json=PATH {problem}", f"--json={self.case.ext['json']}: {problem} "
                      f"after exit status {self.run.status}")
        if text is not None and (text.strip() or not self.killed):
            lines = [l for l in text.splitlines() if l.strip()]
            try:
                docs = [json.loads(l) for l in lines] if len(lines) > 1 else [json.loads(text)]
                for doc in docs:
                    self.check_schema(doc, "--json=PATH")
                    self.check_environment(doc, f"--json={self.case.ext['json']}")
                    self.check_warmups_not_counted(doc)
                for line in lines if len(lines) > 1 else [text]:
                    self.check_json_numbers(line, f"--json={self.case.ext['json']}")
                if len(docs) != 1:
                    self.fail("report-parse", "--json=PATH holds several documents",
                              f"{len(docs)} JSON lines in {self.case.ext['json']}")
            except ValueError as error:
                self.fail("report-parse", "--json=PATH does not parse",
                          f"{self.case.ext['json']}: {error}; starts {text[:120]!r}")
                docs = []
        if self.json_stderr:
            complete = [d for d in self.stderr_json if d.get("complete", True) is not False]
            docs = complete[-1:] if complete else []
            if not complete and not self.killed and self.stderr_json:
                self.fail("report-parse", "--json to stderr: no complete document", self.stderr_tail(3))
        self.json_docs = docs
        if docs:
            self.check_json(docs[-1], reference, ref_name)
        # CSV
        rows = None
        if self.csv_stderr:
            rows = self.stderr_csv
        else:
            text, problem = self.load_report("csv")
            if problem and not self.killed:
                self.fail("report-parse", f"--csv=PATH {problem}", f"--csv={self.case.ext['csv']}: {problem} "
                          f"after exit status {self.run.status}")
            if text is not None and (text.strip() or not self.killed):
                try:
                    rows = list(csv.reader(io.StringIO(text)))
                except csv.Error as error:
                    self.fail("report-parse", "--csv=PATH does not parse", f"{error}; starts {text[:120]!r}")
                header = TIMELINE_CSV_HEADER if ("timeline" in self.case.ext or "steady" in self.case.ext) else CSV_HEADER
                if rows is not None and (not rows or rows[0] != header or any(len(r) != len(header) for r in rows[1:])):
                    self.fail("report-parse", "--csv=PATH is not the documented table",
                              f"header {rows[0] if rows else None!r}; starts {text[:160]!r}")
                    rows = None
        if rows and len(rows) > 1 and rows[0] in (CSV_HEADER, TIMELINE_CSV_HEADER):
            self.check_csv(rows, reference, ref_name, docs[-1] if docs else None)
        self.check_svg()
        self.check_openmetrics(reference)

    def check_openmetrics(self, reference: Optional["Summary"]) -> None:
        """--openmetrics=PATH after exit status 0: the text format, and the
        bytes out of the run GNU's summary is of."""
        if "openmetrics" not in self.case.ext or self.killed or self.run.status != 0:
            return
        text, problem = self.load_report("openmetrics")
        if problem:
            self.fail("openmetrics-parse", f"--openmetrics=PATH {problem}",
                      f"--openmetrics={self.case.ext['openmetrics']}: {problem} after exit status 0")
            return
        samples, problem = parse_prometheus_text(text)
        if problem:
            self.fail("openmetrics-parse", "--openmetrics=PATH is not the text format", f"{problem}; starts {text[:160]!r}")
            return
        if reference is None or reference.bytes is None:
            return
        out = [(labels, value) for name, labels, value in samples if name == "ddtime_bytes_out_total"]
        if "readback" in self.case.ext or "verify" in self.case.ext:
            out = [s for s in out if s[0].get("pass") == "write"]
        if out and int(float(out[-1][1])) != reference.bytes:
            self.fail("openmetrics-parse", "--openmetrics=PATH's bytes out differ from the summary's",
                      f"{out[-1][1]} against {reference.bytes} ({ref_name_of(reference)})")

    def check_svg(self) -> None:
        """--svg=PATH after exit status 0: one well-formed <svg> with its size."""
        if "svg" not in self.case.ext or self.killed or self.run.status != 0:
            return
        text, problem = self.load_report("svg")
        if problem:
            self.fail("svg-parse", f"--svg=PATH {problem}", f"--svg={self.case.ext['svg']}: {problem} after exit status 0")
            return
        try:
            root = ElementTree.fromstring(text.encode("utf-8", "surrogateescape"))
        except ElementTree.ParseError as error:
            self.fail("svg-parse", "--svg=PATH is not well-formed XML", f"{error}; starts {text[:120]!r}")
            return
        if root.tag != "{http://www.w3.org/2000/svg}svg" or not root.get("width") or not root.get("height"):
            self.fail("svg-parse", "--svg=PATH is not an <svg> with width and height",
                      f"root {root.tag} {dict(root.attrib)}")
            return
        problems = svg_layout_problems(root)
        if problems:
            self.fail("svg-layout", "--svg=PATH has text that overlaps, leaves the page or is cut",
                      "; ".join(problems)[:600])

    def check_json_numbers(self, text: str, where: str) -> None:
        """Every number written as the shortest text that reads back
        (issue 28, B5): fixed-point padding shows as a fraction's
        trailing 0."""
        bad: List[str] = []

        def number(token: str) -> float:
            mantissa = re.split(r"[eE]", token)[0]
            digits = mantissa.replace("-", "").replace(".", "").lstrip("0")
            if ("." in mantissa and mantissa.endswith("0")) or len(digits) > 17 or not math.isfinite(float(token)):
                bad.append(token)
            return float(token)

        try:
            json.loads(text, parse_float=number)
        except ValueError:
            return  # said by report-parse
        if bad:
            self.fail("json-numbers", "a JSON number is not in its shortest form", f"{where}: {bad[:5]}")

    def check_compare_self(self, ddtime: str) -> None:
        """--compare of the run's own document with itself (issue 22)."""
        path = self.case.ext.get("json")
        doc = self.json_docs[-1] if self.json_docs else None
        if (not path or doc is None or self.killed or self.run.status != 0 or self.refused
                or doc.get("complete") is not True):
            return
        done = subprocess.run([ddtime, "--compare", path, path, "--json"], cwd=self.dir, env=ENV,
                              capture_output=True, timeout=30)
        if done.returncode != 0:
            self.fail("compare-self", "--compare of a document with itself failed",
                      f"exit {done.returncode}: {done.stderr.decode('utf-8', 'replace')[:300]}")
            return
        try:
            comparison = json.loads(done.stdout)
            rows = comparison["comparison"]["rows"]
        except (ValueError, KeyError, TypeError) as error:
            self.fail("compare-self", "--compare --json does not parse", f"{error}: {done.stdout[:200]!r}")
            return
        self.check_schema(comparison, "--compare --json")
        expected = len(doc["summary"]) if "summary" in doc else 1
        if len(rows) != expected:
            self.fail("compare-self", "--compare has not a row per row of the document",
                      f"{len(rows)} rows against the document's {expected}")
        if any(row.get("verdict") != "~" for row in rows):
            self.fail("compare-self", "a document compared with itself is faster or slower",
                      json.dumps([row.get("verdict") for row in rows]))
        self.check_json_numbers(done.stdout.decode("utf-8", "replace"), "--compare --json")
        if not isinstance(doc.get("environment"), dict):
            return
        evil = dict(doc)
        evil["environment"] = dict(doc["environment"], host="h\x00X\nY\x1b[31mRED\x1b[0m\t\u202eevil\x85")
        evil_path = os.path.join(self.dir, "compare-evil.json")
        with open(evil_path, "w", encoding="utf-8") as out:
            json.dump(evil, out)
        shown = subprocess.run([ddtime, "--compare", path, evil_path], cwd=self.dir, env=ENV, capture_output=True,
                               timeout=30)
        raw = [b for b in shown.stdout if (b < 0x20 and b != 0x0A) or b == 0x7F]
        if shown.returncode != 0 or raw or b"\xe2\x80\xae" in shown.stdout or b"\xc2\x85" in shown.stdout:
            self.fail("compare-escape", "--compare printed a document's control bytes raw",
                      f"exit {shown.returncode}: {shown.stdout[:300]!r}")

    def check_json(self, doc: dict, reference: Optional[Summary], ref_name: str) -> None:
        runs = self.copy_runs(doc)
        if not runs and doc.get("signal") and "runs" in doc:
            return  # stopped before its first run (a calibration, a cache drop)
        if not runs:
            self.fail("report-agrees", "JSON has no copy run", json.dumps(doc)[:200])
            return
        last = runs[-1]
        try:
            got = Summary(last["records_in"]["full"], last["records_in"]["partial"], last["records_out"]["full"],
                          last["records_out"]["partial"], last["bytes_out"], 0)
        except (KeyError, TypeError) as error:
            self.fail("report-agrees", "JSON run lacks records or bytes", f"missing {error}")
            return
        if reference is not None and self.summary_comparable(reference):
            ref = reference.key() if reference.bytes is not None else reference.key()[:4]
            if got.key()[:len(ref)] != ref:
                self.fail("report-agrees", "JSON's records or bytes differ from the summary",
                          f"JSON (last copy run): {got.text()}; {ref_name}: {reference.text()}")
        if not self.killed and not self.run.timed_out:
            status = doc.get("exit_status")
            if status != self.run.status:
                self.fail("report-agrees", "JSON exit_status differs from the exit status",
                          f"JSON exit_status {status!r}, the process exited {self.run.status}")
        if "mix" in self.case.ext:
            self.check_mix(runs)
        if (self.exact and not self.interrupted and not self.killed and self.gnu_status() == 0
                and self.run.status == 0 and "runs" in doc and len(runs) != len(self.gnu)):
            self.fail("report-agrees", "JSON lists a different number of runs",
                      f"{len(runs)} copy runs in JSON; the session is {len(self.gnu)} runs")

    def mix_row_whole_blocks(self, printed: Summary, gnu: Summary) -> bool:
        """A mixed run's row moves whole blocks of its own size, the range's
        partial last block left out: a bs=auto sweep's last row (whose size
        the model cannot know) moved GNU's bytes less that block."""
        if "mix" not in self.case.ext or printed.out_full == 0 or printed.bytes is None or gnu.bytes is None:
            return False
        row_bs = printed.bytes // printed.out_full
        return printed.out_partial == 0 and printed.bytes == gnu.bytes - gnu.bytes % row_bs

    def check_mix(self, runs: List[dict]) -> None:
        """--mix: each side's I/Os and bytes add up to the run's records
        and bytes (every record is one read or one write of of=)."""
        for run in runs:
            mix = run.get("mix")
            if mix is None:
                if run.get("complete") and run.get("exit_status") == 0:
                    self.fail("mix-counts", "a --mix run's JSON has no mix", json.dumps(run)[:200])
                continue
            records = run["records_in"]["full"] + run["records_in"]["partial"]
            ios = mix["reads"]["ios"] + mix["writes"]["ios"]
            moved = mix["reads"]["bytes"] + mix["writes"]["bytes"]
            if run.get("complete") and run.get("exit_status") == 0 and (ios != records or moved != run["bytes_in"]):
                self.fail("mix-counts", "a --mix run's sides do not add up to its records",
                          f"reads {mix['reads']} writes {mix['writes']}; records {records}, "
                          f"bytes {run['bytes_in']}")
            # The timeline's reads, counted from each job's choices over
            # the records it retired, are the reads that reached of=.
            samples = (run.get("timeline") or {}).get("samples") or []
            if (samples and run.get("complete") and run.get("exit_status") == 0 and "ramp" not in self.case.ext
                    and samples[-1].get("read_records") != mix["reads"]["ios"]):
                self.fail("mix-counts", "a --mix run's timeline does not count its reads",
                          f"last sample {samples[-1].get('read_records')} reads; mix {mix['reads']['ios']}; "
                          f"jobs {self.case.ext.get('jobs', 1)}")
            if mix["read_percent"] in (0, 100) and ios > 0:
                share = mix["read_share_percent"]
                if share != mix["read_percent"]:
                    self.fail("mix-counts", "--mix=0 or 100 did not keep to one side",
                              f"--mix={mix['read_percent']}: {share}% reads")

    def check_environment(self, doc: object, where: str) -> None:
        """Issue 22: what comparing two machines' documents needs."""
        if not isinstance(doc, dict):
            return
        keys = list(doc)
        place = keys.index("version") + 1 if "version" in keys else -1
        env = doc.get("environment")
        if not isinstance(env, dict) or place >= len(keys) or keys[place] != "environment":
            self.fail("report-environment", "JSON document without environment after version",
                      f"{where}: keys {keys[:6]}")
            return
        if env.get("command_line") != self.run.argv:
            self.fail("report-environment", "environment.command_line is not the command line",
                      f"{where}: {env.get('command_line')!r}; executed {self.run.argv!r}")
        if not isinstance(env.get("host"), str) or not env.get("host"):
            self.fail("report-environment", "environment.host is not a name", f"{where}: {env.get('host')!r}")
        date = env.get("date")
        if not isinstance(date, str) or not re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", date):
            self.fail("report-environment", "environment.date is not ISO 8601 UTC", f"{where}: {date!r}")

    def summary_comparable(self, reference: Summary) -> bool:
        # A bs=auto sweep's last row has a block size of its own.
        return not ("sweep_bs" in self.case.ext and self.case.ext["sweep_bs"][0] == "auto")

    def check_csv(self, rows: List[List[str]], reference: Optional[Summary], ref_name: str,
                  doc: Optional[dict]) -> None:
        if "timeline" in self.case.ext or "steady" in self.case.ext:
            self.check_timeline_csv(rows)
            return
        if CSV_HEADER in rows[1:]:
            self.fail("report-parse", "CSV repeats its header", f"{rows.count(CSV_HEADER)} header lines")
        # SIGUSR1 snapshots are lines of their own, not runs.
        body = [r for r in rows[1:] if r[2] != "snapshot" and r != CSV_HEADER]
        copies = [r for r in body if r[2] in ("copy", "write")]
        if not copies:
            self.fail("report-agrees", "CSV has no copy row", repr(rows[:3]))
            return
        last = copies[-1]
        try:
            got_bytes, got_records = int(last[6]), int(last[7])
        except ValueError:
            self.fail("report-parse", "CSV bytes/records are not numbers", repr(last))
            return
        if reference is not None and reference.bytes is not None:
            if got_bytes != reference.bytes or (self.summary_comparable(reference)
                                                and got_records != reference.in_full + reference.in_partial):
                self.fail("report-agrees", "CSV's bytes or records differ from the summary",
                          f"CSV (last copy row): {got_bytes} bytes, {got_records} records; {ref_name}: "
                          f"{reference.text()}")
        if doc is not None and "runs" in doc and len(doc["runs"]) != len(body) and not self.killed:
            self.fail("report-agrees", "CSV and JSON list different runs",
                      f"{len(body)} CSV rows, {len(doc['runs'])} JSON runs")
        if (self.exact and not self.interrupted and not self.killed and self.gnu_status() == 0
                and self.run.status == 0 and len(copies) != len(self.gnu)):
            self.fail("report-agrees", "CSV lists a different number of runs",
                      f"{len(copies)} copy rows in CSV; the session is {len(self.gnu)} runs")
        self.check_csv_mix(body)
        # (--verify's verdict is no run: its exit status 1 is in no row.)
        if not self.killed and last[14] != str(self.run.status) and not self.case.ext.get("verify"):
            final = body[-1]
            if final[14] != str(self.run.status):
                self.fail("report-agrees", "CSV exit_status differs from the exit status",
                          f"last row's exit_status {final[14]!r}, the process exited {self.run.status}")

    def check_csv_mix(self, body: List[List[str]]) -> None:
        """--mix: each run's line gives the percentage asked and each
        side's I/Os and bytes, adding up to its records and bytes; without
        it the five fields are empty."""
        mix = self.case.ext.get("mix")
        for row in body:
            sides = row[15:20]
            if mix is None:
                if any(sides):
                    self.fail("mix-counts", "CSV gives sides without --mix", repr(row))
                    return
                continue
            try:
                percent, reads, read_bytes, writes, write_bytes = (int(v) for v in sides)
                records, moved = int(row[7]), int(row[6])
            except ValueError:
                self.fail("report-parse", "--mix: CSV sides are not numbers", repr(row))
                return
            if percent != int(mix) or reads + writes != records or read_bytes + write_bytes != moved:
                self.fail("mix-counts", "--mix: CSV sides do not add up to the line's records and bytes", repr(row))
                return

    def check_timeline_csv(self, rows: List[List[str]]) -> None:
        """--timeline's CSV: the samples, a line each, cumulative bytes
        never going back within a run."""
        if rows[0] != TIMELINE_CSV_HEADER:
            self.fail("report-parse", "--timeline: CSV header is not the samples'", repr(rows[0]))
            return
        previous: Dict[Tuple[str, ...], int] = {}
        for row in rows[1:]:
            if row == TIMELINE_CSV_HEADER:
                self.fail("report-parse", "CSV repeats its header", "timeline header twice")
                return
            try:
                key, sample, cumulative = tuple(row[:5]), int(row[5]), int(row[7])
            except (ValueError, IndexError):
                self.fail("report-parse", "--timeline: a CSV sample line is not numbers", repr(row))
                return
            if len(row) > 20 and (row[19] or row[20]):
                # --mix (one job): the sides' rates over the interval add up
                # to what it moved.
                try:
                    seconds, moved = float(row[9]), int(row[10])
                    sides = (float(row[19]) + float(row[20])) * seconds
                except ValueError:
                    self.fail("report-parse", "--timeline: a CSV sample's sides are not numbers", repr(row))
                    return
                if "mix" not in self.case.ext or abs(sides - moved) > max(1.0, moved * 1e-6):
                    self.fail("mix-counts", "--timeline: a CSV sample's sides do not add up to its bytes", repr(row))
                    return
            if sample == 1:
                previous[key] = 0
            if cumulative < previous.get(key, 0):
                self.fail("report-agrees", "--timeline: cumulative bytes go back", repr(row))
                return
            previous[key] = cumulative

    # -- stderr text
    def gnu_messages(self) -> List[str]:
        messages = []
        for r in self.gnu:
            for line in r.lines:
                if not is_summary_line(line) and line not in messages:
                    messages.append(line)
        return messages

    def check_timed_summary(self, printed) -> None:
        """--time: GNU's lines count every record the run moved, whole
        blocks of bs= each (no partial record: a pass is whole blocks)."""
        if not printed or self.run.status != 0 or self.interrupted:
            return
        s = printed[-1]
        if s.in_full is None or s.bytes is None:
            return
        ibs = ibs_obs(self.case.dd)[0]
        if s.in_partial != 0 or s.out_full != s.in_full or (s.bytes != s.in_full * ibs
                                                             and "sweep_bs" not in self.case.ext):
            self.fail("summary-equals-gnu", "--time: records and bytes do not agree",
                      f"a timed run moves whole blocks of {ibs} B; summary: {s.text()}")

    def check_lines(self) -> None:
        prog = self.prog + ": "
        printed = self.printed()
        gnu_msgs = self.gnu_messages()
        gnu_norm = set(gnu_msgs)
        as_dd = [l.replace(prog, "dd: ", 1) if l.startswith(prog) else l for l in self.lines]
        # rule 8: ddtime's own lines.
        for line, normal in zip(self.lines, as_dd):
            if not line.startswith(prog) or normal in gnu_norm:
                continue
            body = line[len(prog):]
            if any(p.search(body) for p in GNU_SHAPES_WITH_WORDS):
                continue
            m = RULE8.search(body)
            if m:
                # The words up to the match and two after it name the line.
                head = body[:m.start()].split()
                tail = body[m.end():].split()[:2]
                context = " ".join(head[:3] + (["…"] if len(head) > 5 else []) + head[max(3, len(head) - 2):]
                                   + [m.group(0)] + tail)
                self.fail("rule8-words", f"'{m.group(0)}' in: " + signature_of(context), f"line: {line!r}")
        if self.killed or self.run.timed_out:
            return
        # GNU's summary, and GNU's messages.
        last = self.gnu_last()
        if printed:
            tail = self.lines[printed[-1].end + 1:]
            if tail:
                self.fail("summary-last", "lines after GNU's summary: " + signature_of(tail[0].replace(prog, "", 1))[:80],
                          "after the summary:\n" + "\n".join("      | " + l for l in tail[:4]))
        if "time" in self.case.ext:
            self.check_timed_summary(printed)
            return
        if "jobs" in self.case.ext and (self.run.status != 0 or self.gnu_status() != 0) and not self.interrupted:
            # --jobs after an error: every job's records count (the man
            # page says so), so the records lines may count more than
            # GNU's; GNU's messages are said, each once, and one summary.
            as_dd_text = "\n".join(as_dd)
            for message in gnu_msgs:
                if as_dd_text.count(message) != 1:
                    self.fail("summary-equals-gnu", "--jobs: GNU's message not said once: " + signature_of(message)[:70],
                              f"GNU prints {message!r}; ddtime {as_dd_text.count(message)} times\n" + self.stderr_tail(8))
                    break
            if len(printed) != 1 and not self.sent_usr1:
                self.fail("summary-equals-gnu", "--jobs: not one summary", f"{len(printed)} summaries")
            return
        if not self.exact or self.interrupted or self.signal_cut_a_read():
            if (printed and last and last.bytes is not None and printed[-1].bytes != last.bytes
                    and not self.mix_row_whole_blocks(printed[-1], last)
                    and self.gnu_status() == self.run.status == 0 and not self.signal_cut_a_read()):
                self.fail("summary-equals-gnu", "bytes copied differ from GNU's",
                          f"ddtime: {printed[-1].text()}; GNU: {last.text()}")
            return
        if self.as_dd:
            expected = [mask(l) for r in self.gnu for l in r.lines]
            # GNU warns about oflag=append without conv=notrunc when it
            # parses its operands: once for a session, as for one dd.
            warning = "dd: you probably want conv=notrunc with oflag=append"
            if warning in expected:
                expected = [l for i, l in enumerate(expected) if l != warning or i == expected.index(warning)]
            extra_ok = any(k in self.case.ext for k in PRINTING_EXTENSIONS)
            got = [mask(l) for l in as_dd]
            if self.sent_usr1:
                got = [l for l in got if not is_summary_line(l)]
                expected = [l for l in expected if not is_summary_line(l)]
            if extra_ok:
                got = [l for l in got if not (l.startswith("dd: ") and l not in gnu_norm)]
            if got != expected:
                first = next((i for i, (a, b) in enumerate(zip(got, expected)) if a != b), min(len(got), len(expected)))
                g = got[first] if first < len(got) else "(nothing)"
                e = expected[first] if first < len(expected) else "(nothing)"
                self.fail("summary-equals-gnu", "invoked as dd, stderr is not GNU's: " + signature_of(f"{g} / {e}")[:90],
                          f"line {first + 1}: ddtime {g!r}, GNU {e!r}\n      ddtime's stderr:\n" + self.stderr_tail(10))
            if not self.sent_usr1 or not printed or last is None:
                return
        if last is None:
            if printed:
                self.fail("summary-equals-gnu", "a summary where GNU prints none", f"ddtime: {printed[-1].text()}")
            return
        if not printed:
            if self.run.status in (0, 1):
                self.fail("summary-equals-gnu", "no summary where GNU prints one", f"GNU: {last.text()}\n" + self.stderr_tail(6))
            return
        if printed[-1].key() != last.key():
            self.fail("summary-equals-gnu", "records or bytes differ from GNU's",
                      f"ddtime: {printed[-1].text()}; GNU (last run): {last.text()}")
        if not self.as_dd and not self.sent_usr1 and len(printed) != 1:
            self.fail("summary-equals-gnu", "several summaries",
                      f"{len(printed)} summaries on stderr; GNU's lines should come once, last")
        if not self.as_dd:
            got_msgs = set(as_dd)
            missing = [m for m in gnu_msgs if m not in got_msgs]
            if missing:
                self.fail("summary-equals-gnu", "GNU's message missing: " + signature_of(missing[0])[:80],
                          f"GNU prints {missing[0]!r}; ddtime does not\n" + self.stderr_tail(8))

    def mode_name(self) -> str:
        ext = self.case.ext
        if ext.get("readback") or ext.get("verify"):
            return "with --readback"
        for key in ("repeat", "warmup", "sweep_bs", "sweep_iodepth", "pattern", "cache", "csv"):
            if key in ext:
                return "in a session"
        return "in a single run"

    def check_options(self) -> None:
        """Rule 7: an option a mode accepts is applied, not dropped; rule 5:
        a figure that was not measured is not shown as 0."""
        if self.killed or self.run.timed_out or self.run.status != 0:
            return
        ext = self.case.ext
        mode = self.mode_name()
        prog = self.prog + ": "
        gnu = set(self.gnu_messages())
        own = [l[len(prog):] for l in self.lines
               if l.startswith(prog) and l.replace(prog, "dd: ", 1) not in gnu]
        if self.text_mode and not self.as_dd:
            def dropped(option: str, what: str) -> None:
                self.fail("option-dropped", f"{option} {mode}: no {what}",
                          f"{option} was accepted and the copy succeeded, yet stderr has no {what}\n"
                          + self.stderr_tail(6))
            # Measured (read, write and the rest), or said not to be (a
            # queued engine), never silently absent.
            if ext.get("split_times") and not any(
                    re.search(r"\bread\b.*\bwrite\b.*(\bother\b|not measured)", l) for l in own):
                dropped("--split-times", "read/write time line")
            if ext.get("latency") and self.case.program == "ddtime" and not any(l.startswith("latency ") for l in own):
                dropped("--latency", "latency report")
            if "cache" in ext and not any(re.search(r"\bcache " + re.escape(ext["cache"]) + ":", l) for l in own):
                dropped(f"--cache={ext['cache']}", "cache line")
            if "engine" in ext and not any(l.startswith("engine ") for l in own):
                dropped(f"--engine={ext['engine']}", "engine line")
            if ("random" in ext and self.case.program == "ddtime" and mode == "in a single run"
                    and not any(l.startswith("random order: ") for l in own)):
                dropped("--random", "random order line")
            if ("time" in ext and self.case.program == "ddtime" and mode == "in a single run"
                    and not any(l.startswith("timed: ") for l in own)):
                dropped(f"--time={ext['time']}", "timed line")
            units = ext.get("units")
            forbidden = {"si": r"iB/s", "iec": r"\d [kMGTPE]B/s", "bytes": r"\d [kMGTPE]i?B/s"}.get(units)
            if forbidden:
                for line in own:
                    if re.search(r"ETA|\(\d+%\)|MB/s +MiB/s", line):
                        continue  # the progress line and the sweep table's header have fixed units
                    m = re.search(forbidden, line)
                    if m:
                        self.fail("option-dropped", f"--units={units} {mode}: a rate in other units: "
                                  + signature_of(line)[:70], f"line: {prog + line!r}")
                        break
        if self.json_docs and ("engine" in ext or "iodepth" in ext):
            runs = self.copy_runs(self.json_docs[-1])
            if runs and not all("engine" in r for r in runs):
                option = f"--engine={ext['engine']}" if "engine" in ext else f"--iodepth={ext['iodepth']}"
                self.fail("option-dropped", f"{option}: JSON has no engine key",
                          f"{option} given; the README says a last key engine says what ran")
        if self.json_docs and "jobs" in ext:
            runs = [r for r in self.copy_runs(self.json_docs[-1]) if r.get("records_in", {}).get("full", 0) > 0]
            if runs and not all(r.get("engine", {}).get("jobs", {}).get("asked") == ext["jobs"] for r in runs):
                self.fail("option-dropped", "--jobs: JSON engine has no jobs object",
                          f"--jobs={ext['jobs']} given; every run's engine object says jobs asked and ran")
        if self.json_docs and ext.get("latency") and "ramp" not in ext and "sparse" not in self.case.dd.get("conv", ""):
            # Every record written went out in at least one timed write, in
            # whichever job wrote it (--jobs' recorders merged).
            for r in self.copy_runs(self.json_docs[-1]):
                written = r.get("records_out", {}).get("full", 0)
                if "mix" in r:  # a mixed run's reads write nothing
                    written = r["mix"]["writes"]["ios"]
                sampled = (r.get("latency") or {}).get("write", {}).get("count")
                if sampled is not None and sampled < written:
                    self.fail("summary-equals-gnu", "--latency: fewer write samples than records written",
                              f"{sampled} write samples, {written} full records out")
                    break
        if self.json_docs and "time" in ext:
            runs = self.copy_runs(self.json_docs[-1])
            if runs and not all("time" in r for r in runs):
                self.fail("option-dropped", "--time: JSON has no time object",
                          "--time given; every run's object has a \"time\" object")
        if self.json_docs and ("timeline" in ext or "steady" in ext):
            runs = self.copy_runs(self.json_docs[-1])
            if runs and not all(isinstance(r.get("timeline", {}).get("samples"), list) for r in runs):
                self.fail("option-dropped", "--timeline: JSON has no timeline samples",
                          "--timeline given; every run's object has a \"timeline\" with its samples")
        if self.json_docs and "random" in ext:
            runs = self.copy_runs(self.json_docs[-1])
            if runs and not all(r.get("access") == "random" and "range" in r for r in runs):
                self.fail("option-dropped", "--random: JSON has no access or range",
                          "--random given; every run's object says \"access\":\"random\" and its range")
            # At depth 1 auto is the sync engine (pread/pwrite), as dd and
            # fio's psync: a queued engine only by name, at depth or with jobs.
            if (ext.get("engine", "auto") == "auto" and ext.get("iodepth", 1) == 1 and "jobs" not in ext
                    and "sweep_iodepth" not in ext):
                named = [r.get("engine", {}).get("name") for r in runs if r.get("records_in", {}).get("full", 0) > 0]
                if any(name != "sync" for name in named):
                    self.fail("option-dropped", "--random at depth 1: auto did not pick the sync engine",
                              f"engines {sorted(set(map(str, named)))}; the man page says auto is sync at depth 1")
        if self.json_docs and ext.get("split_times"):
            for r in self.copy_runs(self.json_docs[-1]):
                times = r.get("times", {})
                records = r.get("records_in", {}).get("full", 0) + r.get("records_in", {}).get("partial", 0)
                # A mixed run's side without an I/O made no call of its
                # kind: its time is that of none, 0 (--mix=100 writes nothing).
                mix = r.get("mix")
                sides = [k for k in ("read", "write") if not mix or mix.get(k + "s", {}).get("ios", 1) > 0]
                zero = [k for k in sides if times.get(k) == 0]
                if records > 0 and zero:
                    self.fail("figures", f"--split-times: {' and '.join(zero)} time exactly 0"
                              + (" at --iodepth" if r.get("iodepth", 1) > 1 else ""),
                              f"{records} input records, yet times {times}; a figure that was not measured "
                              "is null, never 0 (rule 5)")
                    break

    def check_usr1_prints(self) -> None:
        """A SIGUSR1 that the process outlived by a good margin printed the
        statistics so far (GNU's lines, or a JSON snapshot)."""
        if not self.sent_usr1 or self.killed or self.run.timed_out:
            return
        s = self.sent_usr1[0]
        more = self.run.exit_at - s.at
        if more < self.bound + 0.05:
            return
        where = f"SIGUSR1 at {s.at * 1000:.0f} ms; the process ran {more * 1000:.0f} ms more"
        if self.text_mode:
            if not self.exact:
                return
            base = 1 if not self.as_dd else len(self.gnu)
            count = len(self.printed())
            # Outside a copy ddtime's text names the phase instead.
            labelled = any(l.startswith(f"{self.prog}: SIGUSR1 during ") for l in self.lines)
            if count <= base and not labelled:
                self.fail("usr1-prints", "SIGUSR1 printed no statistics",
                          f"{where} and printed {count} summaries in all, as many as without the signal\n"
                          + self.stderr_tail(8))
        elif self.json_stderr:
            if not any(d.get("complete") is False for d in self.stderr_json):
                self.fail("usr1-prints", "SIGUSR1 printed no JSON snapshot with --json", where)
        elif self.csv_stderr:
            # A snapshot line of the running copy; outside a copy (a
            # calibration, a cache drop, between runs, the verify pass)
            # every finished run's line is on stderr already.
            phases = ("pattern", "cache", "preallocate", "readback", "verify", "repeat", "warmup",
                      "sweep_bs", "sweep_iodepth")
            snapshot_rows = [r for r in (self.stderr_csv or []) if len(r) > 2 and r[2] == "snapshot"]
            if not snapshot_rows and not any(k in self.case.ext for k in phases):
                self.fail("usr1-prints", "SIGUSR1 printed nothing with --csv to stderr",
                          f"{where}; stderr holds only the CSV table")


# ---------------------------------------------------------------------------
# One case, end to end.

@dataclasses.dataclass
class Outcome:
    case: Case
    failures: List[Failure]
    refused: bool
    status: str
    elapsed: float
    stderr: str
    skipped: bool = False


def check_profile(case: Case, directory: Path, status: int, err: str) -> List[Failure]:
    """exit 0 -> a JSON row per test and side, each run counted; the table
    on stderr; no GNU summary and none of its words in ddtime's lines."""
    name = str(case.ext["profile"])
    sides = (["read", "write"] + (["mix"] if "mix" in case.ext else [])) if "of" in case.dd else ["read"]
    out = directory / "out"
    if scratch_protected(case):
        failures = []
        if status != 1 or "--force" not in err:
            failures.append(Failure("rule1-scratch", f"--profile={name} over a non-empty of= not refused",
                                    f"exit {status}\n{err[-800:]}"))
        if out.read_bytes() != bytes([FILL]) * case.files["out"][1]:
            failures.append(Failure("rule1-scratch", f"--profile={name} without --force changed of=", err[-800:]))
        return failures
    if "out" in case.files and "of" in case.dd and out.stat().st_size != case.files["out"][1]:
        return [Failure("rule1-scratch", f"--profile={name} --force grew or cut of=", f"{out.stat().st_size} bytes")]
    if status != 0:
        return [Failure("profile", f"--profile={name} exit {status}", err[-800:])]
    failures: List[Failure] = []
    for word in ("copied", "bytes", "records in", "records out"):
        if word in err:
            failures.append(Failure("rule8-words", f"--profile: {word!r} on stderr", err[-800:]))
    if f"{name}: " not in err or "(bars: log scale" not in err:
        failures.append(Failure("profile", "--profile: no table on stderr", err[-800:]))
    try:
        doc = json.loads((directory / "profile.json").read_text())
    except (OSError, ValueError) as error:
        return failures + [Failure("report-parse", "--profile: JSON", str(error))]
    problems = schema_problems(doc)
    if problems:
        failures.append(Failure("json-schema", f"--profile={name}: the document does not validate "
                                f"({problems[0].split(':')[0]})", "\n".join(problems[:10])))
    rows = doc.get("rows", [])
    if len(rows) != PROFILE_TESTS[name] * len(sides) or [r["side"] for r in rows] != [
            side for side in sides for _ in range(PROFILE_TESTS[name])]:
        failures.append(Failure("profile", "--profile: rows are not a test per side", json.dumps(rows)[:800]))
    for row in rows:
        runs = row.get("runs", [])
        if len(runs) != 1 or not runs[0].get("counted") or not row.get("median_bytes_per_second"):
            failures.append(Failure("profile", "--profile: a row without its counted run", json.dumps(row)[:800]))
        if row.get("side") == "mix":
            # --mix=0 or 100 keeps to one side; the other is measured at 0.
            reads, writes = (row["mix"][side] for side in ("reads", "writes"))
            one_side = {0: reads, 100: writes}.get(int(case.ext["mix"]))
            if reads is None or writes is None or (one_side is not None and one_side["median_bytes_per_second"] != 0):
                failures.append(Failure("mix-counts", f"--profile --mix={case.ext['mix']}: a mix row's sides",
                                        json.dumps(row.get("mix"))[:800]))
    if "mix" in case.ext and (doc.get("profile") or {}).get("mix_percent") != int(case.ext["mix"]):
        failures.append(Failure("profile", "--profile --mix: the JSON does not give the percentage",
                                json.dumps(doc.get("profile"))[:400]))
    if doc.get("complete") is not True or doc.get("exit_status") != 0:
        failures.append(Failure("profile", "--profile: not complete", json.dumps(doc.get("complete"))))
    if "csv" in case.ext:
        lines = (directory / "profile.csv").read_text().splitlines()
        if len(lines) != 1 + len(rows):
            failures.append(Failure("report-parse", "--profile: CSV is not a line per row", "\n".join(lines)))
    return failures


def check_capacity(case: Case, directory: Path, before: bytes, status: int, err: str) -> List[Failure]:
    """A regular file holds what it says: exit 0, the verdict "holds", of=
    its size still, and (--keep) its bytes as they were, or (without) other
    bytes only in the blocks the JSON lists as probed (full: every block of
    the range, in extents that add up to it, after two passes). An empty
    of= holds no block; a non-empty one without --force is refused,
    unchanged; --keep with full is refused."""
    after = (directory / "out").read_bytes()
    failures: List[Failure] = []
    full = case.ext["capacity"] == "full"
    if len(after) != len(before):
        failures.append(Failure("outside-range", "--capacity grew or cut of=", f"{len(before)} -> {len(after)} bytes"))
    if full and case.ext.get("keep"):
        if status != 1 or "--capacity=full writes every block" not in err or after != before:
            failures.append(Failure("refusal", "--capacity=full --keep was not refused", f"exit {status}\n{err[-600:]}"))
        return failures
    if before and not case.ext.get("force"):
        if status != 1 or "--force" not in err or after != before:
            failures.append(Failure("rule1-scratch", "--capacity over a non-empty of= without --force",
                                    f"exit {status}\n{err[-600:]}"))
        return failures
    # The range: from seek= (in bs= blocks, 512 B without bs=), count= of
    # them or the rest, in whole probe blocks (bs=, or 4 KiB).
    bs = case.dd["bs"][0] if "bs" in case.dd else 512
    block = bs if "bs" in case.dd else MiB if full else 4096
    start = case.dd["seek"][0] * bs if "seek" in case.dd else 0
    rest = max(0, len(before) - start)
    if "count" in case.dd:
        rest = min(rest, case.dd["count"][0] * bs)
    if rest < block:
        if status != 1 or "less than one block" not in err:
            failures.append(Failure("capacity", "--capacity of a range without a block",
                                    f"{rest} B from {start}; exit {status}\n{err[-600:]}"))
        return failures
    if status != 0 or "holds what it reports" not in err:
        return failures + [Failure("capacity", f"--capacity of a regular file: exit {status}", err[-800:])]
    for word in ("copied", "records in", "records out"):
        if word in err:
            failures.append(Failure("rule8-words", f"--capacity: {word!r} on stderr", err[-800:]))
    if case.ext.get("keep") and after != before:
        at = next(i for i in range(len(after)) if after[i] != before[i])
        failures.append(Failure("capacity", "--capacity --keep did not leave of= as it was", f"first difference at {at}"))
    if full and "svg" in case.ext:
        svg = (directory / "capacity.svg").read_text() if (directory / "capacity.svg").exists() else ""
        if "<svg" not in svg or "</svg>" not in svg:
            failures.append(Failure("report-parse", "--capacity=full --svg: no chart", svg[:200]))
    if "json" not in case.ext:
        return failures
    try:
        doc = json.loads((directory / "capacity.json").read_text())
    except (OSError, ValueError) as error:
        return failures + [Failure("report-parse", "--capacity: JSON", str(error))]
    problems = schema_problems(doc)
    if problems:
        failures.append(Failure("json-schema", "--capacity: the document does not validate "
                                f"({problems[0].split(':')[0]})", "\n".join(problems[:10])))
    capacity = doc.get("capacity", {})
    if capacity.get("verdict") != "holds" or doc.get("exit_status") != 0:
        failures.append(Failure("capacity", "--capacity JSON: not holds, or not exit 0", json.dumps(capacity)[:600]))
    block = capacity.get("block", 4096)
    probed = {p["offset"] for p in capacity.get("probes") or []}
    start, end = capacity.get("start", 0), capacity.get("start", 0) + capacity.get("range_bytes", 0)
    if full:
        extents = capacity.get("extents") or []
        counted = sum(e["blocks"] for e in extents)
        passes = [p.get("pass") for p in capacity.get("passes") or []]
        if (capacity.get("mode") != "full" or counted * block != end - start or passes != ["write", "read"]
                or any(e["outcome"] != "good" for e in extents)):
            failures.append(Failure("capacity", "--capacity=full JSON: its extents are not every block of the range, "
                                    "all good, after a write and a read pass", json.dumps(capacity)[:800]))
        probed = set(range(start, end, block))
    if after[:start] != before[:start] or after[end:] != before[end:]:
        failures.append(Failure("outside-range", "--capacity changed bytes outside its range", f"range {start}-{end}"))
    for offset in range(start, end, block):
        if after[offset:offset + block] != before[offset:offset + block] and offset not in probed:
            failures.append(Failure("outside-range", "--capacity changed a block it did not probe",
                                    f"block at {offset} (range {start}-{end})"))
            break
    return failures


class Harness:
    def __init__(self, options: argparse.Namespace, scratch: Scratch):
        self.o = options
        self.scratch = scratch
        self.work = Path(tempfile.mkdtemp(prefix="ddtime-combo-io."))
        self.early_floor = 0.0
        self.handler_bound = 0.25  # a signal waits for the handlers this long after exec at most
        # Invoked as dd through a real link named dd, as the packages install it.
        (self.work / "bin").mkdir()
        self.dd_link = self.work / "bin" / "dd"
        os.symlink(options.ddtime, self.dd_link)

    def close(self) -> None:
        shutil.rmtree(self.work, ignore_errors=True)

    def run_alone(self, case: Case, what: str,
                  check: Callable[[Path, int, str], List[Failure]]) -> Outcome:
        """A case with no GNU twin (a profile or a capacity probe is not a
        dd copy): ddtime alone, judged by check(case_dir, status, stderr)."""
        case_dir = self.scratch.fresh("case")
        make_files(case_dir, case, self.o.seed)
        started = time.monotonic()
        try:
            done = subprocess.run([self.o.ddtime] + render(case), cwd=case_dir, env=ENV, stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=self.o.timeout)
        except subprocess.TimeoutExpired as expired:
            err = (expired.stderr or b"").decode("utf-8", "surrogateescape")
            failure = Failure("hang", what, f"still running after {self.o.timeout} s\n{err[-600:]}")
            return Outcome(case, [failure], False, "timeout", time.monotonic() - started, err)
        elapsed = time.monotonic() - started
        err = done.stderr.decode("utf-8", "surrogateescape")
        failures = check(case_dir, done.returncode, err)
        return Outcome(case, failures, False, f"exit {done.returncode}", elapsed, err)

    def run(self, case: Case) -> Outcome:
        if is_profile(case):
            return self.run_alone(case, "--profile", lambda where, status, err: check_profile(case, where, status, err))
        if is_capacity(case):
            # What of= held before the probe, to see what the probe changed.
            before = file_bytes(self.o.seed, case.number, "out", case.files["out"])
            return self.run_alone(case, "--capacity",
                                  lambda where, status, err: check_capacity(case, where, before, status, err))
        on_device = case.dd.get("of") == "@dev"
        device = self.scratch.device
        if on_device and device is None:
            return Outcome(case, [], False, "skipped (no block device for of=$DEV)", 0.0, "", skipped=True)
        case_dir = self.scratch.fresh("case")
        twin = self.scratch.fresh("gnu")
        make_files(case_dir, case, self.o.seed)
        make_files(twin, case, self.o.seed)
        if on_device:
            self.scratch.fill_device()
        gnu_runs, exact = run_gnu(case, twin, self.o.gnu, device)
        of = case.dd["of"]
        if on_device:
            gnu_final = self.scratch.read_device()
            self.scratch.fill_device()
        else:
            gnu_final = (twin / of).read_bytes() if not of.startswith("/") and (twin / of).is_file() else None
        shutil.rmtree(twin)  # room for a runaway ddtime
        before = snapshot(case_dir)
        started = time.monotonic()
        binary = str(self.dd_link) if case.program == "dd" else self.o.ddtime
        run = run_ddtime(case, binary, case_dir, self.work, self.o.timeout, self.early_floor,
                         self.handler_bound, device)
        elapsed = time.monotonic() - started
        after = snapshot(case_dir)
        device_data = self.scratch.read_device() if on_device else None
        checker = Checker(case, self.o.seed, gnu_runs, exact, gnu_final, run, before, after, case_dir,
                          self.o.sigint_bound, self.o.sigint_grace, device_data)
        failures = checker.check()
        if case.program == "ddtime":
            checker.check_compare_self(self.o.ddtime)
        status = ("timeout" if run.timed_out else f"signal {signal.Signals(-run.status).name}"
                  if run.status < 0 else f"exit {run.status}")
        return Outcome(case, failures, checker.refused, status, elapsed, run.stderr)

    # Failures that depend on when a signal landed: a loaded machine can
    # make one (a process still starting when SIGUSR1 comes), so each must
    # show again on a second run of the case to count.
    TIMED = ("signal-usr1", "signal-int")

    def run_confirmed(self, case: Case) -> Outcome:
        outcome = self.run(case)
        if not any(f.invariant in self.TIMED for f in outcome.failures):
            return outcome
        again = self.run(case)
        seen = {(f.invariant, f.signature) for f in again.failures}
        kept = []
        for f in outcome.failures:
            if f.invariant in self.TIMED and (f.invariant, f.signature) not in seen:
                log(f"case {case.number}: [{f.invariant}] {f.signature}: not seen again on a second run; not counted")
                continue
            kept.append(f)
        outcome.failures = kept
        return outcome

    def command_line(self, case: Case) -> str:
        args = " ".join(shlex.quote(a) for a in render(case))
        binary = os.path.abspath(self.o.ddtime)
        if case.program == "ddtime" and os.path.basename(binary) == "ddtime":
            run = f"{shlex.quote(binary)} {args}"
        else:
            run = f"(exec -a {case.program} {shlex.quote(binary)} {args})"
        if case.signals:
            parts = []
            last = 0.0
            for name, delay, marker in case.signals:
                d = self.early_floor + (-delay) * 0.010 if delay < 0 else delay
                if marker is not None:
                    parts.append(f"until grep -Eq {shlex.quote(marker)} err; do sleep 0.001; done; "
                                 f"sleep {d:.3f}; kill -{name} $!")
                    last = 0.0
                    continue
                parts.append(f"sleep {max(0.0, d - last):.3f}; kill -{name} $!")
                last = d
            inner = run[1:-1] if run.startswith("(") else run
            if any(m for _, _, m in case.signals):
                inner += " 2>err"
            return f"bash -c {shlex.quote('set -m; ' + inner + ' & ' + '; '.join(parts) + '; wait $!; echo exit status $?')}"
        return run


def report_failure(h: Harness, outcome: Outcome) -> None:
    case = outcome.case
    print(f"FAIL case {case.number} ({outcome.status}, {outcome.elapsed:.2f} s)", flush=True)
    print(f"  files:  {describe_files(case)}")
    print(f"  run:    cd DIR && {h.command_line(case)}")
    print(f"  again:  {sys.argv[0]} --ddtime {h.o.ddtime} --seed {h.o.seed} --case {case.number}"
          f"   (--setup DIR makes the files)")
    for f in outcome.failures:
        print(f"  [{f.invariant}] {f.signature}")
        for line in f.evidence.splitlines():
            print(f"      {line}" if not line.startswith("      ") else line)
    print(flush=True)


# ---------------------------------------------------------------------------
# Minimizing a failing case: drop what the failure does not need.

def reductions(case: Case):
    for key in list(case.order):
        if key == "of":
            continue
        if key in case.dd and isinstance(case.dd[key], list):
            for flag in list(case.dd[key]):
                c = case.clone()
                c.dd[key].remove(flag)
                yield f"{key}: drop {flag}", c
            continue
        c = case.clone()
        c.dd.pop(key, None)
        c.ext.pop(key, None)
        c.order.remove(key)
        yield f"drop {key}", c
    for name in list(case.files):
        if name == "in" and case.dd.get("if") == "in":
            continue
        c = case.clone()
        c.files.pop(name)
        yield f"drop file {name}", c
    if case.signals:
        c = case.clone()
        c.signals = []
        yield "no signals", c
    if case.program == "dd":
        c = case.clone()
        c.program = "ddtime"
        yield "as ddtime", c
    spec = case.files.get("in")
    if spec and spec[0] == "random":
        for n in (0, 1, 1000, 4096, 1000000):
            if n < spec[1]:
                c = case.clone()
                c.files["in"] = ("random", n)
                yield f"in of {n} bytes", c
    for key in ("repeat", "warmup"):
        if isinstance(case.ext.get(key), int) and case.ext[key] > 1:
            c = case.clone()
            c.ext[key] = 2 if key == "repeat" else 1
            if c.ext[key] != case.ext[key]:
                yield f"{key} smaller", c


def minimize(h: Harness, case: Case, target: Tuple[str, str]) -> Case:
    def still_fails(c: Case) -> bool:
        if endless(c):
            return False
        outcome = h.run(c)
        return any((f.invariant, f.signature) == target for f in outcome.failures)

    current = case
    changed = True
    while changed:
        changed = False
        for what, candidate in reductions(current):
            if still_fails(candidate):
                log(f"minimize: {what}: still fails")
                current = candidate
                changed = True
                break
    return current


# ---------------------------------------------------------------------------

def seed_argument(text: str) -> int:
    """A seed, or 'commit': the first 32 bits of the source tree's HEAD, so
    CI's round explores a new seed for every commit while the commit's
    author can run exactly that round first."""
    if text != "commit":
        return int(text)
    try:
        head = subprocess.run(["git", "-C", str(REPO_ROOT), "rev-parse", "HEAD"], capture_output=True,
                              text=True, check=True).stdout.strip()
        return int(head[:8], 16)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return int.from_bytes(os.urandom(4), "little")


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ddtime", default=str(REPO_ROOT / "build/release/ddtime"), help="the binary under test")
    parser.add_argument("--gnu", default="/bin/dd", help="GNU dd 9.1, the reference (default /bin/dd)")
    parser.add_argument("--seed", type=seed_argument, default=None,
                        help="the run's seed: a number, or 'commit' for one taken from the source tree's git commit "
                             "(a new one for every commit, which can be run before the commit is pushed); "
                             "default: a random one, printed")
    parser.add_argument("--cases", type=int, default=100, help="how many cases (default 100)")
    parser.add_argument("--case", type=int, default=None, help="run only this case of the seed")
    parser.add_argument("--first", type=int, default=0, help="number of the first case (default 0)")
    parser.add_argument("--keep-going", action="store_true", help="run every case, then summarise the failures")
    parser.add_argument("--time-budget", type=float, default=None, help="start no new case after this many seconds")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds before a case is a hang (default 20)")
    parser.add_argument("--sigint-bound", type=float, default=0.15,
                        help="seconds within which SIGINT must end the process (issue 19 says 0.1; default 0.15 "
                             "allows for a loaded machine)")
    parser.add_argument("--sigint-grace", type=float, default=0.03,
                        help="a normal exit this soon after SIGINT counts as a copy that had already finished "
                             "(default 0.03; more for a sanitizer build, whose exit checks take long)")
    parser.add_argument("--image-mib", type=int, default=128, help="size of the ext4 image (default 128)")
    parser.add_argument("--tmpfs", action="store_true", help="use a tmpfs even where a loop device can be had")
    parser.add_argument("--list", action="store_true", help="print the cases' command lines; run nothing")
    parser.add_argument("--setup", metavar="DIR", help="with --case: make the case's starting files in DIR and print "
                        "its command line; run nothing")
    parser.add_argument("--minimize", action="store_true", help="with --case: reduce the failing case")
    parser.add_argument("--verbose", action="store_true", help="print every case")
    o = parser.parse_args(argv)
    if o.seed is None:
        o.seed = int.from_bytes(os.urandom(4), "little")
    # Cases run in their own directories: the binaries' paths must not be relative.
    o.ddtime = os.path.abspath(o.ddtime)
    o.gnu = os.path.abspath(o.gnu)
    numbers = [o.case] if o.case is not None else list(range(o.first, o.first + o.cases))
    print(f"combo: seed {o.seed}, {len(numbers)} case{'s' if len(numbers) != 1 else ''}"
          f" (rerun one with --seed {o.seed} --case K)", flush=True)

    if o.list or o.setup:
        for n in numbers:
            case = generate(o.seed, n)
            if o.setup:
                target = Path(o.setup)
                target.mkdir(parents=True, exist_ok=True)
                make_files(target, case, o.seed)
                print(f"combo: made {describe_files(case)} in {target}")
            prog = case.program
            why = expected_refusal(case)
            print(f"{n}: {prog} {' '.join(shlex.quote(a) for a in render(case))}"
                  + (f"   [signals {case.signals}]" if case.signals else "")
                  + (f"   [must be refused: {why}]" if why else ""))
        return 0

    if not os.access(o.ddtime, os.X_OK):
        log(f"no executable ddtime at {o.ddtime} (give --ddtime PATH)")
        return 2
    # Without python3-jsonschema this says so and exits 1: a run that cannot
    # validate its documents is a failure, never a pass or a skip.
    global SCHEMA
    SCHEMA = ddtime_schema.Schema()
    scratch = Scratch(o.image_mib, "tmpfs" if o.tmpfs else "loop")
    atexit.register(scratch.cleanup)

    def on_signal(number, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    harness = None
    passed = failed = 0
    groups: Dict[Tuple[str, str], List[Outcome]] = {}
    refused = 0
    skipped = 0
    refusals: Dict[str, int] = {}
    started = time.monotonic()
    ran = 0
    try:
        try:
            scratch.setup()
        except Skip as why:
            print(f"combo: skipped: {why}", flush=True)
            print("0 passed, 0 failed")
            return SKIP
        harness = Harness(o, scratch)
        gnu_floor = handler_delay(o.gnu)
        own_floor = handler_delay(o.ddtime)
        harness.early_floor = max(0.003, 4 * gnu_floor)
        harness.handler_bound = max(0.25, 8 * max(gnu_floor, own_floor))
        log(f"file system: {scratch.kind} at {scratch.mnt}; GNU dd catches SIGUSR1 {gnu_floor * 1000:.1f} ms after "
            f"exec, ddtime {own_floor * 1000:.1f} ms; signals \"at the start\" go "
            f"{harness.early_floor * 1000:.1f}-{(harness.early_floor + 0.01) * 1000:.1f} ms in; a signal waits for "
            f"the handlers up to {harness.handler_bound * 1000:.0f} ms in")
        for n in numbers:
            if o.time_budget is not None and time.monotonic() - started > o.time_budget:
                log(f"time budget of {o.time_budget:.0f} s reached: {ran} of {len(numbers)} cases ran")
                break
            case = generate(o.seed, n)
            outcome = harness.run_confirmed(case)
            if outcome.skipped:
                skipped += 1
                continue
            ran += 1
            if outcome.refused:
                refused += 1
                first = next((l for l in outcome.stderr.splitlines() if l.strip()), "(no message)")
                why = signature_of(re.sub(r"^\S+?: ", "", first))[:90]
                refusals[why] = refusals.get(why, 0) + 1
            if o.verbose:
                print(f"case {n}: {outcome.status}{' refused' if outcome.refused else ''} {outcome.elapsed:.2f} s: "
                      f"{case.program} {' '.join(render(case))}", flush=True)
            if outcome.failures:
                failed += 1
                report_failure(harness, outcome)
                for f in outcome.failures:
                    groups.setdefault((f.invariant, f.signature), []).append(outcome)
                if o.minimize and o.case is not None:
                    for f in outcome.failures:
                        small = minimize(harness, case, (f.invariant, f.signature))
                        print(f"  minimal for [{f.invariant}] {f.signature}:")
                        print(f"      files: {describe_files(small)}")
                        print(f"      run:   cd DIR && {harness.command_line(small)}", flush=True)
                if not o.keep_going:
                    break
            else:
                passed += 1
    except KeyboardInterrupt:
        log("interrupted")
        print(f"{passed} passed, {failed} failed")
        return 130
    finally:
        if harness:
            harness.close()
        scratch.cleanup()
    elapsed = time.monotonic() - started
    log(f"{ran} cases in {elapsed:.0f} s ({refused} refused by ddtime"
        + (f"; {skipped} skipped, for want of a block device" if skipped else "") + ")")
    for why, count in sorted(refusals.items(), key=lambda kv: -kv[1]):
        log(f"  refused {count}x: {why}")
    log(f"{sum(SCHEMA_COUNTS.values())} JSON documents validated against docs/ddtime.schema.json ("
        + ", ".join(f"{kind} {count}" for kind, count in sorted(SCHEMA_COUNTS.items())) + ")")
    if groups:
        print("Failures by invariant (count, first case, what is common to every case of the group):")
        for (invariant, sig), outcomes in sorted(groups.items(), key=lambda kv: (kv[0][0], -len(kv[1]))):
            common = common_features(o_.case for o_ in outcomes)
            examples = sorted(outcomes, key=lambda x: len(" ".join(render(x.case))))[:3]
            print(f"  [{invariant}] {sig}: {len(outcomes)} case(s), shortest "
                  f"{', '.join(str(x.case.number) for x in examples)}; always: {common}")
    print(f"{passed} passed, {failed} failed", flush=True)
    return 1 if failed else 0


def features(case: Case) -> set:
    found = set()
    for key, value in case.ext.items():
        found.add(f"--{key.replace('_', '-')}" if key not in ("sweep_bs", "sweep_iodepth") else f"--sweep={key[6:]}")
    for key in ("conv", "iflag", "oflag"):
        for flag in case.dd.get(key, []):
            found.add(f"{key}={flag}")
    for key in ("count", "skip", "seek", "ibs"):
        if key in case.dd:
            found.add(f"{key}=")
    found.add(f"if={case.dd.get('if', '(pattern)')}")
    found.add(f"of={case.dd['of']}")
    found.add(f"as {case.program}")
    if "out" in case.files:
        found.add("out existed")
    if case.signals:
        found.add(f"SIG{case.signals[0][0]}")
    return found


def common_features(cases) -> str:
    sets = [features(c) for c in cases]
    common = set.intersection(*sets) if sets else set()
    return ", ".join(sorted(common)) or "-"


if __name__ == "__main__":
    sys.exit(main())
