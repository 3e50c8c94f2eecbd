#!/usr/bin/env python3
"""An independent reference of TsFile's Java BloomFilter, written from the Java
algorithm (org.apache.tsfile.utils.Murmur128Hash / BloomFilter and
TsFileMetadata.serializeBloomFilter), used by the JS tests as an oracle.

It deliberately mirrors Java's shape (signed 64-bit longs, the fall-through
tail switch, BitSet.toByteArray) rather than our Rust code.

  python3 java_bloom.py --self-test        check the docs/bloom-filter.md §8 vectors
  python3 java_bloom.py < request.json      answer a request (see main)
"""
import json
import math
import sys

MASK64 = (1 << 64) - 1
SEEDS = [5, 7, 11, 19, 31, 37, 43, 59]


def to_long(v):
    v &= MASK64
    return v - (1 << 64) if v >= 1 << 63 else v


def rotl64(v, r):
    v &= MASK64
    return to_long((v << r) | (v >> (64 - r)))


def mul(a, b):
    return to_long(a * b)


def fmix64(k):
    k = to_long(k ^ ((k & MASK64) >> 33))
    k = mul(k, to_long(0xFF51AFD7ED558CCD))
    k = to_long(k ^ ((k & MASK64) >> 33))
    k = mul(k, to_long(0xC4CEB9FE1A85EC53))
    k = to_long(k ^ ((k & MASK64) >> 33))
    return k


def java_byte(b, signed):
    # (long) key[i] on a Java byte sign-extends; the C++ 2.5.0 writer zero-extends.
    return b - 256 if signed and b >= 128 else b


def get_block(key, i):
    base = i * 8
    total = 0
    for j in range(8):
        total += (key[base + j] & 0xFF) << (8 * j)
    return to_long(total)


def inner_hash(key, seed, signed=True):
    c1 = to_long(0x87C37B91114253D5)
    c2 = to_long(0x4CF5AD432745937F)
    length = len(key)
    nblocks = length >> 4
    h1 = seed
    h2 = seed
    for i in range(nblocks):
        k1 = get_block(key, i * 2)
        k2 = get_block(key, i * 2 + 1)
        k1 = mul(k1, c1); k1 = rotl64(k1, 31); k1 = mul(k1, c2); h1 = to_long(h1 ^ k1)
        h1 = rotl64(h1, 27); h1 = to_long(h1 + h2); h1 = to_long(h1 * 5 + 0x52DCE729)
        k2 = mul(k2, c2); k2 = rotl64(k2, 33); k2 = mul(k2, c1); h2 = to_long(h2 ^ k2)
        h2 = rotl64(h2, 31); h2 = to_long(h2 + h1); h2 = to_long(h2 * 5 + 0x38495AB5)
    off = nblocks * 16
    rem = length & 15
    k1 = 0
    k2 = 0
    # The Java switch falls through from case `rem` down to case 1.
    for case in range(rem, 0, -1):
        b = java_byte(key[off + case - 1], signed)
        if case >= 9:
            k2 = to_long(k2 ^ (b << (8 * (case - 9))))
            if case == 9:
                k2 = mul(k2, c2); k2 = rotl64(k2, 33); k2 = mul(k2, c1); h2 = to_long(h2 ^ k2)
        else:
            k1 = to_long(k1 ^ (b << (8 * (case - 1))))
            if case == 1:
                k1 = mul(k1, c1); k1 = rotl64(k1, 31); k1 = mul(k1, c2); h1 = to_long(h1 ^ k1)
    h1 = to_long(h1 ^ length)
    h2 = to_long(h2 ^ length)
    h1 = to_long(h1 + h2)
    h2 = to_long(h2 + h1)
    h1 = fmix64(h1)
    h2 = fmix64(h2)
    h1 = to_long(h1 + h2)
    h2 = to_long(h2 + h1)
    return to_long(h1 + h2)


def hash32(key, seed, signed=True):
    v = inner_hash(key, seed, signed) & 0xFFFFFFFF  # (int) cast keeps the low 32 bits
    return v - (1 << 32) if v >= 1 << 31 else v


def java_int_cast(x):
    # (int) of a double: NaN → 0, saturating, truncating toward zero.
    if x != x:
        return 0
    if x >= 2**31 - 1:
        return 2**31 - 1
    if x <= -(2**31):
        return -(2**31)
    return int(x)


def java_int_add(a, b):
    v = (a + b) & 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def get_empty_bloom_filter(error_rate, n):
    error_rate = 0.01 if error_rate < 0.01 else (0.1 if error_rate > 0.1 else error_rate)
    ln2 = math.log(2)
    size = java_int_add(java_int_cast(-n * math.log(error_rate) / ln2 / ln2), 1)
    k = java_int_add(java_int_cast(-math.log(error_rate) / ln2), 1)
    return max(256, size), min(8, k)


def bit_for(h, m):
    if h == -(2**31):
        h = 0
    return abs(h) % m


def java_int(v):
    v &= 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


def string_hash_code(text):
    """Java String.hashCode: s[0]*31^(n-1) + ... over the UTF-16 code units, in int arithmetic."""
    h = 0
    units = text.encode("utf-16-be")
    for i in range(0, len(units), 2):
        h = java_int(31 * h + (units[i] << 8 | units[i + 1]))
    return h


def arrays_hash_code(hashes):
    """Java Arrays.hashCode(Object[]) from the elements' hash codes (a null element counts 0)."""
    h = 1
    for e in hashes:
        h = java_int(31 * h + e)
    return h


def objects_hash(*hashes):
    """Java Objects.hash(a, b, ...) = Arrays.hashCode(new Object[] {a, b, ...})."""
    return arrays_hash_code(hashes)


def path_hash_code(segments, measurement, full_path_class=True):
    """hashCode of the Path the cheap hash is given: FullPath's is its StringArrayDeviceID's
    (Arrays.hashCode of the segments, null as 0) plus the measurement's; a plain Path's is that of
    its full path string (segments joined by '.', null as "null", then '.' and the measurement)."""
    if full_path_class:
        device = arrays_hash_code([0 if s is None else string_hash_code(s) for s in segments])
        return java_int(device + string_hash_code(measurement))
    full = ".".join("null" if s is None else s for s in segments) + "." + measurement
    return string_hash_code(full)


def cheap_bit(path_hash, seed, m):
    """BloomFilter.hash(Path, cap, seed) of the cheap mode: |Objects.hash(path, seed)| mod m (MIN_VALUE as 0);
    Integer.hashCode(seed) is the seed."""
    return bit_for(objects_hash(path_hash, seed), m)


def uvarint(v):
    out = bytearray()
    while v & ~0x7F:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def build_and_serialize(n, error_rate, paths, charset="utf-8", signed=True):
    m, k = get_empty_bloom_filter(error_rate, n)
    bits = set()
    for p in paths:
        key = p.encode(charset, errors="replace") if isinstance(p, str) else bytes(p)
        for seed in SEEDS[:k]:
            bits.add(bit_for(hash32(key, seed, signed), m))
    # BitSet.toByteArray(): little-endian, trailing zero bytes dropped.
    nbytes = (max(bits) // 8 + 1) if bits else 0
    arr = bytearray(nbytes)
    for b in bits:
        arr[b // 8] |= 1 << (b % 8)
    out = uvarint(len(arr)) + bytes(arr)
    if arr:
        out += uvarint(m) + uvarint(k)
    return {"bit_count": m, "hash_function_count": k, "encoded": out.hex()}


def self_test():
    vectors = [
        ("root.sg.d.s1", 5, -1267668613, 133),
        ("root.设备.s1", 5, 1697017247, 159),
        ("root.abcdefghijklmnop.设备.s1", 5, 866805081, 89),
    ]
    for path, seed, h, bit in vectors:
        got = hash32(path.encode(), seed)
        assert got == h and bit_for(got, 256) == bit, (path, got)
    assert hash32("root.设备.s1".encode(), 5, signed=False) == 1978455175
    got = [hash32("root.sg.d1.温度".encode(), s) for s in SEEDS[:5]]
    assert got == [1225016292, -978465665, -86175877, 1602773399, 662830983], got
    # Java: "a".hashCode() = 97, "root".hashCode() = 3506402, "温度".hashCode() = 0x6e29 * 31 + 0x5ea6.
    assert string_hash_code("a") == 97 and string_hash_code("root") == 3506402
    assert string_hash_code("温度") == 0x6E29 * 31 + 0x5EA6
    assert string_hash_code("😀") == java_int(0xD83D * 31 + 0xDE00)  # two UTF-16 units
    # Objects.hash(x, 5) = 31 * (31 + x) + 5, wrapping as int.
    assert objects_hash(97, 5) == 31 * (31 + 97) + 5
    assert objects_hash(2**31 - 1, 5) == java_int(31 * (31 + 2**31 - 1) + 5)
    print("java_bloom.py self-test: ok")


def main():
    if sys.argv[1:] == ["--self-test"]:
        self_test()
        return
    req = json.load(sys.stdin)
    out = {}
    if "filters" in req:
        out["filters"] = [
            build_and_serialize(c["n"], c["error_rate"], c["paths"], c.get("charset", "utf-8"), c.get("signed", True))
            for c in req["filters"]
        ]
    if "hashes" in req:
        out["hashes"] = [
            hash32(bytes.fromhex(h["hex"]), h["seed"], h.get("signed", True)) for h in req["hashes"]
        ]
    if "encode" in req:
        out["encode"] = [s.encode(c, errors="replace").hex() for s, c in req["encode"]]
    if "sizing" in req:
        out["sizing"] = [list(get_empty_bloom_filter(e, n)) for n, e in req["sizing"]]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
