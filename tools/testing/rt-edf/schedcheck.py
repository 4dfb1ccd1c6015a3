#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""schedcheck: judge a guest's schedule from its trace, against the rules
of Documentation/scheduler/sched-rt-edf.rst, in the kernel's own clock.

    schedcheck.py [--bound-us N] [--tap] TRACE
    schedcheck.py [--bound-us N] [--no-verdict] --results RESULTS.LOG TRACEDIR
    schedcheck.py --selftest

TRACE is the text of tracefs 'trace' (or 'trace_pipe', or 'trace-cmd
report') with sched_switch, sched_wakeup, sched_wakeup_new,
sched_migrate_task and the sched_rt_* events, recorded with a clock that
agrees across CPUs (trace_clock global).  Lines written to trace_marker by
the tests name the group and affinity of their tasks:

    rtedf_attach pid=P cgroup_id=G      (tools/testing/rt-edf/rtedf.c)
    rtedf_affinity pid=P cpus=C[,C...]  (absent: any CPU)

A task never attached is in the root group (cgroup_id 1).  Rules, each
reported with its timestamp and the events of that CPU before it:

  edf         at every switch to an RT task, its server is on the CPU's
              EDF tree and no server there has an earlier deadline
              (servers without runtime come last); and no CPU runs a task
              of a later server for longer than the bound while an
              earlier server is queued (a non-RT task ahead of queued
              servers is not judged: the fair server may run it);
  budget      at every throttle, the time charged past the budget (the
              event's overrun) is at most the lateness of what stopped
              it + 50 us: the hrtick's (from the throttle event), or the
              tick's (the time charged at the throttle beyond a tick: the
              hrtick is armed only for a budget that ends before the next
              tick);
  cbs         every server start applies the CBS wakeup rule to the
              values it prints;
  throttled   no task of a throttled server is switched in, nor runs for
              longer than the bound after its server's throttle (a
              boosted holder runs on its donor's server: see the boost
              events);
  global-fp   no runnable task of a group waits longer than the bound
              while a CPU of its affinity where its group's server is not
              throttled runs a lower-priority task of that group;
  idle        no CPU idles or runs a non-RT task for longer than the
              bound while a runnable RT task that may run there (its
              affinity known), and whose group's server there is not
              throttled, waits elsewhere.

The bound (--bound-us, default 100) is the time the kernel takes to act
on a change it caused itself: a resched IPI and a switch, or a push or
pull, a few tens of microseconds of guest time under QEMU's icount.  A
condition that lasts longer breaks its rule only once a CPU that should
end it records an event after the bound with no reschedule pending on
it: for edf and throttled the CPU that runs the task, for idle and
global-fp the CPU that idles or runs the lower task (which should pull:
the waiting task's CPU pushes right after its switches, and with
RT_PUSH_IPI a pull is a push that CPU runs when it can).  A CPU that
records nothing meanwhile, or only the bookkeeping of the code path that
raised the condition, may be a vCPU the emulator stopped, which says
nothing of the scheduler's decisions.
Prints one TAP line per rule, 'ok' or 'not ok', the first violations
before it (--tap: with the plan); exits 1 if any rule was broken, 2 if
the trace is unusable (lost events).  --results copies a guest's
results.log with each trace block that /init sent ('# rtedf: trace
NAME', base64 of the gzipped trace, '# rtedf: trace-end') saved as
TRACEDIR/NAME.txt and replaced by the verdict on it, as the results of a
program of its own, NAME/schedcheck (--no-verdict: saved only).
"""

import re
import sys
from collections import defaultdict, deque

ROOT_CGID = 1
RULES = ["edf", "budget", "cbs", "throttled", "global-fp", "idle"]
SLACK_NS = 50_000
RING = 12

LINE = re.compile(r"^\s*(?P<comm>.*?)-(?P<pid>\d+)\s+(?:\(\s*[-\d]+\)\s+)?"
                  r"\[(?P<cpu>\d+)\]\s+(?:(?P<flags>[^\s\d]\S*)\s+)?(?P<ts>\d+\.\d+):\s+"
                  r"(?P<event>\w+):\s*(?P<rest>.*)$")
KV = re.compile(r"(\w+)=(\S+)")
SWITCH = re.compile(r"prev_pid=(\d+) prev_prio=(-?\d+) prev_state=(\S+) ==> "
                    r"next_comm=(.*) next_pid=(\d+) next_prio=(-?\d+)")


def ns(ts):
    sec, frac = ts.split(".")
    return int(sec) * 1_000_000_000 + int((frac + "000000000")[:9])


class Server:
    def __init__(self):
        self.queued = None          # unknown until an event says
        self.throttled = False
        self.deadline = None
        self.runtime = None
        self.budget_ref = None      # budget at the last refill
        self.ran = 0                # ns run since that refill
        self.throttled_at = None    # trace time of the last throttle
        self.carry = 0              # ns run while throttled, to be charged


class Checker:
    def __init__(self, bound_ns=100_000, tick_ns=1_000_000):
        self.bound = bound_ns
        self.tick = tick_ns                       # CONFIG_HZ=1000
        self.srv = defaultdict(Server)            # (cpu, cgid)
        self.group = {}                           # pid -> cgid
        self.affinity = {}                        # pid -> set of cpus
        self.boost = {}                           # pid -> server cgid
        self.fresh = set()                        # groups new in the trace
        self.curr = {}                            # cpu -> (pid, prio)
        self.since_switch = {}                    # cpu -> ns
        self.runnable = {}                        # pid -> (cpu, prio)
        self.ring = defaultdict(lambda: deque(maxlen=RING))
        self.pending = {}                         # violation key -> (since, rule, msg, ctx)
        self.violations = defaultdict(list)       # rule -> [text]
        self.lost = 0
        self.now = 0
        self.events = 0

    # -- helpers ---------------------------------------------------------
    def server_of(self, pid):
        return self.boost.get(pid, self.group.get(pid, ROOT_CGID))

    def report(self, rule, t, cpu, msg):
        ctx = "\n".join("      " + l for l in self.ring[cpu])
        self.violations[rule].append(
            "%s at %.6f on CPU %d: %s\n%s" % (rule, t / 1e9, cpu, msg, ctx))

    def hold(self, key, rule, cpu, cond, msg, own=False, cpus=None, switch_cpu=None):
        """A condition that may last at most the bound.  own: one that CPU
        cpu itself must end (by switching), judged only by the events it
        records: one later than the bound that shows no reschedule pending
        breaks the rule, but a CPU that records nothing (a vCPU the
        emulator stopped) or shows the resched flag is still on its way."""
        if not cond:
            self.pending.pop(key, None)
            return
        if key not in self.pending:
            self.pending[key] = (self.now, rule, cpu, msg, own, cpus or {cpu}, switch_cpu)

    def expire(self, t, cpu=None, resched=False, switch=False):
        for key, (since, rule, c, msg, own, cpus, scpu) in list(self.pending.items()):
            if t - since <= self.bound:
                continue
            if own and not ((cpu in cpus or (switch and cpu == scpu)) and not resched):
                continue
            self.report(rule, since, c, "%s, for %d us" % (msg, (t - since) // 1000))
            del self.pending[key]

    def earliest(self, cpu, exclude=None):
        """The queued, unthrottled server of cpu that EDF puts first."""
        best = None
        for (c, g), s in self.srv.items():
            if c != cpu or g == exclude or not s.queued or s.throttled:
                continue
            if s.deadline is None:
                continue
            k = (s.runtime == 0, s.deadline)
            if best is None or k < best[0]:
                best = (k, g)
        return best

    # -- per-CPU state re-evaluation ---------------------------------------
    def recheck(self, cpu):
        cur = self.curr.get(cpu)
        if cur is None:
            return
        pid, prio = cur
        first = self.earliest(cpu)
        if prio < 100 and pid != 0:
            g = self.server_of(pid)
            s = self.srv.get((cpu, g))
            thr = s is not None and s.throttled
            self.hold(("throttled", cpu), "throttled", cpu, thr,
                      "pid %d runs on throttled server %d" % (pid, g), own=True)
            mine = (s.runtime == 0, s.deadline) if s and s.deadline is not None else None
            later = (first is not None and mine is not None and first[1] != g
                     and first[0] < mine and not thr)
            self.hold(("edf", cpu), "edf", cpu, later,
                      "pid %d of server %d runs while server %s has an earlier deadline"
                      % (pid, g, first[1] if first else None), own=True)
        else:
            # Not judged: a non-RT task may run ahead of queued servers
            # when the fair server (a SCHED_DEADLINE server) runs it.
            self.pending.pop(("throttled", cpu), None)
            self.pending.pop(("edf", cpu), None)

    def recheck_waiters(self):
        """global-fp and idle: runnable RT tasks that wait."""
        busy = {p for p, _ in self.curr.values()}
        # CPUs with a runnable RT task queued, about to run it, and the
        # best priority of each group's runnable tasks on each CPU.
        queued_on = {c for q, (c, pr) in self.runnable.items() if pr < 100 and q not in busy}
        top = {}
        for q, (c, pr) in self.runnable.items():
            if pr < 100 and q:
                k = (c, self.server_of(q))
                top[k] = min(top.get(k, 100), pr)
        holding = set()
        for pid, (cpu, prio) in self.runnable.items():
            if prio >= 100 or pid in busy or pid not in self.affinity:
                continue
            # Queued where no RT task runs, or where it preempts a lower
            # task of its own group: about to run there.
            hpid, hprio = self.curr.get(cpu, (0, 120))
            if hprio >= 100 or (hprio > prio and self.server_of(hpid) == self.server_of(pid)):
                continue
            g = self.server_of(pid)
            for c in self.affinity[pid]:
                if c == cpu or c not in self.curr:
                    continue
                s = self.srv.get((c, g))
                # Not judged where the server's state is unknown: a group
                # created while tracing starts with budget everywhere.
                if s is None or s.queued is None:
                    if g not in self.fresh or (s is not None and s.throttled):
                        continue
                elif s.throttled:
                    continue
                cpid, cprio = self.curr[c]
                if (cpid == 0 or cprio >= 100) and c not in queued_on:
                    key = ("idle", pid, c)
                    holding.add(key)
                    self.hold(key, "idle", c, True,
                              "CPU runs %s while pid %d (prio %d, group %s) waits on CPU %d"
                              % ("idle" if cpid == 0 else "pid %d, not RT," % cpid,
                                 pid, prio, g, cpu), own=True, cpus={c})
                elif (cpid != 0 and prio < cprio < 100 and self.server_of(cpid) == g
                      and top.get((c, g), 100) > prio):
                    key = ("global-fp", pid, c)
                    holding.add(key)
                    self.hold(key, "global-fp", c, True,
                              "pid %d (prio %d) of group %s runs while pid %d (prio %d) waits on CPU %d"
                              % (cpid, cprio, g, pid, prio, cpu), own=True, cpus={c})
        for key in list(self.pending):
            if key[0] in ("idle", "global-fp") and key not in holding:
                del self.pending[key]

    # -- events ------------------------------------------------------------
    def charge(self, cpu, t):
        cur = self.curr.get(cpu)
        last = self.since_switch.get(cpu)
        if cur is None or last is None:
            return
        pid, prio = cur
        if prio < 100 and pid != 0:
            s = self.srv.get((cpu, self.server_of(pid)))
            if s is not None and s.budget_ref is not None:
                s.ran += t - last
        self.since_switch[cpu] = t

    def feed(self, line):
        if "LOST" in line and "EVENTS" in line:
            self.lost += 1
            return
        m = LINE.match(line)
        if not m:
            return
        t, cpu, ev, rest = ns(m["ts"]), int(m["cpu"]), m["event"], m["rest"]
        self.events += 1
        self.expire(t)
        self.now = t
        resched = bool(set(m["flags"] or "") & set("Nnp"))
        # Evidence that the CPU ran on: not a server's own bookkeeping in
        # the code path that raised the condition (a throttle's dequeue),
        # where a stopped vCPU may sit between two events.
        # And in task context: an interrupt handler has not passed the
        # scheduling point at its end yet.
        fl = m["flags"] or ""
        evidence = (not ev.startswith("sched_rt_server_") and ev != "sched_rt_throttle"
                    and (len(fl) < 3 or fl[2] == "."))
        kv = dict(KV.findall(rest))
        num = lambda k: int(kv[k]) if k in kv else None
        touched = cpu

        if ev == "tracing_mark_write" or ev == "print":
            if rest.lstrip().startswith("rtedf_attach"):
                g = num("cgroup_id")
                self.group[num("pid")] = g
                if g != ROOT_CGID and not any(k[1] == g for k in self.srv):
                    self.fresh.add(g)
            elif rest.lstrip().startswith("rtedf_affinity"):
                cpus = kv.get("cpus", "")
                self.affinity[num("pid")] = {int(c) for c in cpus.split(",") if c}
            return
        self.ring[cpu].append(line.rstrip()[-200:])

        if ev == "sched_switch":
            sm = SWITCH.search(rest)
            if not sm:
                return
            prev, _, state, ncomm, nxt, nprio = sm.groups()
            prev, nxt, nprio = int(prev), int(nxt), int(nprio)
            # The stoppers (migration/N) show as FIFO 99 and DEADLINE
            # tasks as -1: neither runs on an RT server.
            if ncomm.startswith("migration/") or nprio < 0:
                nprio = 100
            self.charge(cpu, t)
            if state.startswith("R"):
                self.runnable[prev] = (cpu, int(sm.group(2)))
            else:
                self.runnable.pop(prev, None)
            self.curr[cpu] = (nxt, nprio)
            self.since_switch[cpu] = t
            if nxt:
                self.runnable[nxt] = (cpu, nprio)
            if nprio < 100 and nxt != 0:
                g = self.server_of(nxt)
                s = self.srv.get((cpu, g))
                if s is not None and s.throttled:
                    self.report("throttled", t, cpu,
                                "pid %d of throttled server %d switched in" % (nxt, g))
                elif s is not None and s.queued is not None and s.deadline is not None:
                    first = self.earliest(cpu)
                    mine = (s.runtime == 0, s.deadline)
                    if first is not None and first[1] != g and first[0] < mine:
                        self.report("edf", t, cpu,
                                    "switch to pid %d of server %d (deadline %d) while "
                                    "server %d has deadline %d" % (nxt, g, s.deadline,
                                                                   first[1], first[0][1]))
        elif ev in ("sched_wakeup", "sched_wakeup_new"):
            tc = num("target_cpu")
            self.runnable[num("pid")] = (tc, num("prio"))
            touched = tc
        elif ev == "sched_migrate_task":
            pid = num("pid")
            if pid in self.runnable:
                self.runnable[pid] = (num("dest_cpu"), num("prio"))
            touched = num("dest_cpu")
        elif ev.startswith("sched_rt_"):
            c = num("cpu")
            touched = c
            if ev.startswith("sched_rt_boost"):
                if ev == "sched_rt_boost_begin":
                    self.boost[num("pid")] = num("server_cgroup_id")
                else:
                    self.boost.pop(num("pid"), None)
            else:
                self.charge(c, t)
                self.server_event(ev, t, c, num("cgroup_id"), kv, num, rest)
        else:
            return
        if touched is not None:
            self.recheck(touched)
        self.recheck_waiters()
        self.expire(t, cpu, resched or not evidence, ev == "sched_switch")

    def server_event(self, ev, t, cpu, g, kv, num, rest):
        s = self.srv[(cpu, g)]
        if ev == "sched_rt_server_enqueue":
            s.queued = True
            s.deadline = num("deadline")
        elif ev == "sched_rt_server_dequeue":
            s.queued = False
        elif ev == "sched_rt_server_start":
            b, d, now = num("budget"), num("deadline"), num("now")
            q, p = num("runtime"), num("period")
            s.runtime = q
            kept = bool(re.search(r"\bkept\b", rest))
            rule = q > 0 and now < d and (b <= 0 or (b * p) // q <= d - now)
            if rule != kept:
                self.report("cbs", t, cpu, "server %d %s, the rule says %s"
                            % (g, "kept" if kept else "reset", "keep" if rule else "reset"))
            if kept:
                s.budget_ref = b
            else:
                s.budget_ref, s.deadline = q, now + p
            s.ran = 0
            s.throttled = False
        elif ev == "sched_rt_replenish":
            s.deadline = num("deadline")
            s.budget_ref, s.ran = num("budget"), 0
            # Its task still on the CPU since the throttle: the time it
            # ran meanwhile (the CPU's lateness in switching, judged by
            # the throttled rule) is charged with the next throttle.
            cur = self.curr.get(cpu)
            if s.throttled_at is not None and cur and self.server_of(cur[0]) == g:
                s.carry = t - s.throttled_at
            # Still in debt: throttled until the next one.
            s.throttled = s.budget_ref <= 0 and s.throttled
        elif ev == "sched_rt_throttle":
            # The lateness of what enforced it: the hrtick's, or for a
            # budget stopped by the tick (the hrtick is armed only for a
            # budget that ends before the next tick) how much the time
            # charged since the previous charge exceeds a tick.
            if num("hrtick_fired"):
                late = max(0, num("hrtick_fired") - num("hrtick_expires"))
            else:
                late = max(0, (num("ran") or 0) - self.tick)
            # The time charged past the budget (the kernel's own: a vCPU
            # that the emulator stopped makes the trace's intervals longer
            # or shorter than what was charged).
            over = num("overrun") or 0
            late += s.carry
            # Charged for longer than its task has been on the CPU: the
            # clock at the switch was stale (__schedule() skips the update
            # right after a wakeup preemption; a stopped vCPU between the
            # two lets it age).
            if self.since_switch.get(cpu) is not None and num("ran"):
                late += max(0, num("ran") - (t - self.since_switch[cpu]))
            s.carry = 0
            s.throttled_at = t
            if over > late + SLACK_NS:
                self.report("budget", t, cpu,
                            "server %d overran its budget by %d us, what stopped it "
                            "was %d us late (%d us run since its last refill by the trace)"
                            % (g, over // 1000, late // 1000, s.ran // 1000))
            s.throttled = True
            s.budget_ref = None

    def finish(self):
        self.expire(self.now + self.bound + 1)   # own conditions stay unjudged

    def verdict(self, tap=False, out=sys.stdout):
        """kselftest TAP: a point per rule, named by the rule alone."""
        bad = 0
        if tap:
            print("1..%d" % (len(RULES) + 1), file=out)
        print("# %d events read, %d lost" % (self.events, self.lost), file=out)
        print("%s 1 trace: events read, none lost" % (
            "ok" if not self.lost and self.events else "not ok"), file=out)
        for n, rule in enumerate(RULES, 2):
            v = self.violations.get(rule, [])
            bad += len(v)
            if v:
                print("# %s: %d violation(s), the first ones:" % (rule, len(v)), file=out)
            for text in v[:3]:
                for l in text.splitlines():
                    print("#   " + l, file=out)
            print("%s %d %s" % ("not ok" if v else "ok", n, rule), file=out)
        if self.lost or not self.events:
            return 2
        return 1 if bad else 0


def results(path, tracedir, bound_ns, verdict=True, out=sys.stdout):
    """Copies a guest's results.log, each trace block replaced by the
    checker's verdict on it, as a program of its own: NAME/schedcheck."""
    import base64
    import gzip
    import os
    os.makedirs(tracedir, exist_ok=True)
    name, chunks = None, []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.replace("\r", "")
            if line.startswith("# rtedf: trace-end") and name:
                txt = os.path.join(tracedir, name + ".txt")
                try:
                    data = gzip.decompress(base64.b64decode("".join(chunks)))
                except Exception as e:          # a cut or garbled block
                    data = b""
                    print("# %s: trace block unreadable: %s" % (name, e), file=out)
                with open(txt, "wb") as t:
                    t.write(data)
                if not verdict:
                    name = None
                    continue
                print("# rtedf: begin %s/schedcheck" % name, file=out)
                c = check_lines(data.decode(errors="replace").splitlines(), bound_ns)
                rc = c.verdict(tap=True, out=out)
                print("# rtedf: end %s/schedcheck rc=%d" % (name, rc), file=out)
                name = None
            elif name is not None:
                chunks.append(line.strip())
            elif line.startswith("# rtedf: trace "):
                name, chunks = line.split()[3], []
            else:
                out.write(line)
    if name is not None and verdict:
        print("# rtedf: begin %s/schedcheck" % name, file=out)
        print("# the trace block was cut off", file=out)
        print("# rtedf: end %s/schedcheck rc=2" % name, file=out)


def check_lines(lines, bound_ns=100_000):
    c = Checker(bound_ns)
    for l in lines:
        c.feed(l)
    c.finish()
    return c


# -- self test: for every rule, a trace that breaks it ------------------------

def ev(cpu, t_us, name, fields, comm="t", pid=1):
    return "%s-%d [%03d] d..2. %d.%06d: %s: %s" % (
        comm, pid, cpu, t_us // 1_000_000, t_us % 1_000_000, name, fields)


def sw(cpu, t_us, prev, pprio, state, nxt, nprio):
    return ev(cpu, t_us, "sched_switch",
              "prev_comm=a prev_pid=%d prev_prio=%d prev_state=%s ==> "
              "next_comm=b next_pid=%d next_prio=%d" % (prev, pprio, state, nxt, nprio))


def mark(t_us, text):
    return ev(0, t_us, "tracing_mark_write", text)


def srv(cpu, t_us, what, g, budget, deadline, now=0):
    return ev(cpu, t_us, "sched_rt_server_" + what,
              "cpu=%d cgroup_id=%d budget=%d deadline=%d now=%d" % (cpu, g, budget, deadline, now))


def start(cpu, t_us, g, kept, budget, deadline, now, q, p):
    return ev(cpu, t_us, "sched_rt_server_start",
              "cpu=%d cgroup_id=%d %s budget=%d deadline=%d now=%d runtime=%d period=%d"
              % (cpu, g, "kept" if kept else "reset", budget, deadline, now, q, p))


def throttle(cpu, t_us, g, overrun, expires=0, fired=0, ran=0):
    return ev(cpu, t_us, "sched_rt_throttle",
              "cpu=%d cgroup_id=%d overrun=%d ran=%d deadline=0 now=0 hrtick_expires=%d "
              "hrtick_fired=%d" % (cpu, g, overrun, ran, expires, fired))


def selftest():
    MS = 1_000_000
    base = [mark(0, "rtedf_attach pid=10 cgroup_id=5"),
            mark(0, "rtedf_attach pid=11 cgroup_id=5"),
            mark(0, "rtedf_attach pid=20 cgroup_id=6"),
            mark(0, "rtedf_affinity pid=10 cpus=0,1"),
            mark(0, "rtedf_affinity pid=11 cpus=0,1"),
            mark(0, "rtedf_affinity pid=20 cpus=0,1"),
            start(0, 10, 5, False, 0, 0, 10_000, 2 * MS, 10 * MS),
            srv(0, 10, "enqueue", 5, 2 * MS, 10 * MS + 10_000),
            start(0, 11, 6, False, 0, 0, 11_000, 1 * MS, 5 * MS),
            srv(0, 11, "enqueue", 6, 1 * MS, 5 * MS + 11_000)]
    good = base + [sw(0, 20, 0, 120, "R", 20, 89),       # group 6: earlier deadline
                   sw(1, 20, 0, 120, "R", 0, 120)]
    cases = [
        ("a clean schedule", None,
         good + [throttle(0, 1020, 6, 0),
                 srv(0, 1020, "dequeue", 6, 0, 0),
                 sw(0, 1025, 20, 89, "S", 10, 89)]),
        # a throttled task switched out only after a gap in which its CPU
        # recorded nothing: a vCPU that the emulator stopped
        ("a stopped vCPU", None,
         good + [throttle(0, 1020, 6, 0),
                 srv(0, 1020, "dequeue", 6, 0, 0),
                 sw(0, 2500, 20, 89, "S", 10, 89)]),
        # group 5 (deadline 10 ms) runs while group 6 (5 ms) is queued
        ("edf", "edf", base + [sw(0, 20, 0, 120, "R", 10, 89)]),
        # group 6 runs 1.5 ms on a 1 ms budget, the hrtick on time
        ("budget", "budget",
         good + [throttle(0, 1520, 6, 500_000, 1_020_000, 1_020_100),
                 srv(0, 1520, "dequeue", 6, 0, 0),
                 sw(0, 1525, 20, 89, "S", 10, 89)]),
        # kept with 2 ms left and 1 ms to go at 2 ms / 10 ms
        ("cbs", "cbs",
         base + [start(0, 30, 5, True, 2 * MS, 3 * MS, 2 * MS, 2 * MS, 10 * MS)]),
        # group 6 throttled, its task runs on while its CPU handles a
        # wakeup with no reschedule pending
        ("throttled", "throttled",
         good + [throttle(0, 1020, 6, 0),
                 srv(0, 1020, "dequeue", 6, 0, 0),
                 ev(0, 1200, "sched_wakeup", "comm=x pid=30 prio=120 target_cpu=001"),
                 sw(0, 1320, 20, 89, "S", 10, 89)]),
        # pid 11 (prio 50) waits on CPU 0 while CPU 1 runs pid 10 (prio 89),
        # both of group 5, whose server on CPU 1 has budget
        ("global-fp", "global-fp",
         base + [srv(1, 12, "enqueue", 5, 2 * MS, 10 * MS),
                 sw(1, 20, 0, 120, "R", 10, 89),
                 sw(0, 20, 0, 120, "R", 20, 89),
                 ev(0, 30, "sched_wakeup", "comm=x pid=11 prio=50 target_cpu=000"),
                 ev(1, 300, "sched_wakeup", "comm=y pid=40 prio=120 target_cpu=001"),
                 srv(0, 400, "dequeue", 6, 0, 0),
                 sw(0, 400, 20, 89, "S", 11, 50)]),
        # pid 10 waits on CPU 0 behind group 6 while CPU 1 idles (group 5
        # is new in the trace: its server on CPU 1 has its budget)
        ("idle", "idle",
         good + [ev(0, 30, "sched_wakeup", "comm=x pid=10 prio=89 target_cpu=000"),
                 ev(1, 300, "sched_wakeup", "comm=y pid=40 prio=120 target_cpu=001"),
                 srv(0, 500, "dequeue", 6, 0, 0),
                 sw(0, 500, 20, 89, "S", 10, 89)]),
    ]
    fails = 0
    for name, want, lines in cases:
        c = check_lines(lines)
        got = sorted(r for r in RULES if c.violations.get(r))
        ok = got == ([want] if want else [])
        fails += not ok
        print("%s %s: flagged %s" % ("ok" if ok else "not ok",
                                     name if want is None else "breaks " + want,
                                     ", ".join(got) or "nothing"))
    return 1 if fails else 0


def main(argv):
    bound, tap, path, verdict = 100_000, None, None, True
    args = iter(argv[1:])
    for a in args:
        if a == "--selftest":
            return selftest()
        if a == "--no-verdict":
            verdict = False
        elif a == "--results":
            results(next(args), next(args), bound, verdict)
            return 0
        if a == "--bound-us":
            bound = int(next(args)) * 1000
        elif a == "--tap":
            tap = True
        else:
            path = a
    if not path:
        print(__doc__, file=sys.stderr)
        return 2
    with open(path, errors="replace") as f:
        c = check_lines(f, bound)
    return c.verdict(tap)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
