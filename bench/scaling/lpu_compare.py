#!/usr/bin/env python3
"""lpu_compare.py: lock-put-unlock (8 B, 2 ranks, shm) of two rmabench builds, same script.

Alternates the builds round by round (so drift on a shared machine hits both alike); each
run is `rmabench bench lua_scripts/bench/latency.lua --sync lock --sizes 8` with Google
Benchmark repetitions, of which the median is taken. Prints per path the medians of each
build and the median over rounds of new/old.

  python3 bench/scaling/lpu_compare.py --old /work/baseline/e871188/rmabench --new build/rmabench
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile


def median_us(binary, path, args):
    out = tempfile.mkdtemp(prefix="lpu-")
    cmd = ["timeout", "300", binary, "bench", args.script, "--backend", "shm", "--path", path,
           "--sync", "lock", "--sizes", str(args.size), "--repetitions", str(args.repetitions),
           "--min-time", str(args.min_time), "--report-dir", out, "--format", "json"]
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    try:
        rep = json.load(open(os.path.join(out, "report.json")))
        for b in rep["benchmarks"]:
            if b.get("aggregate_name") == "median":
                return float(b["real_time"]) * {"ns": 1e-3, "us": 1.0, "ms": 1e3}[b["time_unit"]]
        return None
    except (OSError, ValueError, KeyError):
        return None
    finally:
        shutil.rmtree(out, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", required=True)
    ap.add_argument("--new", required=True)
    ap.add_argument("--script", default="lua_scripts/bench/latency.lua")
    ap.add_argument("--paths", default="am,direct")
    ap.add_argument("--size", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.2)
    args = ap.parse_args()
    res = {p: {"old": [], "new": [], "ratio": []} for p in args.paths.split(",")}
    for r in range(args.rounds):
        order = ["old", "new"] if r % 2 == 0 else ["new", "old"]
        for path in res:
            got = {}
            for which in order:
                got[which] = median_us(getattr(args, which), path, args)
            for which in order:
                if got[which] is not None:
                    res[path][which].append(got[which])
            if got["old"] and got["new"]:
                res[path]["ratio"].append(got["new"] / got["old"])
            print(f"round {r + 1} {path}: old {got['old']} us, new {got['new']} us", flush=True)
    print()
    print("| path | old median (µs) | new median (µs) | new/old, median of rounds | rounds |")
    print("|---|---:|---:|---:|---:|")
    for path, v in res.items():
        f = lambda xs, spec: format(statistics.median(xs), spec) if xs else "n/m"
        print(f"| {path} | {f(v['old'], '.3f')} | {f(v['new'], '.3f')} | {f(v['ratio'], '.3f')} "
              f"| {len(v['ratio'])} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
