#pragma once
// Scenario recordings measure scheduling, so unrelated load on a shared machine (a parallel build)
// would become every scenario's diagnosis. The e2e tests therefore run in a session of their own
// whose scheduler autogroup has nice -20; everything they start, the scenarios' own competitors
// included, shares that autogroup and competes as the scenario intends.

#include <string>

namespace causeway::testing {

// Moves this process into a new session and raises its autogroup's weight. Returns an empty
// string on success, otherwise why not (the tests then run sharing the machine).
std::string run_in_own_session();

}  // namespace causeway::testing
