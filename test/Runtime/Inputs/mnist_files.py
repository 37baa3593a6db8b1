"""Writes MNIST IDX files in DIR: PREFIX-images-idx3-ubyte and
PREFIX-labels-idx1-ubyte with COUNT random 28x28 images whose label is
learnable (it sets the brightness of the top rows); with --gz, gzipped
(FILE.gz) instead.

    mnist_files.py DIR PREFIX COUNT [--gz]
"""
import gzip
import random
import struct
import sys

directory, prefix, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
compress = "--gz" in sys.argv[4:]
rng = random.Random(11)
labels = bytes(rng.randrange(10) for _ in range(count))
pixels = bytearray()
for label in labels:
    image = bytearray(rng.randbytes(784))
    for i in range(112):
        image[i] = 25 * label
    pixels += image
files = {
    "images-idx3-ubyte": struct.pack(">IIII", 0x803, count, 28, 28) + pixels,
    "labels-idx1-ubyte": struct.pack(">II", 0x801, count) + labels,
}
for kind, data in files.items():
    path = "%s/%s-%s" % (directory, prefix, kind)
    if compress:
        with gzip.open(path + ".gz", "wb") as f:
            f.write(data)
    else:
        with open(path, "wb") as f:
            f.write(data)
