#pragma once
// Ingero's stack_traces rows as stack frames. Ingero stores a JSON array per stack, innermost
// frame first, mixing native frames {"i": "0x7f..", "s": "cudaMalloc+0x1cb", "f": "libcudart.so"}
// and Python frames {"pf": "/path/model.py", "pfn": "forward", "pl": 150}; older rows may only
// have the raw instruction pointers (`ips`, a JSON array of hex strings).

#include <string>
#include <vector>

#include "base/result.hpp"
#include "tracedb/records.hpp"

namespace causeway::interop {

// Native frames keep address, module and symbol+offset. A Python frame has no address (0); its
// module is "file.py:line" and its symbol the function name. An error names what is malformed.
Result<std::vector<tracedb::StackFrameRecord>> parse_ingero_stack(const std::string& frames_json,
                                                                  const std::string& ips_json);

}  // namespace causeway::interop
