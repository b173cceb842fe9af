#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Differential fuzzing against the system's GNU dd: random operand values
and random operand lists are given to /bin/dd and to ddtime (through its dd
link, so both run as "dd"), reading /dev/null and writing /dev/null; the two
must agree on stdout, stderr and exit status. Not run in CI (two processes
per case); run it after touching src/model/number.cc or src/cli/operands.cc:

    python3 tests/fuzz/differential.py build/release/bin/dd [numbers|operands] [CASES] [SEED]

"numbers" puts one random value, biased towards dd's size grammar, in one
of bs= ibs= obs= cbs= count= skip= seek=. "operands" builds whole argv
vectors from dd's operand names, flag and conversion words, separators and
junk. Prints each disagreement with the operands that show it; exits 1 if
there was any.
"""
import random
import subprocess
import sys

PIECES = ["0", "1", "2", "7", "9", "10", "512", "4096", "9223372036854775807",
          "9223372036854775808", "18446744073709551616", "00", "0x", "x", "X",
          "b", "c", "w", "k", "K", "KB", "kB", "KiB", "M", "MB", "MiB", "G", "GB",
          "T", "P", "E", "Z", "Y", "R", "Q", "iB", "B", "e", "-", "+", " ", "\t",
          ".", ",", "=", "x0", "x1", "0x0", "1x", "2x512", "B", "Bx", "xB"]
SIZE_OPERANDS = ["bs", "ibs", "obs", "cbs", "count", "skip", "seek", "iseek", "oseek"]
WORDS = {
    "conv": ["ascii", "ebcdic", "ibm", "block", "unblock", "lcase", "ucase", "sparse",
             "swab", "sync", "excl", "nocreat", "notrunc", "noerror", "fdatasync",
             "fsync", "", "bogus", "ASCII"],
    "iflag": ["append", "direct", "directory", "dsync", "sync", "fullblock", "nonblock",
              "noatime", "nocache", "noctty", "nofollow", "count_bytes", "skip_bytes",
              "seek_bytes", "binary", "text", "", "bogus"],
    "oflag": ["append", "direct", "directory", "dsync", "sync", "fullblock", "nonblock",
              "noatime", "nocache", "noctty", "nofollow", "count_bytes", "skip_bytes",
              "seek_bytes", "", "bogus"],
    "status": ["none", "noxfer", "progress", "bogus", ""],
}


def random_value(rng):
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 5)))


def random_operand(rng):
    roll = rng.random()
    if roll < 0.45:
        return f"{rng.choice(SIZE_OPERANDS)}={random_value(rng)}"
    if roll < 0.9:
        key = rng.choice(list(WORDS))
        words = [rng.choice(WORDS[key]) for _ in range(rng.randint(1, 3))]
        return f"{key}={','.join(words)}"
    return rng.choice(["bogus", "=", "bs", "bs==1", "-", "--", "-x", "--bogus", "if=", "of=/dev/null"])


def numbers_case(rng):
    operand = rng.choice(SIZE_OPERANDS)
    args = [f"{operand}={random_value(rng)}"]
    if operand not in ("count", "skip", "seek", "iseek", "oseek"):
        args.append("count=0")
    return args


def operands_case(rng):
    return [random_operand(rng) for _ in range(rng.randint(1, 4))] + ["count=0"]


def run(binary, args):
    # argv[0] is "dd" for both, so their messages start alike.
    done = subprocess.run(["dd"] + args, capture_output=True, timeout=10, stdin=subprocess.DEVNULL,
                          executable=binary, env={"LC_ALL": "C", "PATH": "/usr/bin:/bin"})
    return done.returncode, done.stdout, done.stderr


def mask(result):
    # Timing figures differ between any two runs.
    code, out, err = result
    lines = [line.split(b" copied, ")[0] for line in err.split(b"\n")]
    return code, out, b"\n".join(lines)


def main():
    ddtime = sys.argv[1]
    mode = sys.argv[2] if len(sys.argv) > 2 else "numbers"
    cases = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 1
    rng = random.Random(seed)
    make = numbers_case if mode == "numbers" else operands_case
    disagreements = 0
    for _ in range(cases):
        args = ["if=/dev/null", "of=/dev/null"] + make(rng)
        gnu = mask(run("/bin/dd", args))
        ours = mask(run(ddtime, args))
        if gnu != ours:
            disagreements += 1
            print(f"disagree: dd {' '.join(repr(a) for a in args)}")
            print(f"  GNU:    exit {gnu[0]} stdout {gnu[1][:200]!r} stderr {gnu[2]!r}")
            print(f"  ddtime: exit {ours[0]} stdout {ours[1][:200]!r} stderr {ours[2]!r}")
    print(f"{cases} cases, {disagreements} disagreements")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
