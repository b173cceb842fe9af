#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""End-to-end comparison of ddtime with the system's dd (issue 5).

Runs both programs interleaved (A B A B ...) on the same workloads and
prints a markdown table of medians, min-max and the time ratio ddtime/GNU
(below 1 means ddtime is faster). The /dev/zero -> /dev/null and start-up
rows also run a minimal read()/write() loop compiled here from C, as the
floor both programs are measured against.

Nothing is trusted blindly: every run must exit 0, the records lines and
byte count of ddtime's summary must equal GNU's, and file outputs must be
identical (cmp). Any failure makes the exit status 1.

  full run (quiet machine, as root for the loop-device rows):
      python3 tests/bench/compare.py > bench.md
  CI smoke run (tiny sizes, one run each, under 30 s):
      python3 tests/bench/compare.py --smoke
  queue depth (issue 12; root and fio): --iodepth against fio and GNU dd on
  a direct-I/O loop device, an O_DIRECT file copy, peak RSS per engine:
      python3 tests/bench/compare.py --queue-depth --runs 9
  sessions (issue 13): --repeat against separate runs, the random
  generator, cold and warm reads:
      python3 tests/bench/compare.py --sessions --runs 7
  random access (issue 21; root and fio): --random's 4k O_DIRECT reads
  against fio randread with io_uring at its best, depth 1 and 32:
      python3 tests/bench/compare.py --random-access --runs 9 --queue-mib 64
  comparing documents (issue 28, rule 7): --compare of two generated
  sessions of 100,000 counted runs each, wall time and peak RSS (goal:
  under 5 s and 200 MB), with /usr/bin/time:
      python3 tests/bench/compare.py --compare-documents --runs 3
  SIGINT (issue 28, A5): from the signal to the end, many jobs in flight:
      python3 tests/bench/compare.py --sigint --runs 9
  zram (issue 28; root, fio, a kernel with zram): 4k reads in turn and at
  random, depth 1 and 32, --mix=70, and diskmark's read rows, against
  fio's best; and --capacity=full against a stamp write plus --verify:
      python3 tests/bench/compare.py --zram --runs 7

Python 3 standard library only.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import datetime
import filecmp
import json
import math
import os
import platform
import signal
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Sequence, Tuple

REPO_ROOT = Path(__file__).resolve().parents[2]
KiB = 1024
MiB = 1024 * KiB
GiB = 1024 * MiB

# Written by this script; the floor for the zero->null and start-up rows:
# open both files, then read() and write() whole blocks, nothing else.
FLOOR_SOURCE = r"""
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  if (argc != 5) {
    fputs("usage: floor IN OUT BLOCKSIZE COUNT\n", stderr);
    return 2;
  }
  size_t size = strtoull(argv[3], NULL, 10);
  long long count = strtoll(argv[4], NULL, 10);
  int in = open(argv[1], O_RDONLY);
  int out = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0666);
  void *buffer = NULL;
  if (in < 0 || out < 0 || posix_memalign(&buffer, 4096, size) != 0) {
    perror("floor: setup");
    return 1;
  }
  for (long long block = 0; block < count;) {
    ssize_t got = read(in, buffer, size);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      perror("floor: read");
      return 1;
    }
    if (got == 0) break;
    for (ssize_t done = 0; done < got;) {
      ssize_t put = write(out, (char *)buffer + done, (size_t)(got - done));
      if (put < 0 && errno == EINTR) continue;
      if (put <= 0) {
        perror("floor: write");
        return 1;
      }
      done += put;
    }
    ++block;
  }
  return 0;
}
"""


def log(message: str) -> None:
    print(f"compare: {message}", file=sys.stderr, flush=True)


def size_text(n: int) -> str:
    for unit, scale in (("GiB", GiB), ("MiB", MiB), ("KiB", KiB)):
        if n >= scale:
            value = n / scale
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{n} B"


def bs_text(n: int) -> str:
    """dd's spelling of a block size: 512, 4k, 1M, 64M."""
    for suffix, scale in (("G", GiB), ("M", MiB), ("k", KiB)):
        if n >= scale and n % scale == 0:
            return f"{n // scale}{suffix}"
    return str(n)


def duration_text(seconds: float, unit: Optional[str] = None) -> str:
    unit = unit or duration_unit(seconds)
    if unit == "us":
        return f"{seconds * 1e6:.0f} µs"
    if unit == "ms":
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.3f} s"


def duration_unit(seconds: float) -> str:
    if seconds < 1e-3:
        return "us"
    if seconds < 1.0:
        return "ms"
    return "s"


def range_text(values: Sequence[float], unit: str) -> str:
    low, high = duration_text(min(values), unit), duration_text(max(values), unit)
    return f"{low.split()[0]}–{high}"


def clean_env(locale: str) -> Dict[str, str]:
    """The environment with every locale variable replaced by one choice."""
    env = {k: v for k, v in os.environ.items()
           if not (k.startswith("LC_") or k in ("LANG", "LANGUAGE"))}
    if locale == "C":
        env["LC_ALL"] = "C"
    else:
        env["LANG"] = locale
    return env


RECORDS_LINE = re.compile(r"\d+\+\d+ records (?:in|out)|\d+ truncated records?")
BYTES_LINE = re.compile(r"(\d+ bytes?) .*copied, ")


def summary_key(stderr: str) -> List[str]:
    """What must agree between ddtime and GNU dd: GNU's records lines, the
    truncated line and the byte count (not the time or rate). Lines of
    anything else (ddtime's timing report, valgrind) do not take part."""
    key = []
    for line in stderr.replace("\r", "\n").splitlines():
        if RECORDS_LINE.fullmatch(line):
            key.append(line)
        else:
            match = BYTES_LINE.match(line)
            if match:
                key.append(match.group(1))
    return key


class Failure(Exception):
    pass


@dataclasses.dataclass
class Program:
    label: str  # "ddtime", "GNU", "floor"
    path: str


@dataclasses.dataclass
class Run:
    seconds: float
    stderr: str
    minor_faults: int = 0


class Runner:
    """Starts one program at a time and times it from spawn to exit."""

    def __init__(self, workdir: Path):
        self.stderr_path = workdir / "stderr.txt"

    def run(self, argv: Sequence[str], env: Dict[str, str], what: str) -> Run:
        with open(self.stderr_path, "w+b") as stderr:
            start = time.perf_counter_ns()
            child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=stderr, env=env)
            # wait4 rather than wait: the child's own resource usage (page
            # faults), not that of every child so far.
            _, status, usage = os.wait4(child.pid, 0)
            elapsed = time.perf_counter_ns() - start
            child.returncode = os.waitstatus_to_exitcode(status)
            stderr.seek(0)
            text = stderr.read().decode("utf-8", "replace")
        if child.returncode != 0:
            raise Failure(f"{what}: `{' '.join(argv)}` exited {child.returncode}:\n{text}")
        return Run(elapsed / 1e9, text, usage.ru_minflt)


@dataclasses.dataclass
class Workload:
    name: str
    # dd operands for one timed run; placeholders {count} {src} {dev} {dst}.
    operands: List[str]
    count: int
    bytes_per_count: int
    locale: str = "C"
    runs: int = 10
    # Raise count until one run takes the target time (zero->null rows).
    calibrate: bool = False
    # (block size) for the C floor, which reads the same count of blocks.
    floor_bs: Optional[int] = None
    # The timed runs write {dst}: compare the two outputs after the runs.
    writes_file: bool = False
    # Operands of a separate, untimed run of both programs into files, whose
    # outputs must be identical (for rows that write to /dev/null).
    verify_operands: Optional[List[str]] = None
    needs: Tuple[str, ...] = ()
    # Upper bound on count (the loop device's size).
    max_count: Optional[int] = None
    note: str = ""
    # Put the median page-fault counts in the note (start-up rows).
    count_faults: bool = False

    def argv(self, program: str, count: int, paths: Dict[str, str], dst: str) -> List[str]:
        return [program] + [op.format(count=count, dst=dst, **paths) for op in self.operands]


@dataclasses.dataclass
class Row:
    workload: Workload
    count: int
    times: Dict[str, List[float]]
    note: str = ""
    faults: Dict[str, List[int]] = dataclasses.field(default_factory=dict)


def median_interval(values: Sequence[float], confidence: float = 0.95) -> Tuple[float, float]:
    """A distribution-free confidence interval for the median: the order
    statistics x(j) and x(n-1-j) with the largest j for which the binomial
    tail leaves at least the wanted confidence between them."""
    ordered = sorted(values)
    n = len(ordered)
    best = None
    for j in range(n // 2 + 1):
        # P(j < B <= n-1-j) for B ~ Binomial(n, 1/2): the median lies
        # between x(j) and x(n-1-j) (0-based) with this probability.
        inside = sum(math.comb(n, k) for k in range(j + 1, n - j)) / 2 ** n
        if inside < confidence:
            break
        best = j
    if best is None:
        return ordered[0], ordered[-1]
    return ordered[best], ordered[n - 1 - best]


def paired_ratios(row: "Row") -> List[float]:
    """ddtime's time over GNU's in the same round: runs next to each other
    share the machine's state, so the ratio cancels slow drifts of a shared
    machine that the medians of the two columns keep."""
    return [a / b for a, b in zip(row.times["ddtime"], row.times["GNU"]) if b > 0]


def verdict(low: float, high: float) -> str:
    if high < 1.0:
        return "faster"
    if low > 1.0:
        return "slower"
    return "same within noise"


class Suite:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.smoke: bool = args.smoke
        self.gnu = Program("GNU", args.gnu)
        self.floor: Optional[Program] = None
        self.pattern = re.compile(args.only, re.IGNORECASE) if args.only else None
        self.skipped: List[str] = []
        self.failures: List[str] = []
        self.rows: List[Row] = []
        self.rss_rows: List[Tuple[str, int, int]] = []
        self.callgrind_rows: List[Tuple[str, int, int, float, float]] = []
        self.paths: Dict[str, str] = {}
        self.workdir = Path(tempfile.mkdtemp(prefix="ddtime-bench-", dir=args.tmpdir))
        ddtime = args.ddtime
        if args.invoke_as:
            # ddtime chooses its behaviour by the name it is run under.
            link = self.workdir / "bin" / args.invoke_as
            link.parent.mkdir()
            link.symlink_to(os.path.abspath(ddtime))
            ddtime = str(link)
        self.ddtime = Program("ddtime", ddtime)
        self.runner = Runner(self.workdir)
        self.loop_device: Optional[str] = None

    # -- selection and setup ------------------------------------------------

    def wanted(self, name: str) -> bool:
        return self.pattern is None or bool(self.pattern.search(name))

    def skip(self, name: str, reason: str) -> None:
        self.skipped.append(f"{name}: {reason}")
        log(f"skipped {name}: {reason}")

    def build_floor(self) -> None:
        compiler = shutil.which("cc") or shutil.which("gcc")
        if compiler is None:
            self.skip("floor column", "no C compiler (cc) found")
            return
        source = self.workdir / "floor.c"
        binary = self.workdir / "floor"
        source.write_text(FLOOR_SOURCE)
        built = subprocess.run([compiler, "-O2", "-o", str(binary), str(source)],
                               capture_output=True, text=True, check=False)
        if built.returncode != 0:
            raise Failure(f"compiling the floor program failed:\n{built.stderr}")
        self.floor = Program("floor", str(binary))

    def file_size(self) -> int:
        return 4 * MiB if self.smoke else self.args.file_mib * MiB

    def make_source(self) -> Optional[str]:
        """A text-like file (letters of both cases, digits, spaces, newlines)
        so that ucase and ebcdic change bytes; written once, left in the
        page cache for the warm-cache rows."""
        if "src" in self.paths:
            return None
        size = self.file_size()
        free = shutil.disk_usage(self.workdir).free
        # The source plus one output per program.
        if free < 3 * size + 256 * MiB:
            return f"needs {size_text(3 * size)} free in {self.workdir}, has {size_text(free)}"
        alphabet = (b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789" * 4)[:248] + b"    \n\n\n\n"
        table = bytes.maketrans(bytes(range(256)), alphabet)
        path = self.workdir / "source"
        log(f"writing {size_text(size)} source file {path}")
        with open(path, "wb") as out:
            chunk = min(size, 4 * MiB)
            for offset in range(0, size, chunk):
                out.write(os.urandom(min(chunk, size - offset)).translate(table))
        self.paths["src"] = str(path)
        return None

    def attach_loop(self) -> Optional[str]:
        if self.loop_device is not None:
            return None
        if shutil.which("losetup") is None:
            return "losetup is not installed"
        if os.geteuid() != 0:
            return "creating a loop device needs root"
        attached = subprocess.run(["losetup", "--find", "--show", "--read-only", self.paths["src"]],
                                  capture_output=True, text=True, check=False)
        if attached.returncode != 0:
            return f"losetup failed: {attached.stderr.strip() or attached.returncode}"
        self.loop_device = attached.stdout.strip()
        self.paths["dev"] = self.loop_device
        log(f"attached {self.loop_device} over {self.paths['src']}")
        return None

    def detach_loop(self) -> None:
        if self.loop_device is None:
            return
        detached = subprocess.run(["losetup", "-d", self.loop_device], capture_output=True,
                                  text=True, check=False)
        if detached.returncode != 0:
            log(f"warning: could not detach {self.loop_device}: {detached.stderr.strip()}")
        else:
            log(f"detached {self.loop_device}")
        self.loop_device = None

    def prepare(self, workload: Workload) -> Optional[str]:
        for need in workload.needs:
            if need == "src":
                reason = self.make_source()
            elif need == "loop":
                if self.smoke:
                    return "no loop device in smoke mode"
                reason = self.make_source() or self.attach_loop()
            else:
                raise AssertionError(need)
            if reason:
                return reason
        return None

    # -- timing ---------------------------------------------------------------

    def run_program(self, program: Program, workload: Workload, count: int, dst: str) -> Run:
        env = clean_env(workload.locale)
        if program.label == "floor":
            argv = [program.path, "/dev/zero", "/dev/null", str(workload.floor_bs), str(count)]
        else:
            argv = workload.argv(program.path, count, self.paths, dst)
        if workload.writes_file:
            # Start every run from the same state: no output file, and no
            # dirty pages of an earlier run being written back meanwhile.
            if os.path.exists(dst):
                os.unlink(dst)
            os.sync()
        return self.runner.run(argv, env, f"{workload.name} ({program.label})")

    def calibrate(self, workload: Workload) -> int:
        """A count for which the faster of the two programs runs for about
        the target time: grown fourfold until a run is long enough to time,
        then scaled."""
        count = workload.count
        limit = workload.max_count
        while True:
            seconds = min(self.run_program(program, workload, count, os.devnull).seconds
                          for program in (self.ddtime, self.gnu))
            if limit is not None and count >= limit:
                return limit
            if seconds >= 0.05:
                break
            count *= 4
            if limit is not None:
                count = min(count, limit)
        # Scale, then measure again: a run has fixed costs (start-up, the
        # first touch of a large buffer) that one linear step misjudges.
        target = self.args.target_seconds
        for _ in range(4):
            wanted = max(count + 1, math.ceil(count * target / seconds * 1.05))
            count = min(wanted, limit) if limit is not None else wanted
            if limit is not None and count >= limit:
                return limit
            seconds = min(self.run_program(program, workload, count, os.devnull).seconds
                          for program in (self.ddtime, self.gnu))
            if seconds >= target * 0.9:
                break
        return count

    def check_same_summary(self, workload: Workload, a: Run, b: Run) -> None:
        key_a, key_b = summary_key(a.stderr), summary_key(b.stderr)
        if not key_b:
            raise Failure(f"{workload.name}: no records lines from GNU dd:\n{b.stderr}")
        if key_a != key_b:
            raise Failure(f"{workload.name}: summaries differ\n  ddtime: {key_a}\n  GNU:    {key_b}")

    def compare_files(self, what: str, a: str, b: str) -> None:
        if shutil.which("cmp"):
            same = subprocess.run(["cmp", "-s", a, b], check=False).returncode == 0
        else:
            same = filecmp.cmp(a, b, shallow=False)
        if not same:
            raise Failure(f"{what}: outputs differ ({a} vs {b})")

    def verify_outputs(self, workload: Workload) -> None:
        """An untimed run of both into files: the bytes must be the same."""
        outputs = []
        for program in (self.ddtime, self.gnu):
            dst = str(self.workdir / f"verify.{program.label}")
            argv = [program.path] + [op.format(dst=dst, **self.paths) for op in workload.verify_operands]
            self.runner.run(argv, clean_env(workload.locale), f"{workload.name} verify ({program.label})")
            outputs.append(dst)
        self.compare_files(f"{workload.name} verify", *outputs)
        for dst in outputs:
            os.unlink(dst)

    def measure(self, workload: Workload) -> None:
        if not self.wanted(workload.name):
            return
        reason = self.prepare(workload)
        if reason:
            self.skip(workload.name, reason)
            return
        log(f"running {workload.name}")
        if workload.verify_operands:
            self.verify_outputs(workload)
        count = workload.count
        if workload.calibrate and not self.smoke:
            count = self.calibrate(workload)
        programs = [self.ddtime, self.gnu]
        if workload.floor_bs is not None and self.floor is not None:
            programs.append(self.floor)
        dst = {p.label: str(self.workdir / f"out.{p.label}") if workload.writes_file else os.devnull
               for p in programs}
        runs = 1 if self.smoke else workload.runs
        warmups = 0 if self.smoke else 1
        times: Dict[str, List[float]] = {p.label: [] for p in programs}
        faults: Dict[str, List[int]] = {p.label: [] for p in programs}
        for i in range(warmups + runs):
            # Each round starts with the next program in turn: on a shared VM
            # whatever runs first after a pause (or after the previous
            # round's last program) can be systematically slower or faster.
            turn = i % len(programs)
            order = programs[turn:] + programs[:turn]
            results = {p.label: self.run_program(p, workload, count, dst[p.label]) for p in order}
            self.check_same_summary(workload, results["ddtime"], results["GNU"])
            if workload.writes_file:
                expected = os.path.getsize(self.paths["src"])
                for label in ("ddtime", "GNU"):
                    if os.path.getsize(dst[label]) != expected:
                        raise Failure(f"{workload.name}: {label} wrote {os.path.getsize(dst[label])} "
                                      f"bytes, expected {expected}")
            if i >= warmups:
                for label, run in results.items():
                    times[label].append(run.seconds)
                    faults[label].append(run.minor_faults)
        if workload.writes_file:
            self.compare_files(workload.name, dst["ddtime"], dst["GNU"])
            for label in ("ddtime", "GNU"):
                os.unlink(dst[label])
        note = workload.note
        if not self.smoke and workload.calibrate and min(times["GNU"] + times["ddtime"]) < 0.3:
            note = (note + "; " if note else "") + "runs under 0.3 s"
        if workload.count_faults:
            fault_note = ", ".join(f"{label} {statistics.median(values):.0f}"
                                   for label, values in faults.items())
            note = (note + "; " if note else "") + f"page faults: {fault_note}"
        self.rows.append(Row(workload, count, times, note, faults))

    # -- peak RSS and instruction counts -------------------------------------

    def measure_rss(self) -> None:
        cases = [("rss: zero->null bs=64M, 1 GiB", ["bs=64M", "count=16"]),
                 ("rss: zero->null bs=1M, 1 MiB", ["bs=1M", "count=1"]),
                 ("rss: zero->null bs=1M, 1 GiB", ["bs=1M", "count=1024"])]
        if self.smoke:
            cases = [("rss: zero->null bs=64M, 64 MiB", ["bs=64M", "count=1"]),
                     ("rss: zero->null bs=1M, 1 MiB", ["bs=1M", "count=1"]),
                     ("rss: zero->null bs=1M, 4 MiB", ["bs=1M", "count=4"])]
        cases = [case for case in cases if self.wanted(case[0])]
        if not cases:
            return
        gnu_time = "/usr/bin/time"
        if not os.access(gnu_time, os.X_OK):
            self.skip("rss rows", "/usr/bin/time is missing (apt-get install time)")
            return
        runs = 1 if self.smoke else 3
        for name, operands in cases:
            log(f"running {name}")
            peaks: Dict[str, List[int]] = {"ddtime": [], "GNU": []}
            for _ in range(runs):
                for program in (self.ddtime, self.gnu):
                    report = self.workdir / "time.txt"
                    argv = [gnu_time, "-v", "-o", str(report), program.path,
                            "if=/dev/zero", "of=/dev/null"] + operands
                    self.runner.run(argv, clean_env("C"), f"{name} ({program.label})")
                    match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report.read_text())
                    if not match:
                        raise Failure(f"{name}: no peak RSS in /usr/bin/time's report")
                    peaks[program.label].append(int(match.group(1)))
            self.rss_rows.append((name, int(statistics.median(peaks["ddtime"])),
                                  int(statistics.median(peaks["GNU"]))))

    def measure_callgrind(self) -> None:
        name = "callgrind: zero->null bs=4k, 100000 blocks"
        if not self.wanted(name):
            return
        if self.smoke:
            self.skip(name, "no valgrind in smoke mode")
            return
        if shutil.which("valgrind") is None:
            self.skip(name, "valgrind is not installed")
            return
        log(f"running {name}")
        blocks, baseline = 100_000, 1_000
        for program in (self.ddtime, self.gnu):
            totals = []
            for count in (blocks, baseline):
                out = self.workdir / "callgrind.out"
                argv = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", program.path,
                        "if=/dev/zero", "of=/dev/null", "bs=4k", f"count={count}"]
                run = self.runner.run(argv, clean_env("C"), f"{name} ({program.label})")
                if f"{count}+0 records out" not in run.stderr:
                    raise Failure(f"{name} ({program.label}): unexpected summary:\n{run.stderr}")
                match = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
                if not match:
                    raise Failure(f"{name}: no totals in {out}")
                totals.append(int(match.group(1)))
                out.unlink()
            total, base = totals
            self.callgrind_rows.append((program.label, total, base, total / blocks,
                                        (total - base) / (blocks - baseline)))

    # -- the whole suite ------------------------------------------------------

    def workloads(self) -> List[Workload]:
        smoke = self.smoke
        rows: List[Workload] = []
        for bs in (512, 4 * KiB, 64 * KiB, MiB, 16 * MiB, 64 * MiB):
            # Smoke: a few MiB. Full: a starting point that calibration raises.
            count = max(1, (4 * MiB if smoke else 64 * MiB) // bs)
            rows.append(Workload(f"zero->null bs={bs_text(bs)}",
                                 ["if=/dev/zero", "of=/dev/null", f"bs={bs_text(bs)}", "count={count}"],
                                 count, bs, calibrate=True, floor_bs=bs, runs=self.args.runs))
        for locale in ("C.UTF-8", "C"):
            label = "LANG=C.UTF-8" if locale != "C" else "LC_ALL=C"
            rows.append(Workload(f"start-up bs=1 count=1, {label}",
                                 ["if=/dev/zero", "of=/dev/null", "bs=1", "count={count}"],
                                 1, 1, locale=locale, floor_bs=1, count_faults=True,
                                 runs=3 if smoke else self.args.startup_runs))
        size = self.file_size()
        blocks_1m = max(1, size // MiB)
        for fdatasync in (False, True):
            extra = ["conv=fdatasync"] if fdatasync else []
            rows.append(Workload(f"file->file bs=1M{' conv=fdatasync' if fdatasync else ''}, "
                                 f"{size_text(size)} warm cache",
                                 ["if={src}", "of={dst}", "bs=1M"] + extra, blocks_1m, MiB,
                                 writes_file=True, needs=("src",), runs=self.args.runs))
        for bs in (4 * KiB, 64 * KiB, MiB):
            rows.append(Workload(f"loop iflag=direct bs={bs_text(bs)}",
                                 ["if={dev}", "of=/dev/null", f"bs={bs_text(bs)}", "iflag=direct",
                                  "count={count}"],
                                 size // bs, bs, calibrate=True, max_count=size // bs,
                                 needs=("loop",), runs=self.args.runs))
        for conv in ("ucase", "ebcdic"):
            rows.append(Workload(f"file->null bs=1M conv={conv}, {size_text(size)}",
                                 ["if={src}", "of=/dev/null", "bs=1M", f"conv={conv}"], blocks_1m, MiB,
                                 verify_operands=["if={src}", "of={dst}", "bs=1M", "count=4", f"conv={conv}"],
                                 needs=("src",), runs=self.args.runs))
        for ibs, obs in ((512, 64 * KiB), (64 * KiB, 64 * KiB), (MiB, MiB), (64 * MiB, 64 * MiB)):
            count = max(1, (4 * MiB if smoke else 64 * MiB) // ibs)
            rows.append(Workload(f"zero->null ibs={bs_text(ibs)} obs={bs_text(obs)}",
                                 ["if=/dev/zero", "of=/dev/null", f"ibs={bs_text(ibs)}",
                                  f"obs={bs_text(obs)}", "count={count}"],
                                 count, ibs, calibrate=True,
                                 # Same system calls as bs=: the floor bounds both.
                                 floor_bs=ibs if ibs == obs else None,
                                 verify_operands=["if={src}", "of={dst}", f"ibs={bs_text(ibs)}",
                                                  f"obs={bs_text(obs)}", f"count={max(1, 4 * MiB // ibs)}"],
                                 needs=("src",), runs=self.args.runs))
        return rows

    def run(self) -> None:
        self.build_floor()
        for workload in self.workloads():
            try:
                self.measure(workload)
            except Failure as failure:
                self.failures.append(str(failure))
                log(f"FAILED {failure}")
        for extra in (self.measure_rss, self.measure_callgrind):
            try:
                extra()
            except Failure as failure:
                self.failures.append(str(failure))
                log(f"FAILED {failure}")

    def cleanup(self) -> None:
        self.detach_loop()
        shutil.rmtree(self.workdir, ignore_errors=True)

    # -- output ---------------------------------------------------------------

    def header(self) -> List[str]:
        def first_line(argv: List[str]) -> str:
            try:
                out = subprocess.run(argv, capture_output=True, text=True, check=False).stdout
                return out.splitlines()[0] if out else "?"
            except OSError:
                return "?"

        cpu = "?"
        try:
            for line in Path("/proc/cpuinfo").read_text().splitlines():
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
        except OSError:
            pass
        load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
        mode = "smoke (tiny sizes, one run: not a measurement)" if self.smoke else (
            f"full: {self.args.runs} runs per row after one warm-up "
            f"({self.args.startup_runs} for start-up), interleaved, each round "
            f"started by the next program in turn")
        return [
            f"- date: {datetime.datetime.now().astimezone().isoformat(timespec='seconds')}",
            f"- CPU: {cpu}, {os.cpu_count()} logical CPUs; kernel {platform.release()}; load average at start {load}",
            f"- ddtime: `{self.args.ddtime}` ({first_line([self.ddtime.path, '--version'])})"
            + (f", run as `{self.args.invoke_as}`" if self.args.invoke_as else ""),
            f"- GNU: `{self.gnu.path}` ({first_line([self.gnu.path, '--version'])})",
            f"- files in {self.workdir.parent} ({filesystem_type(self.workdir)})",
            f"- mode: {mode}",
        ]

    def report(self) -> str:
        lines = ["# ddtime vs GNU dd", ""] + self.header() + [""]
        lines += ["| workload | data | ddtime median | ddtime min–max | GNU median | GNU min–max "
                  "| ddtime/GNU | paired ratio [95% CI] | verdict | floor median | note |",
                  "|---|---|---:|---:|---:|---:|---:|---:|---|---:|---|"]
        for row in self.rows:
            ddtime, gnu = row.times["ddtime"], row.times["GNU"]
            unit = duration_unit(statistics.median(gnu))
            floor = row.times.get("floor")
            cells = [
                row.workload.name,
                size_text(row.count * row.workload.bytes_per_count),
                duration_text(statistics.median(ddtime), unit),
                range_text(ddtime, unit),
                duration_text(statistics.median(gnu), unit),
                range_text(gnu, unit),
                f"{statistics.median(ddtime) / statistics.median(gnu):.3f}",
                paired_text(row),
                paired_verdict(row),
                duration_text(statistics.median(floor), unit) if floor else "",
                row.note,
            ]
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
        lines.append("ddtime/GNU: median time of ddtime / median time of GNU dd; below 1 means ddtime is "
                     "faster. Paired ratio: the median of ddtime/GNU over rounds (each round runs both "
                     "back to back), with a distribution-free 95% confidence interval for that median; "
                     "the verdict says whether the interval lies below 1, above 1 or across it.")
        if self.rss_rows:
            lines += ["", "| peak RSS (`/usr/bin/time -v`) | ddtime | GNU | ddtime − GNU |",
                      "|---|---:|---:|---:|"]
            for name, a, b in self.rss_rows:
                lines.append(f"| {name.removeprefix('rss: ')} | {a} KiB | {b} KiB | {a - b:+d} KiB |")
        if self.callgrind_rows:
            lines += ["", "| callgrind, zero->null bs=4k | Ir, 100000 blocks | Ir, 1000 blocks "
                      "| Ir / block (total / 100000) | Ir / block (marginal) |",
                      "|---|---:|---:|---:|---:|"]
            for label, total, base, per_block, marginal in self.callgrind_rows:
                lines.append(f"| {label} | {total} | {base} | {per_block:.1f} | {marginal:.1f} |")
        if self.skipped:
            lines += ["", "Skipped:"] + [f"- {s}" for s in self.skipped]
        if self.failures:
            lines += ["", "FAILED:"] + [f"- {f.splitlines()[0]}" for f in self.failures]
        return "\n".join(lines) + "\n"


def paired_text(row: Row) -> str:
    ratios = paired_ratios(row)
    if not ratios:
        return ""
    if len(ratios) < 6:  # too few rounds for any 95% interval
        return f"{statistics.median(ratios):.3f}"
    low, high = median_interval(ratios)
    return f"{statistics.median(ratios):.3f} [{low:.3f}–{high:.3f}]"


def paired_verdict(row: Row) -> str:
    ratios = paired_ratios(row)
    if len(ratios) < 6:
        return "too few runs"
    return verdict(*median_interval(ratios))


def filesystem_type(path: Path) -> str:
    """The type of the filesystem holding path, from /proc/self/mounts."""
    best, kind = "", "?"
    try:
        resolved = str(path.resolve())
        for line in Path("/proc/self/mounts").read_text().splitlines():
            fields = line.split()
            mount = fields[1].replace("\\040", " ")
            if (resolved == mount or resolved.startswith(mount.rstrip("/") + "/")) and len(mount) >= len(best):
                best, kind = mount, fields[2]
    except OSError:
        pass
    return kind


# ---------------------------------------------------------------------------
# Queue depth (issue 12): ddtime --iodepth against fio and GNU dd on a loop
# device with --direct-io=on over a file on the machine's disk, so that every
# read and write reaches the disk. Each program's own rate is compared:
# ddtime's JSON bytes_per_second, fio's bw_bytes, and for GNU dd the bytes
# over its own reported seconds. CPU per I/O is user+sys over the I/Os.


def queue_run(argv: Sequence[str]) -> subprocess.CompletedProcess:
    done = subprocess.run(list(argv), capture_output=True, text=True, env=clean_env("C"))
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
    return done


def ddtime_queued(ddtime: str, operands: Sequence[str], depth: int, engine: str = "io_uring") -> Tuple[float, float, int]:
    """ddtime's own rate (bytes/s), CPU seconds per record read, and its
    peak RSS in KiB."""
    with tempfile.NamedTemporaryFile("r", prefix="ddtime-rss-") as rss_file:
        # --json alone replaces the text on stderr; stdout is the output.
        done = queue_run(["/usr/bin/time", "-o", rss_file.name, "-f", "%M", ddtime, *operands,
                          f"--iodepth={depth}", f"--engine={engine}", "--json"])
        rss = int(rss_file.read().split()[-1])
    report = json.loads(done.stderr)
    records = report["records_in"]["full"] + report["records_in"]["partial"]
    cpu = report["times"]["user"] + report["times"]["sys"]
    return report["rates"]["bytes_per_second"], cpu / max(records, 1), rss


def fio_queued(device: str, rw: str, bs: int, depth: int, size: int) -> Tuple[float, float]:
    done = queue_run(["fio", "--name=q", f"--filename={device}", f"--rw={rw}", f"--bs={bs}", "--direct=1",
                      "--ioengine=io_uring", f"--iodepth={depth}", f"--size={size}", "--output-format=json"])
    job = json.loads(done.stdout)["jobs"][0]
    side = job["read" if rw == "read" else "write"]
    seconds = job["job_runtime"] / 1000
    cpu = (job["usr_cpu"] + job["sys_cpu"]) / 100 * seconds
    return float(side["bw_bytes"]), cpu / max(side["total_ios"], 1)


def gnu_queued(gnu: str, operands: Sequence[str]) -> float:
    done = queue_run([gnu, *operands])
    match = re.search(r"^(\d+) bytes .* copied, ([0-9.e+-]+) s", done.stderr, re.M)
    if not match:
        raise RuntimeError(f"no summary from GNU dd:\n{done.stderr}")
    return int(match.group(1)) / float(match.group(2))


def rate_ratio_text(a: Sequence[float], b: Sequence[float]) -> str:
    """The median of per-round rate ratios a/b with its 95% interval; above
    1 means a moved the bytes faster."""
    ratios = [x / y for x, y in zip(a, b) if y > 0]
    middle = statistics.median(ratios)
    if len(ratios) < 6:
        return f"{middle:.3f} (too few rounds for an interval)"
    low, high = median_interval(ratios)
    word = "faster" if low > 1 else "slower" if high < 1 else "same within noise"
    return f"{middle:.3f} [{low:.3f}–{high:.3f}] {word}"


def rotated(names: Sequence[str], round_number: int) -> List[str]:
    k = round_number % len(names)
    return list(names[k:]) + list(names[:k])


@contextlib.contextmanager
def direct_loop_device(args: argparse.Namespace, prefix: str):
    """A loop device with --direct-io=on over a file of random bytes in
    args.tmpdir, queue_mib MiB long; detached and removed afterwards."""
    workdir = Path(tempfile.mkdtemp(prefix=prefix, dir=args.tmpdir))
    backing = workdir / "disk.img"
    queue_run([args.gnu, "if=/dev/urandom", f"of={backing}", "bs=1M", f"count={args.queue_mib}", "status=none"])
    device = queue_run(["losetup", "--find", "--show", "--direct-io=on", str(backing)]).stdout.strip()
    try:
        yield device
    finally:
        subprocess.run(["losetup", "-d", device])
        backing.unlink(missing_ok=True)
        workdir.rmdir()


def queue_depth_rows(args: argparse.Namespace) -> List[str]:
    """The issue's rows as markdown, measured in rotated rounds."""
    size = args.queue_mib * MiB
    lines: List[str] = []
    with direct_loop_device(args, "ddtime-qd-") as device:
        lines.append(f"{args.runs} rounds, {args.queue_mib} MiB per run, rotated order; loop device with "
                     f"--direct-io=on on {args.tmpdir} ({filesystem_type(Path(args.tmpdir))})")
        lines.append("")
        lines.append("| row | ddtime (own rate) | fio (bw) | ddtime/fio rate, paired [95% CI] | GNU dd "
                     "| ddtime/GNU rate, paired [95% CI] | CPU per I/O ddtime / fio |")
        lines.append("|---|---:|---:|---|---:|---|---:|")
        cases = [("read", 4096, 1), ("read", 4096, 4), ("read", 4096, 32), ("read", 65536, 8),
                 ("read", MiB, 4), ("write", 65536, 8)]
        for rw, bs, depth in cases:
            if args.only and not re.search(args.only, f"queue {rw} bs={bs} depth {depth}", re.I):
                continue
            if rw == "read":
                operands = [f"if={device}", "of=/dev/null", f"bs={bs}", "iflag=direct", f"count={size // bs}"]
            else:
                operands = ["if=/dev/zero", f"of={device}", f"bs={bs}", "oflag=direct", f"count={size // bs}"]
            rates: Dict[str, List[float]] = {"ddtime": [], "fio": [], "GNU": []}
            cpu: Dict[str, List[float]] = {"ddtime": [], "fio": []}
            for round_number in range(args.runs):
                for program in rotated(["ddtime", "fio", "GNU"], round_number):
                    if program == "ddtime":
                        rate, per_io, _ = ddtime_queued(args.ddtime, operands, depth)
                    elif program == "fio":
                        rate, per_io = fio_queued(device, rw, bs, depth, size)
                    else:
                        rate, per_io = gnu_queued(args.gnu, operands), None
                    rates[program].append(rate)
                    if per_io is not None:
                        cpu[program].append(per_io)
            lines.append(f"| {rw} bs={bs_text(bs)} depth {depth} | {statistics.median(rates['ddtime']) / MiB:.1f} MiB/s "
                         f"| {statistics.median(rates['fio']) / MiB:.1f} MiB/s | {rate_ratio_text(rates['ddtime'], rates['fio'])} "
                         f"| {statistics.median(rates['GNU']) / MiB:.1f} MiB/s | {rate_ratio_text(rates['ddtime'], rates['GNU'])} "
                         f"| {statistics.median(cpu['ddtime']) * 1e6:.2f} / {statistics.median(cpu['fio']) * 1e6:.2f} µs |")
            log(lines[-1])
    lines += [""] + queue_copy_rows(args) + [""] + queue_rss_rows(args)
    return lines


# Random access (issue 21): --random's 4k O_DIRECT reads of a direct-I/O
# loop device against fio's randread over the same range, fio at its best
# with io_uring (registered buffers and file, batched submit and reap).
# IOPS are each program's own: ddtime's records over its real time, fio's
# iops.


def fio_random_iops(device: str, bs: int, depth: int, size: int) -> float:
    batch = [f"--iodepth_batch_submit={depth}", f"--iodepth_batch_complete_min=1",
             f"--iodepth_batch_complete_max={depth}"] if depth > 1 else []
    done = queue_run(["fio", "--name=r", f"--filename={device}", "--rw=randread", f"--bs={bs}", "--direct=1",
                      "--ioengine=io_uring", "--fixedbufs", "--registerfiles", f"--iodepth={depth}", *batch,
                      f"--size={size}", "--randrepeat=0", "--output-format=json"])
    return float(json.loads(done.stdout)["jobs"][0]["read"]["iops"])


def ddtime_random_iops(ddtime: str, device: str, bs: int, depth: int, size: int) -> float:
    done = queue_run([ddtime, f"if={device}", "of=/dev/null", f"bs={bs}", "iflag=direct", f"count={size // bs}",
                      "--random", f"--iodepth={depth}", "--engine=io_uring", "--json"])
    report = json.loads(done.stderr)
    records = report["records_in"]["full"] + report["records_in"]["partial"]
    return records / report["times"]["real"]


def random_access_rows(args: argparse.Namespace) -> List[str]:
    """--random against fio's randread, paired rounds in rotated order."""
    size = args.queue_mib * MiB
    lines = [f"{args.runs} rounds, random 4k reads over {args.queue_mib} MiB, rotated order; loop device with "
             f"--direct-io=on on {args.tmpdir} ({filesystem_type(Path(args.tmpdir))})", "",
             "| row | ddtime IOPS | fio IOPS | ddtime/fio, paired [95% CI] |", "|---|---:|---:|---|"]
    with direct_loop_device(args, "ddtime-random-") as device:
        for depth in (1, 32):
            iops: Dict[str, List[float]] = {"ddtime": [], "fio": []}
            for round_number in range(args.runs):
                for program in rotated(["ddtime", "fio"], round_number):
                    if program == "ddtime":
                        iops["ddtime"].append(ddtime_random_iops(args.ddtime, device, 4096, depth, size))
                    else:
                        iops["fio"].append(fio_random_iops(device, 4096, depth, size))
            lines.append(f"| randread bs=4k depth {depth} | {statistics.median(iops['ddtime']):.0f} "
                         f"| {statistics.median(iops['fio']):.0f} | {rate_ratio_text(iops['ddtime'], iops['fio'])} |")
            log(lines[-1])
    # The permutation alone, per record, from the build's own benchmark.
    cost = Path(args.ddtime).resolve().parent / "tests" / "bench_block_order"
    if cost.exists():
        lines += ["", "permutation cost (block_of per record, fastest of 5 rounds):", ""]
        lines += [f"- {line}" for line in queue_run([str(cost)]).stdout.splitlines()]
    else:
        lines += ["", f"(no {cost}: build the tests to measure the permutation's cost)"]
    return lines


PROFILE_TEST = re.compile(r"^(SEQ|RND)(\d+)([KM]) Q(\d+)T(\d+)$")


def fio_profile_rate(device: str, test: str, side: str, size_mib: int, seconds: int) -> float:
    """One of KDiskMark's fio command lines (helper.cpp 219-237) for a
    profile test: libaio, O_DIRECT, stop at the runtime or the size."""
    kind, number, unit, depth, jobs = PROFILE_TEST.match(test).groups()
    kib = int(number) * (1024 if unit == "M" else 1)
    rw = ("rand" if kind == "RND" else "") + side
    done = queue_run(["fio", "--output-format=json", "--ioengine=libaio", "--randrepeat=0", "--refill_buffers=0",
                      "--end_fsync=1", "--direct=1", "--rwmixread=70", f"--filename={device}", f"--name={rw}",
                      f"--size={size_mib}m", "--zero_buffers=0", f"--bs={kib}k", f"--runtime={seconds}",
                      f"--rw={rw}", f"--iodepth={depth}", f"--numjobs={jobs}", "--group_reporting"])
    return float(json.loads(done.stdout)["jobs"][0][side]["bw_bytes"])


def profile_rows(args: argparse.Namespace) -> List[str]:
    """--profile=diskmark's rows against fio running the same test with
    KDiskMark's command line on the same loop device, paired rounds in
    rotated order (one run of each test per round)."""
    seconds = 1
    lines = [f"{args.runs} rounds, {seconds} s a test, rotated order; loop device with --direct-io=on, "
             f"{args.queue_mib} MiB, on {args.tmpdir} ({filesystem_type(Path(args.tmpdir))})", "",
             "| test | side | ddtime MB/s | fio MB/s (KDiskMark's command) | ddtime/fio, paired [95% CI] |",
             "|---|---|---:|---:|---|"]
    rates: Dict[Tuple[str, str], Dict[str, List[float]]] = {}
    with direct_loop_device(args, "ddtime-profile-") as device:
        for round_number in range(args.runs):
            for program in rotated(["ddtime", "fio"], round_number):
                if program == "ddtime":
                    done = queue_run([args.ddtime, "--profile=diskmark", f"of={device}", f"--time={seconds}s",
                                      "--repeat=1", "--warmup=0", "--pause=0", "--force", "--json"])
                    for row in json.loads(done.stderr)["rows"]:
                        rates.setdefault((row["test"], row["side"]), {"ddtime": [], "fio": []})["ddtime"].append(
                            float(row["median_bytes_per_second"]))
                    continue
                for (test, side), measured in rates.items() if rates else []:
                    measured["fio"].append(fio_profile_rate(device, test, side, args.queue_mib, seconds))
                if not rates:
                    # fio went first: the tests are diskmark's, known by name.
                    for side in ("read", "write"):
                        for test in ("SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"):
                            rates.setdefault((test, side), {"ddtime": [], "fio": []})["fio"].append(
                                fio_profile_rate(device, test, side, args.queue_mib, seconds))
    for (test, side), measured in rates.items():
        lines.append(f"| {test} | {side} | {statistics.median(measured['ddtime']) / 1e6:.1f} "
                     f"| {statistics.median(measured['fio']) / 1e6:.1f} "
                     f"| {rate_ratio_text(measured['ddtime'], measured['fio'])} |")
        log(lines[-1])
    return lines


# zram (issue 28, P1-P3): a RAM-backed block device, where the engine, not
# the medium, sets the pace. 4k O_DIRECT reads in turn and --random at depth
# 1 and 32, and --profile=diskmark's read rows, each against the best of
# fio's psync (depth 1 only: one I/O at a time), libaio and io_uring tuned
# (registered buffers and file, batched submit and reap, no SQ thread) at
# the same depth, over the same time. Paired rounds, rotated order; the
# ratio is ddtime over the round's best fio engine.

ZRAM = Path("/sys/block/zram0")


@contextlib.contextmanager
def zram_device(args: argparse.Namespace):
    """/dev/zram0 at 1 GiB, filled with random bytes (zram keeps them
    whole: nothing to compress); reset afterwards. None when the kernel has
    no zram or the device is in use."""
    if not ZRAM.exists():
        subprocess.run(["modprobe", "zram"], capture_output=True)
    if not ZRAM.exists():
        yield None
        return
    if (ZRAM / "disksize").read_text().strip() != "0":
        yield None
        return
    (ZRAM / "disksize").write_text("1G\n")
    try:
        queue_run([args.gnu, "if=/dev/urandom", "of=/dev/zram0", "bs=1M", "count=1024", "iflag=fullblock",
                   "oflag=direct", "status=none"])
        yield "/dev/zram0"
    finally:
        # udev may still hold the device a moment after the last run.
        for _ in range(50):
            try:
                (ZRAM / "reset").write_text("1\n")
                break
            except OSError:
                time.sleep(0.1)


def fio_engine_rate(device: str, rw: str, bs: int, depth: int, engine: str, seconds: float, size: int) -> float:
    """fio's own bytes per second for one engine, read-only, time-based."""
    tuned = []
    if engine == "io_uring":
        tuned = ["--fixedbufs", "--registerfiles", "--sqthread_poll=0"]
    if depth > 1:
        tuned += [f"--iodepth_batch_submit={depth}", "--iodepth_batch_complete_min=1",
                  f"--iodepth_batch_complete_max={depth}"]
    done = queue_run(["fio", "--name=z", f"--filename={device}", "--readonly", f"--rw={rw}", f"--bs={bs}",
                      "--direct=1", f"--ioengine={engine}", f"--iodepth={depth}", *tuned, f"--size={size}",
                      "--randrepeat=0", "--time_based", f"--runtime={int(seconds * 1000)}ms",
                      "--output-format=json"])
    return float(json.loads(done.stdout)["jobs"][0]["read"]["bw_bytes"])


def fio_mix_iops(device: str, percent: int, bs: int, depth: int, engine: str, seconds: float, size: int) -> float:
    """fio's rw=randrw,rwmixread=PERCENT: its reads' and writes' I/Os per
    second together, time-based."""
    tuned = []
    if engine == "io_uring":
        tuned = ["--fixedbufs", "--registerfiles", "--sqthread_poll=0"]
    if depth > 1:
        tuned += [f"--iodepth_batch_submit={depth}", "--iodepth_batch_complete_min=1",
                  f"--iodepth_batch_complete_max={depth}"]
    done = queue_run(["fio", "--name=m", f"--filename={device}", "--rw=randrw", f"--rwmixread={percent}",
                      f"--bs={bs}", "--direct=1", f"--ioengine={engine}", f"--iodepth={depth}", *tuned,
                      f"--size={size}", "--randrepeat=0", "--time_based", f"--runtime={int(seconds * 1000)}ms",
                      "--output-format=json"])
    job = json.loads(done.stdout)["jobs"][0]
    return float(job["read"]["iops"]) + float(job["write"]["iops"])


def zram_mix_rows(args: argparse.Namespace, device: str, seconds: float, size: int) -> List[str]:
    """--mix=70 --random against fio's randrw,rwmixread=70 at its best
    engine for the depth: total I/Os per second, paired rounds."""
    lines: List[str] = []
    for depth in (1, 32):
        name = f"zram mix 70% randrw bs=4k depth {depth}"
        if args.only and not re.search(args.only, name, re.I):
            continue
        ours: List[float] = []
        best: List[float] = []
        winners: List[str] = []
        engine_ran = "sync"
        operands = ["--mix=70", f"of={device}", "bs=4k", "oflag=direct", "--random", f"--time={seconds:g}s",
                    f"--iodepth={depth}", "--force", "--json"]
        for round_number in range(args.runs):
            fio_iops: Dict[str, float] = {}
            for program in rotated(["ddtime"] + fio_best_engines(depth), round_number):
                if program == "ddtime":
                    report = json.loads(queue_run([args.ddtime, *operands]).stderr)
                    run = report["runs"][0] if "runs" in report else report
                    ours.append(float(run["mix"]["total"]["iops"]))
                    engine_ran = run.get("engine", {}).get("name", "sync")
                else:
                    fio_iops[program] = fio_mix_iops(device, 70, 4096, depth, program, seconds, size)
            winner = max(fio_iops, key=fio_iops.get)
            best.append(fio_iops[winner])
            winners.append(winner)
        lines.append(f"| {name} (IOPS) | {statistics.median(ours):.0f} ({engine_ran}) "
                     f"| {statistics.median(best):.0f} ({max(set(winners), key=winners.count)}) "
                     f"| {rate_ratio_text(ours, best)} |")
        log(lines[-1])
    return lines


def zram_capacity_rows(args: argparse.Namespace, device: str) -> List[str]:
    """--capacity=full over the 1 GiB device against what it replaces: a
    stamp write of every block plus --verify (a write, a read-back pass
    and the comparison, the same three passes), bs=1M with O_DIRECT; each
    one's speed is the device's bytes over its wall time, paired rounds.
    The ratio is full's speed over the pair's: 1 means the same time."""
    name = "zram --capacity=full bs=1M vs a stamp write + --verify"
    if args.only and not re.search(args.only, name, re.I):
        return []
    commands = {
        "full": [args.ddtime, "--capacity=full", f"of={device}", "--force", "--json"],
        "write+verify": [args.ddtime, f"of={device}", "bs=1M", f"count={GiB // MiB}", "--pattern=stamp", "oflag=direct", "--verify",
                         "--force", "--json"],
    }
    speeds: Dict[str, List[float]] = {key: [] for key in commands}
    for round_number in range(args.runs):
        for key in rotated(list(commands), round_number):
            start = time.monotonic()
            queue_run(commands[key])
            speeds[key].append(GiB / (time.monotonic() - start))
    line = (f"| {name} (whole command, MB/s of the device) | {statistics.median(speeds['full']) / 1e6:.1f} "
            f"| {statistics.median(speeds['write+verify']) / 1e6:.1f} (ddtime write + --verify) "
            f"| {rate_ratio_text(speeds['full'], speeds['write+verify'])} |")
    log(line)
    return [line]


def fio_best_engines(depth: int) -> List[str]:
    return (["psync"] if depth == 1 else []) + ["libaio", "io_uring"]


def zram_rows(args: argparse.Namespace) -> List[str]:
    seconds = 1.0
    size = 1 * GiB
    lines: List[str] = []
    with zram_device(args) as device:
        if device is None:
            return ["zram rows skipped: no /sys/block/zram0 (modprobe zram) or it is in use (disksize not 0)"]
        load = os.getloadavg()
        lines += [f"{args.runs} rounds, {seconds:g} s a run, rotated order; /dev/zram0, 1 GiB of random bytes; "
                  f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} CPUs", "",
                  "| row | ddtime MB/s (engine) | best fio MB/s (engine, most rounds) | ddtime/best fio, paired [95% CI] |",
                  "|---|---:|---:|---|"]
        engines_ran: Dict[str, str] = {}
        # The default engine for the depth against fio's best, then
        # --engine=libaio against fio's libaio alone, beside io_uring's row.
        for rw, depth, engine in (("randread", 1, None), ("randread", 32, None), ("read", 1, None),
                                  ("read", 32, None), ("randread", 32, "libaio"), ("read", 32, "libaio")):
            name = f"zram {rw} bs=4k depth {depth}" + (f" --engine={engine}" if engine else "")
            if args.only and not re.search(args.only, name, re.I):
                continue
            ours: List[float] = []
            best: List[float] = []
            winners: List[str] = []
            operands = ["if=/dev/zram0", "of=/dev/null", "bs=4k", "iflag=direct", f"--time={seconds:g}s",
                        f"--iodepth={depth}", "--json"] + (["--random"] if rw == "randread" else [])
            if engine:
                operands.append(f"--engine={engine}")
            for round_number in range(args.runs):
                fio_rates: Dict[str, float] = {}
                for program in rotated(["ddtime"] + ([engine] if engine else fio_best_engines(depth)), round_number):
                    if program == "ddtime":
                        report = json.loads(queue_run([args.ddtime, *operands]).stderr)
                        ours.append(float(report["rates"]["bytes_per_second"]))
                        engines_ran[name] = report.get("engine", {}).get("name", "sync")
                    else:
                        fio_rates[program] = fio_engine_rate(device, rw, 4096, depth, program, seconds, size)
                winner = max(fio_rates, key=fio_rates.get)
                best.append(fio_rates[winner])
                winners.append(winner)
            lines.append(f"| {name} | {statistics.median(ours) / 1e6:.1f} ({engines_ran[name]}) "
                         f"| {statistics.median(best) / 1e6:.1f} ({max(set(winners), key=winners.count)}) "
                         f"| {rate_ratio_text(ours, best)} |")
            log(lines[-1])
        lines += zram_mix_rows(args, device, seconds, size)
        # --profile=diskmark's read rows, one profile run a round.
        tests = ("SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1")
        if not args.only or any(re.search(args.only, f"zram diskmark {t}", re.I) for t in tests):
            ours_by: Dict[str, List[float]] = {t: [] for t in tests}
            best_by: Dict[str, List[float]] = {t: [] for t in tests}
            winners_by: Dict[str, List[str]] = {t: [] for t in tests}
            for round_number in range(args.runs):
                for program in rotated(["ddtime", "fio"], round_number):
                    if program == "ddtime":
                        done = queue_run([args.ddtime, "--profile=diskmark", "if=/dev/zram0", "--size=1G",
                                          f"--time={seconds:g}s", "--repeat=1", "--warmup=0", "--pause=0", "--json"])
                        for row in json.loads(done.stderr)["rows"]:
                            if row["test"] in ours_by and row["side"] == "read":
                                ours_by[row["test"]].append(float(row["median_bytes_per_second"]))
                        continue
                    for test in tests:
                        kind, number, unit, depth, _ = PROFILE_TEST.match(test).groups()
                        bs = int(number) * (MiB if unit == "M" else KiB)
                        rw = "randread" if kind == "RND" else "read"
                        rates = {engine: fio_engine_rate(device, rw, bs, int(depth), engine, seconds, size)
                                 for engine in fio_best_engines(int(depth))}
                        winner = max(rates, key=rates.get)
                        best_by[test].append(rates[winner])
                        winners_by[test].append(winner)
            for test in tests:
                winners = winners_by[test]
                lines.append(f"| zram diskmark {test} read | {statistics.median(ours_by[test]) / 1e6:.1f} "
                             f"| {statistics.median(best_by[test]) / 1e6:.1f} ({max(set(winners), key=winners.count)}) "
                             f"| {rate_ratio_text(ours_by[test], best_by[test])} |")
                log(lines[-1])
        # Last: it leaves stamps on the device, where the rows above read
        # random bytes.
        lines += zram_capacity_rows(args, device)
    return lines


# SIGINT (issue 28, A5): from the signal to the process's end, in the
# shapes that were slowest (many busy jobs on few CPUs), goal 100 ms.
# A shape marked unprivileged runs as nobody under an 8 MiB RLIMIT_MEMLOCK,
# as a user's shell has it: the rings fill the limit, no SCHED_FIFO.
UNPRIVILEGED = " (unprivileged)"
SIGINT_SHAPES = ("bs=4k --jobs=64 --iodepth=1024 --engine=io_uring", "bs=4k --jobs=64 --iodepth=16",
                 "bs=1M --jobs=8 --iodepth=64 --engine=threads", "bs=4k --jobs=4 --iodepth=32 --latency --timeline",
                 "bs=4k --iodepth=1024 --engine=threads", "bs=4k --jobs=2 --iodepth=8 --latency",
                 "bs=4k --jobs=64 --iodepth=1024" + UNPRIVILEGED)


def sigint_rows(args: argparse.Namespace) -> List[str]:
    load = os.getloadavg()
    lines = [f"{args.runs} runs a shape: if=/dev/zero of=/dev/null --time=30s, SIGINT after 1 s; load average "
             f"{load[0]:.2f} on {os.cpu_count()} CPUs", "",
             "| shape | median ms to exit | max ms | exit by the signal | goal 100 ms |", "|---|---:|---:|---|---|"]
    for shape in SIGINT_SHAPES:
        if args.only and not re.search(args.only, shape):
            continue
        took: List[float] = []
        by_signal = True
        operands = shape.removesuffix(UNPRIVILEGED).split()
        prefix: List[str] = []
        if shape.endswith(UNPRIVILEGED):
            if os.geteuid() != 0 or not shutil.which("setpriv") or not shutil.which("prlimit"):
                log(f"sigint: skipped '{shape}': needs root, setpriv and prlimit to become nobody")
                continue
            # prlimit and setpriv each exec the next: the pid is ddtime's.
            prefix = ["prlimit", "--memlock=8388608:8388608", "setpriv", "--reuid=65534", "--regid=65534",
                      "--clear-groups"]
        for _ in range(args.runs):
            process = subprocess.Popen([*prefix, args.ddtime, "if=/dev/zero", "of=/dev/null", "--time=30s", *operands],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            time.sleep(1.0)
            sent = time.monotonic()
            process.send_signal(signal.SIGINT)
            process.communicate()
            took.append(1000 * (time.monotonic() - sent))
            by_signal = by_signal and process.returncode == -signal.SIGINT
        median = statistics.median(took)
        lines.append(f"| {shape} | {median:.0f} | {max(took):.0f} | {'yes' if by_signal else 'NO'} | "
                     f"{'met' if median <= 100 and by_signal else 'MISSED'} |")
        log(lines[-1])
    return lines


def queue_copy_rows(args: argparse.Namespace) -> List[str]:
    """An O_DIRECT file-to-file copy on the machine's file system, ddtime at
    depth 4 against GNU dd; the outputs must be identical. Each round also
    times ddtime reading the file alone and writing a file alone at the
    same depth: where the disk does not add reads and writes up, a copy
    can go no faster than 1 / (1/read + 1/write) of those rates, the
    bound the copy is compared with."""
    size = args.queue_mib * MiB
    workdir = Path(tempfile.mkdtemp(prefix="ddtime-qc-", dir=args.tmpdir))
    source = workdir / "in"
    queue_run([args.gnu, "if=/dev/urandom", f"of={source}", "bs=1M", f"count={args.queue_mib}", "status=none"])
    lines = ["| O_DIRECT file-to-file copy | ddtime depth 4 | GNU dd | ddtime/GNU rate, paired [95% CI] "
             "| ddtime alone at depth 4: read, write | their bound for a copy | ddtime copy / bound, paired |",
             "|---|---:|---:|---|---:|---:|---|"]
    try:
        # From latency-bound small blocks, where overlapping reads and
        # writes pays most, to 1M, where the disk's bandwidth is the limit
        # for both programs; the small ones copy less, to keep a run short.
        for bs in (4096, 16384, 65536, MiB):
            if args.only and not re.search(args.only, f"queue copy bs={bs}", re.I):
                continue
            copied = min(size, bs * 8192)
            count = f"count={copied // bs}"
            rates: Dict[str, List[float]] = {"ddtime": [], "GNU": [], "read": [], "write": []}
            for round_number in range(args.runs):
                for program in rotated(["ddtime", "GNU", "read", "write"], round_number):
                    target = workdir / program
                    target.unlink(missing_ok=True)
                    operands = [f"if={source}", f"of={target}", f"bs={bs}", count, "iflag=direct", "oflag=direct"]
                    if program == "ddtime":
                        rates[program].append(ddtime_queued(args.ddtime, operands, 4)[0])
                    elif program == "GNU":
                        rates[program].append(gnu_queued(args.gnu, operands))
                    elif program == "read":
                        rates[program].append(ddtime_queued(
                            args.ddtime, [f"if={source}", "of=/dev/null", f"bs={bs}", count, "iflag=direct"], 4)[0])
                    else:
                        rates[program].append(ddtime_queued(
                            args.ddtime, ["if=/dev/zero", f"of={target}", f"bs={bs}", count, "oflag=direct"], 4)[0])
                if not filecmp.cmp(workdir / "ddtime", workdir / "GNU", shallow=False):
                    raise RuntimeError(f"the O_DIRECT copies at bs={bs} differ")
            bounds = [1 / (1 / r + 1 / w) for r, w in zip(rates["read"], rates["write"])]
            lines.append(f"| bs={bs_text(bs)}, {copied // MiB} MiB | {statistics.median(rates['ddtime']) / MiB:.1f} MiB/s "
                         f"| {statistics.median(rates['GNU']) / MiB:.1f} MiB/s | {rate_ratio_text(rates['ddtime'], rates['GNU'])} "
                         f"| {statistics.median(rates['read']) / MiB:.1f}, {statistics.median(rates['write']) / MiB:.1f} MiB/s "
                         f"| {statistics.median(bounds) / MiB:.1f} MiB/s | {rate_ratio_text(rates['ddtime'], bounds)} |")
            log(lines[-1])
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return lines


def queue_rss_rows(args: argparse.Namespace) -> List[str]:
    """Peak RSS of /dev/zero -> /dev/null at bs=1M against the issue's
    bound of depth x bs + 2 MiB, per engine and depth, and the rate at depth
    against the sync engine's (io_uring does not speed this copy up)."""
    lines = ["| /dev/zero → /dev/null, bs=1M, 4 GiB, LC_ALL=C | engine | peak RSS (median) | bound depth × bs + 2 MiB "
             "| rate | rate / sync engine's, paired [95% CI] |",
             "|---|---|---:|---:|---:|---|"]
    operands = ["if=/dev/zero", "of=/dev/null", "bs=1M", "count=4096"]
    for engine, depth in (("io_uring", 8), ("io_uring", 32), ("threads", 8), ("threads", 32)):
        if args.only and not re.search(args.only, f"queue rss {engine} depth {depth}", re.I):
            continue
        rates: Dict[str, List[float]] = {"queued": [], "sync": []}
        peaks: List[int] = []
        for round_number in range(args.runs):
            for which in rotated(["queued", "sync"], round_number):
                if which == "queued":
                    rate, _, rss = ddtime_queued(args.ddtime, operands, depth, engine)
                    peaks.append(rss)
                else:
                    rate = ddtime_queued(args.ddtime, operands, 1, "sync")[0]
                rates[which].append(rate)
        bound = depth * 1024 + 2048
        peak = int(statistics.median(peaks))
        lines.append(f"| depth {depth} | {engine} | {peak} KiB | {bound} KiB ({'within' if peak <= bound else 'OVER'}) "
                     f"| {statistics.median(rates['queued']) / GiB:.1f} GiB/s | {rate_ratio_text(rates['queued'], rates['sync'])} |")
        log(lines[-1])
    return lines


# ---------------------------------------------------------------------------
# Benchmark sessions (issue 13): what a session of runs costs against as
# many separate runs, the --pattern=random generator's own rate, and what
# --cache=cold and warm do to a file read.


def wall(argv: Sequence[str]) -> float:
    started = time.perf_counter()
    queue_run(argv)
    return time.perf_counter() - started


def session_rows(args: argparse.Namespace) -> List[str]:
    lines: List[str] = []
    runs = 20
    copy = ["if=/dev/zero", "of=/dev/null", "bs=64k", "count=1000"]
    together: List[float] = []
    apart: List[float] = []
    for round_number in range(args.runs):
        for which in rotated(["session", "separate"], round_number):
            if which == "session":
                together.append(wall([args.ddtime, *copy, f"--repeat={runs}"]))
            else:
                started = time.perf_counter()
                for _ in range(runs):
                    queue_run([args.ddtime, *copy])
                apart.append(time.perf_counter() - started)
    lines.append("| session cost | median wall time | |")
    lines.append("|---|---:|---|")
    lines.append(f"| `--repeat={runs}` of zero→null bs=64k count=1000 | {statistics.median(together) * 1e3:.1f} ms | |")
    lines.append(f"| {runs} separate ddtime runs of it | {statistics.median(apart) * 1e3:.1f} ms | |")
    ratios = [a / b for a, b in zip(together, apart)]
    low, high = median_interval(ratios) if len(ratios) >= 6 else (min(ratios), max(ratios))
    lines.append(f"| session / separate, paired | {statistics.median(ratios):.3f} [{low:.3f}–{high:.3f}] | "
                 f"{'cheaper' if high < 1 else 'dearer' if low > 1 else 'same within noise'} |")
    log(lines[-1])

    rates: List[float] = []
    copied: List[float] = []
    for _ in range(args.runs):
        done = queue_run([args.ddtime, "of=/dev/null", "bs=1M", "count=2048", "--pattern=random", "--json"])
        doc = json.loads(done.stderr)
        rates.append(doc["plan"]["pattern"]["generator_bytes_per_second"])
        copied.append(doc["runs"][0]["rates"]["bytes_per_second"])
    lines += ["", "| --pattern=random | median | min–max |", "|---|---:|---:|",
              f"| generator, one core | {statistics.median(rates) / 1e9:.2f} GB/s | "
              f"{min(rates) / 1e9:.2f}–{max(rates) / 1e9:.2f} GB/s |",
              f"| copy to /dev/null, bs=1M | {statistics.median(copied) / 1e9:.2f} GB/s | "
              f"{min(copied) / 1e9:.2f}–{max(copied) / 1e9:.2f} GB/s |"]
    log(lines[-2])

    workdir = Path(tempfile.mkdtemp(prefix="ddtime-cache-", dir=args.tmpdir))
    try:
        target = workdir / "file"
        first: List[float] = []
        warm: List[float] = []
        cold: List[float] = []
        read = [args.ddtime, f"if={target}", "of=/dev/null", "bs=1M", "--json"]
        for _ in range(args.runs):
            # Written with O_DIRECT, so that nothing of it is cached: the
            # next read is a first read.
            target.unlink(missing_ok=True)
            queue_run([args.ddtime, "of=" + str(target), "bs=1M", f"count={args.queue_mib}", "--pattern=random",
                       "oflag=direct", "conv=fsync"])
            first.append(json.loads(queue_run(read + ["--cache=as-is"]).stderr)["runs"][0]["rates"]["bytes_per_second"])
            warm.append(json.loads(queue_run(read + ["--cache=warm"]).stderr)["runs"][0]["rates"]["bytes_per_second"])
            cold.append(json.loads(queue_run(read + ["--cache=cold"]).stderr)["runs"][0]["rates"]["bytes_per_second"])
        lines += ["", f"| read of a {args.queue_mib} MiB file, bs=1M ({filesystem_type(Path(args.tmpdir))}) "
                      "| median rate | min–max |", "|---|---:|---:|"]
        for name, values in (("first read (written with O_DIRECT)", first), ("--cache=warm", warm),
                             ("--cache=cold", cold)):
            lines.append(f"| {name} | {statistics.median(values) / MiB:.1f} MiB/s | "
                         f"{min(values) / MiB:.1f}–{max(values) / MiB:.1f} MiB/s |")
        ratios = [c / f for c, f in zip(cold, first)]
        lines.append(f"| cold / first, paired | {statistics.median(ratios):.3f} | "
                     f"{min(ratios):.3f}–{max(ratios):.3f} |")
        log(lines[-1])
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    return lines


# ---------------------------------------------------------------------------
# --latency's cost (issue 19's goals): each copy with and without it, in
# paired rounds, the whole process timed; at most 1.10 for the memory copy,
# 1.01 for a device.


def timed_process(argv: Sequence[str]) -> Tuple[float, dict]:
    """Wall seconds of a whole process, start to exit, and its JSON."""
    started = time.perf_counter()
    done = queue_run(argv)
    return time.perf_counter() - started, json.loads(done.stderr)


def latency_rows(args: argparse.Namespace) -> List[str]:
    """--latency's cost (issue 19): each copy with and without it in rotated
    rounds, the whole process timed from outside (start, copy, summary and
    exit), and the copy's own window from its JSON beside it."""
    lines = ["| copy | without --latency | with --latency | whole process with / without, paired [95% CI] "
             "| copy window with / without |",
             "|---|---:|---:|---|---|"]
    workdir = Path(tempfile.mkdtemp(prefix="ddtime-lat-", dir=args.tmpdir))
    cases = [("zero→null bs=4k, 300,000 records", ["if=/dev/zero", "of=/dev/null", "bs=4k", "count=300000"]),
             ("zero→null bs=64k, 65,536 records", ["if=/dev/zero", "of=/dev/null", "bs=64k", "count=65536"])]
    device = None
    if os.geteuid() == 0 and shutil.which("losetup"):
        backing = workdir / "disk.img"
        queue_run([args.gnu, "if=/dev/urandom", f"of={backing}", "bs=1M", "count=64", "status=none"])
        device = queue_run(["losetup", "--find", "--show", "--direct-io=on", str(backing)]).stdout.strip()
        cases.append(("4k O_DIRECT reads of a direct-I/O loop device, 64 MiB",
                      [f"if={device}", "of=/dev/null", "bs=4k", "iflag=direct"]))
    else:
        log("the loop-device row needs root and losetup; left out")
    try:
        for name, copy in cases:
            if args.only and not re.search(args.only, name, re.I):
                continue
            wall: Dict[str, List[float]] = {"plain": [], "latency": []}
            window: Dict[str, List[float]] = {"plain": [], "latency": []}
            for round_number in range(args.runs):
                for which in rotated(["plain", "latency"], round_number):
                    argv = [args.ddtime, *copy, "--json"] + (["--latency"] if which == "latency" else [])
                    seconds, report = timed_process(argv)
                    wall[which].append(seconds)
                    window[which].append(report["times"]["real"])
            ratios = [w / p for p, w in zip(wall["plain"], wall["latency"])]
            inside = [w / p for p, w in zip(window["plain"], window["latency"])]
            low, high = median_interval(ratios) if len(ratios) >= 6 else (min(ratios), max(ratios))
            lines.append(f"| {name} | {statistics.median(wall['plain']) * 1e3:.1f} ms "
                         f"| {statistics.median(wall['latency']) * 1e3:.1f} ms "
                         f"| {statistics.median(ratios):.3f} [{low:.3f}–{high:.3f}] "
                         f"| {statistics.median(inside):.3f} |")
            log(lines[-1])
    finally:
        if device:
            subprocess.run(["losetup", "-d", device])
        shutil.rmtree(workdir, ignore_errors=True)
    return lines


# ---------------------------------------------------------------------------
# Issue 21's time goals: --timeline costs at most 1% at bs=4k zero->null
# (the same copy with and without it, paired, its own window from the JSON
# and the whole process from outside), and --time=2s lasts 2 s within 1% by
# an outside clock (the whole process, start-up and exit included).


def timekeeping_rows(args: argparse.Namespace) -> List[str]:
    lines = ["| what | without | with | with / without, paired median [95% CI] |", "|---|---:|---:|---|"]
    copy = ["if=/dev/zero", "of=/dev/null", "bs=4k", "count=400000", "--json"]
    window: Dict[str, List[float]] = {"plain": [], "timeline": []}
    whole: Dict[str, List[float]] = {"plain": [], "timeline": []}
    for round_number in range(args.runs):
        for which in rotated(["plain", "timeline"], round_number):
            argv = [args.ddtime, *copy] + (["--timeline"] if which == "timeline" else [])
            seconds, report = timed_process(argv)
            whole[which].append(seconds)
            window[which].append(report["times"]["real"])
    for name, values in (("--timeline, the copy's window", window), ("--timeline, the whole process", whole)):
        ratios = [t / p for p, t in zip(values["plain"], values["timeline"])]
        low, high = median_interval(ratios) if len(ratios) >= 6 else (min(ratios), max(ratios))
        lines.append(f"| {name}, zero→null bs=4k, 400,000 records | {statistics.median(values['plain']) * 1e3:.1f} ms "
                     f"| {statistics.median(values['timeline']) * 1e3:.1f} ms "
                     f"| {statistics.median(ratios):.4f} [{low:.4f}–{high:.4f}] |")
        log(lines[-1])
    lines += ["", "| --time=2s, zero→null bs=4k | whole process (outside clock) | timed: line | outside / 2 s, "
              "median [range] |", "|---|---:|---:|---|"]
    outside: List[float] = []
    inside: List[float] = []
    for _ in range(max(3, args.runs // 2)):
        seconds, report = timed_process([args.ddtime, "if=/dev/zero", "of=/dev/null", "bs=4k", "--time=2s", "--json"])
        outside.append(seconds)
        inside.append(report["times"]["copy"])
    ratios = [o / 2.0 for o in outside]
    lines.append(f"| {len(outside)} runs | {statistics.median(outside):.4f} s | {statistics.median(inside):.4f} s "
                 f"| {statistics.median(ratios):.4f} [{min(ratios):.4f}–{max(ratios):.4f}] |")
    log(lines[-1])
    return lines


def jobs_rows(args: argparse.Namespace) -> List[str]:
    """--jobs=2 against --jobs=1 on CPU-bound copies (memory to memory, every
    read and write a real system call), paired: each round runs both, in
    turn, so a busy moment of the machine falls on both."""
    lines = ["| workload | --jobs=1 | --jobs=2 | jobs=2 / jobs=1 rate, paired median [95% CI] | submitters busy "
             "(jobs=2) | CPU per I/O (1, 2) |", "|---|---:|---:|---|---:|---:|"]
    workloads = [("zero→null bs=4k, 400,000 records", ["if=/dev/zero", "of=/dev/null", "bs=4k", "count=400000"]),
                 ("zero→null bs=64k, 100,000 records", ["if=/dev/zero", "of=/dev/null", "bs=64k", "count=100000"])]
    for name, copy in workloads:
        rates: Dict[int, List[float]] = {1: [], 2: []}
        busy: List[float] = []
        cpu: Dict[int, List[float]] = {1: [], 2: []}
        for round_number in range(args.runs):
            for jobs in rotated([1, 2], round_number):
                _, report = timed_process([args.ddtime, *copy, f"--jobs={jobs}", "--engine=io_uring", "--json"])
                rates[jobs].append(report["bytes_out"] / report["times"]["real"])
                records = report["records_in"]["full"] + report["records_out"]["full"]
                cpu[jobs].append((report["times"]["user"] + report["times"]["sys"]) / max(1, records))
                if jobs == 2:
                    busy.append(float(report["engine"]["jobs"]["submitters_busy"]))
        ratios = [two / one for one, two in zip(rates[1], rates[2])]
        low, high = median_interval(ratios) if len(ratios) >= 6 else (min(ratios), max(ratios))
        lines.append(f"| {name} | {statistics.median(rates[1]) / 1e9:.2f} GB/s | {statistics.median(rates[2]) / 1e9:.2f} GB/s "
                     f"| {statistics.median(ratios):.3f} [{low:.3f}–{high:.3f}] | {statistics.median(busy) * 100:.0f}% "
                     f"| {statistics.median(cpu[1]) * 1e6:.2f} µs, {statistics.median(cpu[2]) * 1e6:.2f} µs |")
        log(lines[-1])
    return lines


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--smoke", action="store_true",
                        help="tiny sizes, one run each, no loop device, no valgrind (for CI)")
    parser.add_argument("--runs", type=int, default=10, help="timed runs per program and row (default 10)")
    parser.add_argument("--startup-runs", type=int, default=300,
                        help="timed runs per program for the start-up rows (default 300)")
    parser.add_argument("--ddtime", default=str(REPO_ROOT / "build" / "release" / "ddtime"),
                        help="ddtime binary (default build/release/ddtime in the repository)")
    parser.add_argument("--gnu", default="/bin/dd", help="GNU dd binary (default /bin/dd)")
    parser.add_argument("--invoke-as", metavar="NAME",
                        help="run ddtime through a link with this name, e.g. 'dd' for the drop-in "
                             "mode that prints only what GNU dd prints (default: as given)")
    parser.add_argument("--only", metavar="PATTERN",
                        help="only rows whose name matches this regular expression (case-insensitive), "
                             "e.g. 'zero->null bs=', 'start-up', 'conv=', 'loop', 'rss', 'callgrind'")
    parser.add_argument("--tmpdir", default="/var/tmp",
                        help="where the test files go; a real filesystem, not tmpfs (default /var/tmp)")
    parser.add_argument("--file-mib", type=int, default=1024,
                        help="size of the file for the file, loop and conversion rows (default 1024)")
    parser.add_argument("--target-seconds", type=float, default=0.5,
                        help="calibrated rows run about this long per run (default 0.5)")
    parser.add_argument("--list", action="store_true", help="print the row names and exit")
    parser.add_argument("--queue-depth", action="store_true",
                        help="run the queue-depth rows instead (issue 12: --iodepth against fio and GNU dd on a "
                             "direct-I/O loop device, an O_DIRECT file copy, peak RSS); needs root and fio")
    parser.add_argument("--queue-mib", type=int, default=256, help="MiB moved per queue-depth run (default 256)")
    parser.add_argument("--random-access", action="store_true",
                        help="run the random-access rows instead (issue 21: --random's 4k O_DIRECT reads of a "
                             "direct-I/O loop device against fio randread with io_uring at depth 1 and 32); "
                             "needs root and fio")
    parser.add_argument("--timekeeping", action="store_true",
                        help="run issue 21's time rows instead: --timeline's cost at bs=4k zero->null, paired, and "
                             "how long --time=2s lasts by an outside clock")
    parser.add_argument("--profile", action="store_true",
                        help="run issue 22's --profile rows instead: --profile=diskmark's tests against fio with "
                             "KDiskMark's command lines on a direct-I/O loop device, paired; needs root and fio")
    parser.add_argument("--zram", action="store_true",
                        help="run issue 28's zram rows instead: 4k O_DIRECT reads in turn and --random at depth 1 and "
                             "32, and --profile=diskmark's read rows, on /dev/zram0 against the best of fio's psync, "
                             "libaio and tuned io_uring, paired; needs root, fio and a kernel with zram")
    parser.add_argument("--sigint", action="store_true",
                        help="run issue 28's SIGINT rows instead: milliseconds from SIGINT to the end of the process "
                             "for many jobs deep in flight, either engine (goal 100 ms)")
    parser.add_argument("--jobs", action="store_true",
                        help="run issue 22's --jobs rows instead: --jobs=2 against --jobs=1 on CPU-bound copies, "
                             "paired")
    parser.add_argument("--latency-cost", action="store_true",
                        help="run the --latency cost rows instead (issue 19: each copy with and without it, whole process)")
    parser.add_argument("--compare-documents", action="store_true",
                        help="run issue 28's --compare rows instead: two generated sessions of --document-runs "
                             "counted runs each, wall time and peak RSS of ddtime --compare")
    parser.add_argument("--document-runs", type=int, default=100000,
                        help="counted runs in each generated document (default 100000)")
    parser.add_argument("--sessions", action="store_true",
                        help="run the session rows instead (issue 13: --repeat against separate runs, the "
                             "--pattern=random generator, --cache=cold and warm reads of a file)")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.startup_runs < 1:
        parser.error("--runs and --startup-runs must be at least 1")
    return args


def generate_session(template: dict, runs: int, scale: float, seed: int, path: Path) -> None:
    """A session document of runs counted runs, each a copy of the template's
    first counted run at a rate drawn around scale (log-normal, as rates
    are), written compactly as ddtime writes."""
    import random
    generator = random.Random(seed)
    model = next(run for run in template["runs"] if run.get("counted"))
    document = dict(template)
    items = []
    for index in range(runs):
        run = dict(model)
        run["rates"] = dict(model["rates"], bytes_per_second=scale * generator.lognormvariate(0, 0.05))
        run["repeat"] = index + 1
        items.append(run)
    document["runs"] = items
    path.write_text(json.dumps(document, separators=(",", ":")))


def compare_document_rows(args: argparse.Namespace) -> List[str]:
    """ddtime --compare of two generated documents of args.document_runs
    counted runs each: its wall time and peak RSS by /usr/bin/time, against
    the goal of rule 7 (5 s, 200 MB)."""
    if not os.access("/usr/bin/time", os.X_OK):
        raise RuntimeError("needs /usr/bin/time (apt-get install time)")
    with tempfile.TemporaryDirectory(dir=args.tmpdir) as work:
        folder = Path(work)
        template = folder / "template.json"
        made = subprocess.run([args.ddtime, "if=/dev/zero", "of=/dev/null", "bs=1M", "count=20", "--repeat=3",
                               f"--json={template}"], capture_output=True, text=True)
        if made.returncode != 0:
            raise RuntimeError(f"the template session failed: {made.stderr.strip()}")
        model = json.loads(template.read_text())
        a, b = folder / "a.json", folder / "b.json"
        generate_session(model, args.document_runs, 1e9, 1, a)
        generate_session(model, args.document_runs, 1.01e9, 2, b)
        size_mb = a.stat().st_size / 1e6
        walls, rss, cpus = [], [], []
        for _ in range(args.runs):
            timed = subprocess.run(["/usr/bin/time", "-f", "%e s %M KB %U %S", args.ddtime, "--compare", str(a), str(b)],
                                   capture_output=True, text=True)
            if timed.returncode != 0:
                raise RuntimeError(f"--compare failed: {timed.stderr.strip()}")
            figures = timed.stderr.strip().splitlines()[-1].split()
            walls.append(float(figures[0]))
            rss.append(int(figures[2]))
            cpus.append(float(figures[4]) + float(figures[5]))
        wall, peak, cpu = statistics.median(walls), max(rss) / 1024, statistics.median(cpus)
        # The wall time on a shared machine is the CPU time stretched by
        # the load: both are given, with the load average.
        load = os.getloadavg()[0]
        verdict = "ok" if wall < 5 and peak < 200 else "MISSED"
        rows = ["| documents | runs a side | MB each | median wall | median CPU (user+sys) | peak RSS | load | goal |",
                "|---|---|---|---|---|---|---|---|",
                f"| --compare a b | {args.document_runs} | {size_mb:.1f} | {wall:.2f} s ({len(walls)} runs) | "
                f"{cpu:.2f} s | {peak:.0f} MB | {load:.1f} | < 5 s, < 200 MB: {verdict} |"]
        if verdict != "ok":
            raise RuntimeError("\n".join(rows))
        return rows


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    if args.list:
        suite = Suite(args)
        try:
            for workload in suite.workloads():
                print(workload.name)
        finally:
            suite.cleanup()
        print("rss: zero->null bs=64M, 1 GiB\nrss: zero->null bs=1M, 1 MiB\nrss: zero->null bs=1M, 1 GiB")
        print("callgrind: zero->null bs=4k, 100000 blocks")
        return 0
    for program in (args.ddtime, args.gnu):
        if not os.access(program, os.X_OK):
            log(f"cannot run {program}: not an executable file")
            return 2
    if not os.path.isdir(args.tmpdir):
        log(f"--tmpdir {args.tmpdir} is not a directory")
        return 2
    if filesystem_type(Path(args.tmpdir)) == "tmpfs" and not args.smoke:
        log(f"warning: {args.tmpdir} is tmpfs; file rows will not measure a real filesystem")
    # The modes that replace the main table: (asked, needs fio and root, rows).
    modes = [(args.compare_documents, None, compare_document_rows), (args.latency_cost, None, latency_rows), (args.timekeeping, None, timekeeping_rows),
             (args.sessions, None, session_rows), (args.random_access, "--random-access", random_access_rows),
             (args.profile, "--profile", profile_rows), (args.zram, "--zram", zram_rows),
             (args.jobs, None, jobs_rows), (args.sigint, None, sigint_rows),
             (args.queue_depth, "--queue-depth", queue_depth_rows)]
    for asked, needs_fio, rows in modes:
        if not asked:
            continue
        if needs_fio and (shutil.which("fio") is None or os.geteuid() != 0):
            log(f"{needs_fio} needs root (losetup) and fio (apt-get install fio)")
            return 2
        try:
            print("\n".join(rows(args)))
        except RuntimeError as failure:
            log(f"FAILED {failure}")
            return 1
        return 0
    suite = Suite(args)
    try:
        started = time.monotonic()
        suite.run()
        sys.stdout.write(suite.report())
        log(f"done in {time.monotonic() - started:.1f} s")
    finally:
        suite.cleanup()
    for failure in suite.failures:
        log(f"FAILED {failure}")
    if suite.failures:
        return 1
    if not suite.rows and not suite.rss_rows and not suite.callgrind_rows:
        log("no row was measured" + (f" (--only {args.only!r} matched nothing)" if args.only else ""))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
