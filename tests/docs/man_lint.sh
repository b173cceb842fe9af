#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The man page must be clean: `mandoc -T lint` prints nothing (warnings and
# style notes included), and, where man-db's `man` is installed, rendering it
# as users will see it gives no troff warnings.
# Usage: man_lint.sh PAGE
set -u
page=$1

if ! command -v mandoc >/dev/null 2>&1; then
  echo "SKIP: mandoc is not installed"
  exit 77
fi
status=0
out=$(mandoc -T lint "$page" 2>&1)
if [ -n "$out" ]; then
  printf 'mandoc -T lint %s:\n%s\n' "$page" "$out"
  status=1
fi
if command -v man >/dev/null 2>&1; then
  out=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null)
  if [ -n "$out" ]; then
    printf 'man --warnings -l %s:\n%s\n' "$page" "$out"
    status=1
  fi
fi
[ "$status" -eq 0 ] && echo "mandoc -T lint and man --warnings: clean"
exit "$status"
