"""The Python bench workload: cudaEventSynchronize(NULL) of the fake runtime through ctypes, from a
Python stack DEPTH frames deep, CALLS times after WARMUP untimed calls. The call returns at once
(an invalid handle) and reaches no traced driver function, so a tracer pays for one probe pair
and, with Python frames on, one walk of DEPTH frames per call.

  python_call_loop.py RUNTIME_DIR --calls N --depth D [--warmup W]
Prints `cpu_ns_per_call=<calling thread's CPU ns per call> wall_ns_per_call=<...>`."""

import argparse
import ctypes
import os
import time


def timed_loop(sync, calls, warmup):
    for _ in range(warmup):
        sync(None)
    cpu0, wall0 = time.thread_time_ns(), time.monotonic_ns()
    for _ in range(calls):
        sync(None)
    return time.thread_time_ns() - cpu0, time.monotonic_ns() - wall0


def at_depth(depth, sync, calls, warmup):
    if depth <= 1:
        return timed_loop(sync, calls, warmup)
    return at_depth(depth - 1, sync, calls, warmup)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("runtime_dir")
    parser.add_argument("--calls", type=int, required=True)
    parser.add_argument("--depth", type=int, required=True)
    parser.add_argument("--warmup", type=int, default=2000)
    args = parser.parse_args()
    cudart = ctypes.CDLL(os.path.join(args.runtime_dir, "libcudart.so.13"))
    # main and <module> are two frames of the stack already.
    cpu_ns, wall_ns = at_depth(args.depth - 2, cudart.cudaEventSynchronize, args.calls, args.warmup)
    print(f"cpu_ns_per_call={cpu_ns / args.calls:.1f} wall_ns_per_call={wall_ns / args.calls:.1f}")


if __name__ == "__main__":
    main()
