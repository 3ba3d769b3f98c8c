"""Calls the fake CUDA runtime through ctypes from known lines, for the Python-frame tests and the
bench. Each line that calls CUDA ends with a marker comment (`# cw-line: NAME`) that the tests look
up, so the expected line numbers are read from this file, not written down twice.

  ctypes_calls.py calls N [--depth D]   N cudaStreamSynchronize calls from sync_once(), called
                                         D frames deep (default 1); then N cudaMemcpy calls
  ctypes_calls.py wait SECONDS           announce readiness on stdout ("ready"), then make
                                         cudaStreamSynchronize calls for SECONDS (for --pid)
The runtime is libcudart.so.13 in $CAUSEWAY_FAKECUDA_DIR.
"""

import ctypes
import os
import sys
import time

CUDA_MEMCPY_HOST_TO_HOST = 0


def load_runtime():
    return ctypes.CDLL(os.path.join(os.environ["CAUSEWAY_FAKECUDA_DIR"], "libcudart.so.13"))


def check(code, what):
    if code != 0:
        raise RuntimeError(f"{what} failed with CUDA error {code}")


def sync_once(cudart):
    check(cudart.cudaStreamSynchronize(None), "cudaStreamSynchronize")  # cw-line: sync


def nested(cudart, depth):
    if depth <= 1:
        sync_once(cudart)
    else:
        nested(cudart, depth - 1)  # cw-line: nested


def copy_once(cudart, buffer):
    n = ctypes.sizeof(buffer)
    check(cudart.cudaMemcpy(buffer, buffer, ctypes.c_size_t(n), CUDA_MEMCPY_HOST_TO_HOST), "cudaMemcpy")  # cw-line: copy


def main():
    cudart = load_runtime()
    if sys.argv[1] == "calls":
        count = int(sys.argv[2])
        depth = int(sys.argv[4]) if len(sys.argv) > 4 and sys.argv[3] == "--depth" else 1
        for _ in range(count):
            nested(cudart, depth)
        buffer = ctypes.create_string_buffer(64)
        for _ in range(count):
            copy_once(cudart, buffer)
    elif sys.argv[1] == "wait":
        deadline = time.monotonic() + float(sys.argv[2])
        print("ready", flush=True)
        while time.monotonic() < deadline:
            sync_once(cudart)
            time.sleep(0.001)
    else:
        sys.exit(f"ctypes_calls.py: unknown mode {sys.argv[1]!r}")


if __name__ == "__main__":
    main()
