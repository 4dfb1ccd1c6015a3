#!/usr/bin/env python3
"""Turn the two guest logs of `make bench` into build/bench/results.md and
SVG plots (Python standard library only).

    bench-report.py OUTDIR RTEDF_RESULTS STOCK_RESULTS [key=value ...]

The guest program (tools/testing/rt-edf/bench.c) prints raw results as
'@section key=value ...' lines; every measurement is repeated (rep=0..),
and this script reports the median over the repetitions.  key=value
arguments (machine, qemu, wall times) go into the report's header.
"""
import math
import os
import statistics
import sys
from collections import defaultdict
from xml.sax.saxutils import escape

from records import records

KERNELS = ("stock", "rtedf")
LABEL = {"stock": "stock 6.12", "rtedf": "rt-edf"}
COLOUR = {"stock": "#e15759", "rtedf": "#4e79a7"}
BINS = ["0.5-0.6", "0.6-0.7", "0.7-0.8", "0.8-0.9"]
NB = len(BINS)


def parse(path):
    recs = defaultdict(list)
    if not path or not os.path.exists(path):
        return recs
    for kind, kv in records(path):
        recs[kind].append(kv)
    return recs


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def pct(xs, p):
    """Nearest-rank percentile."""
    xs = sorted(xs)
    if not xs:
        return None
    k = max(0, math.ceil(p / 100 * len(xs)) - 1)
    return xs[k]


def fmt(x, unit="", nd=1):
    if x is None:
        return "n/a"
    return f"{x:.{nd}f}{unit}"


def ratio(a, b, nd=3):
    if a is None or b is None or b == 0:
        return "n/a"
    return f"{a / b:.{nd}f}"


def us(ns):
    return None if ns is None else ns / 1000.0


# ---------------------------------------------------------------- SVG plots

def svg_chart(path, title, xlabels, series, ylabel, ylog=False, bars=False,
              xlabel="", width=720, height=400, ymin=None, note=""):
    """series: list of (name, colour, [y or None per x])."""
    left, right, top, bottom = 78, 20, 46, 84
    pw, ph = width - left - right, height - top - bottom
    ys = [y for _, _, vals in series for y in vals if y is not None]
    if ylog:
        pos = [y for y in ys if y > 0] or [1]
        lo = 10 ** math.floor(math.log10(min(pos)))
        hi = 10 ** math.ceil(math.log10(max(pos)))
        if hi <= lo:
            hi = lo * 10
    else:
        lo = 0 if ymin is None else ymin
        hi = max(ys + [lo + 1e-9])
        lo = min(ys + [lo])
        span = hi - lo or 1
        base_step = 10 ** math.floor(math.log10(span)) / 10
        for m in (1, 2, 5, 10, 20, 50, 100):
            step = base_step * m
            if span / step <= 8:
                break
        lo = math.floor(lo / step) * step
        hi = math.ceil(hi / step) * step
        if hi == lo:
            hi = lo + step

    def yv(y):
        if ylog:
            y = max(y, lo)
            return top + ph - (math.log10(y) - math.log10(lo)) / (math.log10(hi) - math.log10(lo)) * ph
        return top + ph - (y - lo) / (hi - lo) * ph

    n = len(xlabels)
    o = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
         f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">',
         f'<rect width="{width}" height="{height}" fill="white"/>',
         f'<text x="{left}" y="22" font-size="14" font-weight="bold">{escape(title)}</text>']
    if note:
        o.append(f'<text x="{left}" y="38" fill="#555" font-size="11">{escape(note)}</text>')
    # Y grid.
    ticks = []
    if ylog:
        t = lo
        while t <= hi * 1.0001:
            ticks.append(t)
            t *= 10
    else:
        t = lo
        while t <= hi + 1e-9:
            ticks.append(t)
            t += step
    for t in ticks:
        y = yv(t)
        o.append(f'<line x1="{left}" y1="{y:.1f}" x2="{left + pw}" y2="{y:.1f}" stroke="#e4e4e4"/>')
        lab = f"{t:g}"
        o.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{lab}</text>')
    o.append(f'<text x="16" y="{top + ph / 2}" transform="rotate(-90 16 {top + ph / 2})" '
             f'text-anchor="middle">{escape(ylabel)}</text>')
    o.append(f'<line x1="{left}" y1="{top + ph}" x2="{left + pw}" y2="{top + ph}" stroke="black"/>')
    o.append(f'<line x1="{left}" y1="{top}" x2="{left}" y2="{top + ph}" stroke="black"/>')
    slot = pw / max(n, 1)
    for i, xl in enumerate(xlabels):
        xc = left + slot * (i + 0.5)
        o.append(f'<text x="{xc:.1f}" y="{top + ph + 18}" text-anchor="middle">{escape(str(xl))}</text>')
    if xlabel:
        o.append(f'<text x="{left + pw / 2}" y="{top + ph + 40}" text-anchor="middle">{escape(xlabel)}</text>')
    base = yv(lo) if not ylog else top + ph
    for si, (name, col, vals) in enumerate(series):
        if bars:
            bw = slot * 0.8 / len(series)
            for i, v in enumerate(vals):
                if v is None:
                    continue
                x0 = left + slot * i + slot * 0.1 + si * bw
                y = yv(v)
                h = max(base - y, 0.8) if v > 0 or not ylog else 0.8
                o.append(f'<rect x="{x0:.1f}" y="{min(y, base - 0.8):.1f}" width="{bw:.1f}" height="{h:.1f}" fill="{col}"/>')
        else:
            pts = [(left + slot * (i + 0.5), yv(v)) for i, v in enumerate(vals) if v is not None]
            if pts:
                dash = ' stroke-dasharray="7,5"' if si % 2 and len(series) > 2 else ""
                o.append('<polyline fill="none" stroke="{}" stroke-width="2"{} points="{}"/>'.format(
                    col, dash, " ".join(f"{x:.1f},{y:.1f}" for x, y in pts)))
                for x, y in pts:
                    o.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{col}"/>')
        # Legend in a row under the plot.
        lx = left + sum(len(nm) * 7 + 40 for nm, _, _ in series[:si])
        ly = height - 14
        o.append(f'<rect x="{lx}" y="{ly - 10}" width="12" height="12" fill="{col}"/>')
        o.append(f'<text x="{lx + 18}" y="{ly}">{escape(name)}</text>')
    o.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(o) + "\n")


# ---------------------------------------------------------------- figures

def guarantee(r):
    """Per bin: median over reps of the miss ratio and of the max lateness."""
    sets = {(s["rep"], s["set"]): s for s in r["set"]}
    per = defaultdict(lambda: defaultdict(lambda: {"jobs": 0, "miss": 0, "late": None, "sets": 0, "badsets": set(), "late_start": 0}))
    for t in r["task"]:
        s = sets.get((t["rep"], t["set"]))
        if not s:
            continue
        b = int(s["bin"])
        d = per[b][t["rep"]]
        d["jobs"] += int(t["jobs"])
        d["miss"] += int(t["misses"])
        late = int(t["maxlate"])
        d["late"] = late if d["late"] is None else max(d["late"], late)
        d["late_start"] += int(t.get("late_start", 0))
        if int(t["misses"]):
            d["badsets"].add(t["set"])
    for s in r["set"]:
        per[int(s["bin"])][s["rep"]]["sets"] += 1
    out = {}
    for b in range(NB):
        reps = per.get(b, {})
        out[b] = {
            "sets": sum(d["sets"] for d in reps.values()),
            "jobs": sum(d["jobs"] for d in reps.values()),
            "ratio": med([d["miss"] / d["jobs"] for d in reps.values() if d["jobs"]]),
            "late": med([d["late"] for d in reps.values() if d["late"] is not None]),
            "late_all": max([d["late"] for d in reps.values() if d["late"] is not None], default=None),
            "badsets": sum(len(d["badsets"]) for d in reps.values()),
            "misses": sum(d["miss"] for d in reps.values()),
            "late_start": sum(d["late_start"] for d in reps.values()),
        }
    return out


def article(r, key="article"):
    out = {}
    by = defaultdict(list)
    for t in r[key]:
        by[t["task"]].append(t)
    for k, ts in by.items():
        out[k] = {
            "q": int(ts[0]["q"]), "p": int(ts[0]["p"]), "prio": ts[0]["prio"],
            "jobs": med([int(t["jobs"]) for t in ts]),
            "misses": med([int(t["misses"]) for t in ts]),
            "late": med([int(t["maxlate"]) for t in ts]),
        }
    return out


def share(r):
    by = defaultdict(list)
    rep_err = defaultdict(float)
    order = []
    for s in r["share"]:
        if s["group"] not in by:
            order.append(s["group"])
        by[s["group"]].append(s)
        want = 1000.0 * int(s["q"]) / int(s["p"])
        rep_err[s["rep"]] = max(rep_err[s["rep"]], abs(float(s["permille"]) - want))
    groups = {}
    for g in order:
        ss = by[g]
        want = 1000.0 * int(ss[0]["q"]) / int(ss[0]["p"])
        got = med([float(s["permille"]) for s in ss])
        groups[g] = {"q": int(ss[0]["q"]), "p": int(ss[0]["p"]), "prio": ss[0]["prio"],
                     "want": want, "got": got, "err": got - want}
    return groups, med(list(rep_err.values()))


def precision(r, variant):
    reps = defaultdict(list)
    for p in r["precision"]:
        if p.get("variant", "alone") != variant:
            continue
        q = int(p["q"])
        runs = [int(x) for x in p.get("runs", "").split(",") if x]
        reps[p["rep"]] += [x - q for x in runs]
    allov = [x for v in reps.values() for x in v]
    return {
        "periods": len(allov),
        "max": med([max(v) for v in reps.values() if v]),
        "p99": med([pct(v, 99) for v in reps.values() if v]),
        "max_all": max(allov) if allov else None,
        "over50": sum(1 for x in allov if x > 50000),
        "sorted": sorted(allov),
    }


def rtt(recs, key=None):
    """Median over reps of the median batch, per round trip (ns)."""
    by = defaultdict(dict)
    for p in recs:
        k = p.get(key) if key else "-"
        batches = [int(x) for x in p["batch_ns"].split(",")]
        by[k][p["rep"]] = statistics.median(batches) / int(p["rtt_per_batch"])
    return {k: med(list(v.values())) for k, v in by.items()}


def latency(r):
    by = defaultdict(list)
    for l in r["latency"]:
        by[l["variant"]].append(l)
    out = {}
    for v, ls in by.items():
        out[v] = {"max": med([int(l["max_us"]) for l in ls]),
                  "p99": med([int(l["p99_us"]) for l in ls]),
                  "avg": med([float(l["avg_us"]) for l in ls]),
                  "busy": ls[0]["busy_prio"], "samples": int(ls[0]["samples"]),
                  "over": sum(int(l["overflows"]) for l in ls)}
    return out


def section_times(r):
    return {t["section"]: float(t["guest_ms"]) / 1000 for t in r["time"]}


# ---------------------------------------------------------------- report

def smp_random(r, variant):
    """guarantee() of one variant of the two-CPU random task sets."""
    return guarantee({"set": [s for s in r["smpset"] if s["variant"] == variant],
                      "task": [t for t in r["smptask"] if t["variant"] == variant]})


def smp_section(md, outdir, R2, RT, info):
    """Section 6: two vCPUs (smpcost under icount, smprandom on plain TCG)."""
    C = smp_costs(R2, RT)
    M = {k: {(p["variant"], int(p["n"])): int(p["migrations"]) / int(p["rtts"])
             for p in R2[k]["smpmig"] + RT[k]["smpmig"]}
         for k in KERNELS}
    keys = sorted(set(C["stock"]) | set(C["rtedf"]), key=lambda vk: (("pinned", "unpinned", "push").index(vk[0]), vk[1]))
    md.append("## 6. Two CPUs")
    md.append("")
    md.append(f"Two more boots per kernel with two vCPUs.  Costs (`smpcost`): `{info.get('qemu_smp2', '?')}`, "
              "guest time, deterministic.  Round trips between two SCHED_FIFO 50 tasks as in section 4, "
              "with n groups: n = 0, no group configured (the root's tasks, the root's own RT runtime at its "
              "default); n = 1, the pair's group (600 ms / 1 s) alone; n = 16 and 64, the pair's group and "
              "n - 1 others (100 ms every 40 s), each with a SCHED_FIFO 1 task on each CPU that sleeps.  "
              "Not busy: under icount a busy vCPU holds back the other's wakeups by the emulator's "
              "round-robin slice, so servers queued behind the pair cannot be measured on two vCPUs (their "
              "cost is section 4's decision cost, on one).  \"pinned\": one task on each CPU, every wakeup "
              "crosses CPUs; \"unpinned\": both may run on both CPUs, every wakeup chooses its CPU; "
              "\"push\" (`smppush`, in the plain-TCG boot below, host time): pinned, plus a SCHED_FIFO 10 "
              "task of the pair's group, on either CPU, that runs 200 us and sleeps 200 us in turn: a wakeup "
              "that finds it running preempts it, and it moves to the other CPU, pushed or pulled (its "
              "migrations per round trip are counted; the pair's group reserves 700 ms / 1 s there; n = 0 "
              "and 1 only).  Not under icount: there one host thread runs the vCPUs in turn and an interrupt "
              "sent to a vCPU waits until the busy one ends its slice, here the task's 200 us burst.  "
              "Targets (issue 18): rt-edf <= 1.1 x stock with no group configured, <= 1.3 x with 64 groups.")
    md.append("")
    md.append("| variant | n groups | round trip stock | round trip rt-edf | rt-edf / stock | migrations of the loop per round trip stock | rt-edf |")
    md.append("| --- | --- | --- | --- | --- | --- | --- |")
    for vk in keys:
        s_, r_ = C["stock"].get(vk), C["rtedf"].get(vk)
        ms, mr = M["stock"].get(vk), M["rtedf"].get(vk)
        md.append("| {} | {} | {} | {} | {} | {} | {} |".format(
            vk[0], vk[1], fmt(us(s_), " us", 3), fmt(us(r_), " us", 3), ratio(r_, s_),
            fmt(ms, "", 2) if ms is not None else "", fmt(mr, "", 2) if mr is not None else ""))
    md.append("")
    ns = sorted({vk[1] for vk in keys})
    svg_chart(os.path.join(outdir, "smp-cost.svg"), "Two CPUs: round trip across CPUs, rt-edf / stock",
              [str(n) for n in ns],
              [(v, col, [None if C["stock"].get((v, n)) in (None, 0) or C["rtedf"].get((v, n)) is None
                         else C["rtedf"][(v, n)] / C["stock"][(v, n)] for n in ns])
               for v, col in (("pinned", "#4e79a7"), ("unpinned", "#f28e2b"), ("push", "#59a14f"))],
              "rt-edf / stock", xlabel="groups n", ymin=0, bars=True,
              note="round trip of rt-edf over stock's, per configuration")
    md.append("![two CPUs, cost](smp-cost.svg)")
    md.append("")
    smp_decide_section(md, R2)
    mt = (RT["rtedf"]["meta"] or RT["stock"]["meta"] or [{}])[0]
    md.append(f"Guarantee (`smprandom`): `{info.get('qemu_tcg2', '?')}`, plain TCG, the two vCPUs in parallel "
              "on the host's clock (figures in host time; the host stalls a vCPU thread now and then, up to "
              "about 4 ms, and the guest charges that time to the task that runs).  The random task sets of "
              "section 1 with periods of 20 to 100 ms and budgets Q of 8 ms or more, total utilisation 0.5 to "
              f"0.9 per CPU in four bins, {mt.get('sets', '?')} sets per repetition and variant, "
              f"{mt.get('reps', '?')} repetitions, {float(mt.get('setms', 0)) / 1000:g} s each.  Every job "
              "needs Q - 4 ms (the margin is for the host's stalls).  \"partitioned\": every group gets one "
              "task on each CPU, each pinned, so that each CPU runs the whole set (a reservation holds on "
              "every CPU).  \"global\": every group gets three tasks that may run on both CPUs, at three "
              "priorities, each needing 40% of Q - 4 ms every P (1.2 (Q - 4 ms) of the 2 Q the group has "
              "on the two CPUs): global fixed priority inside the group, which no analysis here promises; "
              "reported.")
    md.append("")
    md.append("| variant | total utilisation (per CPU) | sets | jobs | miss ratio stock | miss ratio rt-edf | sets with a miss stock | rt-edf | max lateness stock | max lateness rt-edf |")
    md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for v in ("partitioned", "global"):
        G = {k: smp_random(RT[k], v) for k in KERNELS}
        for b in range(NB):
            gs, gr = G["stock"][b], G["rtedf"][b]
            if not (gs["sets"] or gr["sets"]):
                continue
            md.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
                v, BINS[b], gr["sets"] or gs["sets"], gr["jobs"] or gs["jobs"],
                fmt(None if gs["ratio"] is None else 100 * gs["ratio"], " %", 2),
                fmt(None if gr["ratio"] is None else 100 * gr["ratio"], " %", 2),
                gs["badsets"], gr["badsets"], fmt(us(gs["late_all"]), " us", 0), fmt(us(gr["late_all"]), " us", 0)))
    md.append("")
    log = os.path.join(outdir, "rtedf-tcg2", "results.log")
    traces = []
    if os.path.exists(log):
        with open(log, errors="replace") as f:
            traces = [ln.split()[3] for ln in f if ln.startswith("# rtedf: trace ") and len(ln.split()) > 3]
    if traces:
        md.append(f"Traced (`trace=1`, rt-edf only): the {len(traces)} sets with a missed deadline "
                  f"({', '.join(traces)}) are in `rtedf-tcg2/results.log`; `python3 "
                  "tools/testing/rt-edf/schedcheck.py --results build/bench/rtedf-tcg2/results.log DIR` "
                  "saves each as DIR/NAME.txt with the checker's verdict on the scheduler's decisions.")
        md.append("")


def smp_decide(R2):
    """smpdecide: per kernel, {(variant, n, fn): record}, {(variant, n): sum record}, and the
    baseline: the median time of a pull_rt_task() with nothing to pull (the tracer's own cost)."""
    D, S, B = {}, {}, {}
    for k in KERNELS:
        D[k] = {(p["variant"], int(p["n"]), p["fn"]): p for p in R2[k]["smpdecide"]}
        S[k] = {(p["variant"], int(p["n"])): p for p in R2[k]["smpdecsum"]}
        b = D[k].get(("unpinned", 0, "pull_rt_task"))
        B[k] = int(b["median_ns"]) if b and int(b["calls"]) else None
    return D, S, B


def dec_cell(D, k, vnf, key="median_ns"):
    p = D[k].get(vnf)
    return int(p[key]) if p and int(p["calls"]) else None


def dec_per_rtt(S, B, k, vn):
    """Placement's time per round trip (ns): the outermost calls' times less the tracer's cost of
    every traced call in them."""
    p = S[k].get(vn)
    if not p or B[k] is None or not int(p["rtts"]):
        return None
    return (int(p["outer_ns"]) - B[k] * int(p["calls"])) / int(p["rtts"])


def smp_decide_section(md, R2):
    D, S, B = smp_decide(R2)
    if not (D["stock"] or D["rtedf"]):
        return
    md.append("Decisions (`smpdecide`, in the icount boot, guest time): the function graph tracer times every "
              "call of `select_task_rq_rt()` (a waking task's CPU), `task_woken_rt()` and `push_rt_tasks()` "
              "(a CPU pushes its waiting RT tasks away), `balance_rt()` and `pull_rt_task()` (a CPU whose "
              "priority drops pulls waiting tasks in), from entry to return, during one repetition "
              "(2400 round trips) of \"unpinned\" and of \"push\" (there the pair's group reserves "
              "700 ms / 1 s).  Every traced call includes the tracer's own cost, the same on both kernels: "
              "the baseline is the median time of a `pull_rt_task()` that finds no CPU overloaded and returns "
              f"at once (stock {fmt(B['stock'], ' ns', 0)}, rt-edf {fmt(B['rtedf'], ' ns', 0)}).  "
              "\"Placement per round trip\" is the time of the outermost traced calls (a traced call made "
              "inside another counts in the outer one's) less the baseline for every traced call, per round "
              "trip: all the time the kernel spent deciding where RT tasks run, wherever it decided.  Under "
              "icount a call during which the emulator switched vCPUs also counts the other vCPU's slice: "
              "outermost calls of 50 us or more are left out (\"cut\"), and the medians are not moved by "
              "them.  Targets (issue 18): rt-edf <= 1.1 x stock with no group configured, <= 1.3 x with 64 "
              "groups.")
    md.append("")
    md.append("| variant | n groups | placement per round trip stock | rt-edf | rt-edf / stock | traced calls "
              "per round trip stock | rt-edf | cut stock | cut rt-edf |")
    md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for vn in sorted(set(S["stock"]) | set(S["rtedf"]), key=lambda t: (("unpinned", "push").index(t[0]), t[1])):
        cs, cr = dec_per_rtt(S, B, "stock", vn), dec_per_rtt(S, B, "rtedf", vn)
        ps, pr = S["stock"].get(vn), S["rtedf"].get(vn)
        md.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            vn[0], vn[1], fmt(cs, " ns", 0), fmt(cr, " ns", 0), ratio(cr, cs),
            fmt(int(ps["calls"]) / int(ps["rtts"]), "", 2) if ps else "n/a",
            fmt(int(pr["calls"]) / int(pr["rtts"]), "", 2) if pr else "n/a",
            ps["cut"] if ps else "n/a", pr["cut"] if pr else "n/a"))
    md.append("")
    md.append("Each function, all calls (those with nothing to do as well), times as measured (the baseline "
              "included):")
    md.append("")
    md.append("| variant | n groups | function | calls stock | calls rt-edf | median stock | median rt-edf "
              "| p90 stock | p90 rt-edf |")
    md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    order = ("select_task_rq_rt", "task_woken_rt", "push_rt_tasks", "balance_rt", "pull_rt_task")
    keys = sorted(set(D["stock"]) | set(D["rtedf"]),
                  key=lambda t: (("unpinned", "push").index(t[0]), t[1],
                                 order.index(t[2]) if t[2] in order else len(order)))
    for vnf in keys:
        cs = D["stock"].get(vnf, {}).get("calls", "0")
        cr = D["rtedf"].get(vnf, {}).get("calls", "0")
        md.append("| {} | {} | `{}` | {} | {} | {} | {} | {} | {} |".format(
            vnf[0], vnf[1], vnf[2], cs, cr,
            fmt(dec_cell(D, "stock", vnf), " ns", 0), fmt(dec_cell(D, "rtedf", vnf), " ns", 0),
            fmt(dec_cell(D, "stock", vnf, "p90_ns"), " ns", 0), fmt(dec_cell(D, "rtedf", vnf, "p90_ns"), " ns", 0)))
    md.append("")


def smp_decide_summary(R2):
    D, S, B = smp_decide(R2)
    rows = []
    for n, tgt in ((0, "<= 1.1 x stock"), (64, "<= 1.3 x stock")):
        for v in ("unpinned", "push"):
            if (v, n) not in S["stock"] and (v, n) not in S["rtedf"]:
                continue
            cs, cr = dec_per_rtt(S, B, "stock", (v, n)), dec_per_rtt(S, B, "rtedf", (v, n))
            rows.append("| 2 vCPUs, icount: placement's time per round trip, {}, {} | {} | {} | {} ({} x stock) |".format(
                v, "no group configured" if n == 0 else f"{n} groups", tgt,
                fmt(cs, " ns", 0), fmt(cr, " ns", 0), ratio(cr, cs)))
    return rows


def smp_costs(R2, RT):
    """Round trip (ns) per (variant, n): smpcost under icount, push on plain TCG."""
    C = {}
    for k in KERNELS:
        by = defaultdict(list)
        for p in R2[k]["smpcost"] + RT[k]["smpcost"]:
            by[(p["variant"], int(p["n"]))].append(p)
        C[k] = {vk: rtt(v).get("-") for vk, v in by.items()}
    return C


def smp_summary(R2, RT):
    """Summary rows of the two-CPU runs."""
    rows = smp_decide_summary(R2)
    C = smp_costs(R2, RT)
    for n, tgt in ((0, "<= 1.1 x stock"), (64, "<= 1.3 x stock")):
        for v in ("pinned", "unpinned", "push"):
            if (v, n) not in C["stock"] and (v, n) not in C["rtedf"]:
                continue
            s_, r_ = C["stock"].get((v, n)), C["rtedf"].get((v, n))
            rows.append("| 2 vCPUs: round trip across CPUs, {}, {} | {} | {} | {} ({} x stock) |".format(
                v, "no group configured" if n == 0 else f"{n} groups", tgt,
                fmt(us(s_), " us", 2), fmt(us(r_), " us", 2), ratio(r_, s_)))
    for v in ("partitioned", "global"):
        G = {k: smp_random(RT[k], v) for k in KERNELS}
        cell = {}
        for k in KERNELS:
            jobs = sum(G[k][b]["jobs"] for b in range(NB))
            miss = sum(G[k][b]["misses"] for b in range(NB))
            cell[k] = fmt(100 * miss / jobs, " %", 2) if jobs else "n/a"
        rows.append("| 2 vCPUs: random task sets, {}: jobs missing their deadline | {} | {} | {} |".format(
            v, "none up to the bound" if v == "partitioned" else "(report)", cell["stock"], cell["rtedf"]))
    return rows


def main():
    outdir, rpath, spath = sys.argv[1:4]
    info = dict(a.split("=", 1) for a in sys.argv[4:] if "=" in a)
    R = {"rtedf": parse(rpath), "stock": parse(spath)}
    # The two-CPU boots, where make bench ran them.
    R2 = {k: parse(os.path.join(outdir, f"{k}-smp2", "results.log")) for k in KERNELS}
    RT = {k: parse(os.path.join(outdir, f"{k}-tcg2", "results.log")) for k in KERNELS}
    have_smp = any(R2[k]["smpcost"] or R2[k]["smpdecide"] or RT[k]["smptask"] for k in KERNELS)
    os.makedirs(outdir, exist_ok=True)
    md = []
    meta = {k: (R[k]["meta"][0] if R[k]["meta"] else {}) for k in KERNELS}

    G = {k: guarantee(R[k]) for k in KERNELS}
    A = {k: article(R[k]) for k in KERNELS}
    AR = {k: article(R[k], "article_rtapp") for k in KERNELS}
    S = {k: share(R[k]) for k in KERNELS}
    PV = ("alone", "fair-waker")
    PVL = {"alone": "alone", "fair-waker": "with a SCHED_OTHER task waking every 3 ms"}
    PA = {v: {k: precision(R[k], v) for k in KERNELS} for v in PV}
    P = PA["alone"]
    PP = {k: rtt(R[k]["pingpong"], "variant").get("group") for k in KERNELS}
    PPR = {k: rtt(R[k]["pingpong"], "variant").get("root") for k in KERNELS}
    D = {k: rtt(R[k]["decision"], "n") for k in KERNELS}
    L = {k: latency(R[k]) for k in KERNELS}
    T = {k: section_times(R[k]) for k in KERNELS}
    m = meta["rtedf"] or meta["stock"]
    reps = m.get("reps", "?")

    def all_bins_ratio(k):
        jobs = sum(G[k][b]["jobs"] for b in range(NB))
        miss = sum(G[k][b]["misses"] for b in range(NB))
        return (miss / jobs) if jobs else None

    def worst_late(k):
        return max([G[k][b]["late_all"] for b in range(NB) if G[k][b]["late_all"] is not None], default=None)

    md.append("# rt-edf benchmark: rt-edf against the stock kernel")
    md.append("")
    md.append(f"Generated by `make bench` on {info.get('date', '?')} at {info.get('commit', '?')}.  "
              f"Machine: {info.get('machine', '?')}.  ")
    md.append(f"Guests: `{info.get('qemu', '?')}`.  ")
    md.append(f"Kernels: rt-edf `{meta['rtedf'].get('release', '?')}` (base + patches/), stock "
              f"`{meta['stock'].get('release', '?')}` (the same config without the series), one vCPU, "
              f"identical initramfs and workloads; groups on cgroup {info.get('cgroup', 'v1')} for rt-edf"
              f"{' (stock: v1, it has no RT reservations on v2)' if info.get('cgroup') == 'v2' else ''}.  ")
    md.append(f"Wall time: {info.get('wall', '?')} in all ({info.get('wall_detail', '')}).")
    md.append("")
    md.append("QEMU runs with `-icount shift=0,sleep=off`: one guest instruction is one nanosecond of guest "
              "time and idle time is skipped, so every figure below is in virtual time and a run is "
              "reproducible, whatever the host load; absolute costs are those of an emulated 1 GHz, "
              "one-instruction-per-cycle CPU, not of real hardware.  Every measurement ran "
              f"{reps} times in one boot per kernel; the tables give medians over those repetitions.  "
              "On rt-edf the RT groups and SCHED_DEADLINE (here the fair server's 50 ms every second) share "
              "the global limit of 0.95, so the admission bound for the groups is "
              f"{m.get('bound', '?')} of the CPU (the stock kernel admits 0.95 for the groups); the same task "
              "sets run on both.")
    md.append("")

    # Headline.
    md.append("## Summary")
    md.append("")
    md.append("| measure | target (issue 5) | stock 6.12 | rt-edf |")
    md.append("| --- | --- | --- | --- |")
    md.append("| article's example: deadline misses (6 ms task) | none | {} | {} |".format(
        *(fmt(A[k].get("1", {}).get("misses"), "", 0) + " of " + fmt(A[k].get("1", {}).get("jobs"), "", 0) for k in KERNELS)))
    md.append("| the same with rt-app: deadline misses (6 ms task) | none | {} | {} |".format(
        *(fmt(AR[k].get("1", {}).get("misses"), "", 0) + " of " + fmt(AR[k].get("1", {}).get("jobs"), "", 0) for k in KERNELS)))
    md.append("| random task sets, U 0.5 to {}: jobs missing their deadline | none up to the bound | {} | {} |".format(
        m.get("bound", "?"), *(fmt(None if all_bins_ratio(k) is None else 100 * all_bins_ratio(k), " %", 2) for k in KERNELS)))
    md.append("| random task sets: worst lateness | <= 0 | {} | {} |".format(
        *(fmt(us(worst_late(k)), " us", 0) for k in KERNELS)))
    md.append("| share accuracy: max abs error | <= 5 per mille | {} | {} |".format(
        *(fmt(S[k][1], " per mille", 1) for k in KERNELS)))
    for v in PV:
        md.append("| enforcement: overrun beyond Q per period, busy group {}: max / p99 | <= 50 us | {} / {} | {} / {} |".format(
            PVL[v], fmt(us(PA[v]["stock"]["max"]), " us", 0), fmt(us(PA[v]["stock"]["p99"]), " us", 0),
            fmt(us(PA[v]["rtedf"]["max"]), " us", 0), fmt(us(PA[v]["rtedf"]["p99"]), " us", 0)))
    md.append("| pipe ping-pong round trip in one group | rt-edf <= 1.05 x stock | {} | {} ({} x stock) |".format(
        fmt(us(PP["stock"]), " us", 2), fmt(us(PP["rtedf"]), " us", 2), ratio(PP["rtedf"], PP["stock"])))
    md.append("| pipe ping-pong round trip, no group configured | rt-edf <= 1.02 x stock | {} | {} ({} x stock) |".format(
        fmt(us(PPR["stock"]), " us", 2), fmt(us(PPR["rtedf"]), " us", 2), ratio(PPR["rtedf"], PPR["stock"])))
    d256 = {k: (ratio(D[k].get("256"), D[k].get("1")) if D[k] else "n/a") for k in KERNELS}
    md.append(f"| scheduling decision, 256 vs 1 active groups | <= 1.3 (logarithmic) | {d256['stock']} | {d256['rtedf']} |")
    for v in ("hi", "lo"):
        ls, lr = L["stock"].get(v, {}), L["rtedf"].get(v, {})
        md.append("| cyclictest in a reservation, busy groups {}: max / p99 | (report) | {} / {} | {} / {} ({} x stock max) |".format(
            "above and below it" if v == "hi" else "below it",
            fmt(ls.get("max"), " us", 0), fmt(ls.get("p99"), " us", 0),
            fmt(lr.get("max"), " us", 0), fmt(lr.get("p99"), " us", 0), ratio(lr.get("max"), ls.get("max"), 4)))
    if have_smp:
        md.extend(smp_summary(R2, RT))
    md.append("")

    # 1. Guarantee.
    md.append("## 1. Guarantee")
    md.append("")
    md.append("### The article's example")
    md.append("")
    md.append("Reservations of 5 ms / 9 ms and 2 ms / 6 ms on CPU 0, each with a periodic task needing 90% "
              f"of its budget, the 6 ms task at the lower priority (20 against 80), released together, "
              f"{float(m.get('article_ms', 0)) / 1000:g} s.  Lateness is finish time minus deadline (the next "
              "release); negative means early.")
    md.append("")
    md.append("| task | reservation | prio | jobs | misses stock | misses rt-edf | max lateness stock | max lateness rt-edf |")
    md.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for t in sorted(set(A["stock"]) | set(A["rtedf"])):
        a = A["rtedf"].get(t) or A["stock"].get(t)
        md.append("| {} ms task | {} / {} ms | {} | {} | {} | {} | {} | {} |".format(
            a["p"] / 1000, a["q"] / 1000, a["p"] / 1000, a["prio"], fmt(a["jobs"], "", 0),
            fmt(A["stock"].get(t, {}).get("misses"), "", 0), fmt(A["rtedf"].get(t, {}).get("misses"), "", 0),
            fmt(us(A["stock"].get(t, {}).get("late")), " us", 0), fmt(us(A["rtedf"].get(t, {}).get("late")), " us", 0)))
    md.append("")
    md.append("The same with rt-app (Debian's 1.0): one rt-app process runs both tasks as threads with "
              "absolute timers; rt-app 1.0 has no task groups, so the benchmark moves each thread into its "
              "group during a 100 ms start delay.  Each job is a calibrated \"run\" of 90% of the budget "
              f"(measured: {R['rtedf']['rtapp'][0]['calibration_ns'] if R['rtedf']['rtapp'] else '?'} ns per loop); "
              "lateness is rt-app's slack negated.  Each run lasts 0.9 s.")
    md.append("")
    md.append("| task | reservation | prio | jobs stock | jobs rt-edf | misses stock | misses rt-edf | max lateness stock | max lateness rt-edf |")
    md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for t in sorted(set(AR["stock"]) | set(AR["rtedf"])):
        a = AR["rtedf"].get(t) or AR["stock"].get(t)
        md.append("| {} ms task (rt-app) | {} / {} ms | {} | {} | {} | {} | {} | {} | {} |".format(
            a["p"] / 1000, a["q"] / 1000, a["p"] / 1000, a["prio"],
            fmt(AR["stock"].get(t, {}).get("jobs"), "", 0), fmt(AR["rtedf"].get(t, {}).get("jobs"), "", 0),
            fmt(AR["stock"].get(t, {}).get("misses"), "", 0), fmt(AR["rtedf"].get(t, {}).get("misses"), "", 0),
            fmt(us(AR["stock"].get(t, {}).get("late")), " us", 0), fmt(us(AR["rtedf"].get(t, {}).get("late")), " us", 0)))
    md.append("")
    md.append("### Random task sets")
    md.append("")
    md.append(f"{m.get('sets', '?')} task sets per repetition, {reps} repetitions with different seeds "
              "(identical sets on both kernels): 3 to 6 periodic tasks, one per group, UUniFast utilisations, "
              "periods log-uniform in 5..40 ms, budget Q = U x P rounded down to the microsecond (at least "
              "300 us), priorities inverse to rate (the longest period highest, so that fixed priority alone "
              "cannot save them), all released together, "
              f"{float(m.get('setms', 0)) / 1000:g} s each.  Every job burns Q - {m.get('delta_us', '?')} us of "
              "CPU time: the rest of its budget pays for its wakeup, its clock reads and its sleep call, "
              "which the budget is charged too (the job's need is its budget).  Jobs released before the end "
              "all run to completion, late or not.  Miss ratio: missed jobs over jobs in the bin, median over "
              "the repetitions; max lateness: the worst job of the bin, median over the repetitions (worst of "
              "all in brackets).")
    md.append("")
    md.append("| total utilisation | sets | jobs (all reps) | miss ratio stock | miss ratio rt-edf | sets with a miss stock | rt-edf | max lateness stock | max lateness rt-edf |")
    md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for b in range(NB):
        gs, gr = G["stock"][b], G["rtedf"][b]
        md.append("| {} | {} | {} | {} | {} | {} | {} | {} ({}) | {} ({}) |".format(
            BINS[b], gr["sets"] or gs["sets"], gr["jobs"] or gs["jobs"],
            fmt(None if gs["ratio"] is None else 100 * gs["ratio"], " %", 2),
            fmt(None if gr["ratio"] is None else 100 * gr["ratio"], " %", 2),
            gs["badsets"], gr["badsets"],
            fmt(us(gs["late"]), " us", 0), fmt(us(gs["late_all"]), " us", 0),
            fmt(us(gr["late"]), " us", 0), fmt(us(gr["late_all"]), " us", 0)))
    ls = sum(G[k][b]["late_start"] for k in KERNELS for b in range(NB))
    if ls:
        md.append("")
        md.append(f"Note: {ls} task(s) were not ready at their set's first release (their first job started late).")
    md.append("")
    md.append("![miss ratio](guarantee-miss.svg)")
    md.append("![max lateness](guarantee-lateness.svg)")
    md.append("")
    svg_chart(os.path.join(outdir, "guarantee-miss.svg"),
              "Random task sets: jobs missing their deadline", BINS,
              [(LABEL[k], COLOUR[k], [None if G[k][b]["ratio"] is None else 100 * G[k][b]["ratio"] for b in range(NB)]) for k in KERNELS],
              "missed jobs (%)", bars=True, xlabel="total utilisation of the reservations",
              note=f"median over {reps} repetitions; priorities inverse to rate")
    svg_chart(os.path.join(outdir, "guarantee-lateness.svg"),
              "Random task sets: worst lateness per utilisation bin", BINS,
              [(LABEL[k], COLOUR[k], [us(G[k][b]["late"]) for b in range(NB)]) for k in KERNELS],
              "max lateness (us; negative: early)", bars=True, xlabel="total utilisation of the reservations",
              ymin=0, note="finish - deadline of the worst job in the bin, median over repetitions")

    # 2. Share.
    md.append("## 2. Share accuracy")
    md.append("")
    md.append(f"Four busy SCHED_FIFO loops in four groups (87% of the CPU in all, priorities inverse to rate); "
              f"CPU time received over {float(m.get('share_ms', 0)) / 1000:g} s windows, in per mille of CPU 0.  "
              "Max abs error: the worst group of a window, median over the windows.")
    md.append("")
    md.append("| group | reservation | prio | reserved | received stock | received rt-edf | error stock | error rt-edf |")
    md.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
    gnames = list(S["rtedf"][0]) or list(S["stock"][0])
    for g in gnames:
        a = S["rtedf"][0].get(g) or S["stock"][0].get(g)
        st, rt = S["stock"][0].get(g, {}), S["rtedf"][0].get(g, {})
        md.append("| {} | {:g} / {:g} ms | {} | {:.1f} | {} | {} | {} | {} |".format(
            g, a["q"] / 1000, a["p"] / 1000, a["prio"], a["want"], fmt(st.get("got"), "", 1),
            fmt(rt.get("got"), "", 1), fmt(st.get("err"), "", 1), fmt(rt.get("err"), "", 1)))
    md.append("| **max abs error** | | | | | | **{}** | **{}** |".format(fmt(S["stock"][1], "", 1), fmt(S["rtedf"][1], "", 1)))
    md.append("")
    md.append("![shares](share.svg)")
    md.append("")
    svg_chart(os.path.join(outdir, "share.svg"), "Share received by busy groups (per mille of CPU 0)",
              [f"{g} ({S['rtedf'][0].get(g, S['stock'][0].get(g))['want']:.0f})" for g in gnames],
              [("reserved", "#bab0ac", [(S["rtedf"][0].get(g) or S["stock"][0].get(g))["want"] for g in gnames])] +
              [(LABEL[k], COLOUR[k], [S[k][0].get(g, {}).get("got") for g in gnames]) for k in KERNELS],
              "per mille", bars=True, xlabel="group (reserved per mille)")

    # 3. Precision.
    md.append("## 3. Enforcement precision")
    md.append("")
    md.append("A busy SCHED_FIFO loop alone in a group of Q every 50 ms, Q = 10, 10.25, 10.5 and 10.75 ms, "
              "about 20 periods each; its running time per period comes from sched_switch trace events "
              "(tracefs, `mono` clock, microsecond resolution), a gap of more than 5 ms ending a period.  "
              "Overrun = run in a period - Q (negative: the period's run was shorter, e.g. after a debt).")
    md.append("")
    md.append("The same again while a SCHED_OTHER task wakes every 3 ms and sleeps again at once.")
    md.append("")
    md.append("| kernel | busy group | periods | overrun max | overrun p99 | max of all | periods over 50 us |")
    md.append("| --- | --- | --- | --- | --- | --- | --- |")
    for k in KERNELS:
        for v in PV:
            p = PA[v][k]
            md.append("| {} | {} | {} | {} | {} | {} | {} |".format(LABEL[k], PVL[v], p["periods"], fmt(us(p["max"]), " us", 0),
                                                                   fmt(us(p["p99"]), " us", 0), fmt(us(p["max_all"]), " us", 0),
                                                                   p["over50"]))
    md.append("")
    md.append("![overrun](precision.svg)")
    md.append("")
    qs = [0, 50, 90, 99, 100]
    svg_chart(os.path.join(outdir, "precision.svg"), "Run per period beyond the budget Q",
              [f"p{q}" if q not in (0, 100) else ("min" if q == 0 else "max") for q in qs],
              [(f"{LABEL[k]}, {v}", col, [us(pct(PA[v][k]["sorted"], q)) if q else us(PA[v][k]["sorted"][0] if PA[v][k]["sorted"] else None)
                                          for q in qs])
               for k in KERNELS for v, col in zip(PV, (COLOUR[k], "#f1ce63" if k == "stock" else "#76b7b2"))],
              "overrun (us)", xlabel="percentile of all periods", ymin=0,
              note="from sched_switch events; the stock kernel checks budgets at the 1 ms tick")

    # 4. Overhead.
    md.append("## 4. Overhead")
    md.append("")
    md.append("Pipe ping-pong: two SCHED_FIFO 50 tasks in one group (500 ms / 1 s) exchange a byte; batches "
              "of 200 round trips, the median batch of ten per repetition.  Then the same between two tasks "
              "of the root group with no group configured, the root's own RT tasks at their default (950 ms "
              "every second).")
    md.append("")
    md.append("| | round trip stock | round trip rt-edf | rt-edf / stock |")
    md.append("| --- | --- | --- | --- |")
    md.append("| pipe ping-pong, one group | {} | {} | {} |".format(fmt(us(PP["stock"]), " us", 3),
                                                                    fmt(us(PP["rtedf"]), " us", 3), ratio(PP["rtedf"], PP["stock"])))
    md.append("| pipe ping-pong, no group configured | {} | {} | {} |".format(fmt(us(PPR["stock"]), " us", 3),
                                                                              fmt(us(PPR["rtedf"]), " us", 3), ratio(PPR["rtedf"], PPR["stock"])))
    md.append("")
    md.append("Cost of a scheduling decision as the number of active groups grows: the two ping-pong tasks "
              "sit in two groups (300 ms / 1 s each), so that every round trip blocks one group and wakes the "
              "other (on rt-edf two servers leave and join the CPU's EDF tree), while N other groups are "
              "active: each holds a runnable SCHED_FIFO 1 busy loop whose server (1 ms every 10 s) is queued "
              "with a deadline seconds away, so it never runs during the measurement.  A round trip is two "
              "scheduling decisions.")
    md.append("")
    md.append("| active groups N | round trip stock | N / 1 stock | round trip rt-edf | N / 1 rt-edf | rt-edf / stock |")
    md.append("| --- | --- | --- | --- | --- | --- |")
    ns = sorted({int(n) for k in KERNELS for n in D[k]})
    for n in ns:
        s, r_ = D["stock"].get(str(n)), D["rtedf"].get(str(n))
        md.append("| {} | {} | {} | {} | {} | {} |".format(n, fmt(us(s), " us", 3), ratio(s, D["stock"].get("1")),
                                                           fmt(us(r_), " us", 3), ratio(r_, D["rtedf"].get("1")), ratio(r_, s)))
    md.append("")
    md.append("![decision](decision.svg)")
    md.append("")
    svg_chart(os.path.join(outdir, "decision.svg"), "Round trip between two groups, N other groups active",
              [str(n) for n in ns],
              [(LABEL[k], COLOUR[k], [us(D[k].get(str(n))) for n in ns]) for k in KERNELS],
              "round trip (us)", xlabel="active groups N (log scale)", ymin=0,
              note="two scheduling decisions per round trip")

    # 5. Latency.
    md.append("## 5. Wakeup latency")
    md.append("")
    md.append(f"cyclictest (rt-tests) at SCHED_FIFO 80 in a 200 us / 1 ms reservation, 1 ms interval, "
              f"{m.get('lat_loops', '?')} wakeups per run, while two other reservations run busy loops: "
              "20 ms / 50 ms and 30 ms / 100 ms (90% of the CPU with cyclictest's).  \"hi\": the 20 ms / 50 ms "
              "loop at priority 99, above cyclictest, the other at 10; \"lo\": both below cyclictest (20 and 10), "
              "the case fixed priorities are made for.  Latencies in microseconds (cyclictest's histogram).")
    md.append("")
    md.append("| busy loops | max stock | max rt-edf | max rt-edf / stock | p99 stock | p99 rt-edf | p99 rt-edf / stock | avg stock | avg rt-edf |")
    md.append("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for v in ("hi", "lo"):
        s, r_ = L["stock"].get(v, {}), L["rtedf"].get(v, {})
        md.append("| {} (priorities {}) | {} | {} | {} | {} | {} | {} | {} | {} |".format(
            v, (r_ or s).get("busy", "?"), fmt(s.get("max"), "", 0), fmt(r_.get("max"), "", 0),
            ratio(r_.get("max"), s.get("max"), 4), fmt(s.get("p99"), "", 0), fmt(r_.get("p99"), "", 0),
            ratio(r_.get("p99"), s.get("p99"), 4), fmt(s.get("avg"), "", 1), fmt(r_.get("avg"), "", 1)))
    md.append("")
    svg_chart(os.path.join(outdir, "latency.svg"), "cyclictest in a reservation while others are busy",
              ["hi: max", "hi: p99", "lo: max", "lo: p99"],
              [(LABEL[k], COLOUR[k], [L[k].get(v, {}).get(f) for v in ("hi", "lo") for f in ("max", "p99")]) for k in KERNELS],
              "latency (us, log scale)", ylog=True, bars=True,
              note='"hi": a busy group above cyclictest\'s priority; "lo": all below')
    md.append("![latency](latency.svg)")
    md.append("")

    if have_smp:
        smp_section(md, outdir, R2, RT, info)

    # Times.
    md.append("## Run times")
    md.append("")
    md.append("Guest (virtual) seconds per section, per kernel:")
    md.append("")
    for k in KERNELS:
        for rr in (R2[k], RT[k]):
            for sec, t in section_times(rr).items():
                if sec != "all":
                    T[k][sec] = t
    secs = [s for s in ("article", "article_rtapp", "random", "share", "precision", "pingpong", "decision", "latency", "all",
                        "smpcost", "smpdecide", "smppush", "smprandom")
            if s in T["rtedf"] or s in T["stock"]]
    md.append("| section | " + " | ".join(secs) + " |")
    md.append("| --- | " + " | ".join("---" for _ in secs) + " |")
    for k in KERNELS:
        md.append(f"| {LABEL[k]} | " + " | ".join(fmt(T[k].get(s), " s", 1) for s in secs) + " |")
    md.append("")
    md.append("Raw results: `rtedf/results.log` and `stock/results.log` next to this file (one '@' line per "
              "measurement), guest consoles in `*/console.log`, QEMU command lines in `*/qemu.cmd`.")
    with open(os.path.join(outdir, "results.md"), "w") as f:
        f.write("\n".join(md) + "\n")


if __name__ == "__main__":
    main()
