#!/usr/bin/env bash
# Installs the build tree into a scratch prefix, then builds and runs a
# CANN-style host program against it exactly as CANN's documentation builds
# samples: plain g++ -std=c++11, the two include folders, three libraries.
# Usage: check_install_tree.sh BUILD_DIR PROGRAM [EXTRA_GXX_FLAGS...]; a
# sanitizer build passes its -fsanitize flags, which its libraries need.
set -euo pipefail
build_dir="$1"
program="$2"
extra_flags=("${@:3}")
prefix="$(mktemp -d)"
trap 'rm -rf "$prefix"' EXIT

cmake --install "$build_dir" --prefix "$prefix" >/dev/null
for f in include/acl/acl.h include/acl/acl_base.h include/acl/acl_rt.h \
         include/aclnn/acl_meta.h include/aclnn/aclnn_base.h include/aclnnop/aclnn_util.h \
         lib64/libascendcl.so lib64/libacl_rt.so lib64/libnnopbase.so lib64/libopapi_nn.so \
         lib64/libopapi.so lib64/libc_sec.so set_env.sh lib64/cmake/acl-cpu/acl-cpuConfig.cmake \
         include/mstx/ms_tools_ext.h bin/setenv.bash bin/aclcpu-soc-name bin/aclcpu-explore \
         tikcpp/ascendc_kernel_cmake/ascendc.cmake lib64/libacl_rt_impl.so lib64/libmsprofiler.so \
         lib64/libprofapi.so lib64/libms_tools_ext.so lib64/libascend_dump.so lib64/libacl_tdt_channel.so \
         lib64/libacl_tdt_queue.so lib64/libacl_dvpp.so lib64/libopapi_math.so lib64/libopapi_transformer.so \
         lib64/libopapi_cv.so lib64/libacl_op_compiler.so; do
  [[ -e "$prefix/$f" ]] || { echo "missing from install tree: $f"; exit 1; }
done

# Every operator header of the build tree (the operators' and ops/not_yet/'s) is installed.
for header in "$build_dir"/include/aclnnop/aclnn_*.h; do
  [[ -e "$prefix/include/aclnnop/${header##*/}" ]] || { echo "missing from install tree: aclnnop/${header##*/}"; exit 1; }
done

g++ -std=c++11 -Wall -Wextra -pedantic "${extra_flags[@]}" -I"$prefix/include" -I"$prefix/include/aclnnop" "$program" \
    -o "$prefix/program" -L"$prefix/lib64" -lascendcl -lnnopbase -lopapi_nn
# shellcheck disable=SC1091
source "$prefix/set_env.sh"
[[ "$ASCEND_HOME_PATH" == "$prefix" ]] || { echo "set_env.sh exported ASCEND_HOME_PATH=$ASCEND_HOME_PATH"; exit 1; }
"$prefix/program"

# bin/setenv.bash, which CANN's example scripts source: SOC_VERSION is the
# SoC the library emulates (asked, not assumed), and ASCENDC_CMAKE_DIR holds
# an ascendc.cmake that refuses kernel libraries with its reason.
(
  unset SOC_VERSION
  export ACLCPU_SOC=Ascend910B3
  # shellcheck disable=SC1091
  source "$prefix/bin/setenv.bash"
  [[ "$SOC_VERSION" == Ascend910B3 ]] || { echo "setenv.bash exported SOC_VERSION=$SOC_VERSION"; exit 1; }
  mkdir -p "$prefix/kernel-project"
  printf 'cmake_minimum_required(VERSION 3.16)\nproject(kernels NONE)\ninclude(%s/ascendc.cmake)\n%s\n' \
    "$ASCENDC_CMAKE_DIR" 'ascendc_library(kernels STATIC add_custom.asc)' >"$prefix/kernel-project/CMakeLists.txt"
  if output=$(cmake -S "$prefix/kernel-project" -B "$prefix/kernel-project/build" 2>&1); then
    echo "a project declaring an Ascend C kernel library configured against ascendc.cmake"; exit 1
  fi
  grep -q "no Ascend C compiler" <<<"$output" || { echo "ascendc.cmake refused without its reason: $output"; exit 1; }
)
