"""A small tmpfs for the tests of a full or read-only disk (mounting needs root, as in CI):
`with tiny_disk(tmp_path, "1m") as mount:` mounts it for the block and unmounts it whatever
happens; `fill(mount)` leaves it no byte, so the next write fails with ENOSPC."""

from __future__ import annotations

import errno
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def tiny_disk(tmp_path: Path, size: str = "1m") -> Iterator[Path]:
    """A tmpfs of `size` mounted at tmp_path/tiny for the block, then unmounted."""
    mount = tmp_path / "tiny"
    mount.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(mount)], check=True)
    try:
        yield mount
    finally:
        subprocess.run(["umount", "--lazy", str(mount)], check=True)


def fill(directory: Path) -> None:
    """Write a file in `directory` until its disk has no space left, down to the last byte."""
    with open(directory / "filler", "wb", buffering=0) as filler:
        for chunk in (65536, 4096, 512, 1):
            try:
                while filler.write(b"\0" * chunk):
                    pass
            except OSError as err:
                assert err.errno == errno.ENOSPC
