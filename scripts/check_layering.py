#!/usr/bin/env python3
"""Fails when an #include crosses one of acl-cpu's layers the wrong way.

The layers, bottom up (docs/architecture.md draws them):

  public       include/ (and the aclnnop headers ops/aclnn_api.py writes into the build
               tree): CANN's installed headers
  dtype        runtime/dtype/include: data type facts, below both libraries
  runtime-if   runtime/include: the runtime's interface to the libraries on it
  runtime      runtime/{api,core,observe}: private to libascendcl
  nnopbase-if  ops/base/include: libnnopbase's interface to the operators
  nnopbase     ops/base (the rest): private to libnnopbase
  operators    ops/ (the rest): private to the operator libraries
  tests        tests/, ops/*/tests/, bench/: reach interfaces, never privates
  tiling-tests ops/*/tests/tiling_*.cpp and ops/common/tests/: white-box tests
               of the operators' tilings, which reach the operators' privates
  hccl         hccl/ (but its tests): private to libhccl, on the runtime's interface
  hccl-tests   hccl/tests/: white-box tests of libhccl's algorithms and kernels
  samples      samples/: CANN's public headers only, as a user's program

Within runtime/, core/ reaches observe/ only through its hooks
(observe/runtime_hooks.hpp), and neither core/ nor observe/ reaches api/.

Usage: check_layering.py [REPO_ROOT]; prints each violation and exits 1 if
there is any.  Includes that resolve to no file of the tree (system and
third-party headers, and the generated aclnnop headers, which are public)
are skipped.
"""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent.parent)
SOURCE_SUFFIXES = {".h", ".hpp", ".c", ".cc", ".cpp"}
SCANNED = ("include", "runtime", "ops", "hccl", "tests", "bench", "samples")
# Folders a quoted include is looked up in, after the including file's own.
INCLUDE_ROOTS = ("include", "include/aclnnop", "runtime", "runtime/include", "runtime/dtype/include", "ops",
                 "ops/base/include", "tests", "tests/support", "bench", "samples")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)

ALLOWED = {
    "public": {"public"},
    "dtype": {"public", "dtype"},
    "runtime-if": {"public", "dtype", "runtime-if"},
    "runtime": {"public", "dtype", "runtime-if", "runtime"},
    "nnopbase-if": {"public", "dtype", "runtime-if", "nnopbase-if"},
    "nnopbase": {"public", "dtype", "runtime-if", "nnopbase-if", "nnopbase"},
    "operators": {"public", "dtype", "runtime-if", "nnopbase-if", "operators"},
    "tests": {"public", "dtype", "runtime-if", "nnopbase-if", "tests"},
    "tiling-tests": {"public", "dtype", "runtime-if", "nnopbase-if", "operators", "tiling-tests"},
    "hccl": {"public", "dtype", "runtime-if", "hccl"},
    "hccl-tests": {"public", "dtype", "runtime-if", "hccl", "hccl-tests"},
    "samples": {"public", "samples"},
}


def layer_of(path: pathlib.Path) -> str:
    parts = path.relative_to(ROOT).parts
    top = parts[0]
    if top == "include":
        return "public"
    if top == "samples":
        return "samples"
    if top == "hccl":
        return "hccl-tests" if parts[1] == "tests" else "hccl"
    if top == "ops" and "tests" in parts and (parts[1] == "common" or parts[-1].startswith("tiling_")):
        return "tiling-tests"
    if top in ("tests", "bench") or (top == "ops" and "tests" in parts):
        return "tests"
    if top == "runtime":
        if parts[1] == "dtype":
            return "dtype"
        return "runtime-if" if parts[1] == "include" else "runtime"
    if top == "ops":
        if parts[1] == "base":
            return "nnopbase-if" if parts[2] == "include" else "nnopbase"
        return "operators"
    raise ValueError(f"{path} is in no layer")


def resolve(including: pathlib.Path, name: str):
    # libhccl's sources name its headers from hccl/ ("core/group.hpp"), first.
    own = ("hccl",) if including.relative_to(ROOT).parts[0] == "hccl" else ()
    for folder in (including.parent, *(ROOT / r for r in (*own, *INCLUDE_ROOTS))):
        candidate = (folder / name).resolve()
        if candidate.is_file() and ROOT in candidate.parents:
            return candidate
    return None


def runtime_room(path: pathlib.Path):
    parts = path.relative_to(ROOT).parts
    return parts[1] if parts[0] == "runtime" and len(parts) > 2 else None


def room_violation(source: pathlib.Path, target: pathlib.Path):
    """Rules between the rooms of runtime/."""
    here, there = runtime_room(source), runtime_room(target)
    if here in ("core", "observe") and there == "api":
        return f"runtime/{here} reaches the API room"
    if here == "core" and there == "observe" and target.name != "runtime_hooks.hpp":
        return "runtime/core reaches an observer (only observe/runtime_hooks.hpp is the core's)"
    return None


def violations():
    for top in SCANNED:
        for source in sorted((ROOT / top).rglob("*")):
            if source.suffix not in SOURCE_SUFFIXES or not source.is_file():
                continue
            source_layer = layer_of(source)
            for name in INCLUDE.findall(source.read_text(errors="replace")):
                target = resolve(source, name)
                if target is None:
                    continue
                target_layer = layer_of(target)
                where = f"{source.relative_to(ROOT)}: #include \"{name}\""
                if target_layer not in ALLOWED[source_layer]:
                    yield f"{where}: {source_layer} must not reach {target_layer} ({target.relative_to(ROOT)})"
                elif (problem := room_violation(source, target)) is not None:
                    yield f"{where}: {problem}"


def main():
    found = list(violations())
    for line in found:
        print(line)
    print(f"layering: {len(found)} violation(s)")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
