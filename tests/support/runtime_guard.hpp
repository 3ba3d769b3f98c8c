#pragma once
// Runtime tests attach real probes and need root (or CAP_BPF + CAP_PERFMON) and kernel BTF.
// Where those are missing they skip (exit code 77, which CTest reports as skipped), unless
// CAUSEWAY_REQUIRE_RUNTIME=1 is set, as CI does: then they fail and say why.

#include <string>

namespace causeway::testing {

// Empty when this process can load and attach BPF programs; otherwise what is missing.
std::string missing_runtime_capability();

// Call first in every runtime test case.
void require_runtime_or_skip();

}  // namespace causeway::testing
