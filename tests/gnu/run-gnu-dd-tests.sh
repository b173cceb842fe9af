#!/bin/bash
# Runs GNU coreutils 9.1's own dd tests (tests/dd/* of Debian 12's coreutils
# source package) against ddtime, the way uutils tracks GNU's suite: ddtime
# claims to be a drop-in dd, so GNU's tests are the independent judge of that.
#
# Usage: tests/gnu/run-gnu-dd-tests.sh DDTIME_BINARY [WORKDIR]
#
# It (as root, or through sudo for the apt steps):
#  1. adds a deb-src twin of each deb stanza of the machine's deb822 sources
#     (in /etc/apt/sources.list.d/ddtime-deb-src.sources) and installs the few
#     packages the build and the tests need;
#  2. fetches the coreutils source with `apt-get source` into WORKDIR
#     (default build/gnu-coreutils under the repository), Debian's patches
#     applied, then configures and builds it; a finished build is marked with
#     a stamp file and reused on the next run;
#  3. replaces the built src/dd with a link named dd to DDTIME_BINARY (ddtime
#     is dd when its argv[0]'s basename is dd), which the harness finds first
#     because it puts the built src/ first on PATH;
#  4. runs the test half of `make check` for tests/dd only, then prints each
#     test's result, the harness's summary, each skipped test's reason and
#     each failed test's log.
# Exits non-zero if any test FAILs, ERRORs or XPASSes.
#
# Only GNU's test suite runs against our binary: nothing of coreutils enters
# this repository. No test in tests/dd runs commands as the non-root user
# (NON_ROOT_USERNAME, default nobody) that coreutils' root tests use, but the
# script still checks that this user can reach the built tree and says so.
set -euo pipefail

if [ $# -lt 1 ] || [ $# -gt 2 ]; then
  echo "usage: $0 DDTIME_BINARY [WORKDIR]" >&2
  exit 2
fi

repo_root=$(cd "$(dirname "$0")/../.." && pwd)
if [ ! -x "$1" ] || [ -d "$1" ]; then
  echo "run-gnu-dd-tests: $1: not an executable file" >&2
  exit 2
fi
ddtime=$(realpath "$1")
workdir=${2:-$repo_root/build/gnu-coreutils}
mkdir -p "$workdir"
workdir=$(realpath "$workdir")

say() { printf 'run-gnu-dd-tests: %s\n' "$*"; }

as_root=""
if [ "$(id -u)" -ne 0 ]; then
  as_root="sudo"
fi

# The upstream version whose tests we run; Debian 12 ships it as 9.1-1.
upstream_version=9.1
tree=$workdir/coreutils-$upstream_version
stamp=$workdir/build.stamp
# --disable-nls: the tests run under LC_ALL=C, so translations only cost time.
configure_args="--disable-nls --disable-dependency-tracking"

# --- 1. deb-src entries and packages ----------------------------------------

# deb-src twins of every enabled "Types: deb" stanza of the deb822 sources,
# with the same URIs, Suites, Components and Signed-By.
deb_src_stanzas() {
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -e "$f" ] || continue
    [ "$(basename "$f")" = ddtime-deb-src.sources ] && continue
    awk '
      function flush() {
        if (is_deb && enabled && f["uris"] != "" && f["suites"] != "") {
          printf "Types: deb-src\nURIs: %s\nSuites: %s\n", f["uris"], f["suites"]
          if (f["components"] != "") printf "Components: %s\n", f["components"]
          if (f["signed-by"] != "") printf "Signed-By: %s\n", f["signed-by"]
          print ""
        }
        is_deb = 0; enabled = 1; field = ""; delete f
      }
      BEGIN { enabled = 1 }
      /^[ \t]*$/ { flush(); next }
      /^#/ { next }
      /^[ \t]/ { if (field != "") f[field] = f[field] "\n" $0; next }
      {
        colon = index($0, ":")
        field = tolower(substr($0, 1, colon - 1))
        value = substr($0, colon + 1)
        sub(/^[ \t]+/, "", value); sub(/[ \t]+$/, "", value)
        f[field] = value
        if (field == "types") {
          t = " " value " "
          is_deb = (t ~ /[ \t]deb[ \t]/) && (t !~ /[ \t]deb-src[ \t]/)
        }
        if (field == "enabled" && tolower(value) == "no") enabled = 0
      }
      END { flush() }' "$f"
  done
}

deb_src_file=/etc/apt/sources.list.d/ddtime-deb-src.sources
wanted_sources=$(deb_src_stanzas)
if [ -z "$wanted_sources" ]; then
  say "no 'Types: deb' stanza in /etc/apt/sources.list.d/*.sources to copy as deb-src" >&2
  exit 1
fi
sources_changed=false
if [ "$(cat "$deb_src_file" 2>/dev/null)" != "$wanted_sources" ]; then
  say "writing $deb_src_file"
  printf '%s\n' "$wanted_sources" | $as_root tee "$deb_src_file" >/dev/null
  sources_changed=true
fi

# dpkg-dev/xz-utils: apt-get source and dpkg-source; gcc/make/libc6-dev: the
# build (configure is shipped, so no autotools); perl: the .pl tests;
# strace: tests/dd/nocache_eof.sh.
packages="dpkg-dev xz-utils gcc make libc6-dev perl strace"
missing=""
for package in $packages; do
  if [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" != "install ok installed" ]; then
    missing="$missing $package"
  fi
done
have_build=false
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$upstream_version $configure_args" ] \
    && [ -f "$tree/Makefile" ]; then
  have_build=true
fi

if [ -n "$missing" ] || { ! $have_build && $sources_changed; } \
    || { ! $have_build && [ -z "$(apt-cache showsrc coreutils 2>/dev/null)" ]; }; then
  say "apt-get update"
  $as_root apt-get update -qq
fi
if [ -n "$missing" ]; then
  say "installing:$missing"
  DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends $missing
fi

# --- 2. source and build ----------------------------------------------------

build_seconds=0
if $have_build; then
  say "reusing the coreutils build in $tree"
else
  start=$(date +%s)
  # Whatever an unfinished earlier run left.
  rm -rf "$tree" "$workdir"/coreutils_* "$stamp"
  say "apt-get source coreutils into $workdir"
  (cd "$workdir" && apt-get source -qq coreutils)
  if [ ! -x "$tree/configure" ]; then
    say "apt-get source did not give coreutils $upstream_version in $tree" >&2
    exit 1
  fi
  say "configure $configure_args"
  # configure refuses to run as root without FORCE_UNSAFE_CONFIGURE.
  (cd "$tree" && FORCE_UNSAFE_CONFIGURE=1 ./configure --quiet $configure_args \
     > "$workdir/configure.log" 2>&1) \
    || { tail -n 50 "$workdir/configure.log" >&2; exit 1; }
  say "make -j2"
  (cd "$tree" && make -j2 > "$workdir/make.log" 2>&1) \
    || { tail -n 50 "$workdir/make.log" >&2; exit 1; }
  printf '%s\n' "$upstream_version $configure_args" > "$stamp"
  build_seconds=$(( $(date +%s) - start ))
  say "fetched and built coreutils $upstream_version in ${build_seconds}s"
fi

# --- 3. ddtime as src/dd ----------------------------------------------------

ln -sfn "$ddtime" "$tree/src/dd"
check_link() {
  if [ "$(stat -L -c %d:%i "$tree/src/dd")" != "$(stat -c %d:%i "$ddtime")" ]; then
    say "$tree/src/dd is not $ddtime" >&2
    exit 1
  fi
}
check_link
say "src/dd -> $ddtime: $("$tree/src/dd" --version | head -n 1)"

export NON_ROOT_USERNAME=${NON_ROOT_USERNAME:-nobody}
if [ "$(id -u)" -eq 0 ]; then
  if ! id "$NON_ROOT_USERNAME" >/dev/null 2>&1; then
    say "note: user $NON_ROOT_USERNAME does not exist; tests that need a non-root user skip"
  elif ! "$tree/src/chroot" --skip-chdir --user="$NON_ROOT_USERNAME" / \
         "$tree/src/rm" --version >/dev/null 2>&1; then
    say "note: $NON_ROOT_USERNAME cannot run $tree/src/rm; tests that need a non-root user skip"
  fi
fi

# --- 4. the tests -----------------------------------------------------------

tests=$(cd "$tree" && ls tests/dd/*.sh tests/dd/*.pl | sort | tr '\n' ' ')
say "make check-TESTS for: $tests"
start=$(date +%s)
rc=0
# check-TESTS is the test-running half of `make check`, without its other
# half, `make all`, which would relink src/dd over the link (make follows
# the link, and its target may be older than src/dd.o) and run help2man on
# it for man/dd.1. PROGRAMS= because coreutils also makes every test log
# depend on $(PROGRAMS), src/dd among them; the stamp says all are built.
# RUN_*EXPENSIVE_TESTS: skip nothing for its cost (sparse.sh off local disks).
# coreutils exports VERBOSE=yes, which makes each test trace its commands
# (set -x) into its log, and makes the harness dump test-suite.log on
# failure. VERBOSE= stops the dump (the logs that matter are printed below)
# and AM_TESTS_ENVIRONMENT gives the tests their VERBOSE=yes back.
(cd "$tree" && make check-TESTS TESTS="$tests" PROGRAMS= VERBOSE= \
   AM_TESTS_ENVIRONMENT='VERBOSE=yes; export VERBOSE;' \
   RUN_EXPENSIVE_TESTS=yes RUN_VERY_EXPENSIVE_TESTS=yes) || rc=$?
test_seconds=$(( $(date +%s) - start ))
check_link

echo
say "results:"
failed=""
skipped=""
for t in $tests; do
  base=${t%.*}
  result=$(sed -n 's/^:test-result: *//p' "$tree/$base.trs" 2>/dev/null | head -n 1)
  echo "${result:-NO RESULT}: $t"
  case $result in
    PASS|XFAIL) ;;
    SKIP) skipped="$skipped $base" ;;
    *) failed="$failed $base" ;;
  esac
done
echo
sed -n '/^# [A-Z]*: *[0-9]*$/p' "$tree/tests/test-suite.log" 2>/dev/null || true
# A skipped test says why on a line "NAME: skipped test: REASON" (lines
# starting with + are its trace, which quotes the same words).
for base in $skipped; do
  reason=$(grep -v '^+' "$tree/$base.log" | sed -n 's/.*skipped test: *//p' | tail -n 1)
  echo "SKIP: $base: ${reason:-no reason given} (log: $tree/$base.log)"
done
# A failed log from the test's first own command on: before that it is only
# the trace of init.sh setting up. The whole log stays in the tree.
for base in $failed; do
  echo
  echo "===== $base.log (whole: $tree/$base.log) ====="
  if grep -q '^+ print_ver_' "$tree/$base.log" 2>/dev/null; then
    sed -n '/^+ print_ver_/,$p' "$tree/$base.log"
  else
    cat "$tree/$base.log" 2>/dev/null || echo "(no log)"
  fi
done
echo
say "coreutils build: ${build_seconds}s$($have_build && echo ' (reused)'), tests: ${test_seconds}s"

if [ -n "$failed" ] || [ "$rc" -ne 0 ]; then
  say "FAILED:${failed:- make check exited $rc}"
  exit 1
fi
say "all GNU dd tests passed or skipped"
