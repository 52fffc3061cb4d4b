#!/usr/bin/env bash
# Installs the Debian 12 packages acl-cpu builds with, skipping apt entirely
# when they are all present.
set -euo pipefail

# openmpi-bin: only its launcher, for the test that starts the HCCL sample's
# ranks with mpirun (acl-cpu's collectives do not use MPI).
# libblis-pthread-dev: the GEMM library (ops/common/gemm.hpp).
packages=(build-essential cmake libtbb-dev libgtest-dev libgmock-dev libbenchmark-dev nlohmann-json3-dev libhwy-dev
          libgloo-dev openmpi-bin clang libclang-rt-14-dev libblis-pthread-dev)

missing=()
for package in "${packages[@]}"; do
  dpkg -s "$package" >/dev/null 2>&1 || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo_cmd=()
[[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)
echo "acl-cpu: installing ${missing[*]}"
"${sudo_cmd[@]}" apt-get update -qq
DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
