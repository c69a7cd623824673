# Hold patterns of the built-in strategy ("auto-hold"). A pattern describes the held cards only,
# so the device can rank the 32 holds of a deal without searching the draws: the strategy is the
# model's ordered list of patterns, compiled on the host from the exact analysis
# (tools/certify/poker_strategy.py) and covered by the certificate's hash like the pay table.
#   "P<i>" / "P-"       all five held: the award index they form, or none
#   "<n><w>|<mult>|<b><h><a>|<s><x><r>"  fewer than five held:
#     n held cards, w of them wild; mult the natural ranks' multiplicities, largest first ("-": none);
#     b the rank class (PokerModel.rank_class) of the largest group when it is a pair or more
#     ("-" otherwise); h the single naturals that are high (the ranks of the lowest ranked award,
#     e.g. jacks or better); a the rank class of the highest single ("-": none);
#     s 1 when two or more naturals share one suit; x the windows of five consecutive ranks
#     holding every natural (0..10, in hex; 0 unless two or more distinct naturals);
#     r 1 when suited and every natural is ten or higher (a royal draw).
from games.poker_hand import award

_cnt = bytearray(13)
_DIG = "0123456789abcdef"


def pattern(m, cards, mask):
    n = 0
    for i in range(5):
        n += mask >> i & 1
    if n == 5:
        a = award(m, cards)
        return "P-" if a < 0 else "P%d" % a
    cnt = _cnt
    for r in range(13):
        cnt[r] = 0
    w = nat = 0
    suit = -1
    suited = True
    rmask = 0
    for i in range(5):
        if not mask >> i & 1:
            continue
        c = cards[i]
        if m.is_wild(c):
            w += 1
            continue
        nat += 1
        r = c >> 2
        cnt[r] += 1
        rmask |= 1 << r
        if suit < 0:
            suit = c & 3
        elif suit != c & 3:
            suited = False
    mult = ""
    for k in (4, 3, 2, 1):
        for r in range(13):
            if cnt[r] == k:
                mult += _DIG[k]
    top = -1  # the largest group's rank when a pair or more (ties: the highest rank)
    tn = 1
    single = -1
    h = 0
    for r in range(13):
        if cnt[r] > tn or (cnt[r] == tn and tn > 1):
            top = r
            tn = cnt[r]
        if cnt[r] == 1:
            single = r
            if m.high >> r & 1:
                h += 1
    s = 1 if nat >= 2 and suited else 0
    x = 0
    if nat >= 2 and tn == 1:
        high = rmask << 1
        low = (rmask & 0xFFF) << 1 | 1 if rmask >> 12 else high
        for lo in range(10):
            win = 0x1F << lo
            if high & ~win == 0 or low & ~win == 0:
                x += 1
    rr = 1 if s and rmask & 0xFF == 0 else 0
    return "%d%d|%s|%s%d%s|%d%s%d" % (n, w, mult or "-", "-" if top < 0 else _DIG[m.rank_class[top]], h,
                                       "-" if single < 0 else _DIG[m.rank_class[single]], s, _DIG[x], rr)
