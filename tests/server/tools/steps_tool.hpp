#pragma once
// A catalog with one tool written for the protocol tests, "steps": it reports progress once per
// step (argument steps, default 3), logs at info and debug, and with wait_for_cancel waits (up to
// 10 s) until the client cancels it. `started` turns true when a call begins.

#include <atomic>

#include "server/methods/catalog.hpp"

namespace causeway::testing {

server::Catalog steps_catalog(std::atomic<bool>& started);

}  // namespace causeway::testing
