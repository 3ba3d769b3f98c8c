"""Calls the fake CUDA runtime through ctypes from known lines, for the Python-frame tests. Each
line that calls CUDA ends with a marker comment (`# cw-line: NAME`) that the tests look up, so the
expected line numbers are read from this file, not written down twice.

  ctypes_calls.py calls N [--depth D]   N cudaStreamSynchronize calls from sync_once(), called
                                         D frames deep (default 1); then N cudaMemcpy calls
  ctypes_calls.py serve [--depth D] [--device-ms M]
                                         say "ready" on stdout, then make those calls in rounds
                                         (one sync, one copy) until stdin is closed: the test
                                         decides when it has seen enough, so no timing is assumed;
                                         with --device-ms, each round first launches a kernel of
                                         M ms on the fake device, which the sync waits for
The runtime is libcudart.so.13 in $CAUSEWAY_FAKECUDA_DIR.
"""

import ctypes
import os
import sys

from stop_signal import stdin_closed

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
        sync_once(cudart)  # cw-line: leaf
    else:
        nested(cudart, depth - 1)  # cw-line: nested


def copy_once(cudart, buffer):
    n = ctypes.sizeof(buffer)
    check(cudart.cudaMemcpy(buffer, buffer, ctypes.c_size_t(n), CUDA_MEMCPY_HOST_TO_HOST), "cudaMemcpy")  # cw-line: copy


class Dim3(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint), ("y", ctypes.c_uint), ("z", ctypes.c_uint)]


def kernel_launcher(cudart, device_ms):
    """A function that queues one kernel of `device_ms` on the fake device (none without it)."""
    if device_ms <= 0:
        return lambda: None
    kernel = ctypes.create_string_buffer(1)  # any host address is a kernel handle
    check(cudart.fakecudaSetKernelDuration(kernel, ctypes.c_ulonglong(int(device_ms * 1e6))), "fakecudaSetKernelDuration")
    grid, block = Dim3(1, 1, 1), Dim3(1, 1, 1)
    return lambda: check(cudart.cudaLaunchKernel(kernel, grid, block, None, ctypes.c_size_t(0), None), "cudaLaunchKernel")


def depth_option(args):
    return int(args[args.index("--depth") + 1]) if "--depth" in args else 1


def device_ms_option(args):
    return float(args[args.index("--device-ms") + 1]) if "--device-ms" in args else 0.0



def main():
    cudart = load_runtime()
    buffer = ctypes.create_string_buffer(64)
    depth = depth_option(sys.argv)
    if sys.argv[1] == "calls":
        count = int(sys.argv[2])
        for _ in range(count):
            nested(cudart, depth)
        for _ in range(count):
            copy_once(cudart, buffer)
    elif sys.argv[1] == "serve":
        launch = kernel_launcher(cudart, device_ms_option(sys.argv))
        closed = stdin_closed()
        print("ready", flush=True)
        while not closed.is_set():
            launch()
            nested(cudart, depth)
            copy_once(cudart, buffer)
            closed.wait(0.001)
    else:
        sys.exit(f"ctypes_calls.py: unknown mode {sys.argv[1]!r}")


if __name__ == "__main__":
    main()
