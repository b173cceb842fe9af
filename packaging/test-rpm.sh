#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the RPM package from packaging/rpm/ddtime.spec with rpmbuild, from
# a tarball of the tracked files and of new ones not yet ignored. On Debian
# (apt-get install rpm) the BuildRequires name Fedora packages that the rpm
# database here does not know, so they are not checked (--nodeps): the
# Debian build dependencies stand in for them.
#
# Usage: packaging/test-rpm.sh [rpmbuild options...], e.g. --without check
# The packages are left in build/rpm/RPMS and build/rpm/SRPMS.
set -euo pipefail

cd "$(dirname "$0")/.."
top=$PWD
spec=packaging/rpm/ddtime.spec
version=$(sed -n 's/^Version: *//p' "$spec")
out=$top/build/rpm
rm -rf "$out"
mkdir -p "$out/SOURCES"
packaging/stage-source.sh "$out/stage/ddtime-$version"
tar -C "$out/stage" -czf "$out/SOURCES/ddtime-$version.tar.gz" "ddtime-$version"

rpmbuild -ba --nodeps \
  --define "_topdir $out" \
  --define "_smp_mflags -j2" \
  "$@" "$spec"
echo "test-rpm: built:"
find "$out/RPMS" "$out/SRPMS" -name '*.rpm' -printf '  %p\n'
