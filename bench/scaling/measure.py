#!/usr/bin/env python3
"""measure.py: memory and fence time of one shm case as the rank count grows (docs/scaling.md).

For each rank count and path it runs lua_scripts/scale/fence_epochs.lua under rmabench,
samples the rank processes while they run and prints one Markdown row:
  - segments: the distinct /dev/shm segments the ranks map (their full size, read from
    /proc/<pid>/maps; the transport's is unlinked once mapped, so /dev/shm no longer lists it),
  - PSS: the ranks' summed proportional set size (/proc/<pid>/smaps_rollup), largest sample,
  - the fence epoch time rank 0 reports, the case's wall time and status.
A sample that could not be taken is reported as "n/m" (not measured), never as zero.

  python3 bench/scaling/measure.py --rmabench build/rmabench --ranks 2,64,1024 --paths am,direct
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time


def children(pid):
    out = []
    for f in glob.glob(f"/proc/{pid}/task/*/children"):
        try:
            out += [int(x) for x in open(f).read().split()]
        except OSError:
            pass
    return out


def pss_kib(pid):
    try:
        for line in open(f"/proc/{pid}/smaps_rollup"):
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def shm_segments(pid):
    """name -> mapped bytes of every /dev/shm mapping of pid."""
    segs = {}
    try:
        for line in open(f"/proc/{pid}/maps"):
            parts = line.split(None, 5)
            if len(parts) == 6 and parts[5].startswith("/dev/shm/"):
                lo, hi = (int(x, 16) for x in parts[0].split("-"))
                name = parts[5].split()[0]
                segs[name] = segs.get(name, 0) + hi - lo
    except OSError:
        pass
    return segs


class Sampler(threading.Thread):
    def __init__(self, parent, period):
        super().__init__(daemon=True)
        self.parent, self.period = parent, period
        self.max_pss = None
        self.max_ranks = 0
        self.segments = {}
        self.stop = threading.Event()

    def run(self):
        while not self.stop.wait(self.period):
            ranks = children(self.parent)
            total, seen = 0, 0
            for p in ranks:
                v = pss_kib(p)
                if v is not None:
                    total += v
                    seen += 1
            if seen and (self.max_pss is None or total > self.max_pss):
                self.max_pss, self.max_ranks = total, seen
            # one rank's view names every segment all ranks share; the per-rank window
            # segments are each mapped by every rank too, so one rank suffices.
            for p in ranks[:1]:
                for name, size in shm_segments(p).items():
                    self.segments[name] = max(size, self.segments.get(name, 0))


def run_one(args, n, path):
    out = tempfile.mkdtemp(prefix=f"scale-{n}-{path}-")
    cmd = ["nice", "-n", "10", "timeout", str(args.timeout + 60), args.rmabench, "run",
           args.script, "-n", str(n), "--backend", "shm", "--path", path,
           "-o", f"epochs={args.epochs}", "-o", f"hold_ms={args.hold_ms}", "--timeout", str(args.timeout),
           "--report-dir", out, "--format", "json"]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    # nice execs timeout, which forks rmabench: the launcher is proc's only child.
    launcher = None
    while proc.poll() is None and launcher is None:
        kids = children(proc.pid)
        launcher = kids[0] if kids else None
        time.sleep(0.02)
    sampler = Sampler(launcher, args.period) if launcher else None
    if sampler:
        sampler.start()
    text, _ = proc.communicate()
    wall = time.monotonic() - t0
    if sampler:
        sampler.stop.set()
        sampler.join()
    row = {"ranks": n, "path": path, "wall_s": wall, "exit": proc.returncode}
    try:
        rep = json.load(open(os.path.join(out, "report.json")))
        case = rep["cases"][0]
        row.update(status=case["status"], case_s=case["duration_s"],
                   epoch_us=case.get("metrics", {}).get("rank0.fence_epoch_us"),
                   messages=case.get("messages", {}).get("total"))
    except (OSError, KeyError, IndexError, ValueError) as e:
        row.update(status=f"no report ({e}); output: {text[-300:]}")
    shutil.rmtree(out, ignore_errors=True)
    if sampler and sampler.max_pss is not None:
        row.update(pss_mib=sampler.max_pss / 1024, pss_ranks=sampler.max_ranks)
    if sampler and sampler.segments:
        row.update(segments_mib=sum(sampler.segments.values()) / 2**20,
                   segment_count=len(sampler.segments))
    return row


def fmt(v, spec):
    return "n/m" if v is None else format(v, spec)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rmabench", default="build/rmabench")
    ap.add_argument("--script", default="lua_scripts/scale/fence_epochs.lua")
    ap.add_argument("--ranks", default="2,16,64,256,1024")
    ap.add_argument("--paths", default="am,direct")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--timeout", type=int, default=600, help="the case's deadline, seconds")
    ap.add_argument("--period", type=float, default=0.2, help="seconds between samples")
    ap.add_argument("--hold-ms", type=int, default=1000,
                    help="milliseconds the ranks stay up after the timed epochs, to be sampled")
    ap.add_argument("--json", help="also write the rows here")
    args = ap.parse_args()
    rows = []
    print("| ranks | path | status | segments (MiB, count) | summed PSS (MiB) | PSS per rank (MiB) "
          "| fence epoch (µs) | case (s) | wall (s) |")
    print("|---:|---|---|---:|---:|---:|---:|---:|---:|")
    for n in (int(x) for x in args.ranks.split(",")):
        for path in args.paths.split(","):
            r = run_one(args, n, path)
            rows.append(r)
            seg = r.get("segments_mib")
            per = r["pss_mib"] / r["pss_ranks"] if r.get("pss_mib") is not None else None
            print(f"| {n} | {path} | {r.get('status')} | "
                  f"{fmt(seg, '.1f')}{'' if seg is None else ', ' + str(r['segment_count'])} | "
                  f"{fmt(r.get('pss_mib'), '.0f')} | {fmt(per, '.2f')} | "
                  f"{fmt(r.get('epoch_us'), '.1f')} | {fmt(r.get('case_s'), '.1f')} | "
                  f"{r['wall_s']:.1f} |", flush=True)
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)
    return 0 if all(r.get("status") == "pass" for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
