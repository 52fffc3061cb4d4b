#!/usr/bin/python3
"""Compares acl-cpu's operators with PyTorch's CPU kernels for the same operations.

Runs (or reads the JSON of) acl-cpu's benchmark binary, times the PyTorch peer of each
operator on the same sizes, dtypes, data and thread count, and writes to the results
directory:

  comparison.md       operator, dtype, size, acl-cpu GB/s, PyTorch GB/s, speed-up, fraction of triad
  comparison.png      GB/s against size: acl-cpu, PyTorch and STREAM triad
  README_section.md   the README's performance section: targets, the table at 256 Ki, 1 Mi and 16 Mi, the plot

The bytes model lives in the C++ benchmark only (OperatorCase::bytes_moved): each case's
JSON entry carries it as the bytes_per_iteration counter, and both sides divide those bytes
by their median time per call, so every speed-up is a ratio of times.

Needs Debian's python3-torch (and python3-matplotlib for the plot); without torch it
prints why and exits 0.  Run it with /usr/bin/python3: another python3 on PATH may lack torch.
"""

import argparse
import json
import os
import pathlib
import platform
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SIZES_IN_README = (256 << 10, 1 << 20, 16 << 20)
DTYPES = ("fp32", "fp16", "bf16")
BACKWARD_OPERATORS = ("SoftplusBackward", "HardshrinkBackward", "PreluBackward", "LogitGrad",
                      "ScaledMaskedSoftmaxBackward")
# The arithmetic family; "Row" cases broadcast one [ROW_LENGTH] row of `other` over the rows.
ARITHMETIC_OPERATORS = ("Add", "AddRow", "Sub", "Mul", "MulRow", "Div")
OPERATORS = BACKWARD_OPERATORS + ARITHMETIC_OPERATORS

# The performance issues' targets (the launch figures and the out= speed-up
# are round two's); ratios of figures measured side by side in one run.
TARGET_FP32_OF_TRIAD = 0.8
TARGET_HALF_OF_TRIAD = 0.7
TARGET_LARGE_ELEMENTS = 16 << 20
TARGET_SPEEDUP = 3.0
TARGET_SPEEDUP_ELEMENTS = 1 << 20
TARGET_OUT_SPEEDUP = 1.0
TARGET_OUT_SPEEDUP_ELEMENTS = 64 << 10
TARGET_ROUND_TRIP_US = 2.0
TARGET_SUBMIT_US = 0.5
TARGET_ONE_STREAM_OPS = 1_000_000
TARGET_FOUR_STREAM_GAIN = 1.5
TARGET_BESIDE_LONG_JOB_SLOWDOWN = 2.0
TARGET_BESIDE_LONG_JOB_P99_US = 50.0


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", type=pathlib.Path, default=ROOT / "build-bench" / "bench" / "aclcpu_bench",
                        help="acl-cpu's benchmark binary (default: %(default)s)")
    parser.add_argument("--aclcpu-json", type=pathlib.Path,
                        help="reuse this JSON output of the benchmark binary instead of running it")
    parser.add_argument("--results-dir", type=pathlib.Path, default=ROOT / "bench" / "results")
    parser.add_argument("--min-time", type=float, default=0.5,
                        help="seconds each case is timed for, on both sides (default: %(default)s)")
    parser.add_argument("--threads", type=int,
                        default=int(os.environ.get("ACLCPU_WORKER_THREADS") or os.cpu_count()),
                        help="worker threads of both sides (default: ACLCPU_WORKER_THREADS, else nproc)")
    return parser.parse_args()


def import_torch():
    try:
        import torch
    except ImportError:
        return None
    return torch


# ---- acl-cpu's figures ------------------------------------------------------------

def run_aclcpu(bench, min_time, threads, out):
    """Runs the operator and STREAM cases of the benchmark binary; returns its JSON path."""
    if not bench.is_file():
        sys.exit(f"compare_pytorch: {bench} not found: build it first (scripts/run_benchmarks.sh does)")
    env = dict(os.environ, ACLCPU_WORKER_THREADS=str(threads))
    subprocess.run([str(bench), "--benchmark_filter=^(Op|Stream)/", f"--benchmark_min_time={min_time}",
                    f"--benchmark_out={out}", "--benchmark_out_format=json"], check=True, env=env)
    return out


def load_runs(path):
    """Maps each case name without Google Benchmark's suffixes (e.g. "Op/LogitGrad/fp32/4096")
    to its JSON entry (of repeated runs, their median), failed cases left out; and the load
    average when the run started."""
    document = json.loads(path.read_text())
    runs = {}
    for entry in document["benchmarks"]:
        run_type = entry.get("run_type", "iteration")
        if entry.get("error_occurred") or (run_type != "iteration" and entry.get("aggregate_name") != "median"):
            continue
        timings = ("real_time", "manual_time", "real_time_median", "manual_time_median")
        name = "/".join(part for part in entry["name"].split("/")
                        if part not in timings and not part.startswith("min_time:"))
        runs[name] = entry
    return runs, document["context"].get("load_avg", [float("nan")])[0]


def gigabytes_per_second(entry):
    """The bytes model over the median iteration."""
    return entry["bytes_per_iteration"] / (entry["median_us"] * 1e-6) / 1e9


def seconds_per_iteration(entry):
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[entry["time_unit"]]
    return entry["real_time"] * scale


# ---- PyTorch's figures --------------------------------------------------------------
# Shapes, data and parameters mirror bench/operator_cases.hpp.

ROW_LENGTH = 1024
PRELU_CHANNELS = 64
GOLDEN = 0.6180339887498949


def spread(torch, shape, dtype, low, high):
    """Values over [low, high) in the scrambled order DeviceTensor::fill uses."""
    count = 1
    for dim in shape:
        count *= dim
    period = min(count, 1 << 16)
    unit = torch.remainder(torch.arange(period, dtype=torch.float64) * GOLDEN, 1.0)
    pattern = (low + (high - low) * unit).to(torch.float32).to(dtype)
    return pattern.repeat((count + period - 1) // period)[:count].reshape(shape).contiguous()


def pytorch_calls(torch, operator, dtype, elements):
    """Two no-argument callables running PyTorch's peer of the operator on the same fresh
    inputs: the functional call, which allocates its output as autograd's backward does, and
    the out= overload writing into a preallocated output as acl-cpu's operators do (None
    where PyTorch has none).  PyTorch's CPU allocator caches nothing, so the functional
    call also pays for a fresh output's page faults."""
    aten = torch.ops.aten
    rows = (elements // ROW_LENGTH, ROW_LENGTH)
    if operator == "SoftplusBackward":
        grad, x = spread(torch, rows, dtype, -1, 1), spread(torch, rows, dtype, -10, 15)
        out = torch.empty_like(grad)
        return (lambda: aten.softplus_backward(grad, x, 1.0, 10.0),
                lambda: aten.softplus_backward.grad_input(grad, x, 1.0, 10.0, grad_input=out))
    if operator == "HardshrinkBackward":
        grad, x = spread(torch, rows, dtype, -1, 1), spread(torch, rows, dtype, -1, 1)
        out = torch.empty_like(grad)
        return (lambda: aten.hardshrink_backward(grad, x, 0.5),
                lambda: aten.hardshrink_backward.grad_input(grad, x, 0.5, grad_input=out))
    if operator == "PreluBackward":
        shape = (elements // (PRELU_CHANNELS * 64), PRELU_CHANNELS, 64)
        grad, x = spread(torch, shape, dtype, -1, 1), spread(torch, shape, dtype, -1, 1)
        weight = spread(torch, (PRELU_CHANNELS,), dtype, 0.1, 0.3)
        if not hasattr(aten, "prelu_backward"):  # PyTorch >= 2.0: only the functional kernel
            broadcast_weight = weight.reshape(1, PRELU_CHANNELS, 1)
            return lambda: aten._prelu_kernel_backward(grad, x, broadcast_weight), None
        out, weight_out = torch.empty_like(grad), torch.empty_like(weight)
        return (lambda: aten.prelu_backward(grad, x, weight),
                lambda: aten.prelu_backward.out(grad, x, weight, out0=out, out1=weight_out))
    if operator == "LogitGrad":
        x, dy = spread(torch, rows, dtype, 0, 1), spread(torch, rows, dtype, -1, 1)
        out = torch.empty_like(x)
        return (lambda: aten.logit_backward(dy, x, 0.1),
                lambda: aten.logit_backward.grad_input(dy, x, 0.1, grad_input=out))
    if operator == "ScaledMaskedSoftmaxBackward":
        # _softmax_backward_data alone: no scale and no mask, less work than acl-cpu's
        # operator does, so the speed-ups shown are lower bounds.
        shape = (1, 1, elements // ROW_LENGTH, ROW_LENGTH)
        grad, y = spread(torch, shape, dtype, -1, 1), spread(torch, shape, dtype, 0, 2 / ROW_LENGTH)
        out = torch.empty_like(grad)
        return (lambda: aten._softmax_backward_data(grad, y, -1, dtype),
                lambda: aten._softmax_backward_data.out(grad, y, -1, dtype, grad_input=out))
    if operator in ARITHMETIC_OPERATORS:
        function = getattr(torch, operator.removesuffix("Row").lower())
        other_shape = (ROW_LENGTH,) if operator.endswith("Row") else rows
        a, b = spread(torch, rows, dtype, -1, 1), spread(torch, other_shape, dtype, 0.5, 2)
        out = torch.empty_like(a)
        return lambda: function(a, b), lambda: function(a, b, out=out)
    raise ValueError(operator)


def time_pytorch(run, min_time):
    """Median seconds per call over at least min_time, after one untimed call (the same
    statistic as acl-cpu's median_us: robust to a shared machine's stalls)."""
    run()
    samples, total = [], 0.0
    while total < min_time:
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
        total += samples[-1]
    return statistics.median(samples)


# ---- Output -------------------------------------------------------------------------

def size_label(elements):
    for unit, shift in (("Mi", 20), ("Ki", 10)):
        if elements >= 1 << shift:
            return f"{elements >> shift} {unit}"
    return str(elements)


def fmt(value, digits=2, suffix=""):
    return "n/a" if value is None else f"{value:.{digits}f}{suffix}"


def markdown_table(rows):
    lines = ["| operator | dtype | elements | acl-cpu GB/s | PyTorch GB/s | speed-up | PyTorch out= GB/s "
             "| speed-up vs out= | of triad |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows:
        lines.append(f"| {row['operator']} | {row['dtype']} | {size_label(row['elements'])} | "
                     f"{fmt(row['aclcpu'])} | {fmt(row['pytorch'])} | {fmt(row['speedup'], 1, 'x')} | "
                     f"{fmt(row['pytorch_out'])} | {fmt(row['speedup_out'], 1, 'x')} | {fmt(row['of_triad'])} |")
    return "\n".join(lines)


def launch_figures(runs):
    """The launch targets from the full benchmark JSON; None where a case did not run."""
    def counter(name, key):
        return runs[name].get(key) if name in runs else None

    one = counter("Launch/Throughput/streams/1", "items_per_second")
    four = counter("Launch/Throughput/streams/4", "items_per_second")
    submit = runs.get("Launch/Submit")
    return {
        "submit_us": seconds_per_iteration(submit) * 1e6 if submit else None,
        "round_trip_us": counter("Launch/RoundTrip/idle", "median_us"),
        "round_trip_p99_us": counter("Launch/RoundTrip/idle", "p99_us"),
        "beside_long_job_us": counter("Launch/RoundTrip/beside_long_job", "median_us"),
        "beside_long_job_p99_us": counter("Launch/RoundTrip/beside_long_job", "p99_us"),
        "one_stream_ops": one,
        "four_stream_gain": four / one if one and four else None,
        "event_submit_us": (seconds_per_iteration(runs["Launch/EventRecordWait/submit"]) * 1e6
                            if "Launch/EventRecordWait/submit" in runs else None),
    }


def verdict(value, target, higher_is_better=True):
    if value is None:
        return "not measured"
    met = value >= target if higher_is_better else value <= target
    return "met" if met else "**missed**"


def worst(rows, select, key):
    """The selected row with the smallest row[key], or None."""
    candidates = [row for row in rows if select(row) and row[key] is not None]
    return min(candidates, key=lambda row: row[key]) if candidates else None


def target_rows(rows, launch, threads):
    """(target, measured, verdict) for each of the issue's targets."""
    def worst_figure(select, key, digits=2, suffix=""):
        row = worst(rows, select, key)
        if row is None:
            return None, "n/a"
        where = f"{row['operator']} {row['dtype']} {size_label(row['elements'])}"
        return row[key], f"worst {fmt(row[key], digits, suffix)} ({where})"

    def large(family, *dtypes):
        return lambda row: (row["operator"] in family and row["dtype"] in dtypes
                            and row["elements"] >= TARGET_LARGE_ELEMENTS)

    fp32, fp32_text = worst_figure(large(BACKWARD_OPERATORS, "fp32"), "of_triad")
    half, half_text = worst_figure(large(BACKWARD_OPERATORS, "fp16", "bf16"), "of_triad")
    arithmetic_fp32, arithmetic_fp32_text = worst_figure(large(ARITHMETIC_OPERATORS, "fp32"), "of_triad")
    arithmetic_half, arithmetic_half_text = worst_figure(large(ARITHMETIC_OPERATORS, "fp16", "bf16"), "of_triad")
    def at_least_1_mi(row):
        return row["elements"] >= TARGET_SPEEDUP_ELEMENTS

    def backward_at_least_64_ki(row):
        return row["operator"] in BACKWARD_OPERATORS and row["elements"] >= TARGET_OUT_SPEEDUP_ELEMENTS

    speedup, speedup_text = worst_figure(at_least_1_mi, "speedup", 1, "x")
    speedup_out, speedup_out_text = worst_figure(at_least_1_mi, "speedup_out", 1, "x")
    out_parity, out_parity_text = worst_figure(backward_at_least_64_ki, "speedup_out", 1, "x")
    one_stream = launch["one_stream_ops"]
    idle, beside = launch["round_trip_us"], launch["beside_long_job_us"]
    beside_p99 = launch["beside_long_job_p99_us"]
    slowdown = beside / idle if idle and beside else None
    beside_verdict = verdict(slowdown, TARGET_BESIDE_LONG_JOB_SLOWDOWN, higher_is_better=False)
    if beside_verdict == "met":
        beside_verdict = verdict(beside_p99, TARGET_BESIDE_LONG_JOB_P99_US, higher_is_better=False)
    return [
        (f"each backward operator, >= 16 Mi fp32 elements: >= {TARGET_FP32_OF_TRIAD} of triad", fp32_text,
         verdict(fp32, TARGET_FP32_OF_TRIAD)),
        (f"backward operators fp16/bf16, >= 16 Mi elements: >= {TARGET_HALF_OF_TRIAD} of triad", half_text,
         verdict(half, TARGET_HALF_OF_TRIAD)),
        (f"Add, Sub, Mul, Div (and `[N, C] + [C]` rows), >= 16 Mi fp32 elements: >= {TARGET_FP32_OF_TRIAD} "
         "of triad", arithmetic_fp32_text, verdict(arithmetic_fp32, TARGET_FP32_OF_TRIAD)),
        (f"Add, Sub, Mul, Div fp16/bf16, >= 16 Mi elements: >= {TARGET_HALF_OF_TRIAD} of triad",
         arithmetic_half_text, verdict(arithmetic_half, TARGET_HALF_OF_TRIAD)),
        (f">= 1 Mi elements: >= {TARGET_SPEEDUP:.0f}x PyTorch's GB/s (functional call, as autograd makes it)",
         speedup_text, verdict(speedup, TARGET_SPEEDUP)),
        (f">= 1 Mi elements: >= {TARGET_SPEEDUP:.0f}x PyTorch's GB/s (out= overload, preallocated output)",
         speedup_out_text, verdict(speedup_out, TARGET_SPEEDUP)),
        (f"each backward operator, >= 64 Ki elements, every dtype PyTorch's CPU kernels take: >= "
         f"{TARGET_OUT_SPEEDUP:.1f}x PyTorch out=",
         out_parity_text, verdict(out_parity, TARGET_OUT_SPEEDUP)),
        (f"round trip (phase 1 + 2 + sync), 1 Ki SoftplusBackward: <= {TARGET_ROUND_TRIP_US:.0f} us median",
         f"{fmt(launch['round_trip_us'], 1)} us (p99 {fmt(launch['round_trip_p99_us'], 1)} us)",
         verdict(launch["round_trip_us"], TARGET_ROUND_TRIP_US, higher_is_better=False)),
        (f"submit (phase 1 + 2): <= {TARGET_SUBMIT_US} us", f"{fmt(launch['submit_us'])} us",
         verdict(launch["submit_us"], TARGET_SUBMIT_US, higher_is_better=False)),
        (f"one stream: >= {TARGET_ONE_STREAM_OPS:,} small operators/s",
         f"{fmt(one_stream / 1e3 if one_stream else None, 0)} k/s", verdict(one_stream, TARGET_ONE_STREAM_OPS)),
        (f"4 streams on {threads} workers: >= {TARGET_FOUR_STREAM_GAIN}x one stream",
         fmt(launch["four_stream_gain"], 2, "x"), verdict(launch["four_stream_gain"], TARGET_FOUR_STREAM_GAIN)),
        (f"round trip while another stream runs 16 Mi-element launches: median <= "
         f"{TARGET_BESIDE_LONG_JOB_SLOWDOWN:.0f}x idle, p99 <= {TARGET_BESIDE_LONG_JOB_P99_US:.0f} us",
         f"median {fmt(beside, 1)} us ({fmt(slowdown, 1, 'x')} idle), p99 {fmt(beside_p99, 1)} us", beside_verdict),
        ("event record + stream wait (submit)", f"{fmt(launch['event_submit_us'], 3)} us", "no target"),
    ]


def plot(rows, triad, title, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
    except ImportError:
        print("compare_pytorch: python3-matplotlib is not installed; no plot written")
        return False
    operators = [operator for operator in OPERATORS if any(row["operator"] == operator for row in rows)]
    figure, axes = pyplot.subplots(len(DTYPES), len(operators), figsize=(4 * len(operators) + 2, 11),
                                   sharex=True, sharey=True, squeeze=False)
    for r, dtype in enumerate(DTYPES):
        for c, operator in enumerate(operators):
            axis = axes[r][c]
            series = sorted((row for row in rows if row["operator"] == operator and row["dtype"] == dtype),
                            key=lambda row: row["elements"])
            sizes = [row["elements"] for row in series]
            axis.plot(sizes, [row["aclcpu"] for row in series], "o-", label="acl-cpu")
            for key, style, label in (("pytorch", "s-", "PyTorch"), ("pytorch_out", "^:", "PyTorch out=")):
                axis.plot(sizes, [row[key] if row[key] is not None else float("nan") for row in series],
                          style, label=label)
            axis.plot(sorted(triad), [triad[n] for n in sorted(triad)], "k--", label="STREAM triad (fp32)")
            axis.set_xscale("log", base=2)
            axis.set_xticks(sizes, [size_label(n) for n in sizes], fontsize=7)
            axis.minorticks_off()
            axis.set_yscale("log")
            axis.grid(True, which="both", alpha=0.3)
            if r == 0:
                axis.set_title(operator, fontsize=10)
            if c == 0:
                axis.set_ylabel(f"{dtype}: GB/s")
            if r == len(DTYPES) - 1:
                axis.set_xlabel("elements")
    axes[0][0].legend(fontsize=8)
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=80)
    return True


def readme_section(rows, launch_targets, machine, plotted):
    lines = [
        "## Performance",
        "",
        "```sh",
        "scripts/run_benchmarks.sh   # Release build in build-bench/, Google Benchmark suite, PyTorch comparison",
        "```",
        "",
        f"Measured on {machine}. GB/s count every operand read or written once (STREAM's convention, "
        "`OperatorCase::bytes_moved` in `bench/operator_cases.hpp`); one acl-cpu iteration is phase 1 + "
        "phase 2 + `aclrtSynchronizeStream`, like a PyTorch call returning. *PyTorch* is the functional call "
        "autograd makes (it allocates its output: PyTorch's CPU allocator caches nothing, so large outputs "
        "cost fresh pages); *PyTorch out=* writes into a preallocated output, as acl-cpu's operators do. "
        "Every figure is the median call. "
        "*of triad* divides by STREAM "
        "triad on the same element count (fp32, same threads, same run). PyTorch's "
        "`_softmax_backward_data` does neither the scale nor the mask, so those speed-ups are lower bounds. "
        "Full table: `bench/results/comparison.md`; raw data: `bench/results/aclcpu_bench.json`.",
        "",
        "| target | measured | |",
        "|---|---|---|",
    ]
    lines += [f"| {target} | {measured} | {status} |" for target, measured, status in launch_targets]
    lines += ["", markdown_table([row for row in rows if row["elements"] in SIZES_IN_README]), ""]
    if plotted:
        lines += ["![GB/s against size: acl-cpu, PyTorch, STREAM triad](bench/results/comparison.png)", ""]
    return "\n".join(lines)


def machine_description(threads, torch_version, aclcpu_load):
    model = platform.processor() or "unknown CPU"
    try:
        for line in pathlib.Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} hardware threads, {threads} worker threads on both sides, " \
           f"PyTorch {torch_version}; 1-minute load average {aclcpu_load:.1f} as acl-cpu's run started, " \
           f"{os.getloadavg()[0]:.1f} as PyTorch's did"


def pytorch_gigabytes_per_second(call, bytes_moved, min_time):
    return bytes_moved / time_pytorch(call, min_time) / 1e9 if call else None


def compare(torch, runs, triad, min_time):
    """One row per operator case in runs: acl-cpu's and PyTorch's GB/s and their ratios."""
    dtypes = {"fp32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}
    rows = []
    for name, entry in runs.items():
        parts = name.split("/")
        if parts[0] != "Op":
            continue
        operator, dtype, elements = parts[1], parts[2], int(parts[3])
        bytes_moved = entry["bytes_per_iteration"]
        try:
            functional, preallocated = pytorch_calls(torch, operator, dtypes[dtype], elements)
            pytorch = pytorch_gigabytes_per_second(functional, bytes_moved, min_time)
            pytorch_out = pytorch_gigabytes_per_second(preallocated, bytes_moved, min_time)
        except RuntimeError as error:  # a kernel PyTorch lacks for this dtype on the CPU
            print(f"compare_pytorch: PyTorch {operator} {dtype} {size_label(elements)}: "
                  f"{str(error).splitlines()[0]}")
            pytorch = pytorch_out = None
        aclcpu = gigabytes_per_second(entry)
        rows.append({"operator": operator, "dtype": dtype, "elements": elements, "aclcpu": aclcpu,
                     "pytorch": pytorch, "speedup": aclcpu / pytorch if pytorch else None,
                     "pytorch_out": pytorch_out, "speedup_out": aclcpu / pytorch_out if pytorch_out else None,
                     "of_triad": aclcpu / triad[elements] if elements in triad else None})
    rows.sort(key=lambda row: (OPERATORS.index(row["operator"]), DTYPES.index(row["dtype"]), row["elements"]))
    return rows


def main():
    args = parse_args()
    torch = import_torch()
    if torch is None:
        print("compare_pytorch: skipped: PyTorch is not importable by this interpreter "
              f"({sys.executable}); install Debian's python3-torch and run with /usr/bin/python3")
        return 0
    torch.set_num_threads(args.threads)
    args.results_dir.mkdir(parents=True, exist_ok=True)

    json_path = args.aclcpu_json or run_aclcpu(args.bench, args.min_time, args.threads,
                                               args.results_dir / "aclcpu_bench.json")
    runs, aclcpu_load = load_runs(json_path)
    machine = machine_description(args.threads, torch.__version__.split("+")[0], aclcpu_load)
    triad = {int(name.split("/")[2]): gigabytes_per_second(entry)
             for name, entry in runs.items() if name.startswith("Stream/Triad/")}
    rows = compare(torch, runs, triad, args.min_time)

    table = markdown_table(rows)
    print(table)
    (args.results_dir / "comparison.md").write_text(f"Measured on {machine}.\n\n{table}\n")
    plotted = plot(rows, triad, f"acl-cpu vs PyTorch CPU kernels\n{machine}", args.results_dir / "comparison.png")
    targets = target_rows(rows, launch_figures(runs), args.threads)
    print()
    for target, measured, status in targets:
        print(f"{status:>14}  {target}: {measured}")
    (args.results_dir / "README_section.md").write_text(readme_section(rows, targets, machine, plotted))
    print(f"\ncompare_pytorch: wrote comparison.md, comparison.png and README_section.md in {args.results_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
