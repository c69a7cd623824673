"""`make fuzz`: the campaign runner. Sessions in parallel, each running random sequences of the rules
(sim/fuzz/rules.py) with seeds drawn from the campaign's, exactly the steps asked for; each failure
shrunk in bounded time and written as a sequence file (sim/fuzz/sequence_file.py); a progress bar;
then the steps each rule ran and the JSON summary.

    python -m sim.fuzz --steps 20000 --seed 7      # campaign: progress bar, then a JSON summary
    python -m sim.fuzz --replay FILE               # play a (shrunk) failing sequence again

The summary's figures are all zero but the counts (steps, sequences, games_played, power_cuts,
regenerated: runs hypothesis ended because its choices led another way, docs/campaigns.md);
`rules` gives the steps each rule ran. A campaign runs exactly the steps asked for.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import traceback
from pathlib import Path

from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis.errors import FlakyStrategyDefinition
from hypothesis.stateful import run_state_machine_as_test

from sim.fuzz import sequence_file
from sim.fuzz.machine import Machine
from sim.fuzz.oracle import Violation
from sim.fuzz.record import FIGURES, Recorder
from sim.fuzz_rig import parallel


def machine_settings(examples: int, steps: int) -> settings:
    return settings(max_examples=examples, stateful_step_count=steps, deadline=None, database=None,
                    verbosity=Verbosity.quiet, report_multiple_bugs=False, phases=(Phase.generate,),
                    suppress_health_check=list(HealthCheck))


def run_machine(rec: Recorder, seed: int, examples: int, steps: int) -> None:
    """`examples` random sequences of at most `steps` rules, and hypothesis's simplest one first,
    which is skipped (it would cash out an empty meter `steps` times)."""
    def factory() -> Machine:
        return Machine(rec)
    factory._hypothesis_internal_use_seed = seed  # type: ignore[attr-defined]
    rec.skip_next = True
    run_state_machine_as_test(factory, settings=machine_settings(examples + 1, steps))


def replay(log: list) -> Violation | None:
    """Play a recorded sequence again on a fresh machine, checking the invariants after every step."""
    m = Machine(Recorder())
    try:
        for name, kw in log:
            getattr(m, name)(**kw)
            m.check()
    except Violation as e:
        return e
    finally:
        m.teardown()
    return None


def shrink(log: list, kind: str, budget_s: float) -> tuple[list, Violation | None]:
    """Drop chunks of steps while the same kind of violation still happens (bounded in time).
    Returns the shortest sequence found and the violation it reported (None: the first)."""
    import time

    deadline = time.monotonic() + budget_s
    best, seen = list(log), None
    chunk = max(1, (len(best) - 1) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        i = 1  # the first step is the power-on
        progressed = False
        while i < len(best) and time.monotonic() < deadline:
            cand = best[:i] + best[i + chunk:]
            v = replay(cand)
            if v is not None and v.kind == kind:
                best, seen = cand, v
                progressed = True
            else:
                i += chunk
        if not progressed:
            chunk //= 2
    return best, seen


def worker(args: tuple) -> dict:
    """One session: sequences with seeds drawn from `seed` until `steps` steps are done."""
    wid, seed, steps, seq_steps, out, shrink_s, queue = args
    rnd = random.Random(seed)
    rec = Recorder(campaign=True, budget=steps, progress=queue)
    failures = []
    per_sequence = float(seq_steps)  # steps a sequence takes on average, learnt as the runs go
    while rec.stats["steps"] < steps:
        s = rnd.getrandbits(32)
        left = steps - rec.stats["steps"]
        before = dict(rec.stats)
        try:
            # runs of enough sequences for the steps left: the budget ends the last one where the
            # steps asked for are done (its remaining rules do nothing, so hypothesis sees the same rules)
            run_machine(rec, s, max(1, math.ceil(left / per_sequence)), seq_steps)
        except FlakyStrategyDefinition:
            # hypothesis's own record of its choices lost track: a rule's precondition reads the model,
            # which follows the firmware's random outcomes, so one choice can lead two ways. Every step
            # run was checked; the run goes on with a new seed, counted (a violation is in rec.found)
            rec.add("regenerated")
        except Exception as e:  # noqa: BLE001  the harness itself: reported, counted, the campaign goes on
            rec.add("violations")
            failures.append({"violation": "harness: " + "".join(traceback.format_exception_only(e))[:600],
                             "file": str(sequence_file.write(Path(out), s, e, "harness", list(rec.log)))})
        ran = rec.stats["sequences"] - before["sequences"]
        if ran:
            per_sequence = max(1.0, (rec.stats["steps"] - before["steps"]) / ran)
        found, rec.found = rec.found, []
        for v, log in found:  # shrunk outside hypothesis, in bounded time
            small, seen = shrink(log, v.kind, shrink_s) if shrink_s > 0 else (log, None)
            v = seen or v  # what the shrunk sequence reports
            failures.append({"violation": str(v)[:600], "steps": len(small),
                             "file": str(sequence_file.write(Path(out), s, v, v.kind, small))})
    return {"stats": dict(rec.stats), "failures": failures, "rules": dict(rec.rules)}


def campaign(steps: int, seed: int, jobs: int, seq_steps: int, out: str, shrink_s: float,
             progress: bool = True) -> tuple[dict, list]:
    per = [steps // jobs + (1 if i < steps % jobs else 0) for i in range(jobs)]
    work = [(i, seed * 1000 + i, n, seq_steps, out, shrink_s) for i, n in enumerate(per) if n]
    results = parallel(worker, work, steps, "step", progress)
    summary = {k: sum(r["stats"][k] for r in results) for k in FIGURES}
    failures = [f for r in results for f in r["failures"]]
    rules: dict = {}
    for r in results:
        for k, n in r["rules"].items():
            rules[k] = rules.get(k, 0) + n
    summary["rules"] = dict(sorted(rules.items()))
    return summary, failures


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m sim.fuzz", description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--jobs", type=int, default=4, help="sessions in parallel (they mostly wait: 4 share 2 cores)")
    ap.add_argument("--sequence", type=int, default=40, help="steps per sequence at most")
    ap.add_argument("--out", default="build/fuzz", help="where failing sequences are written")
    ap.add_argument("--shrink", type=float, default=120.0, help="seconds spent shrinking each failure")
    ap.add_argument("--replay", metavar="FILE", help="play a recorded sequence again")
    ap.add_argument("--no-progress", action="store_true")
    args = ap.parse_args(argv)
    if args.replay:
        try:
            steps = sequence_file.read(Path(args.replay))
            unknown = [name for name, _ in steps if not hasattr(Machine, name)]
            if unknown:
                raise KeyError(f"no rule {unknown[0]!r}")
        except (OSError, ValueError, KeyError, TypeError) as e:  # no file, no JSON, not a recorded sequence
            print(f"fuzz: {args.replay}: not a recorded sequence ({type(e).__name__}: {e})", file=sys.stderr)
            return 2
        v = replay(steps)
        print(json.dumps({"steps": len(steps), "violation": str(v) if v else None}))
        return 1 if v else 0
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 30)
    print(f"fuzz: {args.steps} steps in {args.jobs} sessions, seed {seed}", file=sys.stderr)
    summary, failures = campaign(args.steps, seed, args.jobs, args.sequence, args.out, args.shrink,
                                 not args.no_progress)
    for f in failures:
        print(f"  {f['violation']}\n    -> {f['file']}", file=sys.stderr)
    summary["seed"] = seed
    print(json.dumps(summary))
    return 1 if summary["violations"] or summary["crash_loops"] or summary["board_resets"] else 0
