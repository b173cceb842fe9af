#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Copies the source tree into DIR as a release would hold it: the files git
# tracks plus new ones it does not ignore, so that build directories and
# other local leftovers stay out. Run from anywhere inside the work tree.
# Usage: packaging/stage-source.sh DIR
set -euo pipefail
dest=$1
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
cd "$(git -C "$(dirname "$0")" rev-parse --show-toplevel)"
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' file; do
    # A tracked file deleted in the work tree is not part of it.
    if [[ -e $file || -L $file ]]; then printf '%s\0' "$file"; fi
  done |
  xargs -0 cp -P --parents -t "$dest"
