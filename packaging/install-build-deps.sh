#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what building and testing ddtime needs, from Debian's archive,
# plus any package named on the command line (packaging/test-deb.sh asks
# for the Debian packaging tools this way).
# Idempotent: packages already present are left alone. Needs root (or sudo).
set -eu

# liburing-dev, libaio-dev: the io_uring and Linux AIO engines (--iodepth); fuse3/libfuse3-dev: the
# fault-injection filesystem; clang and
# libclang-rt-14-dev: the libFuzzer targets; valgrind: the valgrind.* tests;
# python3: tests/bench/compare.py and the combination test tests/combo/combo.py
# (a fresh Debian 12 has none, and CMake then leaves those tests out);
# e2fsprogs: mkfs.ext4 for the combination test's loop-mounted file system;
# nlohmann-json3-dev: --compare's (and the tests') JSON parser;
# libboost-math-dev: --compare's normal distribution (header only).
# librsvg2-bin: rsvg-convert, with which the svg.render test renders --svg's files.
# clang-format: the style.format test (tests/tools/check_format.sh).
# zsh, fish: the completion.zsh.load and completion.fish.load tests load
# the completions in the real shells.
# python3-jsonschema: the tests that validate every JSON document against
# docs/ddtime.schema.json (docs.json_schema, schema.e2e_corpus, combo.ci).
packages="cmake ninja-build g++ pkg-config libfmt-dev libboost-program-options-dev libboost-math-dev
  nlohmann-json3-dev libgtest-dev liburing-dev libaio-dev mandoc
  fuse3 libfuse3-dev clang libclang-rt-14-dev valgrind python3 python3-jsonschema e2fsprogs librsvg2-bin clang-format zsh fish $*"

missing=""
for package in $packages; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing="$missing $package"
  fi
done

if [ -z "$missing" ]; then
  echo "install-build-deps: all build dependencies are installed:$(printf ' %s' $packages)"
  exit 0
fi

as_root=""
if [ "$(id -u)" -ne 0 ]; then
  as_root="sudo"
fi

echo "install-build-deps: installing:$missing"
$as_root apt-get update -qq
DEBIAN_FRONTEND=noninteractive $as_root apt-get install -y -qq --no-install-recommends $missing
echo "install-build-deps: done"
