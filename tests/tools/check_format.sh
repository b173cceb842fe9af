#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The C++ under src/ and tests/ is as .clang-format lays it out (issue 29,
# recommendation 10): clang-format --dry-run --Werror over every .h, .cc
# and .c file, naming each that differs. Exit status 77 (a skip) where no
# clang-format is installed (packaging/install-build-deps.sh installs it).
# Usage: check_format.sh REPO [CLANG_FORMAT]
set -u
repo=$1
tool=${2:-clang-format}

if ! command -v "$tool" >/dev/null 2>&1; then
  echo "SKIP: $tool is not installed"
  exit 77
fi
cd "$repo" || exit 1
# git's list where there is one, so that a build tree inside the source
# tree is never read; find otherwise (a release tarball).
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files -- 'src/*.h' 'src/*.cc' 'tests/*.h' 'tests/*.cc' 'tests/*.c')
else
  files=$(find src tests -name '*.h' -o -name '*.cc' -o -name '*.c')
fi
unformatted=""
for file in $files; do
  if ! "$tool" --dry-run --Werror "$file" >/dev/null 2>&1; then
    unformatted="$unformatted $file"
  fi
done
if [ -n "$unformatted" ]; then
  echo "not as .clang-format lays them out (clang-format -i FILE; $("$tool" --version)):"
  for file in $unformatted; do echo "  $file"; done
  exit 1
fi
echo "$(echo "$files" | wc -w) files as .clang-format lays them out"
