"""Writes the files of SOURCE_DIR into the gzip-compressed tar archive
ARCHIVE under the folder NAME, as cifar-10-binary.tar.gz keeps its files
under cifar-10-batches-bin/.

    targz.py ARCHIVE SOURCE_DIR NAME
"""
import os
import sys
import tarfile

archive, source, name = sys.argv[1:4]
with tarfile.open(archive, "w:gz", format=tarfile.USTAR_FORMAT) as tar:
    for f in sorted(os.listdir(source)):
        tar.add(os.path.join(source, f), arcname="%s/%s" % (name, f))
