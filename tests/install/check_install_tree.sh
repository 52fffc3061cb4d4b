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
         lib64/libopapi.so lib64/libc_sec.so set_env.sh lib64/cmake/acl-cpu/acl-cpuConfig.cmake; do
  [[ -e "$prefix/$f" ]] || { echo "missing from install tree: $f"; exit 1; }
done

g++ -std=c++11 -Wall -Wextra -pedantic "${extra_flags[@]}" -I"$prefix/include" -I"$prefix/include/aclnnop" "$program" \
    -o "$prefix/program" -L"$prefix/lib64" -lascendcl -lnnopbase -lopapi_nn
# shellcheck disable=SC1091
source "$prefix/set_env.sh"
[[ "$ASCEND_HOME_PATH" == "$prefix" ]] || { echo "set_env.sh exported ASCEND_HOME_PATH=$ASCEND_HOME_PATH"; exit 1; }
"$prefix/program"
