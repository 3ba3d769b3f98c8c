"""A data-parallel step loop on a real GPU through PyTorch's NCCL process group: one rank
(torch.distributed with the nccl backend, world size 1, as a single-GPU machine runs one), so the
real libnccl that PyTorch loads from its pip wheel does the all-reduces. Each step queues matrix
products of --device-ms on the device, all-reduces the result and synchronises.

  torch_allreduce.py [--steps N] [--device-ms MS]

It prints how many all-reduces it issued (`all_reduce_calls=<n>`), what the collector's count of
ncclAllReduce calls is checked against, and last `throughput_steps_per_s=<x>`.
"""

import argparse
import os
import sys
import time

try:
    import torch
    import torch.distributed as dist
except ImportError as error:
    sys.exit(f"torch_allreduce.py: {error}: run it with a Python whose PyTorch is built for CUDA")


def layer_ms(work):
    """Device time of one matrix product on `work`, timed with CUDA events."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    for _ in range(3):
        work @ work
    start.record()
    for _ in range(20):
        work @ work
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / 20


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--device-ms", type=float, default=2.0, help="device time of one step (ms)")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        sys.exit("torch_allreduce.py: this PyTorch sees no CUDA GPU")
    os.environ.setdefault("MASTER_ADDR", "127.0.0.1")
    os.environ.setdefault("MASTER_PORT", "29517")
    device = torch.device("cuda", 0)
    torch.cuda.set_device(device)
    dist.init_process_group("nccl", rank=0, world_size=1, device_id=device)

    work = torch.randn(2048, 2048, device=device)
    layers = max(1, round(args.device_ms / layer_ms(work)))
    all_reduce_calls = 0
    started = time.monotonic()
    for _ in range(args.steps):
        gradient = work
        for _ in range(layers):
            gradient = torch.tanh(gradient @ work * 1e-3)
        dist.all_reduce(gradient)
        all_reduce_calls += 1
        torch.cuda.current_stream().synchronize()
    elapsed = time.monotonic() - started
    dist.destroy_process_group()
    print(f"nccl_version={'.'.join(map(str, torch.cuda.nccl.version()))}")
    print(f"all_reduce_calls={all_reduce_calls}")
    print(f"throughput_steps_per_s={args.steps / elapsed:.1f}")


if __name__ == "__main__":
    main()
