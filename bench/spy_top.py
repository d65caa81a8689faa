"""Summarise a py-spy raw profile (``bench/tables.py --profile DIR`` writes them):
the share of busy samples under each function (inclusive), then each leaf (self).

    .venv/bin/python bench/spy_top.py /tmp/profiles/json-50-flat.txt 30
"""
import collections
import re
import sys

IDLE = ("select (", "epoll", "wait (threading", "_worker (concurrent", "_worker (thread.py:81)", "poll (")


def main():
    path = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 25
    inclusive, leaves, total, idle = collections.Counter(), collections.Counter(), 0, 0
    for line in open(path):
        stack, _, samples = line.rstrip().rpartition(" ")
        samples = int(samples)
        frames = [re.sub(r" \((.*/)?(site-packages/)?", " (", frame) for frame in stack.split(";")]
        total += samples
        if any(mark in frames[-1] for mark in IDLE):
            idle += samples
            continue
        leaves[frames[-1]] += samples
        for name in set(frames):
            inclusive[name] += samples
    busy = max(1, total - idle)
    print(f"samples {total}, idle {idle}, busy {busy}")
    print("-- inclusive (% of busy samples)")
    shown = [(name, samples) for name, samples in inclusive.most_common()
             if not name.startswith(("process ", "thread ", "Thread.", "_worker", "_WorkItem", "SyncToAsync"))]
    for name, samples in shown[:count]:
        print(f"{100 * samples / busy:5.1f}%  {name[:140]}")
    print("-- self")
    for name, samples in leaves.most_common(count):
        print(f"{100 * samples / busy:5.1f}%  {name[:140]}")


if __name__ == "__main__":
    main()
