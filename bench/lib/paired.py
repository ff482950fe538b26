# SPDX-License-Identifier: GPL-2.0-or-later
"""Paired ratios of the benches: the geometric mean of per-round ratios
(one side over the other, run back to back in a round) with its 95% interval,
Student's t over the rounds' log ratios. Pairing cancels what drifts between
rounds; the interval says how far the rounds' scatter lets the mean be
trusted (benches print it beside their goal, they never assert on it).

As a module: interval(logs) -> (geomean, lo, hi); lo, hi None under 2 rounds.
As a script: python3 bench/lib/paired.py < LINES, each line "KEY NUM DEN" (a
round's pair), prints per KEY, in first-seen order,
  KEY: NUM/DEN geomean G [LO, HI] over N rounds
python3 bench/lib/paired.py --coverage checks the interval's error rate: it
simulates rounds whose log ratios have a common drift-free true value, normal
and heavy-tailed (Student t, 3 df), and prints how often the interval missed
the true ratio (stated: 5%).
"""
import math
import sys

# two-sided 95% quantiles of Student's t by degrees of freedom 1..30
T95 = [0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201,
       2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069,
       2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def interval(logs):
    """geometric mean of the ratios whose logs are given, and its 95% interval"""
    m = sum(logs) / len(logs)
    if len(logs) < 2:
        return math.exp(m), None, None
    sd = math.sqrt(sum((x - m) ** 2 for x in logs) / (len(logs) - 1))
    # past 30 degrees of freedom 1.96 (the normal) is within 4% of t
    t = T95[len(logs) - 1] if len(logs) <= 30 else 1.96
    h = t * sd / math.sqrt(len(logs))
    return math.exp(m), math.exp(m - h), math.exp(m + h)


def show(g, lo, hi):
    return "%.3f" % g + ("" if lo is None else " [%.3f, %.3f]" % (lo, hi))


def main():
    logs = {}
    for n, line in enumerate(sys.stdin, 1):
        f = line.split()
        try:
            key, num, den = f[0], float(f[1]), float(f[2])
            if len(f) != 3 or not (0 < num < math.inf and 0 < den < math.inf):
                raise ValueError
        except (IndexError, ValueError):
            sys.exit("paired.py: line %d: want 'KEY NUM DEN' with NUM and DEN finite and > 0: %r" % (n, line))
        logs.setdefault(key, []).append(math.log(num / den))
    for key, v in logs.items():
        print("%s: geomean %s over %d rounds" % (key, show(*interval(v)), len(v)))


def coverage(trials=20000, seed=1):
    import random
    rnd = random.Random(seed)
    for n in (3, 4, 8):
        for name, draw in (("normal", lambda: rnd.gauss(0, 0.03)),
                           ("t3", lambda: 0.03 * rnd.gauss(0, 1) /
                            math.sqrt(sum(rnd.gauss(0, 1) ** 2 for _ in range(3)) / 3))):
            miss = 0
            for _ in range(trials):
                _, lo, hi = interval([math.log(0.98) + draw() for _ in range(n)])
                miss += not (lo <= 0.98 <= hi)
            print("rounds %d, %s log ratios: the interval missed the true ratio in %.2f%% of %d"
                  % (n, name, 100.0 * miss / trials, trials))


if __name__ == "__main__":
    coverage() if sys.argv[1:] == ["--coverage"] else main()
