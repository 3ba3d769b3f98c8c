"""A training loop on real PyTorch (Debian's python3-torch, CPU) whose train step drives the
project's fake CUDA runtime through ctypes, so that Causeway records it as it would a GPU job.

The runtime is loaded with dlopen at the first train step, after the DataLoader's workers were
forked, as a framework that initialises CUDA lazily does. Each step waits for the previous step's
device work (cudaStreamSynchronize, as a loop that reads the previous loss does), copies the batch
to the device (cudaMemcpyAsync from pageable memory: the calling thread stages it) and launches the
model's kernels (each preceded by a small host-side op, as eager PyTorch dispatches), so loading
the next batch overlaps the device's work. The last line printed is `throughput_batches_per_s=<x>`.

Variants (--variant), and the fix --fixed applies to each:
  workers      torch.utils.data.DataLoader(num_workers=--workers) over an in-memory
               TensorDataset, every sample fetched and collated by the workers (the seed story),
               each sample costing --per-sample-cpu-ns more CPU in __getitem__ (a Dataset
               written in Python: decoding, augmentation). Fixed: the same tensors indexed
               directly in the training process, no workers (the same as --variant direct).
  lock-helper  batches indexed directly; a helper thread named prep_locker holds the lock of
               statistics the loop reads every step while it computes them (GIL released), with
               CPUs to spare. Fixed: it computes outside the lock and only swaps the result in.
  gil-holder   batches indexed directly; a helper thread named metrics runs pure Python half
               of the time, in 40 ms rounds (it holds the GIL but for the interpreter's forced
               switches), so after each CUDA call the loop waits to take the GIL back. Fixed: the metrics run in a process of their
               own (multiprocessing), with the same work.
  slow-worker  one worker (num_workers=1) whose samples are expensive, on a machine with CPUs to
               spare: the trainer waits for its batches. Fixed: one worker per CPU.
"""

import argparse
import ctypes
import multiprocessing
import os
import sys
import threading
import time

try:
    import torch
    from torch.utils.data import DataLoader, Dataset, TensorDataset
except ImportError as error:
    sys.exit(f"torch_training.py: {error}: install Debian's python3-torch (scripts/install-deps.sh)")

CUDA_MEMCPY_HOST_TO_DEVICE = 1
PR_SET_NAME = 15


class Dim3(ctypes.Structure):
    _fields_ = [("x", ctypes.c_uint), ("y", ctypes.c_uint), ("z", ctypes.c_uint)]


class FakeDevice:
    """The device side of a train step, on libcudart.so.13 of the fake runtime."""

    KERNELS = 4  # kernel launches per step (few and long: the fake device thread wakes per op)

    def __init__(self, runtime_dir, batch_bytes, device_ms):
        self.cudart = ctypes.CDLL(os.path.join(runtime_dir, "libcudart.so.13"))
        self.batch_bytes = batch_bytes
        self.kernel = ctypes.create_string_buffer(1)  # any host address is a kernel handle
        self.check(self.cudart.fakecudaSetKernelDuration(self.kernel, ctypes.c_ulonglong(int(device_ms * 1e6 / self.KERNELS))), "fakecudaSetKernelDuration")
        self.device_input = ctypes.c_void_p()
        self.check(self.cudart.cudaMalloc(ctypes.byref(self.device_input), ctypes.c_size_t(batch_bytes)), "cudaMalloc")
        self.activations = torch.randn(256)

    @staticmethod
    def check(code, what):
        if code != 0:
            raise RuntimeError(f"{what} failed with CUDA error {code}")

    def train_step(self, batch):
        # One step in flight, as a loop that reads the previous step's loss: wait for the previous
        # step's device work, then queue this one. Loading the next batch overlaps the device.
        self.check(self.cudart.cudaStreamSynchronize(None), "cudaStreamSynchronize")
        batch = batch.contiguous()
        nbytes = min(batch.numel() * batch.element_size(), self.batch_bytes)
        self.check(self.cudart.cudaMemcpyAsync(self.device_input, ctypes.c_void_p(batch.data_ptr()), ctypes.c_size_t(nbytes), CUDA_MEMCPY_HOST_TO_DEVICE, None), "cudaMemcpyAsync")
        grid, block = Dim3(1, 1, 1), Dim3(128, 1, 1)
        for _ in range(self.KERNELS):
            self.activations = torch.tanh(self.activations)  # the op's host-side dispatch
            self.check(self.cudart.cudaLaunchKernel(self.kernel, grid, block, None, ctypes.c_size_t(0), None), "cudaLaunchKernel")


class CudaDevice:
    """The device side of a train step on a real GPU, through PyTorch built for CUDA: the same
    step as FakeDevice's (wait for the previous step, copy the batch from pageable memory, queue
    the model's kernels), the model being layers of matrix products that take `device_ms` in all."""

    KERNELS = 4

    def __init__(self, batch, device_ms):
        self.cuda = torch.device("cuda")
        self.weights = torch.randn(batch.shape[1], batch.shape[1], device=self.cuda)
        self.work = torch.randn(2048, 2048, device=self.cuda)
        self.layers = max(1, round(device_ms / self.KERNELS / self.layer_ms()))

    def layer(self):
        self.work = torch.tanh(self.work @ self.work * 1e-3)

    def layer_ms(self):
        """Device time of one layer, timed with CUDA events."""
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        for _ in range(3):
            self.layer()
        start.record()
        for _ in range(20):
            self.layer()
        end.record()
        end.synchronize()
        return start.elapsed_time(end) / 20

    def train_step(self, batch):
        torch.cuda.current_stream().synchronize()
        activations = batch.to(self.cuda, non_blocking=True) @ self.weights
        for _ in range(self.KERNELS * self.layers):
            self.layer()
        self.loss = activations.sum() + self.work[0, 0]


class CostlySamples(TensorDataset):
    """A TensorDataset whose __getitem__ spends `cpu_ns` of the thread's CPU time per sample."""

    def __init__(self, features, labels, cpu_ns):
        super().__init__(features, labels)
        self.cpu_ns = cpu_ns

    def __getitem__(self, index):
        end = time.thread_time_ns() + self.cpu_ns
        while time.thread_time_ns() < end:
            pass
        return super().__getitem__(index)


class ExpensiveSamples(Dataset):
    """Rows of an in-memory tensor, each sample costing `sample_work` extra host-side ops."""

    def __init__(self, features, labels, sample_work):
        self.features, self.labels, self.sample_work = features, labels, sample_work

    def __len__(self):
        return len(self.features)

    def __getitem__(self, index):
        row = self.features[index]
        for _ in range(self.sample_work):
            row = torch.tanh(row * 1.0001)
        return row, self.labels[index]


def name_this_thread(name):
    libc = ctypes.CDLL(None)
    libc.prctl(PR_SET_NAME, ctypes.c_char_p(name.encode()), 0, 0, 0)


def loader_batches(dataset, args, workers):
    """Batches from a DataLoader, epoch after epoch."""
    loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=True, num_workers=workers, persistent_workers=workers > 0)
    while True:
        for features, _labels in loader:
            yield features


def direct_batches(features, args):
    """The fix for an in-memory dataset: index the tensor directly, one gather per batch."""
    while True:
        order = torch.randperm(len(features))
        for start in range(0, len(order) - args.batch_size + 1, args.batch_size):
            yield features[order[start:start + args.batch_size]]


class StatsRefresher(threading.Thread):
    """A helper thread named prep_locker that refreshes statistics the training loop reads every
    step, holding their lock while it computes them (torch releases the GIL inside each op, so
    only the lock blocks the loop). With compute_outside, it computes first and holds the lock
    only to swap the result in: the fix for a long critical section."""

    def __init__(self, hold_ms, compute_outside):
        super().__init__(daemon=True)
        self.lock, self.stop = threading.Lock(), threading.Event()
        self.compute_outside = compute_outside
        self.scratch = torch.randn(192, 192)
        self.stats = torch.ones(1)
        self.hold_ops = max(1, round(hold_ms / self.op_ms()))

    def op(self):
        self.scratch = torch.tanh(self.scratch @ self.scratch)

    def op_ms(self):
        """CPU time of one matrix product on this machine: the refresh computes as many as take
        --hold-ms, so that the lock is held as long on a fast CPU as on a slow one."""
        self.op()
        started = time.thread_time()
        for _ in range(10):
            self.op()
        return (time.thread_time() - started) * 1000 / 10

    def compute(self):
        for _ in range(self.hold_ops):
            self.op()
        return self.scratch.mean().reshape(1)

    def run(self):
        name_this_thread("prep_locker")
        while not self.stop.is_set():
            if self.compute_outside:
                fresh = self.compute()
                with self.lock:
                    self.stats = fresh
            else:
                with self.lock:
                    self.stats = self.compute()
            time.sleep(0.001)

    def read(self):
        with self.lock:
            return self.stats


METRICS_BURST_S = 0.04  # pure Python, then as long idle (waiting releases the GIL)


def summarise_metrics(stop):
    """Rounds of pure-Python work that never release the GIL by themselves (only the interpreter's
    switch interval, sys.getswitchinterval() = 5 ms, makes it hand the GIL over), each followed by
    as long a pause."""
    name_this_thread("metrics")
    history = list(range(2000))
    while not stop.wait(METRICS_BURST_S):
        end = time.monotonic() + METRICS_BURST_S
        while time.monotonic() < end:
            history = [value * 3 % 1009 for value in history]  # cw-line: metrics


def start_metrics(in_own_process):
    """The metrics helper: a thread of this process, or (the fix) a process of its own. Returns
    the function that stops it."""
    if in_own_process:
        stop = multiprocessing.Event()
        helper = multiprocessing.Process(target=summarise_metrics, args=(stop,), daemon=True)
    else:
        stop = threading.Event()
        helper = threading.Thread(target=summarise_metrics, args=(stop,), daemon=True)
    helper.start()

    def finish():
        stop.set()
        helper.join()
    return finish


def batches_for(args, features, labels):
    if args.variant in ("direct", "lock-helper", "gil-holder"):
        return direct_batches(features, args)
    if args.variant == "workers":
        dataset = CostlySamples(features, labels, args.per_sample_cpu_ns) if args.per_sample_cpu_ns else TensorDataset(features, labels)
        return loader_batches(dataset, args, args.workers)
    workers = os.cpu_count() if args.fixed else 1
    return loader_batches(ExpensiveSamples(features, labels, args.sample_work), args, workers)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", choices=["workers", "direct", "lock-helper", "gil-holder", "slow-worker"], default="workers")
    parser.add_argument("--fixed", action="store_true", help="apply the variant's fix (see above)")
    parser.add_argument("--workers", type=int, default=2 * os.cpu_count(), help="num_workers of the workers variant")
    parser.add_argument("--duration", type=float, default=3.0, help="seconds of training")
    parser.add_argument("--device-ms", type=float, default=6.0, help="device time of one step (ms)")
    parser.add_argument("--device-scale", type=float, default=1.0, help="the step's device time as a multiple of --device-ms (0.5: a device twice as fast)")
    parser.add_argument("--per-sample-cpu-ns", type=int, default=0, help="workers: CPU time __getitem__ spends per sample besides indexing (ns)")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--features", type=int, default=64)
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--sample-work", type=int, default=4, help="slow-worker: host ops per sample")
    parser.add_argument("--hold-ms", type=float, default=14.0, help="lock-helper: CPU time of the statistics computed under the lock (ms)")
    parser.add_argument("--device", choices=["fake", "cuda"], default="fake", help="fake: the fake runtime of --runtime-dir; cuda: a real GPU through PyTorch built for CUDA")
    parser.add_argument("--runtime-dir", default=os.environ.get("CAUSEWAY_FAKECUDA_DIR"), help="folder of the fake libcudart.so.13 (default: $CAUSEWAY_FAKECUDA_DIR)")
    args = parser.parse_args()
    if args.fixed and args.variant == "workers":
        args.variant = "direct"
    if args.device == "fake" and not args.runtime_dir:
        parser.error("--runtime-dir (or CAUSEWAY_FAKECUDA_DIR) must name the fake runtime's folder")

    torch.manual_seed(0)
    torch.set_num_threads(1)
    features = torch.randn(args.rows, args.features)
    labels = torch.randint(0, 10, (args.rows,))
    batches = batches_for(args, features, labels)
    refresher = None
    if args.variant == "lock-helper":
        refresher = StatsRefresher(args.hold_ms, compute_outside=args.fixed)
        refresher.start()
    stop_metrics = start_metrics(in_own_process=args.fixed) if args.variant == "gil-holder" else None

    device = None
    steps = 0
    started = time.monotonic()
    for batch in batches:
        if device is None:  # CUDA starts lazily, after the workers were forked
            device_ms = args.device_ms * args.device_scale
            if args.device == "cuda":
                device = CudaDevice(batch, device_ms)
            else:
                device = FakeDevice(args.runtime_dir, batch.numel() * batch.element_size(), device_ms)
            started = time.monotonic()
        if refresher is not None:
            batch = batch * refresher.read()
        device.train_step(batch)
        steps += 1
        if time.monotonic() - started >= args.duration:
            break
    elapsed = time.monotonic() - started
    if refresher is not None:
        # Joined, not left to die with the interpreter: a daemon thread still inside a torch op
        # while the interpreter tears down aborts the process ("terminate called without an
        # active exception").
        refresher.stop.set()
        refresher.join()
    if stop_metrics is not None:
        stop_metrics()
    batches.close()  # the DataLoader shuts its workers down and reaps them
    print(f"torch_training variant={args.variant}{' fixed' if args.fixed else ''} steps={steps} seconds={elapsed:.3f}")
    print(f"throughput_batches_per_s={steps / elapsed:.1f}", flush=True)


if __name__ == "__main__":
    main()
