"""What every interop server script shares: it lives exactly as long as the test that started it."""

import os
import sys


def exit_when_stdin_closes():
    """The test process holds our standard input: when it ends, however it ends, so do we."""
    try:
        while sys.stdin.buffer.read(4096):
            pass
    finally:
        os._exit(0)
