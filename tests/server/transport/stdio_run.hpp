#pragma once
// The stdio transport driven in memory: for tests and the JSON-RPC fuzz target, which must see
// exactly what `causeway mcp` reads and writes.

#include <string>

#include "server/rpc/dispatcher.hpp"

namespace causeway::testing {

// Serves `input` (newline-delimited messages) with the stdio transport until its end and
// returns everything written to stdout.
std::string run_stdio(server::Dispatcher& dispatcher, std::string input);

}  // namespace causeway::testing
