#!/usr/bin/env python3
"""The README's API coverage, generated from the public headers so that it cannot drift.

For every public header of include/ it counts the functions declared (ACL_FUNC_VISIBILITY,
MSVP_PROF_API, ACL_DUMP_API, SECUREC_API, HCCL_API declarations), and for the operator headers
(installed as include/aclnnop/, one row per operator library) the functions their declaration lists
(ops/*/aclnn_api.toml, ops/not_yet/*/aclnn_api.toml; ops/aclnn_api.py) declare, and sorts each into:

  implemented      exported by the built libraries and not an unsupported entry point
  unsupported      exported, but its whole body is `return not_supported(__func__, kWhy);`
                   (runtime/api/unsupported.hpp): it has no meaning without Ascend hardware
  not yet          declared but not exported: a program calling it does not link yet; or an
                   aclnn function exported only by its weak "not yet" definition
                   (ops/not_yet/): it links and answers 561112

and writes the section between the README's markers:

  api_coverage.py BUILD_DIR --write README.md   rewrites the section
  api_coverage.py BUILD_DIR --check README.md   fails (exit 1) when the section is stale
  api_coverage.py BUILD_DIR                     prints the section
"""
import argparse
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "ops"))
import aclnn_api  # noqa: E402  (ops/aclnn_api.py: the operator headers' declaration lists)

BEGIN = "<!-- api-coverage:begin (scripts/api_coverage.py writes this section) -->"
END = "<!-- api-coverage:end -->"
LIBRARIES = ("runtime/libascendcl.so", "ops/libnnopbase.so", "ops/libopapi.so", "hccl/libhccl.so", "runtime/libc_sec.so")
EXPORT_MACROS = r"(?:ACL_FUNC_VISIBILITY|MSVP_PROF_API|ACL_DUMP_API|SECUREC_API|HCCL_API|ACLNN_API)"
DECLARATION = re.compile(EXPORT_MACROS + r"\s+([^;{}#]*?)\b(\w+)\s*\([^;{}]*\)\s*;", re.S)
# An unsupported entry point: a definition whose whole body returns not_supported(__func__, why).
UNSUPPORTED = re.compile(r"\b(\w+)\s*\([^;{}]*\)\s*(?:noexcept\s*)?\{\s*return\s+not_supported\(__func__,\s*"
                         r"(\"(?:[^\"\\]|\\.)*\"|\w+)\s*\);\s*\}", re.S)
# An operator folder's library: aclcpu_add_operator(<folder> LIBRARY <library>) in ops/CMakeLists.txt.
OPERATOR_LIBRARY = re.compile(r"aclcpu_add_operator\(\s*(\w+)\s+LIBRARY\s+(\w+)\s*\)")
PHASE1 = aclnn_api.PHASE1
# The row of an operator library's aclnnop headers: "aclnnop/ of libopapi_math (47 headers)".
OPERATOR_ROW = re.compile(r"aclnnop/ of (lib\w+) \((\d+) headers?\)")
REASON_CONSTANT = re.compile(r"constexpr\s+(?:const\s+)?char\s*(?:\*\s*)?(\w+)\s*(?:\[\])?\s*=\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+);")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    return re.sub(r"//[^\n]*", " ", text)


def declarations(header):
    """The functions header declares, in order (deprecation marks removed)."""
    text = strip_comments(header.read_text(errors="replace"))
    text = re.sub(r"^\s*#[^\n]*(\\\n[^\n]*)*", " ", text, flags=re.M)
    text = re.sub(r"ACL_DEPRECATED_MESSAGE\s*\(\s*\"(?:[^\"\\]|\\.)*\"\s*\)|ACL_DEPRECATED\b", " ", text)
    return [match.group(2) for match in DECLARATION.finditer(text)]


def declared_functions():
    """{header: [function, ...]} over include/, then {"aclnnop/ of lib<library> (N headers)": [...]} over
    the operator headers of each library (the lists of ops/<folder>/ by ops/CMakeLists.txt and of
    ops/not_yet/<part>/)."""
    headers = {}
    for header in sorted((ROOT / "include").rglob("*.h")):
        names = declarations(header)
        if names:
            headers[str(header.relative_to(ROOT / "include"))] = names
    folders = dict(OPERATOR_LIBRARY.findall((ROOT / "ops" / "CMakeLists.txt").read_text()))
    by_library = {}
    for source in sorted((ROOT / "ops").glob("*/aclnn_api.toml")):
        by_library.setdefault(folders.get(source.parent.name), []).extend(aclnn_api.load(source))
    for source in sorted((ROOT / "ops" / "not_yet").glob("*/aclnn_api.toml")):
        by_library.setdefault("opapi_" + source.parent.name, []).extend(aclnn_api.load(source))
    for library, files in sorted(by_library.items(), key=lambda item: str(item[0])):
        names = [function.name for header in files for function in header.functions]
        plural = "s" if len(files) != 1 else ""
        headers[f"aclnnop/ of lib{library} ({len(files)} header{plural})"] = names
    return headers


def exported_symbols(build_dir):
    """{symbol: nm's type letter} over the built libraries (W: a weak, i.e. "not yet", definition)."""
    symbols = {}
    for library in LIBRARIES:
        path = build_dir / library
        if not path.exists():
            continue
        output = subprocess.run(["nm", "-D", "--defined-only", str(path)], check=True, capture_output=True,
                                text=True).stdout
        for line in output.splitlines():
            fields = line.split()
            if len(fields) >= 2:
                symbols.setdefault(fields[-1], fields[-2])
    return symbols


def unsupported_functions():
    """{function: reason} for every unsupported entry point in the libraries' sources."""
    reasons = {}
    for source in sorted(ROOT.glob("runtime/**/*.cpp")):
        text = strip_comments(source.read_text(errors="replace"))
        constants = {name: "".join(re.findall(r"\"((?:[^\"\\]|\\.)*)\"", value))
                     for name, value in REASON_CONSTANT.findall(text)}
        for name, why in UNSUPPORTED.findall(text):
            reasons[name] = why[1:-1] if why.startswith('"') else constants.get(why, why)
    return reasons


def operator_of(function):
    """aclnnAbsGetWorkspaceSize and aclnnAbs -> Abs: an operator is its two phases."""
    name = function[len("aclnn"):] if function.startswith("aclnn") else function
    return name[:-len(PHASE1)] if name.endswith(PHASE1) else name


def row_label(header):
    """A header's first column: `acl/acl_rt.h`, or `aclnnop/` of `libopapi_math` (47 headers)."""
    row = OPERATOR_ROW.fullmatch(header)
    if row is None:
        return f"`{header}`"
    return f"`aclnnop/` of `{row.group(1)}` ({header[header.index('(') + 1:-1]})"


def operator_summary(headers, stubbed):
    """The aclnn operators implemented and not yet, and the not-yet ones by library."""
    operators = {operator_of(name): True for header, names in headers.items() if OPERATOR_ROW.fullmatch(header)
                 for name in names}
    for names in stubbed.values():
        for name in names:
            operators[operator_of(name)] = False
    done = sum(operators.values())
    lines = [f"aclnn operators (an entry point with its {PHASE1} phase): **{done} implemented, "
             f"{len(operators) - done} not yet**. A not-yet one links (its definition is generated by "
             "ops/not_yet/) and answers `ACLNN_ERR_INNER_OPP_KERNEL_PKG_NOT_FOUND` (561112) in both phases, "
             "naming itself in `aclGetRecentErrMsg`:", ""]
    for header, names in stubbed.items():
        not_yet = sorted({operator_of(name) for name in names})
        lines.append(f"- `{OPERATOR_ROW.fullmatch(header).group(1)}`: " + ", ".join(f"`{name}`" for name in not_yet))
    return "\n".join(lines)


def section(build_dir):
    headers = declared_functions()
    exported = exported_symbols(build_dir)
    unsupported = unsupported_functions()
    lines = [BEGIN, "",
             "| header | declared | implemented | unsupported by design | not yet |",
             "|---|---:|---:|---:|---:|"]
    missing, refused, stubbed = {}, {}, {}
    totals = [0, 0, 0, 0]
    for header, names in headers.items():
        counts = [len(names), 0, 0, 0]
        operator_row = OPERATOR_ROW.fullmatch(header) is not None
        for name in names:
            if operator_row and exported.get(name) == "W":
                counts[3] += 1
                stubbed.setdefault(header, []).append(name)
            elif name not in exported:
                counts[3] += 1
                missing.setdefault(header, []).append(name)
            elif name in unsupported:
                counts[2] += 1
                refused.setdefault(unsupported[name], []).append(name)
            else:
                counts[1] += 1
        totals = [a + b for a, b in zip(totals, counts)]
        lines.append(f"| {row_label(header)} | " + " | ".join(str(c) for c in counts) + " |")
    lines.append("| **all** | " + " | ".join(f"**{c}**" for c in totals) + " |")
    if refused:
        lines += ["", "Unsupported by design (each returns `ACL_ERROR_RT_FEATURE_NOT_SUPPORT`, 207000, and says "
                  "why in `aclGetRecentErrMsg`):", ""]
        for why, names in sorted(refused.items()):
            lines.append(f"- {why}: " + ", ".join(f"`{name}`" for name in sorted(names)))
    if any(OPERATOR_ROW.fullmatch(header) for header in headers):
        lines += ["", operator_summary(headers, stubbed)]
    if missing:
        lines += ["", "Not yet in acl-cpu (a program calling one of these does not link yet):", ""]
        for header, names in missing.items():
            lines.append(f"- `{header}`: " + ", ".join(f"`{name}`" for name in sorted(names)))
    lines += ["", END]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build_dir", type=pathlib.Path)
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--write", type=pathlib.Path, metavar="README")
    action.add_argument("--check", type=pathlib.Path, metavar="README")
    args = parser.parse_args()
    generated = section(args.build_dir)
    target = args.write or args.check
    if target is None:
        print(generated)
        return 0
    text = target.read_text()
    if BEGIN not in text or END not in text:
        sys.exit(f"api_coverage: {target} has no section between {BEGIN} and {END}")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    if args.check:
        if text[start:end] == generated:
            return 0
        print(f"api_coverage: the API coverage in {target} is stale; run scripts/api_coverage.py "
              f"{args.build_dir} --write {target}")
        return 1
    target.write_text(text[:start] + generated + text[end:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
