#!/usr/bin/env python3
"""Writes rulesets/<map>/layout.toml: where the terminal map draws each space.

Positions are warboard's own coarse grid (0..999 across, 0..999 down), made
once from the public reference map's space centres (read, not copied: only
the relative place survives the rounding). Run from the repository root:

    python3 tools/make_layout.py classic europe anniversary
"""
import re, sys, pathlib

REF = pathlib.Path("../shared/reference")

def centres(name):
    out = {}
    for line in (REF / "triplea" / name / "centers.txt").read_text().splitlines():
        m = re.match(r"(.+?)\s+\((\d+),(\d+)\)", line.strip())
        if m:
            out[m.group(1).strip()] = (int(m.group(2)), int(m.group(3)))
    return out

def ids(name):
    out = {}
    for line in (REF / f"{name}-ids.tsv").read_text().splitlines()[1:]:
        cols = line.split("\t")
        out[cols[1]] = cols[0]
    return out

for name in sys.argv[1:]:
    c, i = centres(name), ids(name)
    xs = [x for x, _ in c.values()]
    ys = [y for _, y in c.values()]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    rows = []
    for tname, sid in sorted(i.items(), key=lambda kv: kv[1]):
        if tname not in c:
            sys.exit(f"{name}: no centre for {tname} ({sid})")
        x, y = c[tname]
        rows.append(f'{sid} = [{round((x - x0) * 999 / (x1 - x0))}, {round((y - y0) * 999 / (y1 - y0))}]')
    head = (f"# warboard terminal map layout for the {name} map: where `warboard play`'s map\n"
            "# draws each space, on a grid 0..999 across and 0..999 down (tools/make_layout.py).\n\n[pos]\n")
    pathlib.Path(f"rulesets/{name}/layout.toml").write_text(head + "\n".join(rows) + "\n")
    print(name, len(rows))
