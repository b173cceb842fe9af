#!/bin/sh
# What the shipped binary links, what it runs before main, and where its
# start-up code lies (issue 10).
#
#   linkage_test.sh BINARY MODE OWN_ARCHIVE [ordered]
#
# MODE is DDTIME_LINK's value; OWN_ARCHIVE the library of ddtime's own
# objects; ordered when the build applies packaging/startup_hot.ld, whose section
# must then hold the entry point and main.
#
# Unless MODE is static, glibc must be a shared library: readelf lists
# libc.so.6 as needed, so LD_PRELOAD tools reach ddtime's calls and a glibc
# update reaches ddtime without a rebuild. A static-runtime binary needs
# nothing else (the dynamic loader aside): libstdc++, libgcc and liburing
# are inside, and not libm.so.6 either: --compare's normal distribution
# (Boost.Math), which calls exp and log, lives in ddtime-compare, a program
# of its own that ddtime executes. And none of ddtime's own sources
# may run iostream's static initialisation (std::ios_base::Init, which builds
# the standard streams and the classic locale before main): none includes
# <iostream>. Boost.ProgramOptions's parser (cmdline.o, convert.o) does, and
# brings one; compare.py's start-up row measures what that costs.
set -eu

binary=$1
mode=$2
own=$3
shift 3
ordered=no
for word in "$@"; do
  case $word in
    ordered) ordered=yes ;;
    *) echo "unknown word $word"; exit 2 ;;
  esac
done
fail() { echo "FAIL: $*"; exit 1; }

needed=$(LC_ALL=C readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p')
echo "needed: $(echo $needed)"
case $mode in
  static)
    [ -z "$needed" ] || fail "a static build needs no shared library, yet lists: $needed"
    ;;
  static-runtime|shared)
    echo "$needed" | grep -qx 'libc\.so\.6' || fail "libc.so.6 is not listed as needed"
    ;;
  *) fail "unknown mode $mode" ;;
esac
if [ "$mode" = static-runtime ]; then
  others=$(echo "$needed" | grep -v -x -e 'libc\.so\.6' -e 'ld-linux.*\.so\.[0-9]*' || true)
  [ -z "$others" ] || fail "static-runtime should need only libc.so.6, yet also lists: $others"
fi

nm -A "$own" >/dev/null 2>&1 || fail "cannot read $own"
users=$(nm -A "$own" 2>/dev/null | sed -n 's/^[^:]*:\([^:]*\):.* U _ZNSt8ios_base4InitC[12]Ev$/\1/p' | sort -u)
[ -z "$users" ] || fail "std::ios_base::Init is run by ddtime's own $(echo $users): it includes <iostream>"
echo "no iostream static initialisation from ddtime's own objects"

# libstdc++'s verbose terminate handler drags in the demangler and its
# relocated tables; main.cc's own handler replaces it where libstdc++ is
# linked in (static, static-runtime).
if [ "$mode" != shared ] && nm "$binary" 2>/dev/null | grep -q ' T __cxa_demangle$'; then
  fail "__cxa_demangle is linked: libstdc++'s verbose terminate handler was not replaced"
fi

# The start-up path first in the text (packaging/startup_hot.ld): its output
# section exists and holds _start and main, so the script took effect.
if [ $ordered = yes ]; then
  section=$(LC_ALL=C readelf -SW "$binary" | sed -n 's/.*\] \.text\.startup_first *PROGBITS *\([0-9a-f]*\) [0-9a-f]* \([0-9a-f]*\) .*/\1 \2/p')
  [ -n "$section" ] || fail "no .text.startup_first section: packaging/startup_hot.ld was not applied"
  set -- $section
  start=$((0x$1)); end=$((0x$1 + 0x$2))
  for symbol in _start main; do
    address=$(nm "$binary" | sed -n "s/^\([0-9a-f]*\) T $symbol\$/\1/p")
    [ -n "$address" ] || fail "no symbol $symbol"
    address=$((0x$address))
    [ $address -ge $start ] && [ $address -lt $end ] || fail "$symbol lies outside .text.startup_first"
  done
  echo "start-up code first: _start and main in .text.startup_first"
fi
