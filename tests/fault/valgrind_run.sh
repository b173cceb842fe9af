#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# One end-to-end run of the binary under valgrind (memcheck): it must report
# no error and no definite or possible leak, and the run itself must match
# the system's GNU dd on the same operands (stdout, output file, stderr with
# timings masked, exit status).
#
#   valgrind_run.sh DD_BINARY INPUT_KIND [OPERAND...]
#
# INPUT_KIND makes ./in in a fresh directory first: "binary" (64 KiB of
# every byte value) or "text" (lines of varying length). "ddtime:" before
# DD_BINARY runs it under its own name (timing report on) and skips the GNU
# comparison. Exit status 77 (skipped) when valgrind is not installed or
# the binary is built with sanitizers, which valgrind cannot run.
set -eu

binary=$1
kind=$2
shift 2

if [ -n "${DDTIME_VALGRIND_SKIP:-}" ]; then
  echo "skipped: $DDTIME_VALGRIND_SKIP"
  exit 77
fi
if ! command -v valgrind >/dev/null 2>&1; then
  echo "skipped: valgrind is not installed (Debian package valgrind; packaging/install-build-deps.sh installs it)"
  exit 77
fi

compare=yes
name=dd
case $binary in
  ddtime:*) binary=${binary#ddtime:}; compare=no; name=ddtime ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}/ddtime-valgrind.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
cd "$work"
mkdir bin gnu
ln -s "$binary" "bin/$name"

case $kind in
  binary)
    # 256 rounds of every byte value in order.
    LC_ALL=C awk 'BEGIN { for (r = 0; r < 256; r++) for (i = 0; i < 256; i++) printf "%c", i }' > in
    ;;
  text)
    LC_ALL=C awk 'BEGIN { for (i = 0; i < 400; i++) { s = ""; for (j = 0; j < i % 57; j++) s = s "x"; printf "line %d %s\n", i, s } }' > in
    ;;
  *) echo "unknown input kind $kind"; exit 2 ;;
esac

mask() { sed -E 's/copied, [^ ]+ s, .*/copied, <T> s, <R>/'; }

# memcheck watches the heap by replacing malloc in the dynamic loader's
# symbol lookup; in a statically linked binary it would see no heap at all
# and report a clean run whatever happened.
if ! LC_ALL=C readelf -l "$binary" | grep -q 'program interpreter'; then
  echo "$binary is statically linked: memcheck cannot watch its heap (build with -DDDTIME_LINK=static-runtime)"
  exit 1
fi

status=0
timeout 120 valgrind --quiet --error-exitcode=1 --leak-check=full \
  --errors-for-leak-kinds=definite,possible --log-file=valgrind.log \
  "bin/$name" "$@" > out.stdout 2> out.stderr || status=$?

# A run that fails by design (a read error) exits 1 too, so the log decides
# whether valgrind found anything.
if [ -s valgrind.log ]; then
  echo "valgrind reported problems:"
  cat valgrind.log
  exit 1
fi
echo "valgrind: clean; $name exited $status"

if [ $compare = yes ] && [ -x /bin/dd ]; then
  gnu_status=0
  (cd gnu && ln -s ../in in && timeout 60 /bin/dd "$@" > ../gnu.stdout 2> ../gnu.stderr) || gnu_status=$?
  if [ $status -ne $gnu_status ]; then
    echo "exit status $status, GNU dd's $gnu_status"; exit 1
  fi
  cmp out.stdout gnu.stdout || { echo "stdout differs from GNU dd's"; exit 1; }
  if [ -e out ] || [ -e gnu/out ]; then
    cmp out gnu/out || { echo "output file differs from GNU dd's"; exit 1; }
  fi
  mask < out.stderr | sed 's/^[^:]*dd: /dd: /' > a.err
  mask < gnu.stderr | sed 's/^[^:]*dd: /dd: /' > b.err
  if ! cmp -s a.err b.err; then
    echo "stderr differs from GNU dd's:"; diff a.err b.err; exit 1
  fi
  echo "matches GNU dd"
elif [ $status -ne 0 ]; then
  cat out.stderr
  exit 1
fi
