#!/usr/bin/env python3
"""Writes the seeds of nnrt-cifar-fuzzer and nnrt-mnist-fuzzer here: small
valid CIFAR-10 and MNIST files, plain, gzipped and (CIFAR-10) in a tar.gz
archive, in the layout the fuzzers read (see runtime/fuzz)."""
import gzip
import io
import os
import struct
import tarfile

here = os.path.dirname(os.path.abspath(__file__))


def gz(data):
    return gzip.compress(data, mtime=0)


def cifar_records(labels):
    return b"".join(bytes([label]) + bytes((i * 7 + label) % 256
                                           for i in range(3072))
                    for label in labels)


def tar_of(members):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.USTAR_FORMAT) as t:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), 0
            t.addfile(info, io.BytesIO(data))
    # Only the two zero blocks that end the archive, not tarfile's padding.
    used = sum(512 + (len(data) + 511) // 512 * 512 for _, data in members)
    return out.getvalue()[:used + 1024]


def write(name, data):
    with open(os.path.join(here, name), "wb") as f:
        f.write(data)


# CIFAR-10: a mode byte (bit 0: archive, bit 1: training set), then a file.
write("cifar-batch.bin", b"\0" + cifar_records([3]))
write("cifar-batch-gz.bin", b"\0" + gz(cifar_records([0, 9])))
write("cifar-test-tar.bin", b"\1" + tar_of(
    [("cifar-10-batches-bin/test_batch.bin", cifar_records([5]))]))
write("cifar-train-tar-gz.bin", b"\3" + gz(tar_of(
    [("cifar-10-batches-bin/data_batch_1.bin", cifar_records([1])),
     ("cifar-10-batches-bin/data_batch_2.bin", cifar_records([2]))])))

# MNIST: the label file's size (2 bytes, little-endian), it, the image file.
def mnist(labels, compress):
    lab = struct.pack(">II", 0x801, len(labels)) + bytes(labels)
    img = struct.pack(">IIII", 0x803, len(labels), 28, 28) + bytes(
        (i * 3) % 256 for i in range(784 * len(labels)))
    if compress:
        lab, img = gz(lab), gz(img)
    return struct.pack("<H", len(lab)) + lab + img


write("mnist.bin", mnist([7, 2], False))
write("mnist-gz.bin", mnist([1, 0, 4], True))
