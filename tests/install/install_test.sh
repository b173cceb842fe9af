#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `cmake --install` into a scratch DESTDIR: the binary in bin, the man page in
# man1, the bash, zsh and fish completions, and the dd link in a private directory,
# relative, working, and not beside the binary. DESTDIR, not --prefix, so
# that directories configured as absolute paths (as the packages do) land in
# the scratch directory too instead of in the real /usr.
# Usage: install_test.sh CMAKE BUILD_DIR
set -u
cmake=$1
build=$2
passed=0
failed=0

check() { # check NAME COMMAND...
  local name=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL: $name"
  fi
}

root=$(mktemp -d) || exit 1
trap 'rm -rf "$root"' EXIT
log=$(DESTDIR=$root "$cmake" --install "$build" 2>&1) || { printf '%s\n' "$log"; exit 1; }
found() { find "$root" -path "$1" -print -quit; }

binary=$(found '*/bin/ddtime')
check "bin/ddtime is installed" test -x "$binary"
check "nothing named dd is installed beside it" test ! -e "$(dirname "$binary")/dd"
check "the man page is in man1" test -n "$(found '*/man1/ddtime.1')"
check "the JSON schema is in the doc directory" test -n "$(found '*/doc/ddtime/ddtime.schema.json')"
check "the JSON page is beside it" test -n "$(found '*/doc/ddtime/json.md')"

completion=$(found '*/bash-completion/completions/ddtime')
check "the bash completion is installed" test -n "$completion"
check "the bash completion registers a function" \
  bash -c 'source "$1" && complete -p ddtime >/dev/null' _ "$completion"

zsh_completion=$(found '*/zsh/*/_ddtime')
check "the zsh completion is installed" test -n "$zsh_completion"
fish_completion=$(found '*/fish/vendor_completions.d/ddtime.fish')
check "the fish completion is installed" test -n "$fish_completion"

link=$(found '*/ddtime/bin/dd')
check "a dd link is installed in ddtime/bin" test -L "$link"
check "the dd link is relative" test -n "$(readlink "$link" | grep -v '^/')"
check "the dd link leads to the installed ddtime" test "$(readlink -f "$link")" = "$(readlink -f "$binary")"

# Invoked through the link it is GNU dd: the summary only, named dd.
out=$("$link" if=/dev/zero of=/dev/null count=2 2>&1)
check "invoked through the link it prints GNU's summary only [$out]" \
  test "$(printf '%s\n' "$out" | sed 's/copied, .*/copied/')" = "$(printf '2+0 records in\n2+0 records out\n1024 bytes (1.0 kB, 1.0 KiB) copied')"

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
