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
         include/aclnn/acl_meta.h include/aclnn/aclnn_base.h include/aclnn/opdev/fp16_t.h include/aclnnop/aclnn_util.h \
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
# an ascendc.cmake that declares kernel libraries empty, saying why: a program
# that links one without launching its kernels builds (most of CANN's
# examples), one that launches them does not link.
(
  unset SOC_VERSION
  export ACLCPU_SOC=Ascend910B3
  # shellcheck disable=SC1091
  source "$prefix/bin/setenv.bash"
  [[ "$SOC_VERSION" == Ascend910B3 ]] || { echo "setenv.bash exported SOC_VERSION=$SOC_VERSION"; exit 1; }
  mkdir -p "$prefix/kernel-project"
  printf 'int launch_kernel(void);\nint main(void) { return launch_kernel(); }\n' >"$prefix/kernel-project/launches.c"
  printf 'int main(void) { return 0; }\n' >"$prefix/kernel-project/host_only.c"
  cat >"$prefix/kernel-project/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.16)
project(kernels C)
include($ASCENDC_CMAKE_DIR/ascendc.cmake)
ascendc_library(kernels STATIC add_custom.asc)
add_executable(host_only host_only.c)
target_link_libraries(host_only PRIVATE kernels)
add_executable(launches launches.c)
target_link_libraries(launches PRIVATE kernels)
EOF
  output=$(cmake -S "$prefix/kernel-project" -B "$prefix/kernel-project/build" 2>&1) ||
    { echo "a project declaring an Ascend C kernel library did not configure: $output"; exit 1; }
  grep -q "no Ascend C compiler" <<<"$output" || { echo "ascendc.cmake said nothing of the kernels: $output"; exit 1; }
  cmake --build "$prefix/kernel-project/build" --target host_only >/dev/null ||
    { echo "a program linking an unused kernel library did not build"; exit 1; }
  if cmake --build "$prefix/kernel-project/build" --target launches >/dev/null 2>&1; then
    echo "a program launching a kernel linked against the empty kernel library"; exit 1
  fi
)
