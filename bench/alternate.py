#!/usr/bin/env python3
"""User CPU of two launchlint builds and the tree-sitter anchor on the same Python files, run alternately.

    bench/alternate.py BEFORE AFTER [--repeats N] [--work DIR] [--build DIR] [--cpu N] [--anchor-jemalloc]

Every `.py` of the `mono 1` workload is named on the command line (bench/run must have generated it under
$LAUNCHLINT_BENCH_WORK, default /tmp/launchlint-bench, with its Python mirror `mono1-py`). Alternating BEFORE,
AFTER and the anchor N times puts all three under the same load, which on a shared machine moves by more than the
difference being measured; each figure is the child's own user CPU (wait4 rusage), the median is printed.
"""
import argparse
import os
import statistics
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--work", default=os.environ.get("LAUNCHLINT_BENCH_WORK", "/tmp/launchlint-bench"))
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--cpu", help="pin all three to this CPU (taskset -c): a machine whose cores run at different "
                                  "clocks otherwise moves the runs between them")
    ap.add_argument("--anchor-jemalloc", action="store_true",
                    help="the anchor linked with jemalloc, the release's allocator (bench_ts_parse_jemalloc, built when "
                         "LAUNCHLINT_JEMALLOC is on): like for like with a release build")
    args = ap.parse_args()
    files = []
    for d, dirs, names in os.walk(os.path.join(args.work, "mono1-py")):
        dirs.sort()
        files += [os.path.join(d, f) for f in sorted(names) if f.endswith(".py")]
    listing = os.path.join(args.work, "alternate.py.list")
    with open(listing, "w") as fh:
        fh.write("".join(f + "\n" for f in files))
    flags = ["-q", "--isolated", "--no-cache", "--jobs", "1"]
    cmds = {"before": [args.before, *flags, *files], "after": [args.after, *flags, *files],
            "anchor": [os.path.join(args.build, "bench", "bench_ts_parse_jemalloc" if args.anchor_jemalloc else "bench_ts_parse"),
                       listing]}
    if args.cpu is not None:
        cmds = {k: ["taskset", "-c", args.cpu, *v] for k, v in cmds.items()}
    user = {k: [] for k in cmds}
    for _ in range(args.repeats):
        for k, cmd in cmds.items():
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, _, ru = os.wait4(proc.pid, 0)
            user[k].append(ru.ru_utime)
    with open("/proc/loadavg") as fh:
        print(f"{len(files)} files; load average {' '.join(fh.read().split()[:3])} at the end")
    med = {k: statistics.median(v) for k, v in user.items()}
    for k, v in user.items():
        print(f"{k:<7} user s {' '.join(f'{x:.2f}' for x in v)}  median {med[k]:.3f}")
    print(f"before / anchor {med['before'] / med['anchor']:.2f}x, after / anchor {med['after'] / med['anchor']:.2f}x")
    # On a machine whose speed drifts between rounds (a shared host, frequency changes), the ratio within each round
    # (the three ran back to back) is steadier than a ratio of medians taken over different rounds; the minimum is
    # each program's run with the least interference.
    for k in ("before", "after"):
        per_round = [x / a for x, a in zip(user[k], user["anchor"])]
        print(f"{k} / anchor within each round: median {statistics.median(per_round):.2f}x "
              f"(from {min(per_round):.2f}x to {max(per_round):.2f}x); fastest / fastest {min(user[k]) / min(user['anchor']):.2f}x")


if __name__ == "__main__":
    main()
