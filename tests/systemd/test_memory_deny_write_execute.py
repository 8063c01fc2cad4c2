"""The unit keeps MemoryDenyWriteExecute=yes: the table's libraries must live without W+X memory.

systemd cannot run here, so the same rule comes from the kernel: PR_SET_MDWE (Linux 6.3+)
refuses writable-and-executable mappings for the rest of the process's life. A dependency that
generates code (a JIT, an old libffi) fails this test before it fails on the Pi.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

UNDER_MDWE = textwrap.dedent(
    """
    import ctypes, mmap, os, sqlite3, sys, tempfile

    libc = ctypes.CDLL(None, use_errno=True)
    PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN = 65, 1
    if libc.prctl(PR_SET_MDWE, PR_MDWE_REFUSE_EXEC_GAIN, 0, 0, 0) != 0:
        sys.exit(f"PR_SET_MDWE failed: {os.strerror(ctypes.get_errno())} (Linux 6.3+ needed)")

    # The rule holds: a writable and executable mapping is refused.
    try:
        mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    except OSError:
        pass
    else:
        sys.exit("PR_SET_MDWE is set but a W+X mapping was granted")

    from PIL import Image, ImageDraw, ImageFont
    import luma.core.render, luma.oled.device
    import adafruit_pn532.i2c, adafruit_pn532.spi
    import gpiod, lgpio, serial, smbus2, spidev  # the Pi's own libraries (the `pi` extra)
    import gpiozero
    from gpiozero.pins.mock import MockFactory
    import hardware.display, hardware.nfc
    import firmware.service, firmware.journal

    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((0, 0), "Arcana", fill=1, font=ImageFont.load_default())
    assert image.getbbox() is not None

    button = gpiozero.Button(17, pin_factory=MockFactory())
    button.pin.drive_low()
    assert button.is_pressed

    callback = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)(lambda n: n + 1)
    assert callback(41) == 42

    with tempfile.TemporaryDirectory() as state:
        db = sqlite3.connect(os.path.join(state, "journal.sqlite"))
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("CREATE TABLE t (x)")
        db.execute("INSERT INTO t VALUES (1)")
        db.commit()
    print("ok")
    """
)


def test_the_table_stack_runs_without_writable_executable_memory():
    done = subprocess.run(
        [sys.executable, "-c", UNDER_MDWE], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.strip() == "ok"
