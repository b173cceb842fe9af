#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Queue-depth benchmark (issue 12): ddtime --iodepth against fio and GNU dd
on a loop device with --direct-io=on over a file on the machine's disk, so
that every read and write reaches the disk.

Each row runs the programs in rotated order for --runs rounds and reports
medians and the paired ratio (median of per-round ratios, with a
distribution-free 95% interval, as compare.py does). Rates are each
program's own: ddtime's JSON bytes_per_second, fio's bw_bytes, and for GNU
dd the bytes over its own reported seconds. CPU per I/O is user+sys over
the number of I/Os (ddtime: JSON times; fio: usr_cpu and sys_cpu over its
runtime).

    python3 tests/bench/queue_depth.py [--runs 7] [--mib 256]

Needs root (losetup), fio, and a built ddtime. Python 3 standard library.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
from compare import median_interval  # noqa: E402

REPO_ROOT = Path(__file__).resolve().parents[2]


def run(argv: Sequence[str]) -> subprocess.CompletedProcess:
    done = subprocess.run(list(argv), capture_output=True, text=True, env={"LC_ALL": "C", "PATH": "/usr/sbin:/usr/bin:/sbin:/bin"})
    if done.returncode != 0:
        raise SystemExit(f"queue_depth: {' '.join(argv)} failed ({done.returncode}):\n{done.stderr}")
    return done


def ddtime_rate(ddtime: str, operands: List[str], depth: int) -> Tuple[float, float]:
    """ddtime's own rate (bytes/s) and CPU seconds per I/O."""
    done = run([ddtime, *operands, f"--iodepth={depth}", "--engine=io_uring", "--json"])
    report = json.loads(done.stderr)
    records = report["records_in"]["full"] + report["records_in"]["partial"]
    # Reads only, for a read test; for a write test the writes (the reads
    # of /dev/zero are made too, and their CPU is in the figure).
    ios = records
    cpu = report["times"]["user"] + report["times"]["sys"]
    return report["rates"]["bytes_per_second"], cpu / max(ios, 1)


def fio_rate(device: str, rw: str, bs: int, depth: int, size: int) -> Tuple[float, float]:
    done = run(["fio", "--name=q", f"--filename={device}", f"--rw={rw}", f"--bs={bs}", "--direct=1",
                "--ioengine=io_uring", f"--iodepth={depth}", f"--size={size}", "--output-format=json"])
    job = json.loads(done.stdout)["jobs"][0]
    side = job["read" if rw == "read" else "write"]
    seconds = job["job_runtime"] / 1000
    cpu = (job["usr_cpu"] + job["sys_cpu"]) / 100 * seconds
    return float(side["bw_bytes"]), cpu / max(side["total_ios"], 1)


def gnu_rate(operands: List[str]) -> float:
    done = run(["/bin/dd", *operands])
    match = re.search(r"^(\d+) bytes .* copied, ([0-9.e+-]+) s", done.stderr, re.M)
    if not match:
        raise SystemExit(f"queue_depth: no summary from GNU dd:\n{done.stderr}")
    return int(match.group(1)) / float(match.group(2))


def paired(a: List[float], b: List[float]) -> str:
    """The median of per-round rate ratios a/b with its 95% interval; a
    ratio above 1 means a moved the bytes faster."""
    ratios = [x / y for x, y in zip(a, b)]
    if len(ratios) < 6:
        return f"{median(ratios):.3f} (too few runs)"
    low, high = median_interval(ratios)
    word = "faster" if low > 1 else "slower" if high < 1 else "same within noise"
    return f"{median(ratios):.3f} [{low:.3f}–{high:.3f}] {word}"


def median(values: List[float]) -> float:
    ordered = sorted(values)
    return ordered[len(ordered) // 2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--mib", type=int, default=256, help="bytes moved per run, in MiB")
    parser.add_argument("--ddtime", default=str(REPO_ROOT / "build" / "release" / "ddtime"))
    parser.add_argument("--tmpdir", default="/var/tmp")
    args = parser.parse_args()
    size = args.mib << 20
    workdir = Path(tempfile.mkdtemp(prefix="ddtime-qd-", dir=args.tmpdir))
    backing = workdir / "disk.img"
    run(["/bin/dd", "if=/dev/urandom", f"of={backing}", "bs=1M", f"count={args.mib}", "status=none"])
    device = run(["losetup", "--find", "--show", "--direct-io=on", str(backing)]).stdout.strip()
    rows: List[str] = []
    try:
        # (read or write, bs, depth): the rows. A write copies
        # /dev/zero, whose reads ddtime makes too and counts in its CPU.
        cases = [("read", 4096, 1), ("read", 4096, 4), ("read", 4096, 32), ("read", 65536, 8),
                 ("read", 1 << 20, 4), ("write", 65536, 8)]
        for rw, bs, depth in cases:
            if rw == "read":
                operands = [f"if={device}", "of=/dev/null", f"bs={bs}", "iflag=direct", f"count={size // bs}"]
            else:
                operands = ["if=/dev/zero", f"of={device}", f"bs={bs}", "oflag=direct", f"count={size // bs}"]
            ours: List[float] = []
            theirs: List[float] = []
            gnu: List[float] = []
            our_cpu: List[float] = []
            their_cpu: List[float] = []
            for round_number in range(args.runs):
                order = ["ddtime", "fio", "gnu"]
                order = order[round_number % 3:] + order[:round_number % 3]
                for program in order:
                    if program == "ddtime":
                        rate, cpu = ddtime_rate(args.ddtime, operands, depth)
                        ours.append(rate)
                        our_cpu.append(cpu)
                    elif program == "fio":
                        rate, cpu = fio_rate(device, rw, bs, depth, size)
                        theirs.append(rate)
                        their_cpu.append(cpu)
                    else:
                        gnu.append(gnu_rate(operands))
            rows.append(f"| {rw} bs={bs} depth {depth} | {median(ours) / 2**20:.1f} MiB/s | {median(theirs) / 2**20:.1f} MiB/s "
                        f"| {paired(ours, theirs)} | {median(gnu) / 2**20:.1f} MiB/s | {paired(ours, gnu)} "
                        f"| {median(our_cpu) * 1e6:.2f} / {median(their_cpu) * 1e6:.2f} µs |")
            print(rows[-1], flush=True)
    finally:
        subprocess.run(["losetup", "-d", device])
        backing.unlink(missing_ok=True)
        os.rmdir(workdir)
    print()
    print(f"{args.runs} rounds, {args.mib} MiB per run, rotated order; loop device with --direct-io=on on {args.tmpdir}")
    print("| row | ddtime (own rate) | fio (bw) | ddtime/fio rate, paired [95% CI] | GNU dd | ddtime/GNU rate, paired | CPU per I/O ddtime / fio |")
    print("|---|---:|---:|---|---:|---|---:|")
    for row in rows:
        print(row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
