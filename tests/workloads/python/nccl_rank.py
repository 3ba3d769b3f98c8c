"""One rank of a data-parallel training loop in Python, calling the fake CUDA runtime and the fake
NCCL through ctypes (both in $CAUSEWAY_FAKECUDA_DIR), started by cw_nccl_launch as torchrun starts
ranks (RANK, WORLD_SIZE, and the communicator's id in CAUSEWAY_NCCL_ID). Each step: load the
input, queue a kernel of --compute-ms on the device, all-reduce the gradients on the same stream,
synchronise (where a rank waits for the slowest).

  nccl_rank.py [--steps N] [--compute-ms C] [--late-rank R --late-ms M] [--hang-rank R --hang-after K]

--late-rank R --late-ms M: rank R's input takes M ms more a step (it sleeps), so the other ranks
wait for it. --hang-rank R --hang-after K: rank R stops after K steps, blocked for good in a read
of its input, so the others wait in their next all-reduce until the recording stops them. The
lines the tests look up carry marker comments (`# cw-line: NAME`).
"""

import ctypes
import os
import sys
import time

NCCL_FLOAT32 = 7
NCCL_SUM = 0
COUNT = 1 << 16


class UniqueId(ctypes.Structure):
    _fields_ = [("internal", ctypes.c_char * 128)]


class Dim3(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint), ("y", ctypes.c_uint), ("z", ctypes.c_uint)]


def check(code, what):
    if code != 0:
        raise RuntimeError(f"{what} failed with error {code}")


def option(name, default):
    return float(sys.argv[sys.argv.index(name) + 1]) if name in sys.argv else default


def load_input(rank, late_rank, late_s):
    if rank == late_rank:
        time.sleep(late_s)  # cw-line: late-input


def hang_reading_input():
    read_end, _ = os.pipe()
    os.read(read_end, 1)  # cw-line: hang


def main():
    folder = os.environ["CAUSEWAY_FAKECUDA_DIR"]
    cudart = ctypes.CDLL(os.path.join(folder, "libcudart.so.13"))
    nccl = ctypes.CDLL(os.path.join(folder, "libnccl.so.2"))
    rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    unique_id = UniqueId()
    unique_id.internal = bytes.fromhex(os.environ["CAUSEWAY_NCCL_ID"])
    steps = int(option("--steps", 50))
    late_rank, late_s = int(option("--late-rank", -1)), option("--late-ms", 0) / 1000
    hang_rank, hang_after = int(option("--hang-rank", -1)), int(option("--hang-after", 0))

    stream, gradients, comm = ctypes.c_void_p(), ctypes.c_void_p(), ctypes.c_void_p()
    check(cudart.cudaStreamCreate(ctypes.byref(stream)), "cudaStreamCreate")
    check(cudart.cudaMalloc(ctypes.byref(gradients), ctypes.c_size_t(COUNT * 4)), "cudaMalloc")
    check(nccl.ncclCommInitRank(ctypes.byref(comm), world, unique_id, rank), "ncclCommInitRank")
    kernel = ctypes.create_string_buffer(1)  # any host address is a kernel handle
    compute_ns = int(option("--compute-ms", 2.0) * 1e6)
    check(cudart.fakecudaSetKernelDuration(kernel, ctypes.c_ulonglong(compute_ns)), "fakecudaSetKernelDuration")
    start = time.monotonic()
    for step in range(steps):
        if rank == hang_rank and step == hang_after:
            hang_reading_input()
        load_input(rank, late_rank, late_s)
        check(cudart.cudaLaunchKernel(kernel, Dim3(1, 1, 1), Dim3(1, 1, 1), None, ctypes.c_size_t(0), stream), "cudaLaunchKernel")
        check(nccl.ncclAllReduce(gradients, gradients, ctypes.c_size_t(COUNT), NCCL_FLOAT32, NCCL_SUM, comm, stream), "ncclAllReduce")  # cw-line: all-reduce
        check(cudart.cudaStreamSynchronize(stream), "cudaStreamSynchronize")  # cw-line: sync
    elapsed = time.monotonic() - start
    check(nccl.ncclCommDestroy(comm), "ncclCommDestroy")
    print(f"rank={rank} steps={steps} elapsed_s={elapsed:.3f} steps_per_s={steps / elapsed:.2f}", flush=True)


if __name__ == "__main__":
    main()
