# ggml's CANN backend built unchanged against a fresh acl-cpu install tree:
# the steps scripts/ggml_backend_ops.sh and scripts/ggml_model.sh share.
# Sourced (under set -euo pipefail) after `root` and `build_dir` are set;
# defines:
#   ggml_source_or_skip NAME [SOURCE]  sets ggml_tarball to SOURCE, or to
#       ../shared/third_party/ggml-d99724f.tar.gz beside the repository; when
#       it does not exist says so and exits 0 (CI has no network).
#   ggml_install_aclcpu                builds acl-cpu's installed targets and
#       installs them into $ggml_work/prefix (removed first).
#   ggml_unpack                        sets ggml_source: a tree is used where
#       it is; a tarball is unpacked once per content (its checksum in a
#       stamp) into $ggml_work/source, so that ggml's build directories stay
#       valid across runs.
#   ggml_configure BUILD_DIR [CMAKE_ARGS...]  configures ggml as its
#       documentation says for CANN (-DGGML_CANN=ON -DSOC_TYPE=Ascend910B3
#       -DCANN_INSTALL_DIR=<prefix>) into BUILD_DIR, with ccache when present.
ggml_work="$build_dir/ggml-backend-ops"
ggml_prefix="$ggml_work/prefix"

ggml_source_or_skip() {
  local name="$1"
  ggml_tarball="${2:-$root/../shared/third_party/ggml-d99724f.tar.gz}"
  if [[ ! -e "$ggml_tarball" ]]; then
    echo "$name: no ggml source at $ggml_tarball; skipped (pass a ggml tree or tarball)"
    exit 0
  fi
  ggml_tarball="$(cd "$(dirname "$ggml_tarball")" && pwd)/$(basename "$ggml_tarball")"
  mkdir -p "$ggml_work"
}

ggml_install_aclcpu() {
  echo "== acl-cpu: building the installed targets of $build_dir and installing them into $ggml_prefix"
  cmake --build "$build_dir" -j2 --target ascendcl nnopbase opapi opapi_nn opapi_math opapi_transformer opapi_cv \
    hccl c_sec aclcpu_soc_name aclcpu_explore
  rm -rf "$ggml_prefix"
  cmake --install "$build_dir" --prefix "$ggml_prefix" >/dev/null
}

ggml_unpack() {
  if [[ -d "$ggml_tarball" ]]; then
    ggml_source="$ggml_tarball"
    return
  fi
  local checksum
  checksum="$(sha256sum "$ggml_tarball" | cut -d' ' -f1)"
  if [[ "$(cat "$ggml_work/source.stamp" 2>/dev/null)" != "$checksum" ]]; then
    # Every build of the old source goes with it.
    rm -rf "$ggml_work/source" "$ggml_work"/build* "$ggml_work/source.stamp"
    mkdir -p "$ggml_work/source"
    tar -xzf "$ggml_tarball" -C "$ggml_work/source" --strip-components=1
    echo "$checksum" >"$ggml_work/source.stamp"
  fi
  ggml_source="$ggml_work/source"
}

ggml_configure() {
  local dir="$1" launcher=()
  shift
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S "$ggml_source" -B "$dir" -DGGML_CANN=ON -DSOC_TYPE=Ascend910B3 -DCANN_INSTALL_DIR="$ggml_prefix" \
    "${launcher[@]}" "$@" >"$dir.configure.log" 2>&1 || { cat "$dir.configure.log"; exit 1; }
}
