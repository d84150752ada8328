#!/usr/bin/env python3
"""Turn criterion's output for `benches/entities.rs` (and `benches/buffered.rs`)
into the markdown tables of benches/README.md, and optionally an SVG bar chart.

    cargo bench --bench entities
    python3 scripts/bench_table.py                    # markdown on stdout
    python3 scripts/bench_table.py --svg bench.svg    # plus a chart

Reads target/criterion/**/new/{benchmark,estimates}.json. Every figure is
criterion's median time per iteration (one pass over N entities), divided by
N for ns/element; ratios are medians of the same run divided. Standard
library only.
"""

import argparse
import json
import os
import sys
from html import escape

# The performance targets: (label, scenario group, numerator, denominator, limit).
TARGET_GROUP = "steady/32B/1M"
TARGETS = [
    ("ordered cursor / hand-written loop", TARGET_GROUP, "cursor", "hand_loop", 1.05),
    ("ordered cursor / retain_mut + side Vec", TARGET_GROUP, "cursor", "retain_mut", 0.65),
    ("ordered cursor / copy floor", TARGET_GROUP, "cursor", "copy_floor", 1.6),
    ("unordered mode / swap_remove loop", TARGET_GROUP, "unordered", "swap_remove", 1.05),
    ("cursor, nothing removed / iter_mut update", "none/32B/1M", "cursor", "iter_mut", 1.1),
]

# Extra ratios worth printing (no target).
EXTRA = [
    ("closure form `traverse` / hand-written loop", TARGET_GROUP, "traverse", "hand_loop"),
    ("ordered cursor / two swapped Vecs", TARGET_GROUP, "cursor", "two_vecs"),
    ("ordered cursor / VecGrowScan", TARGET_GROUP, "cursor", "vec_grow_scan"),
    ("cursor, nothing removed / iter_mut with the same checks", "none/32B/1M", "cursor", "iter_mut_checked"),
    ("with_auto_remove / removal in the loop body", "auto_remove/32B/1M", "with_auto_remove", "body_remove"),
    ("NoAutoRemove cursor / trivially false predicate", "auto_remove/32B/1M", "body_remove", "false_predicate"),
    ("NoAutoRemove cursor / hand-written loop", "auto_remove/32B/1M", "body_remove", "hand_loop"),
]

METHOD_ORDER = [
    "buffered", "producer", "cursor", "body_remove", "with_auto_remove", "false_predicate", "traverse",
    "unordered", "retain_mut", "two_vecs", "swap_remove", "hand_loop",
    "vec_grow_scan", "vec_remove", "iter_mut", "iter_mut_checked", "copy_floor",
    "vec_deque", "read_write_collection", "read_write_collection_bounded", "local_push",
    "crossbeam", "flume", "std_mpsc", "tokio", "tokio_bounded",
]

LABELS = {
    "cursor": "ordered cursor",
    "traverse": "`traverse` (closure)",
    "unordered": "unordered mode",
    "retain_mut": "`retain_mut` + side Vec",
    "two_vecs": "two swapped Vecs",
    "swap_remove": "`swap_remove` loop",
    "hand_loop": "hand-written loop",
    "vec_grow_scan": "`VecGrowScan`",
    "vec_remove": "`Vec::remove` loop",
    "iter_mut": "`iter_mut` update",
    "iter_mut_checked": "`iter_mut` + checks",
    "copy_floor": "copy floor",
    "body_remove": "remove in body",
    "with_auto_remove": "`with_auto_remove`",
    "false_predicate": "always-false predicate",
}


def load(root):
    """{group: {function: (median_ns, low_ns, high_ns, elements)}}"""
    out = {}
    for dirpath, _dirs, files in os.walk(root):
        if os.path.basename(dirpath) != "new" or "benchmark.json" not in files:
            continue
        try:
            with open(os.path.join(dirpath, "benchmark.json")) as f:
                bench = json.load(f)
            with open(os.path.join(dirpath, "estimates.json")) as f:
                est = json.load(f)
        except (OSError, ValueError) as e:
            print(f"skipping {dirpath}: {e}", file=sys.stderr)
            continue
        median = est["median"]
        elements = (bench.get("throughput") or {}).get("Elements") or 1
        out.setdefault(bench["group_id"], {})[bench["function_id"]] = (
            median["point_estimate"],
            median["confidence_interval"]["lower_bound"],
            median["confidence_interval"]["upper_bound"],
            elements,
        )
    return out


def ns_per_elem(entry):
    return entry[0] / entry[3]


def fmt_ns(x):
    return f"{x:.2f}" if x < 100 else f"{x:.0f}"


def ratio(data, group, a, b):
    g = data.get(group, {})
    if a not in g or b not in g:
        return None
    return g[a][0] / g[b][0]


def method_key(name):
    return (METHOD_ORDER.index(name) if name in METHOD_ORDER else len(METHOD_ORDER), name)


def size_key(group):
    """Sort groups by scenario, element size, then N."""
    parts = group.split("/")
    scale = {"k": 1e3, "M": 1e6}

    def num(s):
        try:
            return float(s[:-1]) * scale[s[-1]] if s and s[-1] in scale else float(s.rstrip("B"))
        except ValueError:
            return 0.0

    return [(num(p), p) for p in parts]


def targets_table(data):
    lines = [
        "| ratio (median, same run) | target | measured | numerator ns/elem | denominator ns/elem | |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for label, group, a, b, limit in TARGETS:
        r = ratio(data, group, a, b)
        if r is None:
            lines.append(f"| {label} (`{group}`) | ≤ {limit}× | not run | | | |")
            continue
        g = data[group]
        verdict = "met" if r <= limit else "**missed**"
        lines.append(
            f"| {label} (`{group}`) | ≤ {limit}× | {r:.2f}× | {fmt_ns(ns_per_elem(g[a]))} "
            f"| {fmt_ns(ns_per_elem(g[b]))} | {verdict} |"
        )
    for label, group, a, b in EXTRA:
        r = ratio(data, group, a, b)
        if r is None:
            continue
        g = data[group]
        lines.append(
            f"| {label} (`{group}`) | | {r:.2f}× | {fmt_ns(ns_per_elem(g[a]))} "
            f"| {fmt_ns(ns_per_elem(g[b]))} | |"
        )
    return "\n".join(lines)


def group_tables(data, prefix):
    """One table per scenario: rows = methods, columns = size/N, ns/elem."""
    groups = sorted((g for g in data if g.startswith(prefix)), key=size_key)
    by_scenario = {}
    for g in groups:
        scenario, rest = g.split("/", 1)
        by_scenario.setdefault(scenario, []).append((rest, g))
    out = []
    for scenario, cols in by_scenario.items():
        methods = sorted({m for _, g in cols for m in data[g]}, key=method_key)
        head = "| method | " + " | ".join(c for c, _ in cols) + " |"
        out.append(f"**{scenario}** (ns per element, median; ratio to the ordered cursor in brackets)\n")
        out.append(head)
        out.append("| --- " * (len(cols) + 1) + "|")
        for m in methods:
            cells = []
            for _, g in cols:
                e = data[g].get(m)
                if e is None:
                    cells.append("")
                    continue
                ref = data[g].get("cursor") or data[g].get("body_remove") or data[g].get("buffered")
                rel = f" ({e[0] / ref[0]:.2f})" if ref else ""
                cells.append(fmt_ns(ns_per_elem(e)) + rel)
            out.append(f"| {LABELS.get(m, m)} | " + " | ".join(cells) + " |")
        out.append("")
    return "\n".join(out)


def svg_chart(data, groups, path):
    """Horizontal bars of ns/element, one panel per group."""
    bar_h, gap, left, width = 16, 4, 190, 420
    panels = []
    y = 30
    for g in groups:
        if g not in data:
            continue
        rows = sorted(data[g].items(), key=lambda kv: method_key(kv[0]))
        vmax = max(ns_per_elem(e) for _, e in rows)
        body = [f'<text x="10" y="{y}" font-weight="bold">{escape(g)} (ns per element, median)</text>']
        y += 10
        for name, e in rows:
            v = ns_per_elem(e)
            w = max(1.0, width * v / vmax)
            colour = "#c0392b" if name in ("cursor", "traverse", "unordered", "body_remove", "with_auto_remove") else "#7f8c8d"
            body.append(f'<text x="{left - 6}" y="{y + bar_h - 4}" text-anchor="end">{escape(LABELS.get(name, name).replace("`", ""))}</text>')
            body.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar_h}" fill="{colour}"/>')
            body.append(f'<text x="{left + w + 4:.1f}" y="{y + bar_h - 4}">{fmt_ns(v)}</text>')
            y += bar_h + gap
        y += 24
        panels.extend(body)
    total_h = y
    svg = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 80}" height="{total_h}" '
        'font-family="sans-serif" font-size="12">',
        '<rect width="100%" height="100%" fill="white"/>',
        *panels,
        "</svg>",
    ]
    with open(path, "w") as f:
        f.write("\n".join(svg) + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--criterion-dir", default=os.path.join("target", "criterion"))
    ap.add_argument("--svg", help="write an SVG bar chart here")
    ap.add_argument(
        "--svg-groups",
        default="steady/32B/1M,steady/128B/1M,none/32B/1M,half/32B/1M",
        help="comma-separated criterion groups to chart",
    )
    args = ap.parse_args()
    data = load(args.criterion_dir)
    if not data:
        sys.exit(f"no criterion results under {args.criterion_dir}: run `cargo bench --bench entities` first")
    print("### Performance targets\n")
    print(targets_table(data))
    print()
    print("### All entity benchmarks\n")
    for prefix in ("steady/", "none/", "half/", "auto_remove/"):
        t = group_tables(data, prefix)
        if t:
            print(t)
    buffered = [g for g in data if g.startswith(("frame/", "producers/"))]
    if buffered:
        print("### Buffered collection\n")
        # The producer shapes' own table (medians of alternating rounds,
        # ratios to crossbeam) is printed by `RWC_ALTERNATE=15 cargo bench
        # --bench buffered`; here they are criterion's medians.
        print("| group | method | ns per element | ratio to `buffered`/`producer`/`read_write_collection` |")
        print("| --- | --- | --- | --- |")
        for g in sorted(buffered, key=size_key):
            ref = data[g].get("buffered") or data[g].get("producer") or data[g].get("read_write_collection")
            for m, e in sorted(data[g].items(), key=lambda kv: method_key(kv[0])):
                rel = f"{e[0] / ref[0]:.2f}" if ref else ""
                print(f"| {g} | {m} | {fmt_ns(ns_per_elem(e))} | {rel} |")
        print()
    if args.svg:
        svg_chart(data, [g for g in args.svg_groups.split(",") if g], args.svg)
        print(f"(chart written to {args.svg})", file=sys.stderr)


if __name__ == "__main__":
    main()
