"""How the Python workloads learn that the test has seen enough: the test closes their stdin."""

import sys
import threading


def stdin_closed():
    """An event set once stdin reaches its end. Start it after any fork: a forked child that
    closes its stdin (as multiprocessing does) would wait for the lock the reading thread holds."""
    closed = threading.Event()

    def wait_for_end():
        sys.stdin.buffer.read()
        closed.set()

    threading.Thread(target=wait_for_end, daemon=True).start()
    return closed
