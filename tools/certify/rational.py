"""Exact rationals for the certifiers' hot loops: gmpy2's mpq (GMP rationals, in C) inside, the
standard library's Fraction at every certifier's boundary.

An mpq is the same exact number as the Fraction of the same numerator and denominator (both keep
lowest terms), so the figures do not change; only the time of the arithmetic does (a Fraction's
every + and * is Python code: gcds, two new objects). What leaves a certifier is a Fraction made of
Python ints (`fraction`), never an mpq or an mpz: the reports, certificates, JSON and PAR sheets
format and hash it, and float() of an mpq is not guaranteed to round as float() of a Fraction does.
"""
from __future__ import annotations

from fractions import Fraction

from gmpy2 import mpq

Q = mpq  # Q(n, d), Q(n): the exact rational n/d
Q0 = mpq(0)


def fraction(x) -> Fraction:
    """The Fraction of an exact rational (an mpq, a Fraction or an int), with Python int terms."""
    return Fraction(int(x.numerator), int(x.denominator))
