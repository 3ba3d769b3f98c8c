#pragma once
// The MCP fixture trace (tests/server/fixture/fixture_trace.hpp), written into a fresh folder of
// /tmp and served with the real catalog, for the targets that drive the dispatcher. Built once per
// fuzzer process and never freed (the fixture's model and answers stay cached between inputs, as in
// a server); the folder is left behind: a fuzzer runs until it is killed.

#include <cstdlib>
#include <string>

#include "fuzz/fuzz_check.hpp"
#include "server/methods/catalog.hpp"
#include "server/rpc/dispatcher.hpp"
#include "server/tools/trace_set.hpp"
#include "tests/server/fixture/fixture_trace.hpp"

namespace causeway::fuzz {

inline server::Dispatcher* serve_fixture_trace(server::DispatcherLimits limits = {}) {
    char folder[] = "/tmp/causeway-fuzz-XXXXXX";
    require(mkdtemp(folder) != nullptr, "a temporary folder for the fixture trace");
    const std::string path = std::string(folder) + "/run.db";
    require(causeway::testing::write_fixture_trace(path).ok(), "the fixture trace is written");
    auto opened = server::TraceSet::open({path});
    require(opened.ok(), "the fixture trace opens");
    auto* traces = new server::TraceSet(std::move(opened).value());
    return new server::Dispatcher(server::make_causeway_catalog(), *traces, {.version = "fuzz"},
                                  limits);
}

}  // namespace causeway::fuzz
