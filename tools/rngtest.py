"""`make rngtest`: statistical batteries on the RNG as the emulated board configures it.

The byte stream is the device code itself (rng.open_generator(rng.open_source("emulated")):
health-tested host entropy -> HMAC_DRBG SHA-256 -> Generator.readinto, with gen.idle() between
1 MiB chunks so the reseed schedule runs as on a cabinet). There is no separate fast path.

  python -m tools.rngtest                 ent (>= 100 MB), FIPS 140-2 (rngtest), dieharder selection,
                                          chi-square/serial tests of scaled outputs; summary table
  python -m tools.rngtest --full          dieharder -a instead of the selection (hours)
  python -m tools.rngtest stream [BYTES]  the raw stream on stdout (endless without BYTES)
  python -m tools.rngtest --only ent,fips,dieharder,scaled   run a subset

Exit status 1 when any test fails by its own criterion (see docs/rng.md for each criterion).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

from tools.progress import bar

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "var" / "rngtest"
CHUNK = 1 << 20

# dieharder -d numbers run by `make rngtest` (docs/rng.md explains the choice). Left to
# `make rngtest-full`: 14 diehard_sums ("Do Not Use" in dieharder -l), 5/6/7 OPSO/OQSO/DNA
# ("Suspect"), and the ones that would eat most of the budget at the device code's ~13 MB/s:
# 17 marsaglia_tsang_gcd (~8 GB), 203 rgb_lagged_sum (33 lags x 400 MB), 201 rgb_minimum_distance.
# "200:8" means -d 200 -n 8 (rgb_bitdist needs an explicit n-tuple size: 8-bit patterns here).
DIEHARDER_SELECTION = "0,1,2,3,4,8,9,10,11,12,13,15,16,100,101,102,200:8,202,204,205,206,207,208,209"
P_LOW = 1e-4  # scaled-output tests: two-sided, fail if p < P_LOW or p > 1 - P_LOW


# -- the stream ------------------------------------------------------------------------------------
def open_stream_generator():
    import rng

    pers = b"jeton-rngtest|" + str(time.time_ns()).encode()
    return rng.open_generator(rng.open_source("emulated"), pers)


def write_stream(out, nbytes: int | None) -> int:
    gen = open_stream_generator()
    buf = bytearray(CHUNK)
    mv = memoryview(buf)
    done = 0
    try:
        while nbytes is None or done < nbytes:
            m = CHUNK if nbytes is None else min(CHUNK, nbytes - done)
            gen.readinto(mv[:m])
            out.write(mv[:m])
            done += m
            gen.idle()
    except BrokenPipeError:
        pass
    return done


def stream_main(nbytes: int | None) -> int:
    try:
        write_stream(sys.stdout.buffer, nbytes)
        sys.stdout.buffer.flush()
    except BrokenPipeError:
        pass
    finally:
        try:
            sys.stdout = None  # the reader closing the pipe is the normal end
        except Exception:
            pass
    os._exit(0)


def stream_cmd() -> list[str]:
    return [sys.executable, "-m", "tools.rngtest", "stream"]


# -- chi-square distribution -----------------------------------------------------------------------
def gammq(a: float, x: float) -> float:
    """Regularized upper incomplete gamma Q(a, x) (series / continued fraction)."""
    if x <= 0:
        return 1.0
    gln = math.lgamma(a)
    if x < a + 1:
        ap, s, d = a, 1.0 / a, 1.0 / a
        for _ in range(100000):
            ap += 1
            d *= x / ap
            s += d
            if abs(d) < abs(s) * 1e-15:
                break
        return max(0.0, 1.0 - s * math.exp(-x + a * math.log(x) - gln))
    b = x + 1 - a
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, 100000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return math.exp(-x + a * math.log(x) - gln) * h


def chi2_sf(x: float, dof: int) -> float:
    return gammq(dof / 2, x / 2)


def chi2_test(counts: list[int], probs: list[float]) -> tuple[float, int, float]:
    n = sum(counts)
    stat = sum((c - n * p) ** 2 / (n * p) for c, p in zip(counts, probs) if p > 0)
    dof = sum(1 for p in probs if p > 0) - 1
    return stat, dof, chi2_sf(stat, dof)


def binom_sf(k: int, n: int, p: float = 0.5) -> float:
    """P(X >= k), X ~ Binomial(n, p), exact via integers when p = 1/2."""
    if k <= 0:
        return 1.0
    if p == 0.5:
        return sum(math.comb(n, i) for i in range(k, n + 1)) / 2**n
    return sum(math.comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


# -- results ---------------------------------------------------------------------------------------
class Results:
    def __init__(self):
        self.rows: list[dict] = []

    def add(self, battery: str, test: str, value: str, criterion: str, ok: bool, seconds: float = 0.0):
        self.rows.append(dict(battery=battery, test=test, value=value, criterion=criterion, ok=ok, seconds=round(seconds, 1)))
        flag = "pass" if ok else "FAIL"
        print(f"  [{flag}] {battery:9} {test:28} {value:38} {criterion}", flush=True)

    def table(self) -> str:
        w = [9, 30, 40, 46]
        lines = ["", "RNG test summary (stream: emulated board, device code)", ""]
        lines.append(f"{'battery':{w[0]}} {'test':{w[1]}} {'result':{w[2]}} {'criterion':{w[3]}} verdict")
        lines.append("-" * (sum(w) + 12))
        for r in self.rows:
            lines.append(
                f"{r['battery']:{w[0]}} {r['test']:{w[1]}} {r['value']:{w[2]}} {r['criterion']:{w[3]}} "
                f"{'PASS' if r['ok'] else 'FAIL'}"
            )
        bad = sum(1 for r in self.rows if not r["ok"])
        lines.append("-" * (sum(w) + 12))
        lines.append(f"{len(self.rows)} tests, {bad} failed")
        return "\n".join(lines)

    @property
    def ok(self) -> bool:
        return all(r["ok"] for r in self.rows)


# -- ent -------------------------------------------------------------------------------------------
def parse_ent(text: str) -> dict:
    f = {}
    f["entropy"] = float(re.search(r"Entropy = ([\d.]+) bits per byte", text).group(1))
    m = re.search(r"Chi square distribution for (\d+) samples is ([\d.]+), and randomly\s+"
                  r"would exceed this value (less than |more than )?([\d.]+) percent", text)
    f["n"] = int(m.group(1))
    f["chi2"] = float(m.group(2))
    f["chi2_pct"] = float(m.group(4))
    f["chi2_bound"] = (m.group(3) or "").strip()
    f["mean"] = float(re.search(r"Arithmetic mean value of data bytes is ([\d.]+)", text).group(1))
    f["pi"] = float(re.search(r"Monte Carlo value for Pi is ([\d.]+)", text).group(1))
    f["serial"] = float(re.search(r"Serial correlation coefficient is (-?[\d.]+)", text).group(1))
    return f


def judge_ent(f: dict, res: Results, seconds: float = 0.0) -> None:
    n = f["n"]
    p = f["chi2_pct"] / 100
    res.add("ent", "chi-square (255 dof)", f"{f['chi2']:.1f}, p={p:.4f}", "0.001 <= p <= 0.999",
            0.001 <= p <= 0.999 and not f["chi2_bound"], seconds)
    sd_mean = math.sqrt((256**2 - 1) / 12 / n)
    res.add("ent", "arithmetic mean", f"{f['mean']:.5f} ({(f['mean'] - 127.5) / sd_mean:+.2f} sd)", "|mean - 127.5| <= 5 sd",
            abs(f["mean"] - 127.5) <= 5 * sd_mean)
    pts = n // 6  # ent: 24-bit x, 24-bit y per point
    q = math.pi / 4
    sd_pi = 4 * math.sqrt(q * (1 - q) / pts)
    res.add("ent", "Monte Carlo pi", f"{f['pi']:.6f} ({(f['pi'] - math.pi) / sd_pi:+.2f} sd)", "|pi_est - pi| <= 5 sd",
            abs(f["pi"] - math.pi) <= 5 * sd_pi)
    sd_r = 1 / math.sqrt(n)
    res.add("ent", "serial correlation", f"{f['serial']:+.6f} ({f['serial'] / sd_r:+.2f} sd)", "|r| <= 5/sqrt(n)",
            abs(f["serial"]) <= 5 * sd_r)
    res.add("ent", "entropy (bits/byte)", f"{f['entropy']:.6f} over {n} bytes", ">= 7.9999", f["entropy"] >= 7.9999)


def run_ent(path: Path, res: Results) -> None:
    t = time.time()
    text = subprocess.run(["ent", str(path)], capture_output=True, text=True, check=True).stdout
    (OUT / "ent.txt").write_text(text)
    judge_ent(parse_ent(text), res, time.time() - t)


# -- FIPS 140-2 (rng-tools rngtest) ---------------------------------------------------------------
def parse_rngtest(text: str) -> dict:
    f = {}
    for key, pat in (("success", r"FIPS 140-2 successes: (\d+)"), ("fail", r"FIPS 140-2 failures: (\d+)"),
                     ("monobit", r"Monobit: (\d+)"), ("poker", r"Poker: (\d+)"), ("runs", r"Runs: (\d+)"),
                     ("longrun", r"Long run: (\d+)"), ("contrun", r"Continuous run: (\d+)")):
        f[key] = int(re.search(pat, text).group(1))
    return f


def rngtest_on(data_path: Path) -> dict:
    with open(data_path, "rb") as fin:
        p = subprocess.run(["rngtest"], stdin=fin, capture_output=True, text=True)
    return parse_rngtest(p.stderr)


def judge_fips(dut: dict, ref: dict, res: Results, seconds: float = 0.0) -> None:
    """Failure count of the DRBG stream against a control stream (host os.urandom) of the same size
    through the same rngtest: given F_dut + F_ref failures, F_dut ~ Binomial(total, 1/2) if both
    rates are equal; fail when P(X >= F_dut) < 0.001 (more failures than chance explains)."""
    n = dut["success"] + dut["fail"]
    tot = dut["fail"] + ref["fail"]
    p = binom_sf(dut["fail"], tot)
    detail = f"{dut['fail']}/{n} failed (control {ref['fail']}/{ref['success'] + ref['fail']})"
    res.add("fips140-2", "blocks (20000 bits)", f"{detail}, p={p:.3f}", "P(>= F | control) >= 0.001", p >= 0.001 and n > 0,
            seconds)
    for k in ("monobit", "poker", "runs", "longrun", "contrun"):
        res.add("fips140-2", f"  {k}", f"{dut[k]} (control {ref[k]})", "(detail)", True)


def run_fips(path: Path, res: Results) -> None:
    t = time.time()
    size = path.stat().st_size
    ctrl = OUT / "control.bin"
    with open(ctrl, "wb") as f:
        left = size
        while left:
            m = min(left, CHUNK * 16)
            f.write(os.urandom(m))
            left -= m
    dut = rngtest_on(path)
    ref = rngtest_on(ctrl)
    ctrl.unlink()
    judge_fips(dut, ref, res, time.time() - t)


# -- dieharder -------------------------------------------------------------------------------------
LINE = re.compile(r"^\s*([a-z][a-z0-9_]+)\|\s*(\d+)\|\s*(\d+)\|\s*(\d+)\|([0-9.e+-]+)\|\s*(PASSED|WEAK|FAILED)")


def parse_dieharder(text: str) -> list[tuple[str, int, float, str, int]]:
    """(test, ntup, p-value, assessment, psamples) per result line."""
    rows = []
    for line in text.splitlines():
        m = LINE.match(line)
        if m:
            rows.append((m.group(1), int(m.group(2)), float(m.group(5)), m.group(6), int(m.group(4))))
    return rows


def run_dieharder(args: list[str], label: str, res: Results, log) -> None:
    t = time.time()
    gen = subprocess.Popen(stream_cmd(), stdout=subprocess.PIPE, cwd=ROOT)
    p = subprocess.run(["dieharder", "-g", "200", "-Y", "1", *args], stdin=gen.stdout, capture_output=True, text=True)
    gen.stdout.close()
    gen.kill()
    gen.wait()
    log.write(p.stdout)
    log.flush()
    rows = parse_dieharder(p.stdout)
    dt = time.time() - t
    if not rows:
        res.add("dieharder", label, "no result", "dieharder ran", False, dt)
        return
    # with -Y 1 a test with a WEAK p-value is re-run with more psamples and printed again: the
    # lines with the largest psamples of each (test, ntup) are the verdict (a test such as
    # diehard_runs prints several p-values per run)
    top = {}
    for r in rows:
        top[(r[0], r[1])] = max(top.get((r[0], r[1]), 0), r[4])
    final = {i: r for i, r in enumerate(rows) if r[4] == top[(r[0], r[1])]}
    bad = [r for r in final.values() if r[3] == "FAILED"]
    weak = [r for r in final.values() if r[3] == "WEAK"]
    resolved = len(rows) - len(final)
    pmin = min(r[2] for r in final.values())
    name = rows[0][0] if len(set(r[0] for r in rows)) == 1 else label
    val = f"{len(final)} p-values, min {pmin:.4f}"
    if resolved:
        val += f", {resolved} weak re-tested"
    if weak:
        val += f", {len(weak)} weak"
    res.add("dieharder", name, val, "no FAILED after -Y 1", not bad, dt)


# -- scaled outputs --------------------------------------------------------------------------------
def scaled_tests(res: Results, draws: int = 1_000_000, gen=None) -> None:
    import rng

    if gen is None:
        gen = open_stream_generator()

    def uniform(n: int, k: int) -> None:
        t = time.time()
        xs = [rng.below(gen, n) for _ in range(k)]
        counts = [0] * n
        for x in xs:
            counts[x] += 1
        stat, dof, p = chi2_test(counts, [1 / n] * n)
        res.add("scaled", f"below({n}) uniformity", f"chi2={stat:.1f} dof={dof} p={p:.4f}", f"{P_LOW} <= p <= 1-{P_LOW}",
                P_LOW <= p <= 1 - P_LOW, time.time() - t)
        pairs = [0] * (n * n)
        for i in range(0, k - 1, 2):
            pairs[xs[i] * n + xs[i + 1]] += 1
        stat, dof, p = chi2_test(pairs, [1 / n**2] * n**2)
        res.add("scaled", f"below({n}) serial pairs", f"chi2={stat:.1f} dof={dof} p={p:.4f}", f"{P_LOW} <= p <= 1-{P_LOW}",
                P_LOW <= p <= 1 - P_LOW)

    uniform(37, draws)  # single-zero roulette
    uniform(52, draws)  # a card
    uniform(6, draws // 4)  # a die
    uniform(80, draws)  # Keno ball

    t = time.time()
    weights = [1, 2, 3, 5, 8, 13, 21, 34]  # a reel strip's symbol weights (sum 87: not a power of 2)
    counts = [0] * len(weights)
    for _ in range(draws):
        counts[rng.weighted(gen, weights)] += 1
    tot = sum(weights)
    stat, dof, p = chi2_test(counts, [w / tot for w in weights])
    res.add("scaled", "weighted(fibonacci 1..34)", f"chi2={stat:.1f} dof={dof} p={p:.4f}", f"{P_LOW} <= p <= 1-{P_LOW}",
            P_LOW <= p <= 1 - P_LOW, time.time() - t)

    t = time.time()
    perms: dict[tuple, int] = {}
    k = draws // 4
    for _ in range(k):
        s = [0, 1, 2, 3, 4]
        rng.shuffle(gen, s)
        perms[tuple(s)] = perms.get(tuple(s), 0) + 1
    counts = [perms.get(pp, 0) for pp in _perms(5)]
    stat, dof, p = chi2_test(counts, [1 / 120] * 120)
    res.add("scaled", "shuffle(5): 120 permutations", f"chi2={stat:.1f} dof={dof} p={p:.4f}", f"{P_LOW} <= p <= 1-{P_LOW}",
            P_LOW <= p <= 1 - P_LOW, time.time() - t)


def _perms(n: int) -> list[tuple]:
    import itertools

    return list(itertools.permutations(range(n)))


# -- main ------------------------------------------------------------------------------------------
def need(tool: str) -> None:
    if shutil.which(tool) is None:
        sys.exit(f"rngtest: `{tool}` not found (make rngtest installs ent, dieharder, rng-tools)")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] == "stream":
        return stream_main(int(argv[1]) if len(argv) > 1 else None)
    ap = argparse.ArgumentParser(prog="python -m tools.rngtest")
    ap.add_argument("--full", action="store_true", help="dieharder -a (hours)")
    ap.add_argument("--mb", type=int, default=100, help="MiB of stream for ent and FIPS 140-2 (>= 100)")
    ap.add_argument("--only", default="ent,fips,dieharder,scaled")
    ap.add_argument("--dieharder", default=None, help="comma list of -d numbers, N:T for -d N -n T (default: the selection)")
    ap.add_argument("--draws", type=int, default=1_000_000, help="draws per scaled-output test")
    a = ap.parse_args(argv)
    parts = set(a.only.split(","))
    OUT.mkdir(parents=True, exist_ok=True)
    res = Results()
    t0 = time.time()
    items = ["-a"] if a.full else (a.dieharder or DIEHARDER_SELECTION).split(",")
    stages = (bool(parts & {"ent", "fips"}) + ("ent" in parts) + ("fips" in parts)
              + len(items) * ("dieharder" in parts) + ("scaled" in parts))
    b = bar(total=stages, desc="rngtest", unit="test")  # stderr; off when not a TTY or CI=true
    started = []

    def step(name: str) -> None:
        if started:
            b.update(1)  # the stage before this one is done
        started.append(name)
        b.set_postfix_str(name)

    if parts & {"ent", "fips"}:
        for tool in ("ent", "rngtest"):
            need(tool)
        path = OUT / "drbg.bin"
        t = time.time()
        step(f"{a.mb} MiB of stream")
        with open(path, "wb") as f:
            write_stream(f, a.mb * CHUNK)
        print(f"stream: {a.mb} MiB of device-code DRBG output in {time.time() - t:.1f}s -> {path}", flush=True)
        if "ent" in parts:
            step("ent")
            run_ent(path, res)
        if "fips" in parts:
            step("FIPS 140-2")
            run_fips(path, res)
        path.unlink()
    if "dieharder" in parts:
        need("dieharder")
        with open(OUT / "dieharder.txt", "w") as log:
            if a.full:
                step("dieharder -a")
                run_dieharder(["-a"], "dieharder -a", res, log)
            else:
                for item in items:
                    d, _, n = item.partition(":")
                    args = ["-d", str(int(d))] + (["-n", str(int(n))] if n else [])
                    step("dieharder " + " ".join(args))
                    run_dieharder(args, " ".join(args), res, log)
    if "scaled" in parts:
        step("scaled outputs")
        scaled_tests(res, a.draws)
    b.update(b.total - b.n)
    b.close()
    table = res.table()
    print(table)
    print(f"total {time.time() - t0:.0f}s")
    (OUT / "summary.txt").write_text(table + "\n")
    (OUT / "summary.json").write_text(json.dumps(res.rows, indent=1))
    return 0 if res.ok else 1


if __name__ == "__main__":
    sys.exit(main())
