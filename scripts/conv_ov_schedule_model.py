#!/usr/bin/env python3
"""A model of the overlapped convolution schedule's barriers (issue 47 run 4,
gpu/rust-kernel/src/conv_ov.rs): no GPU needed.

The pipeline as the kernels declare it: S stages, iteration i in stage i % S; a producer per CTA
that acquires iteration i once every consumer of its release set released iteration i - S (in a
2x1 cluster both CTAs' consumers: its B half lands in both) and then loads; a stage of CTA q is
full for iteration i once the producers of every CTA that writes into it loaded i; two consumer
warpgroups per CTA, each waiting, issuing wgmma groups, waiting for all but N of them
(`wgmma.wait_group N`) and releasing stages, as `conv_ov_body` orders them (transcribed below
from the kernel's control flow, for both schedules). The model runs every agent as far as it can,
round robin, and reports a deadlock (no agent can move, not all done) or a release of a stage
whose wgmma group is still in flight. The producer ends with the cluster drain (every stage it
wrote released).

    python3 scripts/conv_ov_schedule_model.py          # the grid below; exits 1 on a failure

The negative controls must fail: one stage (the schedule holds a stage while it waits for the
next), and the first version's release of K-step 0 after `wait_group 1` when the tile has one
K-step (K-step 0 still in flight).
"""
import itertools
import sys


def consumer_ops(tiles, k_steps, interleave, bug=False):
    """The consumer's operations: ("wait", i), ("issue", i), ("waitg", n), ("release", i)."""
    ops, it = [], 0

    def issue():
        nonlocal it
        ops.extend([("wait", it), ("issue", it)])
        it += 1
        return it - 1

    e0 = e1 = None
    kk = 1
    if tiles:
        e0 = issue()
        if not interleave and (k_steps > 1 or bug):
            if k_steps > 1:
                e1 = issue()
            kk = 2
    for t in range(tiles):
        held = e0
        if e1 is not None or (bug and not interleave):
            ops.append(("waitg", 1))
            if e1 is not None:
                ops.append(("release", held))
                held = e1
            else:  # the bug: K-step 0 released with only it in flight
                ops.append(("release", held))
                held = None
        e0 = e1 = None
        while kk < k_steps:
            s = issue()
            ops.append(("waitg", 1))
            if held is not None:
                ops.append(("release", held))
            held = s
            kk += 1
        ops.append(("waitg", 0))
        if held is not None:
            ops.append(("release", held))
        has_next = t + 1 < tiles
        kk = 0
        if has_next:
            e0 = issue()
            kk = 1
            if not interleave and k_steps > 1:
                e1 = issue()
                kk = 2
        for _chunk in range(4):
            if interleave and has_next and kk < k_steps:
                s = issue()
                ops.append(("waitg", 1))
                ops.append(("release", e0))
                e0 = s
                kk += 1
    ops.append(("waitg", 0))
    return ops


def run(stages, ctas, tiles, k_steps, interleave, bug=False):
    """None when the schedule finishes, else what went wrong."""
    n_it = tiles * k_steps
    loaded = [[False] * n_it for _ in range(ctas)]  # loaded[p][i]: producer p issued i
    releases = [[0] * n_it for _ in range(ctas)]  # releases on CTA q's empty barrier for i
    need = 2 * ctas  # every consumer of the release set
    prod_it = [0] * ctas
    cons = [(q, consumer_ops(tiles, k_steps, interleave, bug)) for q in range(ctas) for _ in range(2)]
    pc = [0] * len(cons)
    inflight = [[] for _ in cons]
    done_wgmma = [set() for _ in cons]
    while True:
        moved = False
        for p in range(ctas):
            i = prod_it[p]
            if i < n_it and (i < stages or releases[p][i - stages] == need):
                loaded[p][i] = True
                prod_it[p] += 1
                moved = True
        for c, (q, ops) in enumerate(cons):
            while pc[c] < len(ops):
                op, v = ops[pc[c]]
                if op == "wait":
                    if not all(loaded[p][v] for p in range(ctas)):
                        break
                elif op == "issue":
                    inflight[c].append(v)
                elif op == "waitg":
                    while len(inflight[c]) > v:
                        done_wgmma[c].add(inflight[c].pop(0))
                elif op == "release":
                    if v not in done_wgmma[c]:
                        return f"consumer {c} released iteration {v} with its wgmma in flight"
                    for r in range(ctas):
                        releases[r][v] += 1
                pc[c] += 1
                moved = True
        finished = all(pc[c] == len(ops) for c, (_, ops) in enumerate(cons)) and all(
            x == n_it for x in prod_it)
        if finished:
            drained = all(releases[r][i] == need for r in range(ctas) for i in range(n_it))
            return None if drained else "the producer's drain never ends (a stage never released)"
        if not moved:
            return (f"deadlock: producers at {prod_it}, consumers at "
                    f"{[ops[pc[c]] if pc[c] < len(ops) else 'done' for c, (_, ops) in enumerate(cons)]}")


def main():
    fails = 0
    runs = 0
    for stages, ctas, tiles, k_steps, inter in itertools.product(
            (2, 3, 4), (1, 2), range(1, 6), range(1, 21), (True, False)):
        runs += 1
        why = run(stages, ctas, tiles, k_steps, inter)
        if why:
            fails += 1
            print(f"FAIL stages {stages} ctas {ctas} tiles {tiles} k_steps {k_steps} "
                  f"interleave {inter}: {why}")
    controls = [
        ("one stage, interleaved", run(1, 1, 2, 8, True)),
        ("one stage, two early K-steps", run(1, 1, 2, 8, False)),
        ("the first version with one K-step", run(4, 1, 2, 1, False, bug=True)),
    ]
    for name, why in controls:
        if why is None:
            fails += 1
            print(f"FAIL negative control passed: {name}")
        else:
            print(f"negative control {name}: {why}")
    print(f"conv_ov_schedule_model: {runs} schedules, {len(controls)} negative controls, "
          f"{fails} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
