// Serving a folder: a *.db that cannot be served (a symlink loop, a file that is not SQLite) is
// skipped and reported, the rest is served; a file named on its own still has to open. Loaded
// models are cached within a byte budget, loaded from the server's start (warm_up), and not
// loaded for run_sql.
#include <catch2/catch.hpp>

#include <sqlite3.h>
#include <unistd.h>

#include <fstream>
#include <stop_token>

#include "server/methods/catalog.hpp"
#include "server/rpc/dispatcher.hpp"
#include "server/tools/trace_set.hpp"
#include "tests/server/fixture/fixture_trace.hpp"
#include "tests/support/temp_dir.hpp"
#include "tracedb/sqlite.hpp"

using causeway::server::TraceSet;
using causeway::testing::TempDir;
using nlohmann::json;

namespace {

// A folder with one good trace, a symlink loop and a text file, all named *.db.
struct MixedFolder {
    TempDir dir;
    MixedFolder() {
        REQUIRE(causeway::testing::write_fixture_trace(dir.file("run.db")).ok());
        REQUIRE(::symlink("loop.db", dir.file("loop.db").c_str()) == 0);
        std::ofstream(dir.file("notes.db")) << "not a database, just notes\n";
    }
};

// Loads (or finds cached) the model of the trace named `name`.
bool load_model(const TraceSet& set, const std::string& name) {
    auto trace = set.find(name);
    return trace && trace.value()->model().ok();
}

// The result of calling `tool` with `arguments` on a server of `traces`.
json call_tool(const TraceSet& traces, const std::string& tool, const json& arguments) {
    causeway::server::Dispatcher dispatcher(causeway::server::make_causeway_catalog(), traces,
                                            {.version = "test"});
    causeway::server::Session session;
    const causeway::server::Exchange exchange{session, {}, std::nullopt};
    auto response = dispatcher.handle({{"jsonrpc", "2.0"},
                                       {"id", 1},
                                       {"method", "tools/call"},
                                       {"params", {{"name", tool}, {"arguments", arguments}}}},
                                      exchange);
    REQUIRE(response);
    return (*response)["result"];
}

}  // namespace

TEST_CASE("a folder's symlink loop and non-SQLite *.db are skipped and reported") {
    MixedFolder folder;
    auto traces = TraceSet::open({folder.dir.path()});
    REQUIRE(traces.ok());
    CHECK(traces->names() == std::vector<std::string>{"run"});
    REQUIRE(traces->skipped().size() == 2);
    const std::string note = traces->skipped_note();
    CHECK(note.find("loop.db") != std::string::npos);
    CHECK(note.find("notes.db") != std::string::npos);
    // The tools' trace argument errors and the resources say so too.
    auto missing = traces->find(std::string("nope"));
    REQUIRE_FALSE(missing);
    CHECK(missing.error().message.find("notes.db") != std::string::npos);
    causeway::server::Dispatcher dispatcher(causeway::server::make_causeway_catalog(),
                                            traces.value(), {.version = "test"});
    causeway::server::Session session;
    const causeway::server::Exchange exchange{session, {}, std::nullopt};
    auto listing = dispatcher.handle({{"jsonrpc", "2.0"},
                                      {"id", 1},
                                      {"method", "resources/read"},
                                      {"params", {{"uri", "causeway://traces"}}}},
                                     exchange);
    REQUIRE(listing);
    json served = json::parse((*listing)["result"]["contents"][0]["text"].get<std::string>());
    CHECK(served["traces"].size() == 1);
    CHECK(served["skipped"].size() == 2);
    auto discover =
        dispatcher.handle({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "server/discover"}}, exchange);
    REQUIRE(discover);
    CHECK((*discover)["result"]["instructions"].get<std::string>().find("loop.db") !=
          std::string::npos);
}

TEST_CASE("a file named on its own must open, a folder with nothing servable is an error") {
    MixedFolder folder;
    auto named = TraceSet::open({folder.dir.file("notes.db")});
    REQUIRE_FALSE(named);
    CHECK(named.error().message.find("notes.db") != std::string::npos);
    REQUIRE(::unlink(folder.dir.file("run.db").c_str()) == 0);
    auto nothing = TraceSet::open({folder.dir.path()});
    REQUIRE_FALSE(nothing);
    CHECK(nothing.error().message.find("skipped") != std::string::npos);
}

TEST_CASE("loaded models stay within the byte budget, the least recently used going first") {
    TempDir dir;
    for (const char* name : {"a", "b", "c"}) {
        REQUIRE(causeway::testing::write_fixture_trace(dir.file(std::string(name) + ".db")).ok());
    }
    // What one fixture model costs, from a set that caches it.
    std::size_t one_model = 0;
    {
        auto probe = TraceSet::open({dir.file("a.db")});
        REQUIRE(probe);
        REQUIRE(load_model(*probe, "a"));
        one_model = probe->models().bytes();
        REQUIRE(one_model > 0);
    }
    auto set = TraceSet::open({dir.path()}, one_model * 2 + one_model / 2);
    REQUIRE(set);
    for (const char* name : {"a", "b", "c", "a"}) {
        REQUIRE(load_model(*set, name));
    }
    // Two fit: c and the a asked for last; b, least recently used, went.
    CHECK(set->models().entries() == 2);
    CHECK(set->models().bytes() <= one_model * 2 + one_model / 2);

    // A budget smaller than one model still keeps the model asked for last, alone.
    auto tight = TraceSet::open({dir.path()}, 1);
    REQUIRE(tight);
    for (const char* name : {"a", "b"}) {
        REQUIRE(load_model(*tight, name));
    }
    CHECK(tight->models().entries() == 1);
}

TEST_CASE("warming up loads and diagnoses the finished traces before any call, within the budget") {
    TempDir dir;
    for (const char* name : {"a", "b", "c"}) {
        REQUIRE(causeway::testing::write_fixture_trace(dir.file(std::string(name) + ".db")).ok());
    }
    auto roomy = TraceSet::open({dir.path()});
    REQUIRE(roomy);
    roomy->warm_up(std::stop_token{});
    CHECK(roomy->models().entries() == 3);
    // The chains from the diagnosis it made are those of a server that diagnoses on the call.
    auto cold = TraceSet::open({dir.path()});
    REQUIRE(cold);
    const json args = {{"trace", "b"}, {"limit", 20}};
    json warmed_chains = call_tool(*roomy, "get_causal_chains", args);
    CHECK(warmed_chains["isError"] == false);
    CHECK(warmed_chains == call_tool(*cold, "get_causal_chains", args));

    // A budget smaller than one model: the first is loaded and the rest are not tried.
    auto tight = TraceSet::open({dir.path()}, 1);
    REQUIRE(tight);
    tight->warm_up(std::stop_token{});
    CHECK(tight->models().entries() == 1);

    // Asked to stop before it starts, it loads nothing.
    auto stopped = TraceSet::open({dir.path()});
    REQUIRE(stopped);
    std::stop_source stop;
    stop.request_stop();
    stopped->warm_up(stop.get_token());
    CHECK(stopped->models().entries() == 0);
}

TEST_CASE("a trace still recording is read again on each call, and kept once it has ended") {
    TempDir dir;
    const std::string path = dir.file("live.db");
    REQUIRE(causeway::testing::write_fixture_trace(path).ok());
    auto writable = causeway::tracedb::Database::open(path, SQLITE_OPEN_READWRITE);
    REQUIRE(writable);
    REQUIRE(writable->exec("UPDATE session SET stop_ns = NULL").ok());
    auto set = TraceSet::open({path});
    REQUIRE(set);
    auto trace = set->find("live");
    REQUIRE(trace);
    set->warm_up(std::stop_token{});
    CHECK(set->models().entries() == 0);
    CHECK(trace.value()->model().ok());
    CHECK(set->models().entries() == 0);

    const std::string stop =
        "UPDATE session SET stop_ns = " + std::to_string(causeway::testing::kFixtureSeconds) +
        "000000000";
    REQUIRE(writable->exec(stop.c_str()).ok());
    set->warm_up(std::stop_token{});
    CHECK(set->models().entries() == 1);
    CHECK(trace.value()->finished());
}

TEST_CASE("run_sql answers from the trace DB without loading the trace's model") {
    TempDir dir;
    REQUIRE(causeway::testing::write_fixture_trace(dir.file("run.db")).ok());
    auto traces = TraceSet::open({dir.file("run.db")});
    REQUIRE(traces);
    json sql = call_tool(*traces, "run_sql", {{"sql", "SELECT count(*) FROM thread"}});
    CHECK(sql["isError"] == false);
    CHECK(traces->models().entries() == 0);
    json stats = call_tool(*traces, "get_trace_stats", json::object());
    CHECK(stats["isError"] == false);
    CHECK(traces->models().entries() == 1);
}
