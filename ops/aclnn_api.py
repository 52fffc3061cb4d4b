#!/usr/bin/env python3
"""Writes acl-cpu's aclnnop headers from their declaration lists.

CANN generates its aclnn headers from operator definitions; acl-cpu keeps one
list per operator folder (ops/<family>/aclnn_api.toml) and per part of
ops/not_yet/ (ops/not_yet/<part>/aclnn_api.toml), and the configuration runs
this script to write each header it lists into the build tree's
include/aclnnop/ (cmake/operators.cmake), from where it is installed.  The
lists also drive the "not yet" definitions (ops/not_yet/generate_stubs.py)
and the README's API coverage (scripts/api_coverage.py).

A list (TOML):

  [[header]]                one aclnnop header
  file = "aclnn_x.h"
  doc = "..."               what it declares: the header's comment
  order = ["aclnnXGetWorkspaceSize", ...]
                            only where CANN's header orders its declarations
                            otherwise than each phase 1 followed by its phase 2
  [[header.api]]            one entry point, in the header's order
  name = "aclnnX"           CANN's name
  params = [...]            its own parameters: phase 1, aclnnXGetWorkspaceSize,
                            takes them and `uint64_t* workspaceSize,
                            aclOpExecutor** executor`; phase 2, aclnnX, takes
                            `void* workspace, uint64_t workspaceSize,
                            aclOpExecutor* executor, aclrtStream stream`
  comment = "..."           optional: a comment above its declaration

and where CANN's header declares the entry point otherwise, the entry says so:

  const_stream = true       phase 2's stream is `const aclrtStream stream`
  phase1_tail = [...]       phase 1's trailing parameters
  phase2 = [...]            phase 2's parameters
  single_phase = true       a single function aclnnX(params), no phases

Usage: aclnn_api.py OUTPUT_DIR LIST...  writes the headers of the lists into
OUTPUT_DIR (a file only when its text changes) and prints their paths, one a
line.
"""
import dataclasses
import pathlib
import sys
import textwrap
import tomllib

ROOT = pathlib.Path(__file__).resolve().parent.parent
PHASE1 = "GetWorkspaceSize"
PHASE1_TAIL = ["uint64_t* workspaceSize", "aclOpExecutor** executor"]
PHASE2 = ["void* workspace", "uint64_t workspaceSize", "aclOpExecutor* executor", "aclrtStream stream"]
CONST_STREAM_PHASE2 = PHASE2[:-1] + ["const aclrtStream stream"]
HEADER_KEYS = {"file", "doc", "order", "api"}
API_KEYS = {"name", "params", "comment", "const_stream", "phase1_tail", "phase2", "single_phase"}
LINE_WIDTH = 120
COMMENT_WIDTH = 100


@dataclasses.dataclass
class Function:
    name: str
    params: list
    comment: str = None


@dataclasses.dataclass
class Header:
    file: str
    doc: str
    functions: list  # [Function] in declaration order
    source: pathlib.Path


def _entry_functions(entry, where):
    """The functions of one [[header.api]] entry: its two phases, or the single one."""
    unknown = set(entry) - API_KEYS
    if unknown or "name" not in entry or "params" not in entry:
        sys.exit(f"aclnn_api: {where}: an entry needs name and params and takes only {sorted(API_KEYS)}")
    name, params, comment = entry["name"], entry["params"], entry.get("comment")
    if entry.get("single_phase"):
        return [Function(name, params, comment)]
    phase2 = entry.get("phase2", CONST_STREAM_PHASE2 if entry.get("const_stream") else PHASE2)
    return [Function(name + PHASE1, params + entry.get("phase1_tail", PHASE1_TAIL), comment),
            Function(name, phase2)]


def _header(table, source):
    where = f"{source}: {table.get('file')}"
    if set(table) - HEADER_KEYS or not {"file", "doc", "api"} <= set(table):
        sys.exit(f"aclnn_api: {where}: a header needs file, doc and api and takes only {sorted(HEADER_KEYS)}")
    functions = [function for entry in table["api"] for function in _entry_functions(entry, where)]
    by_name = {function.name: function for function in functions}
    if len(by_name) != len(functions):
        sys.exit(f"aclnn_api: {where}: a function is declared twice")
    if "order" in table:
        if sorted(table["order"]) != sorted(by_name):
            sys.exit(f"aclnn_api: {where}: order must name each function once: {sorted(by_name)}")
        functions = [by_name[name] for name in table["order"]]
    return Header(table["file"], table["doc"], functions, source)


def load(source):
    """The headers one list declares, in its order."""
    source = pathlib.Path(source)
    with source.open("rb") as stream:
        tables = tomllib.load(stream).get("header", [])
    return [_header(table, source) for table in tables]


def _fill(lines, indent, pieces):
    """Appends pieces to the last of lines, a space between two, opening a new line at indent before one
    that would pass LINE_WIDTH."""
    for piece in pieces:
        last = lines[-1]
        if last.endswith("(") or last == indent:
            lines[-1] = last + piece
        elif len(last) + 1 + len(piece) <= LINE_WIDTH:
            lines[-1] = last + " " + piece
        else:
            lines.append(indent + piece)
    return lines


def _declaration(function):
    """`ACLNN_API aclnnStatus name(params);`, wrapped at LINE_WIDTH under the parenthesis or, where a
    parameter does not fit there, four columns in."""
    head = f"ACLNN_API aclnnStatus {function.name}("
    pieces = [param + "," for param in function.params[:-1]] + [function.params[-1] + ");"]
    lines = _fill([head], " " * len(head), pieces)
    if any(len(line) > LINE_WIDTH for line in lines):
        lines = _fill([head, " " * 4], " " * 4, pieces)
    return "\n".join(lines)


def _shown(path):
    path = pathlib.Path(path).resolve()
    return path.relative_to(ROOT) if ROOT in path.parents else path


def render(header):
    """The text of an aclnnop header."""
    guard = "ACL_CPU_" + header.file.upper().replace(".", "_") + "_"
    doc = textwrap.wrap(f"aclnnop/{header.file}: {header.doc}", COMMENT_WIDTH)
    origin = textwrap.wrap(f"Written by ops/aclnn_api.py from {_shown(header.source)}: edit that list, "
                           "not this file.", COMMENT_WIDTH)
    lines = ["/*", " * acl-cpu: AscendCL on the CPU.", " *"]
    lines += [f" * {line}" for line in doc] + [" *"] + [f" * {line}" for line in origin] + [" */"]
    lines += [f"#ifndef {guard}", f"#define {guard}", "", '#include "aclnn/aclnn_base.h"', '#include "aclnn_util.h"',
              "", "#ifdef __cplusplus", 'extern "C" {', "#endif", ""]
    for function in header.functions:
        if function.comment:
            lines += [""] * (lines[-1] != "") + [f"/* {function.comment} */"]
        lines.append(_declaration(function))
    lines += ["", "#ifdef __cplusplus", "}", "#endif", "", f"#endif /* {guard} */", ""]
    return "\n".join(lines)


def main():
    output = pathlib.Path(sys.argv[1])
    output.mkdir(parents=True, exist_ok=True)
    for source in sys.argv[2:]:
        for header in load(source):
            path = output / header.file
            text = render(header)
            if not path.exists() or path.read_text() != text:
                path.write_text(text)
            print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
