#!/usr/bin/env python3
"""Renders an acl-cpu timeline trace (ACLCPU_TRACE) as a PNG.

Perfetto and chrome://tracing are the interactive viewers; this draws the
same tracks offline, for documentation: one row per track (host threads,
streams, AI Core workers) with its slices, the flow arrows, and the device
memory counter underneath.

    python3 bench/plot_trace.py trace.json picture.png
"""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

COLOURS = {
    "api": "#9aa5b1", "op": "#3b7dd8", "memcpy": "#e8a33d", "memset": "#d8c43b",
    "event_record": "#5bb450", "event_wait": "#d9534f", "event_reset": "#5bb450",
    "callback": "#8e6bbf", "host_func": "#8e6bbf", "host_wait": "#c7b3e5",
    "task": "#777777", "block": "#7fb2f0",
}


def load(path):
    with open(path) as file:
        return json.load(file)["traceEvents"]


def tracks_of(events):
    """Rows, top to bottom: (pid, tid) -> label, in the trace's sort order."""
    process, thread, sort = {}, {}, {}
    for e in events:
        if e["ph"] != "M":
            continue
        key = (e["pid"], e["tid"])
        if e["name"] == "process_name":
            process[e["pid"]] = e["args"]["name"]
        elif e["name"] == "thread_name":
            thread[key] = e["args"]["name"]
        elif e["name"] == "thread_sort_index":
            sort[key] = e["args"]["sort_index"]
    used = {(e["pid"], e["tid"]) for e in events if e["ph"] == "X"}
    keys = sorted((k for k in thread if k in used), key=lambda k: (k[0], sort.get(k, 0), k[1]))
    return [(k, f'{process.get(k[0], k[0])}: {thread[k]}') for k in keys]


def main(source, target):
    events = load(source)
    rows = tracks_of(events)
    row_of = {key: i for i, (key, _) in enumerate(rows)}
    slices = [e for e in events if e["ph"] == "X" and (e["pid"], e["tid"]) in row_of]
    start = min(e["ts"] for e in slices)
    end = max(e["ts"] + e["dur"] for e in slices)
    span = end - start

    fig, (ax, counter) = plt.subplots(2, 1, figsize=(14, 0.55 * len(rows) + 2.6), sharex=True,
                                      gridspec_kw={"height_ratios": [len(rows), 2.2]})
    for e in slices:
        y = row_of[(e["pid"], e["tid"])]
        x = e["ts"] - start
        width = max(e["dur"], span * 0.0015)
        ax.add_patch(Rectangle((x, y - 0.38), width, 0.76, facecolor=COLOURS.get(e["cat"], "#999999"),
                               linewidth=0.3, edgecolor="white"))
        label = e["name"].replace("aclnn", "").replace("aclrt", "").replace("Backward", "Bwd")
        if e["cat"] == "block":
            label = str(e["args"].get("block", ""))
        if width > span * 0.0032 * len(label):  # roughly the label's width at this size
            ax.text(x + width / 2, y, label, ha="center", va="center", fontsize=6.5, color="black", clip_on=True)

    starts = {e["id"]: e for e in events if e["ph"] == "s"}
    for e in events:
        if e["ph"] != "f" or e["id"] not in starts:
            continue
        s = starts[e["id"]]
        if (s["pid"], s["tid"]) not in row_of or (e["pid"], e["tid"]) not in row_of:
            continue
        ax.annotate("", xy=(e["ts"] - start, row_of[(e["pid"], e["tid"])] - 0.38),
                    xytext=(s["ts"] - start, row_of[(s["pid"], s["tid"])] + 0.38),
                    arrowprops={"arrowstyle": "->", "color": "#444444", "lw": 0.6, "alpha": 0.6})

    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([label for _, label in rows], fontsize=8)
    ax.set_title(f"acl-cpu timeline: {source.split('/')[-1]}", fontsize=10)
    handles = [Rectangle((0, 0), 1, 1, color=c) for c in COLOURS.values()]
    used = {e["cat"] for e in slices}
    legend = [(h, n) for h, n in zip(handles, COLOURS) if n in used]
    counter.legend([h for h, _ in legend], [n for _, n in legend], fontsize=7, loc="upper right", ncol=len(legend))

    memory = sorted((e["ts"] - start, e["args"]["bytes in use"]) for e in events
                    if e["ph"] == "C" and e["name"] == "Device memory")
    if memory:
        xs = [x for x, _ in memory] + [span]
        ys = [y / 1024 for _, y in memory]
        counter.step(xs, ys + ys[-1:], where="post", color="#3b7dd8")
    counter.set_ylabel("device memory\n(KiB in use)", fontsize=8)
    counter.set_xlabel("microseconds since aclInit (first slice at 0)", fontsize=8)
    counter.set_xlim(-span * 0.01, span * 1.01)
    fig.tight_layout()
    fig.savefig(target, dpi=130)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
