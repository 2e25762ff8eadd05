#!/usr/bin/env bash
# Installs the Debian packages autopart needs, only those missing, so that a
# machine that already has them pays nothing. (chromium: the HTML report's
# browser test, tests/report/render_test.py.)
set -euo pipefail
packages=(cmake ninja-build g++ clang libgtest-dev libgmock-dev libbenchmark-dev
          pybind11-dev python3-dev python3-venv
          llvm-14-tools libcli11-dev nlohmann-json3-dev libyaml-cpp-dev python3
          libclang-rt-14-dev coinor-libcbc-dev pkg-config chromium
          libeigen3-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
