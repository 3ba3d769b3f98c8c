#pragma once
// Whether this host has a usable NVIDIA GPU: the driver's libcuda.so.1 loads, initialises and
// reports at least one device. Tests that call the real CUDA runtime expect
// cudaErrorInsufficientDriver (35) without one and real results with one, so they ask first
// instead of assuming the machine they were written on.

namespace causeway::testing {

bool cuda_device_present();

}  // namespace causeway::testing
