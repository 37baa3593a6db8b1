"""Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
3", SC 2011) in NumPy, vectorised over counters, and the dropout mask nnc
documents for nn.dropout_train, written from that description alone.

    python3 philox.py    checks the Random123 known-answer vectors

`philox4x32(counter, key)`: counter is (..., 4) and key (..., 2) of
integers below 2^32; returns the (..., 4) output words as uint64.
`dropout_keep(shape, step, rate, seed)`: the boolean mask of the elements
kept. `seed_of(name)`: a dropout layer's default seed. Needs NumPy only.
"""

import sys

import numpy as np

M0, M1 = 0xD2511F53, 0xCD9E8D57
W0, W1 = 0x9E3779B9, 0xBB67AE85
MASK32 = 0xFFFFFFFF


def philox4x32(counter, key, rounds=10):
    c = [np.asarray(counter, dtype=np.uint64)[..., i] for i in range(4)]
    k = [np.asarray(key, dtype=np.uint64)[..., i] for i in range(2)]
    m0, m1 = np.uint64(M0), np.uint64(M1)
    low, shift = np.uint64(MASK32), np.uint64(32)
    for r in range(rounds):
        if r:
            k = [(k[0] + np.uint64(W0)) & low, (k[1] + np.uint64(W1)) & low]
        p0, p1 = c[0] * m0, c[2] * m1  # below 2^64: no wrap-around
        c = [(p1 >> shift) ^ c[1] ^ k[0], p1 & low,
             (p0 >> shift) ^ c[3] ^ k[1], p0 & low]
    return np.stack(c, axis=-1)


def halves(v):
    """(v mod 2^32, v div 2^32) of a non-negative integer below 2^64."""
    return v & MASK32, v >> 32


def dropout_keep(shape, step, rate, seed):
    """Element i (row-major) is kept when the first word of Philox4x32-10
    with counter (i lo, i hi, step lo, step hi) and key (seed lo, seed hi)
    is below int((1 - rate) * 2^32)."""
    n = int(np.prod(shape))
    index = np.arange(n, dtype=np.uint64)
    counter = np.empty((n, 4), dtype=np.uint64)
    counter[:, 0] = index & np.uint64(MASK32)
    counter[:, 1] = index >> np.uint64(32)
    counter[:, 2], counter[:, 3] = halves(int(step))
    key = np.array(halves(int(seed)), dtype=np.uint64)
    words = philox4x32(counter, key)[:, 0]
    return (words < np.uint64(int((1.0 - rate) * 2.0 ** 32))).reshape(shape)


def seed_of(name):
    """The default seed of the dropout layer `name`: the 64-bit FNV-1a hash
    of its UTF-8 bytes, shifted right once."""
    h = 0xCBF29CE484222325
    for byte in name.encode("utf-8"):
        h = ((h ^ byte) * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h >> 1


# Random123's tests/kat_vectors, the philox4x32 R=10 lines: counter, key,
# expected output.
KAT = [
    ("00000000 00000000 00000000 00000000", "00000000 00000000",
     "6627e8d5 e169c58d bc57ac4c 9b00dbd8"),
    ("ffffffff ffffffff ffffffff ffffffff", "ffffffff ffffffff",
     "408f276d 41c83b0e a20bc7c6 6d5451fd"),
    ("243f6a88 85a308d3 13198a2e 03707344", "a4093822 299f31d0",
     "d16cfe09 94fdcceb 5001e420 24126ea1"),
]

# FNV-1a 64's published test values (the empty string, "a", "foobar").
FNV = [("", 0xCBF29CE484222325), ("a", 0xAF63DC4C8601EC8C),
       ("foobar", 0x85944171F73967E8)]


def words(text):
    return [int(w, 16) for w in text.split()]


def main():
    failed = 0
    counters = np.array([words(c) for c, _, _ in KAT], dtype=np.uint64)
    keys = np.array([words(k) for _, k, _ in KAT], dtype=np.uint64)
    got = philox4x32(counters, keys)
    for (c, k, want), out in zip(KAT, got):
        ok = [int(w) for w in out] == words(want)
        print("%s: philox4x32-10 ctr %s key %s" %
              ("match" if ok else "MISMATCH", c, k))
        failed += not ok
    for text, want in FNV:
        ok = seed_of(text) == want >> 1
        print("%s: FNV-1a 64 of %r" % ("match" if ok else "MISMATCH", text))
        failed += not ok
    # One word at a time against the vectorised form, on mixed counters.
    mixed = np.array([words(c) for c, _, _ in reversed(KAT)], dtype=np.uint64)
    one = np.stack([philox4x32(mixed[i], keys[0]) for i in range(3)])
    ok = np.array_equal(one, philox4x32(mixed, keys[0]))
    print("%s: vectorised and scalar calls agree" %
          ("match" if ok else "MISMATCH"))
    failed += not ok
    print("%d passed, %d failed" % (len(KAT) + len(FNV) + 1 - failed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
