#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian package from packaging/debian, installs it on this
# machine with dpkg -i, checks the installed files work, then removes it.
# Run as root (CI does); the build's tests are skipped (nocheck) because CI
# runs them on their own.
#
# Usage: packaging/test-deb.sh [--lintian]
#   --lintian  also install lintian and fail on any error it reports.
# The .deb is left in build/deb/.
set -euo pipefail

lintian=false
case "${1:-}" in
  --lintian) lintian=true ;;
  "") ;;
  *) echo "usage: $0 [--lintian]" >&2; exit 2 ;;
esac

cd "$(dirname "$0")/.."
top=$PWD
say() { printf 'test-deb: %s\n' "$*"; }
fail() { printf 'test-deb: FAIL: %s\n' "$*" >&2; exit 1; }

if [[ $(id -u) -ne 0 ]]; then
  fail "needs root, to install and remove the package"
fi
installed_status() { dpkg-query -W -f='${Status}' ddtime 2>/dev/null || true; }
if [[ $(installed_status) == *"ok installed" ]]; then
  fail "a ddtime package is installed already; remove it first (dpkg -r ddtime)"
fi

tools="build-essential debhelper dpkg-dev fakeroot man-db"
$lintian && tools="$tools lintian"
# shellcheck disable=SC2086
packaging/install-build-deps.sh $tools

# dpkg-buildpackage wants debian/ at the top of the source tree: build in a
# staged copy, so that the work tree and its build directories stay out.
version=$(dpkg-parsechangelog -l packaging/debian/changelog -S Version)
out=$top/build/deb
src=$out/ddtime-$version
rm -rf "$out"
mkdir -p "$src"
packaging/stage-source.sh "$src"
cp -R packaging/debian "$src/debian"

say "building ddtime $version"
start=$SECONDS
(cd "$src" && DEB_BUILD_OPTIONS="nocheck parallel=2" DEB_BUILD_PROFILES=nocheck \
  dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1 ||
  { tail -n 40 "$out/build.log"; fail "dpkg-buildpackage failed; the whole log is $out/build.log"; }
deb=$(ls "$out"/ddtime_"$version"_*.deb)
say "built $(basename "$deb") in $((SECONDS - start)) s"

if $lintian; then
  say "lintian $(basename "$deb")"
  lintian --fail-on error --display-info "$deb" || fail "lintian reported errors"
fi

installed=false
cleanup() {
  if $installed; then
    dpkg -r ddtime >/dev/null 2>&1 || true
  fi
}
trap cleanup EXIT

dpkg -i "$deb"
installed=true

say "checking the installed files"
[[ $(command -v ddtime) == /usr/bin/ddtime ]] || fail "ddtime is not /usr/bin/ddtime on PATH"
[[ $(ddtime --version) == "ddtime $version"$'\n'* ]] || fail "ddtime --version does not say $version"
# glibc shared, so that LD_PRELOAD tools and glibc updates reach it.
LC_ALL=C readelf -d /usr/bin/ddtime | grep -q 'NEEDED.*\[libc\.so\.6\]' ||
  fail "/usr/bin/ddtime does not link libc.so.6 dynamically"
# --compare's program, with libm and Boost.Math, apart from dd's start.
[[ -x /usr/libexec/ddtime/ddtime-compare ]] || fail "no /usr/libexec/ddtime/ddtime-compare"
LC_ALL=C readelf -d /usr/bin/ddtime | grep -q 'NEEDED.*\[libm\.so\.6\]' &&
  fail "/usr/bin/ddtime links libm.so.6: --compare's statistics belong to ddtime-compare"
# The JSON schema and its page, where the man page says they are.
for doc in ddtime.schema.json json.md; do
  [[ -f /usr/share/doc/ddtime/$doc ]] || fail "no /usr/share/doc/ddtime/$doc"
done

work=$(mktemp -d)
trap 'rm -rf "$work"; cleanup' EXIT
head -c 3000000 /dev/urandom >"$work/in"
ddtime if="$work/in" of="$work/out" bs=64K 2>"$work/stderr" || fail "copy failed: $(cat "$work/stderr")"
cmp -s "$work/in" "$work/out" || fail "the copy differs from its input"
grep -q '^45+1 records out$' "$work/stderr" || fail "unexpected summary: $(cat "$work/stderr")"
grep -q '^ddtime: real ' "$work/stderr" || fail "no timing report: $(cat "$work/stderr")"
# ddtime --compare executes the installed ddtime-compare.
ddtime if="$work/in" of=/dev/null bs=64K --repeat=3 --json="$work/a.json" 2>/dev/null || fail "a --json session failed"
ddtime --compare "$work/a.json" "$work/a.json" >"$work/compared" 2>"$work/stderr" ||
  fail "ddtime --compare failed: $(cat "$work/stderr")"
grep -q ' against ' "$work/compared" || fail "ddtime --compare printed no table: $(cat "$work/compared")"

# The dd link: GNU's output only, and the system's dd untouched.
link=/usr/lib/ddtime/bin/dd
[[ -L $link && $(readlink -f "$link") == /usr/bin/ddtime ]] || fail "$link is not a link to /usr/bin/ddtime"
PATH=/usr/lib/ddtime/bin:$PATH dd if="$work/in" of="$work/out2" bs=1M 2>"$work/stderr2"
cmp -s "$work/in" "$work/out2" || fail "the copy through $link differs from its input"
grep -q ': real ' "$work/stderr2" && fail "invoked as dd it printed more than GNU dd: $(cat "$work/stderr2")"
[[ $(/bin/dd --version) == *"(coreutils)"* ]] || fail "/bin/dd is no longer GNU dd"

page=$(man -w ddtime) || fail "man -w ddtime found no page"
[[ $page == /usr/share/man/man1/ddtime.1.gz ]] || fail "man -w ddtime gave $page"
completion=/usr/share/bash-completion/completions/ddtime
[[ -f $completion ]] || fail "no bash completion in $completion"
bash -c "source $completion && complete -p ddtime" >/dev/null || fail "sourcing $completion registers nothing"
zsh_completion=/usr/share/zsh/vendor-completions/_ddtime
[[ -f $zsh_completion ]] || fail "no zsh completion in $zsh_completion"
fish_completion=/usr/share/fish/vendor_completions.d/ddtime.fish
[[ -f $fish_completion ]] || fail "no fish completion in $fish_completion"
say "ddtime --version, a copy, the dd link, man -w and the completions work"

dpkg -r ddtime
installed=false
for path in /usr/bin/ddtime "$link" /usr/lib/ddtime "$page" "$completion" "$zsh_completion" "$fish_completion"; do
  [[ ! -e $path && ! -L $path ]] || fail "$path is still there after dpkg -r"
done
[[ $(installed_status) != *"ok installed" ]] || fail "dpkg still lists ddtime as installed"
say "removed cleanly; the package is $deb"
