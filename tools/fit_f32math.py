#!/usr/bin/env python3
"""Fits the polynomials of crates/tpu-ir/src/op/f32math.rs.

usage: tools/fit_f32math.py   (needs numpy; not part of the test command)

Each polynomial is fitted in float64 to the function it stands for, on
Chebyshev nodes of its interval, by weighted least squares whose weights are
then pushed toward the largest relative errors (Lawson's iteration, which
approaches the minimax fit), and printed rounded to float32 with the largest
relative error of the float64 fit. How close the float32 functions built from
them come to the float64 definitions is measured by the tests in f32math.rs
(`cargo test -p tpu-ir f32math`), not here.
"""
import math

import numpy as np


def nodes(a, b, n=4000):
    k = np.arange(n)
    return (a + b) / 2 + (b - a) / 2 * np.cos((2 * k + 1) * np.pi / (2 * n))


def fit(t, y, degree):
    basis = np.vander(t, degree + 1, increasing=True)
    weight = 1 / np.abs(y)
    for _ in range(80):
        c, *_ = np.linalg.lstsq(basis * weight[:, None], y * weight, rcond=None)
        err = (basis @ c - y) / np.abs(y)
        weight = weight * (np.abs(err) / np.abs(err).max()) ** 0.3 + 1e-30
    return c, np.abs(err).max()


def show(name, c, err, note):
    coefficients = ", ".join(repr(float(np.float32(v))) for v in c)
    print(f"{name} ({note}; float64 fit error {err:.2g}):\n    [{coefficients}]")


LN2 = math.log(2)
# exp(r) = 1 + r + r^2 P(r) for |r| <= ln(2) / 2 (a little more, for rounding).
r = nodes(-0.35, 0.35)
y = np.array([(math.expm1(v) - v) / (v * v) if v != 0 else 0.5 for v in r])
show("EXP", *fit(r, y, 5), "in r")
# log(1 + m) = m - m^2 / 2 + m^3 P(m) for m in [sqrt(1/2) - 1, sqrt(2) - 1].
m = nodes(math.sqrt(0.5) - 1, math.sqrt(2) - 1)
y = np.array([(math.log1p(v) - v + v * v / 2) / v**3 if v != 0 else 1 / 3 for v in m])
show("LOG", *fit(m, y, 8), "in m")
# tanh(x) = x + x^3 P(x^2) for |x| < 0.625.
s = nodes(0, 0.625**2)
y = np.array([(math.tanh(math.sqrt(v)) - math.sqrt(v)) / v**1.5 if v > 0 else -1 / 3 for v in s])
show("TANH", *fit(s, y, 4), "in x^2")
# erf(x) = x P(x^2) for |x| < 0.921875.
s = nodes(0, 0.921875**2)
y = np.array([math.erf(math.sqrt(v)) / math.sqrt(v) if v > 0 else 2 / math.sqrt(math.pi) for v in s])
show("ERF_SMALL", *fit(s, y, 6), "in x^2")
# erf(x) = 1 - exp(-x^2) R(x), R(x) = erfc(x) exp(x^2), in t = x - mid, on two
# intervals; past 3.92 erf rounds to 1 in float32.
for name, a, b, degree in [("ERFC_NEAR", 0.921875, 2.0, 9), ("ERFC_FAR", 2.0, 3.92, 9)]:
    mid = (a + b) / 2
    x = nodes(a, b)
    y = np.array([math.erfc(v) * math.exp(v * v) for v in x])
    show(name, *fit(x - mid, y, degree), f"in x - {mid}")
