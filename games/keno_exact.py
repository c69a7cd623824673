# Exact return of a keno spot count at a bet level, integers only (the boot check recomputes what
# the certificate claims). Hits on s spots follow the hypergeometric law:
#   P(h) = C(s, h) * C(N - s, D - h) / C(N, D)     (N numbers, D drawn)
# so the return is sum_h C(s,h) C(N-s,D-h) pay[h] / (C(N,D) * bet): a few dozen big-int products.


def comb(n, k):
    if k < 0 or k > n:
        return 0
    if k > n - k:
        k = n - k
    c = 1
    for i in range(k):
        c = c * (n - i) // (i + 1)  # exact: a product of i+1 consecutive integers is divisible by (i+1)!
    return c


def ways(m, s):
    """Number of D-subsets of the N numbers catching exactly h of s picks, for h = 0..s."""
    return [comb(s, h) * comb(m.numbers - s, m.drawn - h) for h in range(s + 1)]


def rtp(m, s, bi):
    """(num, den): return of s spots at bet index bi, per credit wagered (not reduced)."""
    w = ways(m, s)
    row = m.pay[s][bi]
    num = 0
    for h in range(s + 1):
        num += w[h] * row[h]
    return num, comb(m.numbers, m.drawn) * m.bets[bi]


def hit_frequency(m, s, bi):
    """(num, den): chance that a card of s spots wins anything at bet index bi."""
    w = ways(m, s)
    row = m.pay[s][bi]
    num = 0
    for h in range(s + 1):
        if row[h]:
            num += w[h]
    return num, comb(m.numbers, m.drawn)
