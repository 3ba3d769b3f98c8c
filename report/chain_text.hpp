#pragma once
// A causal chain in words: its symptom, root cause, effects and Python lines, worded from the
// chain's facts (class, actor, effects, competitors, facts). The one wording that the explain
// text, the JSON `symptom`/`root_cause`/`text`/`code` fields, the MCP tools' text and the fleet
// summary all use. A new verdict class gets its words here.

#include <string>

#include "analysis/diagnose/causal_chain.hpp"

namespace causeway::report {

// "cudaStreamSynchronize: 20 of 200 calls slow (> 1.20 ms); p99 40.0 ms = 350x p50 (114 us),
// max 52.0 ms"
// What the late rank of COLLECTIVE-WAIT did while late, from its `late_cause` fact (a cause kind's
// name, 'cuda_calls' or 'unattributed'): "its own work on a CPU between CUDA calls".
std::string late_cause_text(const std::string& cause);
std::string symptom_text(const analysis::CausalChain& chain);
// One or two sentences: who or what costs the loop its time, and how much.
std::string root_cause_text(const analysis::CausalChain& chain);
// "40.0 ms (20% of the loop) runnable but not running while they held its CPU"
std::string effect_text(const analysis::CausalChain& chain, const analysis::Effect& effect);
// "waits at train.py:57 in train_step; workers spend CPU at dataset.py:31 in __getitem__";
// empty when the chain has no Python line.
std::string code_summary(const analysis::CausalChain& chain);

// What a chain's critical_path.of says: the prediction is for removing the cause, or for a
// device twice as fast (GPU-BOUND).
inline constexpr const char* kCriticalPathOfNames[] = {"removing_cause", "device_twice_as_fast"};
// "removing this: about 1.8x (1.6-2.0x)"; "a device twice as fast: about 1.3x (1.2-1.4x)"
std::string speedup_text(const analysis::CriticalPathCost& cost);
// "1.20 s of the loop (45%); removing this: about 1.8x (1.6-2.0x)"
std::string critical_path_text(const analysis::CriticalPathCost& cost);

}  // namespace causeway::report
