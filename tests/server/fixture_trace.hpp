#pragma once
// A small but realistic trace for the MCP tests, written with the real TraceWriter: a training
// process whose main thread copies, launches and synchronises in a loop, four DataLoader worker
// processes (pt_data_worker) on a 2-CPU machine preempting it inside its slow
// cudaStreamSynchronize calls, an outside competitor, blocked waits for batches, page
// allocations, 1 s snapshots, stacks, probes and data-quality counters. One name carries
// control and bidi characters, as a hostile traced program could.

#include <string>

#include "base/result.hpp"

namespace causeway::testing {

// Seconds of recording in the fixture (the session's stop_ns is set: a finished trace).
inline constexpr int kFixtureSeconds = 6;

Status write_fixture_trace(const std::string& path);

}  // namespace causeway::testing
