#!/usr/bin/env python3
"""Draw the schedule of `make demo` as an SVG timeline.

    demo-report.py RESULTS_LOG OUT.svg

RESULTS_LOG is what tools/testing/rt-edf/demo printed (the guest's ttyS1):
'@' lines with the groups, the first jobs and the sched_switch events of
the first 60 ms after the common release t0.  The picture shows the first
50 ms, one row per group plus one for every other task, in the style of the
IRMOS article's figures.  Only the Python standard library is used.

What is drawn, and how it is known:
  bars      a task of the group runs (sched_switch events, us resolution)
  arrows    job releases (the periodic task's own clock)
  crosses   a deadline that the job missed (its own finish time)
  down triangle   budget exhausted: the task was switched out while still
            runnable, and either its group had run Q since its last known
            replenishment (rt-edf), or the CPU then idled, ran a non-RT
            task, or (stock, where priorities order the groups) ran a
            lower-priority task: a runnable RT task is passed over so only
            when it is throttled
  up triangle     replenishment: on rt-edf, the intruder's server deadline
            read from the scheduler debug file after the run, minus
            multiples of P (its server is backlogged all along, so it is
            replenished exactly at each deadline); a periodic group's
            budget is renewed at each release by the CBS wakeup rule.  On
            the stock kernel the refill comes from each group's period
            timer, whose phase user space cannot see: the triangle marks
            where the throttled group runs again.
"""
import sys
from xml.sax.saxutils import escape

from records import records

WINDOW_MS = 50.0
TOL_NS = 50_000  # "ran Q": within 50 us of it
COLOURS = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f"]
OTHER = "#9c9c9c"


def parse(path):
    kernel, groups, jobs, sw, repl = {}, [], [], [], {}
    for kind, kv in records(path):
        if kind == "kernel":
            kernel = kv
        elif kind == "group":
            groups.append(kv)
        elif kind == "job":
            jobs.append(kv)
        elif kind == "sw":
            sw.append(kv)
        elif kind == "repl":
            repl[kv["group"]] = kv
    return kernel, groups, jobs, sw, repl


def main():
    src, out = sys.argv[1], sys.argv[2]
    kernel, groups, jobs, sw, repl = parse(src)
    if not kernel or not groups:
        sys.exit("demo-report.py: no demo data in " + src)
    rtedf = kernel.get("name") == "rt-edf"
    t0 = int(kernel["t0"])
    t1 = t0 + int(WINDOW_MS * 1e6)
    names = [g["name"] for g in groups]
    row_of_pid = {int(g["pid"]): i for i, g in enumerate(groups)}
    q = {i: int(g["q"]) for i, g in enumerate(groups)}
    period = {i: int(g["p"]) for i, g in enumerate(groups)}
    periodic = {i: int(g.get("work", "0")) > 0 for i, g in enumerate(groups)}
    n_rows = len(groups) + 1  # + other tasks
    other_row = len(groups)

    # Known budget renewals per group (rt-edf only).
    renewals = {i: [] for i in range(len(groups))}
    if rtedf:
        for i, g in enumerate(groups):
            if periodic[i]:
                k = 0
                while t0 + k * period[i] < t1 + period[i]:
                    renewals[i].append(t0 + k * period[i])
                    k += 1
            elif g["name"] in repl:
                d = int(repl[g["name"]]["deadline"])
                while d > t0 - 2 * period[i]:
                    d -= period[i]
                while d < t1 + period[i]:
                    renewals[i].append(d)
                    d += period[i]

    # Running intervals and budget marks from the switch events.
    bars = []          # (row, start, end)
    exhausted = []     # (row, t)
    refilled = []      # (row, t)
    running, since = None, None
    used = {i: 0 for i in range(len(groups))}
    last_renewal = {i: None for i in range(len(groups))}
    waiting_refill = set()

    def renew_upto(i, t):
        for r in renewals[i]:
            if r <= t and (last_renewal[i] is None or r > last_renewal[i]):
                last_renewal[i] = r
                used[i] = 0

    for e in sw:
        t = int(e["t"])
        prev, nxt = int(e["prev"]), int(e["next"])
        if running is not None and running == prev and since is not None:
            row = row_of_pid.get(prev, other_row if prev != 0 else None)
            if row is not None:
                bars.append((row, since, t))
            if prev in row_of_pid:
                i = row_of_pid[prev]
                # Split the run at renewals it spans.
                s = since
                for r in renewals[i]:
                    if s < r < t:
                        renew_upto(i, r)
                        used[i] = 0
                        s = r
                renew_upto(i, s)
                used[i] += t - s
        if prev in row_of_pid and e["state"].startswith("R"):
            i = row_of_pid[prev]
            renew_upto(i, t)
            ran_q = rtedf and last_renewal[i] is not None and used[i] >= q[i] - TOL_NS
            nprio = int(e.get("next_prio", "0"))
            passed_over = nxt == 0 or nprio >= 100 or (
                not rtedf and nprio > int(e.get("prev_prio", "999")))
            if ran_q or passed_over:
                exhausted.append((i, t))
                waiting_refill.add(i)
        if nxt in row_of_pid and not rtedf and row_of_pid[nxt] in waiting_refill:
            refilled.append((row_of_pid[nxt], t))
            waiting_refill.discard(row_of_pid[nxt])
        running, since = nxt, t
    if rtedf:
        for i in range(len(groups)):
            if not periodic[i]:
                refilled += [(i, r) for r in renewals[i]]

    # Geometry.
    left, right, top, row_h, bar_h = 190, 20, 58, 52, 22
    plot_w = 760
    width = left + plot_w + right
    axis_y = top + n_rows * row_h + 6
    legend_y = axis_y + 40
    height = legend_y + 118

    def x(t):
        return left + (t - t0) / (t1 - t0) * plot_w

    def inside(t):
        return t0 <= t <= t1

    o = []
    o.append(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">')
    o.append(f'<rect width="{width}" height="{height}" fill="white"/>')
    title = (f'{"rt-edf" if rtedf else "stock"} kernel {escape(kernel.get("release", ""))}: '
             f'the first {WINDOW_MS:.0f} ms after the common release (CPU 0)')
    o.append(f'<text x="{left}" y="22" font-size="15" font-weight="bold">{title}</text>')
    o.append(f'<text x="{left}" y="40" fill="#555">from sched_switch trace events; '
             f'groups ordered {"by EDF on their servers" if rtedf else "by the priority of their tasks"}</text>')
    for i in range(n_rows):
        y = top + i * row_h
        o.append(f'<line x1="{left}" y1="{y + row_h - 8}" x2="{left + plot_w}" y2="{y + row_h - 8}" stroke="#ccc"/>')
        if i < len(groups):
            g = groups[i]
            lab = f'{g["name"]}'
            sub = f'{q[i] / 1e6:g} ms / {period[i] / 1e6:g} ms, prio {g["prio"]}'
            o.append(f'<text x="8" y="{y + 24}" font-weight="bold">{escape(lab)}</text>')
            o.append(f'<text x="8" y="{y + 39}" fill="#555">{escape(sub)}</text>')
        else:
            o.append(f'<text x="8" y="{y + 24}" font-weight="bold">other tasks</text>')
            o.append(f'<text x="8" y="{y + 39}" fill="#555">kernel threads, the demo itself</text>')
    for row, s, e in bars:
        s, e = max(s, t0), min(e, t1)
        if e <= s:
            continue
        y = top + row * row_h + (row_h - 8) - bar_h
        col = COLOURS[row % len(COLOURS)] if row < len(groups) else OTHER
        o.append(f'<rect x="{x(s):.2f}" y="{y}" width="{max(x(e) - x(s), 0.6):.2f}" height="{bar_h}" fill="{col}"/>')
    # Releases (arrows up from the row's base line) and missed deadlines.
    for i in range(len(groups)):
        if not periodic[i]:
            continue
        base = top + i * row_h + row_h - 8
        k = 0
        while t0 + k * period[i] <= t1:
            xr = x(t0 + k * period[i])
            o.append(f'<line x1="{xr:.2f}" y1="{base + 7}" x2="{xr:.2f}" y2="{base - bar_h - 8}" stroke="black" stroke-width="1"/>')
            o.append(f'<path d="M{xr - 3.5:.2f},{base - bar_h - 3} L{xr:.2f},{base - bar_h - 10} L{xr + 3.5:.2f},{base - bar_h - 3} Z" fill="black"/>')
            k += 1
    for j in jobs:
        i = names.index(j["group"])
        dl = int(j["release"]) + period[i]
        if int(j["finish"]) > dl and inside(dl):
            base = top + i * row_h + row_h - 8
            xd, yd = x(dl), base - bar_h - 16
            o.append(f'<path d="M{xd - 5:.2f},{yd - 5} L{xd + 5:.2f},{yd + 5} M{xd - 5:.2f},{yd + 5} L{xd + 5:.2f},{yd - 5}" stroke="#d00" stroke-width="2.5"/>')
    for i, t in exhausted:
        if inside(t):
            yb = top + i * row_h + row_h - 8 - bar_h - 2
            o.append(f'<path d="M{x(t) - 5:.2f},{yb - 9} L{x(t) + 5:.2f},{yb - 9} L{x(t):.2f},{yb} Z" fill="#d00"/>')
    for i, t in refilled:
        if inside(t):
            yb = top + i * row_h + row_h - 8
            o.append(f'<path d="M{x(t) - 5:.2f},{yb + 9} L{x(t) + 5:.2f},{yb + 9} L{x(t):.2f},{yb} Z" fill="#2a2"/>')
    # Time axis.
    o.append(f'<line x1="{left}" y1="{axis_y}" x2="{left + plot_w}" y2="{axis_y}" stroke="black"/>')
    for ms in range(0, int(WINDOW_MS) + 1, 5):
        xt = left + ms / WINDOW_MS * plot_w
        o.append(f'<line x1="{xt:.2f}" y1="{axis_y}" x2="{xt:.2f}" y2="{axis_y + 5}" stroke="black"/>')
        o.append(f'<text x="{xt:.2f}" y="{axis_y + 18}" text-anchor="middle">{ms}</text>')
    o.append(f'<text x="{left + plot_w}" y="{axis_y + 32}" text-anchor="end">time since the common release (ms)</text>')
    # Legend.
    ly = legend_y
    o.append(f'<path d="M{left - 150},{ly + 4} L{left - 143},{ly - 6} L{left - 136},{ly + 4} Z" fill="black"/>')
    o.append(f'<text x="{left - 128}" y="{ly + 4}">job release (the deadline is the next release)</text>')
    o.append(f'<path d="M{left + 240},{ly - 5} L{left + 250},{ly + 5} M{left + 240},{ly + 5} L{left + 250},{ly - 5}" stroke="#d00" stroke-width="2.5"/>')
    o.append(f'<text x="{left + 258}" y="{ly + 4}">deadline missed (the job finished later)</text>')
    ly += 22
    o.append(f'<path d="M{left - 148},{ly - 6} L{left - 138},{ly - 6} L{left - 143},{ly + 3} Z" fill="#d00"/>')
    if rtedf:
        l1 = "budget exhausted: switched out still runnable after its group ran Q since its last known replenishment,"
        l2 = "or while the CPU then idled or ran a non-RT task (inferred from sched_switch)"
    else:
        l1 = "budget exhausted: switched out still runnable while the CPU then idled or ran a non-RT or lower-priority"
        l2 = "task: a runnable RT task is passed over so only when its group is throttled (inferred from sched_switch)"
    o.append(f'<text x="{left - 128}" y="{ly + 4}">{l1}</text>')
    ly += 16
    o.append(f'<text x="{left - 128}" y="{ly + 4}">{l2}</text>')
    ly += 22
    o.append(f'<path d="M{left - 148},{ly + 4} L{left - 138},{ly + 4} L{left - 143},{ly - 5} Z" fill="#2a2"/>')
    if rtedf:
        o.append(f'<text x="{left - 128}" y="{ly + 4}">replenishment of the intruder\'s server: its deadline from /sys/kernel/debug/sched/debug '
                 f'after the run, minus multiples of P;</text>')
        ly += 16
        o.append(f'<text x="{left - 128}" y="{ly + 4}">a periodic group\'s budget is renewed at each release (the CBS wakeup rule)</text>')
    else:
        o.append(f'<text x="{left - 128}" y="{ly + 4}">the throttled group runs again: stock refills each group at its own period timer, '
                 f'whose phase user space</text>')
        ly += 16
        o.append(f'<text x="{left - 128}" y="{ly + 4}">cannot see (the intruder has the top priority, so it runs at once)</text>')
    o.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(o) + "\n")


if __name__ == "__main__":
    main()
