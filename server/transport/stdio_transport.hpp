#pragma once
// MCP over stdio: newline-delimited JSON-RPC messages on stdin, responses and notifications on
// stdout (protocol only; logs go to stderr). Requests run on a few worker threads so that a
// notifications/cancelled read while a long tool runs can stop it; notifications are handled at
// once on the reading thread.

#include <cstddef>
#include <cstdio>

#include "server/rpc/dispatcher.hpp"

namespace causeway::server {

// Largest message accepted on one line (bytes); a longer line is answered with an error and
// skipped, the connection stays usable.
inline constexpr std::size_t kMaxStdioMessageBytes = 4 * 1024 * 1024;

// Serves until `in` reaches end of file, then waits for the requests still running. Returns the
// process exit code (0).
int serve_stdio(Dispatcher& dispatcher, std::FILE* in, std::FILE* out);

}  // namespace causeway::server
