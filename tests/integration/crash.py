"""What the kill -9 tests (test_crash_loop, test_crash_types) share: a test case
whose durable emulator lives in one directory across kills and restarts, and a
killer that aims at a checkpoint's first milliseconds."""

import shutil
import tempfile
import threading
import time
import unittest

from emulator import Emulator


class CheckpointKiller(threading.Thread):
    """threading.Timer's part the loops use (start, is_alive, join, finished), killing
    delay seconds after the server's log says a checkpoint started, or after fallback
    seconds when none does."""

    def __init__(self, emu, delay, fallback):
        super().__init__(daemon=True)
        self.emu, self.delay, self.fallback = emu, delay, fallback
        self.finished = threading.Event()
        self.in_checkpoint = False

    def run(self):
        deadline = time.monotonic() + self.fallback
        while time.monotonic() < deadline:
            if "background checkpoint started" in self.emu.log():
                self.in_checkpoint = True
                time.sleep(self.delay)
                break
            time.sleep(0.002)
        self.emu.proc.kill()
        self.finished.set()


class CrashTestCase(unittest.TestCase):
    """self.emu and self.cluster: the running server and its driver, or None."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="emu-crash-")
        self.emu = None
        self.cluster = None

    def tearDown(self):
        if self.cluster is not None:
            self.cluster.shutdown()
        if self.emu is not None:
            self.emu.kill()
        shutil.rmtree(self.dir, ignore_errors=True)

    def start(self, args):
        """A durable server on the directory with args; its session."""
        self.emu = Emulator(tls=False, args=["--storage", "durable"] + list(args),
                            data_dir=self.dir)
        self.emu.start()
        self.cluster = self.emu.cluster(connect_timeout=10, control_connection_timeout=10)
        return self.cluster.connect()

    def down(self, clean=False):
        """Drops the driver, then stops the server (its exit and sanitizer log
        checked) or, after a kill, reaps it; the directory stays."""
        self.cluster.shutdown()
        self.cluster = None
        if clean:
            self.emu.stop()
        else:
            self.emu.kill()
        self.emu = None
