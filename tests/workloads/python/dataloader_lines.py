"""A trainer whose DataLoader workers take its CPU, for the Python-frame test of competitors: more
workers than CPUs, each spending its time in pure-Python work inside Dataset.__getitem__ (the
line marked `# cw-line: getitem`), while the main thread drives the fake CUDA runtime through
ctypes once per batch. Runs until stdin is closed, so the test decides when it has seen enough.
Needs Debian's python3 with python3-torch; the runtime is libcudart.so.13 in
$CAUSEWAY_FAKECUDA_DIR."""

import ctypes
import os
import sys

from stop_signal import stdin_closed

import torch
from torch.utils.data import DataLoader, Dataset


class PythonWorkDataset(Dataset):
    """Samples that cost pure-Python work in the worker (no torch op releases the GIL there)."""

    def __len__(self):
        return 1 << 30

    def __getitem__(self, index):
        total = sum(i * i for i in range(20000))  # cw-line: getitem
        return torch.tensor([float(total % 7), float(index % 5)])



def main():
    workers = 2 * os.cpu_count() + 2
    batches = iter(DataLoader(PythonWorkDataset(), batch_size=4, num_workers=workers))
    next(batches)  # the workers are forked before the runtime is loaded, as frameworks do
    # Only after the fork: a worker closes its stdin at start, which waits for the buffer's lock
    # that a reading thread would hold forever.
    closed = stdin_closed()
    cudart = ctypes.CDLL(os.path.join(os.environ["CAUSEWAY_FAKECUDA_DIR"], "libcudart.so.13"))
    print("ready", flush=True)
    while not closed.is_set():
        next(batches)
        if cudart.cudaStreamSynchronize(None) != 0:  # cw-line: train-sync
            sys.exit("cudaStreamSynchronize failed")


if __name__ == "__main__":
    main()
