#!/usr/bin/env python3
"""Expected answers for the teaching panel's calculator (crates/teach/src/calc.rs), written from the
published rules rather than from our code, evaluated with mpmath at 50 digits:

- the formula p = (1 - e^(-kn/m))^k, its inverses b = m/n = -k / ln(1 - p^(1/k)) and the
  optimum k* = (m/n) ln 2 (Bloom 1970; Broder & Mitzenmacher 2004), the best whole k being the
  one with the lowest p; the n-and-p sizing
  m = ceil(-n ln p / (ln 2)^2), k = round((m/n) ln 2) as hur.st/bloomfilter states it;
- TsFile's Java BloomFilter.getEmptyBloomFilter (java_bloom.py beside this file);
- LevelDB's util/bloom.cc: k = (size_t)(bits_per_key * 0.69) clamped to [1, 30];
  bits = max(64, n * bits_per_key), rounded up to whole bytes.

  python3 bloom_calc.py > calc_cases.json
"""
import json
import math
import sys

import mpmath

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from java_bloom import get_empty_bloom_filter  # noqa: E402

mpmath.mp.dps = 50
LN2 = mpmath.log(2)


def fpp(b, k):
    return (1 - mpmath.exp(-mpmath.mpf(k) / b)) ** k


def b_for(p, k):
    return -mpmath.mpf(k) / mpmath.log(1 - mpmath.mpf(p) ** (mpmath.mpf(1) / k))


def best_k(b):
    ps = [(fpp(b, k), k) for k in range(1, 65)]
    return min(ps)[1]


def k_range(b, p):
    ok = [k for k in range(1, 65) if fpp(b, k) <= p]
    return [ok[0], ok[-1]] if ok else None


def leveldb(n, bpk):
    k = int(bpk * 0.69)
    k = max(1, min(30, k))
    bits = max(64, n * bpk)
    bits = (bits + 7) // 8 * 8
    return {"bitsPerKey": bpk, "bitCount": bits, "k": k, "p": float(fpp(mpmath.mpf(bits) / n, k))}


def leveldb_for(n, p):
    for bpk in range(1, 1001):
        r = leveldb(n, bpk)
        if r["p"] <= p:
            return r
    return None


def java(n, p):
    m, k = get_empty_bloom_filter(p, n)
    return {"bitCount": m, "k": k, "p": float(fpp(mpmath.mpf(m) / n, k)), "clamped": not (0.01 <= p <= 0.1)}


def near_integer(x):
    return abs(x - mpmath.nint(x)) < mpmath.mpf("1e-6")


def case(inp):
    n, p, m, k, b = (inp.get(x) for x in ("n", "p", "m", "k", "bitsPerKey"))
    out = {"input": inp}
    if b is None and n is not None and m is not None:
        b = mpmath.mpf(m) / n
    if b is not None and m is None and n is not None:
        m = n * b
    if p is None and k is None:
        kk = best_k(mpmath.mpf(b))
        out.update(solved="k+p", k=kk, p=float(fpp(mpmath.mpf(b), kk)))
    elif p is None:
        out.update(solved="p", k=k, p=float(fpp(mpmath.mpf(b), k)))
    elif k is None and b is not None:
        out.update(solved="k", k=best_k(mpmath.mpf(b)), kRange=k_range(mpmath.mpf(b), p))
    elif k is None:
        mm = mpmath.ceil(-n * mpmath.log(p) / LN2**2)
        kk = max(1, int(mpmath.nint(mm / n * LN2)))
        m = int(mm)
        out.update(solved="m+k", m=m, k=kk, p=float(fpp(mpmath.mpf(m) / n, kk)))
    else:
        need = b_for(p, k)
        if n is not None:
            exact = n * need
            assert not near_integer(exact), f"{inp}: m = {exact} is too close to a whole number to test"
            m = int(mpmath.ceil(exact))
            out.update(solved="m", m=m, k=k, p=float(fpp(mpmath.mpf(m) / n, k)))
        elif m is not None:
            exact = m / need
            assert not near_integer(exact), f"{inp}: n = {exact} is too close to a whole number to test"
            n = int(mpmath.floor(exact))
            out.update(solved="n", n=n, k=k, p=float(fpp(mpmath.mpf(m) / n, k)))
        else:
            out.update(solved="bitsPerKey", bitsPerKey=float(need), k=k)
    pp = p if p is not None else out["p"]
    if n is not None and float(n).is_integer():
        n = int(n)
        out["java"] = java(n, pp) if n <= 2**31 - 1 else None
        out["leveldb"] = leveldb_for(n, pp)
    return out


CASES = [
    # n, m, k → p
    {"n": 1000, "m": 10000, "k": 7},
    {"n": 10000, "m": 62353, "k": 5},  # TsFile's 5 % sizing for 10,000 paths (docs/bloom-filter.md §8)
    {"n": 24, "m": 256, "k": 5},  # the sandbox's demo filter
    {"n": 100000000, "bitsPerKey": 10, "k": 6},  # claim 12: 100 M keys at 10 bits per key, LevelDB's k
    {"n": 1, "m": 64, "k": 1},
    # bits per key and k → p (n free)
    {"bitsPerKey": 8, "k": 6},
    {"bitsPerKey": 4.5, "k": 3},
    # n, m, p → k
    {"n": 1000, "m": 10000, "p": 0.01},
    {"n": 500, "m": 4000, "p": 0.05},
    {"n": 1000, "m": 2000, "p": 0.2},
    {"bitsPerKey": 3, "p": 0.01},  # unreachable: no whole k reaches 1 %
    # n, p, k → m
    {"n": 1000, "p": 0.01, "k": 7},
    {"n": 12345, "p": 0.05, "k": 5},
    {"n": 3, "p": 0.001, "k": 10},
    # m, p, k → n
    {"m": 100000, "p": 0.01, "k": 7},
    {"m": 6236, "p": 0.05, "k": 5},
    # p, k → bits per key
    {"p": 0.01, "k": 7},
    {"p": 0.05, "k": 4},
    # only the size → the best whole k and its p
    {"n": 100000000, "bitsPerKey": 10},  # claim 12
    {"n": 500, "m": 3000},
    # n, p → m and k at the optimum
    {"n": 4000, "p": 1e-7},  # hur.st's opening example: 134,191 bits, k = 23
    {"n": 1000, "p": 0.05},
    {"n": 1000, "p": 0.001},  # Java clamps to 1 %
]

if __name__ == "__main__":
    json.dump({"generator": "tests/reference/bloom_calc.py", "cases": [case(c) for c in CASES]}, sys.stdout, indent=1)
    sys.stdout.write("\n")
