#pragma once
// The BPF ABI as user space sees it. The static_asserts pin the sizes the BPF compiler produced
// (clang -target bpf lays out fixed-width fields the same way; a mismatch fails the build here,
// not the recording) and that records can be copied out of the ring buffer as bytes.

#include <type_traits>

#include "bpf/causeway_abi.h"

namespace causeway::collector {

template <class T, unsigned long kSize>
constexpr bool abi_record_ok = std::is_trivially_copyable_v<T>&& std::is_standard_layout_v<T> &&
                               sizeof(T) == kSize;

static_assert(abi_record_ok<cw_cuda_call, 64>);
static_assert(abi_record_ok<cw_nccl_call, 96>);
static_assert(abi_record_ok<cw_offcpu, 96>);
static_assert(abi_record_ok<cw_sched_totals, 56>);
static_assert(abi_record_ok<cw_thread_sched, 144>);
static_assert(abi_record_ok<cw_life_event, 232>);
static_assert(abi_record_ok<cw_page_key, 16>);
static_assert(abi_record_ok<cw_page_value, 16>);
static_assert(abi_record_ok<cw_kernel_counters, 40>);
static_assert(abi_record_ok<cw_python_frame, 16>);
static_assert(abi_record_ok<cw_python_stack, 8 + 16 * CW_PY_MAX_FRAMES>);
static_assert(abi_record_ok<cw_python_process, 40>);
static_assert(abi_record_ok<cw_switch_stack, 40>);
static_assert(abi_record_ok<cw_python_counters, 64>);

}  // namespace causeway::collector
