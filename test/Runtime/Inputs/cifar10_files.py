"""Writes data_batch_1.bin (TRAIN records) and test_batch.bin (TEST records)
in the CIFAR-10 binary format: random images whose label is learnable (the
class sets the mean brightness of the red channel)."""
import random
import sys

directory, train, test = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(7)


def record():
    label = rng.randrange(10)
    red = bytes(min(255, 20 * label + rng.randrange(40)) for _ in range(1024))
    rest = bytes(rng.randrange(256) for _ in range(2048))
    return bytes([label]) + red + rest


for name, count in (("data_batch_1.bin", train), ("test_batch.bin", test)):
    with open("%s/%s" % (directory, name), "wb") as f:
        f.write(b"".join(record() for _ in range(count)))
