#!/bin/sh
# Installs what building and testing ddtime needs, from Debian's archive.
# Idempotent: packages already present are left alone. Needs root (or sudo).
set -eu

packages="cmake ninja-build g++ libboost-program-options-dev libfmt-dev libgtest-dev"

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
