#!/usr/bin/python3
"""The interactive protocol benchmark's JSON as the Markdown tables of docs/benchmarks.md.

Reads one or more JSON documents (bench/interactive_protocol_benchmark, as
scripts/real-anatomy-benchmark.sh prints them) from standard input and writes, per document,
one table row per structure and one summary line per route. Standard library only.

    scripts/real-anatomy-benchmark.sh build/default --routes all | scripts/protocol-table.py
"""
import json
import sys

ROUTES = [
    ("direct", "direct"),
    ("nninteractive_routes", "nnInteractive routes"),
    ("monai_label_routes (box as roi)", "MONAI Label routes (box as roi)"),
    ("monai_label_routes (box as its centre click)", "MONAI Label routes (centre click)"),
    ("monai_label_routes (clicks only)", "MONAI Label routes (clicks only)"),
    ("direct (clicks only)", "direct (clicks only)"),
]


def documents(text):
    decoder = json.JSONDecoder()
    at = 0
    while True:
        while at < len(text) and text[at].isspace():
            at += 1
        if at >= len(text):
            return
        doc, at = decoder.raw_decode(text, at)
        yield doc


def drops(steps):
    dice = [s["dice"] for s in steps]
    return sum(1 for a, b in zip(dice, dice[1:]) if b < a - 0.05)


def table(doc):
    routes = [(key, name) for key, name in ROUTES if key in doc["summary"]]
    others = routes[1:]
    head = ["structure", "voxels", "Dice box → 5 clicks, direct", "NSD 2 mm box → last, direct"]
    head += [f"Dice, {name}" for _, name in others]
    head.append("slowest s (" + " / ".join(name for _, name in routes) + ")")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in doc["structures"]:
        direct = s["direct"]["steps"]
        row = [s["name"], str(s["direct"]["truth_voxels"]),
               " ".join(f"{x['dice']:.2f}" for x in direct),
               f"{direct[0]['nsd_2mm']:.2f} → {direct[-1]['nsd_2mm']:.2f}"]
        for key, _ in others:
            steps = s[key]["steps"]
            row.append(f"{steps[0]['dice']:.2f} → {steps[-1]['dice']:.2f}")
        row.append(" / ".join(f"{s[key]['max_seconds']:.2f}" for key, _ in routes))
        lines.append("| " + " | ".join(row) + " |")
    for key, _ in routes:
        summary = doc["summary"][key]
        dropped = sum(drops(s[key]["steps"]) for s in doc["structures"])
        lines.append(
            f"- {key}: median Dice after box {summary['median_dice_first_interaction']:.3f}, "
            f"after last click {summary['median_dice_last_interaction']:.3f}; drops > 0.05 "
            f"after a click: {dropped}; slowest {summary['slowest_interaction_s']:.2f} s")
    return "\n".join(lines)


def main():
    for doc in documents(sys.stdin.read()):
        print(f"{doc['data']} ({doc['protocol']}):\n")
        print(table(doc))
        print()


if __name__ == "__main__":
    main()
