#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Loads the zsh or the fish completion in the real shell, as that shell
# would find it once installed: zsh through compinit and fpath, fish by
# sourcing it. fish then completes lines as a user would type them
# (complete -C) and the results are checked; zsh's completion widgets
# need a terminal, so there the specs _ddtime hands to _arguments are
# checked instead. Exit status 77 (a skip) when the shell is not installed
# (packaging/install-build-deps.sh installs both).
# Usage: shell_load_test.sh zsh|fish COMPLETION_FILE
set -u
shell=$1
script=$2
[[ $script == /* ]] || script=$PWD/$script
passed=0
failed=0

if ! command -v "$shell" >/dev/null 2>&1; then
  echo "SKIP: $shell is not installed (apt-get install $shell), so its completion was not loaded"
  exit 77
fi

# check NAME EXPECTED GOT
check() {
  if [[ $3 == "$2" ]]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    printf 'FAIL: %s\n  expected: [%s]\n  got:      [%s]\n' "$1" "$2" "$3"
  fi
}

work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT

if [[ $shell == zsh ]]; then
  mkdir "$work/functions"
  cp "$script" "$work/functions/_ddtime"
  out=$(zsh -n "$script" 2>&1)
  check "zsh -n reads it" "" "$out"
  # compinit registers it for ddtime from its #compdef line; autoload +X
  # parses the body; the call runs it up to _arguments, stubbed to print
  # the specs it is given (one a line) and, for the operands, _values'.
  out=$(cd "$work" && ZDOTDIR=$work zsh -f -c '
    fpath=("$PWD/functions" $fpath)
    autoload -Uz compinit && compinit -u -d "$PWD/zcompdump" || exit 1
    print -r -- "registered: ${_comps[ddtime]-}"
    autoload +X _ddtime || exit 1
    _arguments() { print -rl -- "$@" }
    _ddtime' 2>"$work/stderr")
  check "compinit registers _ddtime for ddtime" "registered: _ddtime" "$(head -1 <<<"$out")"
  check "_ddtime hands _arguments one spec per --help option, then the operands" \
    "-S 37 *: :_values -w operand \$operands" \
    "$(sed -n '2p' <<<"$out") $(grep -c '^\(([^)]*)\)\?--' <<<"$out") $(tail -1 <<<"$out")"
  check "nothing on standard error" "" "$(cat "$work/stderr")"
else
  out=$(fish --no-execute "$script" 2>&1)
  check "fish --no-execute reads it" "" "$out"
  mkdir "$work/disk images"
  touch "$work/disk images/a.img" "$work/disk images/b.img" "$work/boot.img" "$work/notes.txt"
  # expect LINE EXPECTED: the sorted candidates for LINE, space-separated.
  expect() {
    local got
    got=$(cd "$work" && fish --no-config -c 'source $argv[1]; and complete -C $argv[2]' "$script" "$1" 2>&1 |
      cut -f1 | LC_ALL=C sort | paste -sd' ')
    check "completing [$1]" "$2" "$got"
  }
  expect "ddtime i" "ibs= if= iflag= iseek="
  expect "ddtime co" "conv= count="
  expect "ddtime bs=4M s" "seek= skip= status="
  expect "ddtime bs=4" ""
  expect "ddtime conv=no" "conv=nocreat conv=noerror conv=notrunc"
  expect "ddtime conv=ucase,no" "conv=ucase,nocreat conv=ucase,noerror conv=ucase,notrunc"
  expect "ddtime conv=notrunc,no" "conv=notrunc,nocreat conv=notrunc,noerror"
  expect "ddtime iflag=full" "iflag=fullblock"
  expect "ddtime iflag=direct,c" "iflag=direct,count_bytes"
  expect "ddtime oflag=s" "oflag=seek_bytes oflag=sync"
  expect "ddtime status=no" "status=none status=noxfer"
  expect "ddtime if=b" "if=boot.img"
  expect "ddtime if=disk\\ images/" "if=disk images/a.img if=disk images/b.img"
  expect "ddtime bs=1M of=no" "of=notes.txt"
  expect "ddtime --ti" "--time --timeline"
  expect "ddtime --profile=n" "--profile=nvme"
  expect "ddtime --engine=" "--engine=auto --engine=io_uring --engine=libaio --engine=sync --engine=threads"
  expect "ddtime --cache=c" "--cache=cold --cache=cold-system"
  expect "ddtime if=boot.img --json=no" "--json=notes.txt"
fi

echo "$shell: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
