// Fleet pieces that need no server: RowBinary both ways, Native blocks, the ClickHouse schema
// derived from the trace schema, and the fleet JSON against the get_fleet_overview output schema.
#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>

#include "fleet/native_block.hpp"
#include "fleet/push_tables.hpp"
#include "fleet/row_binary.hpp"
#include "fleet/table_pusher.hpp"
#include "fleet/thread_call_summary.hpp"
#include "fleet/trace_tables.hpp"
#include "report/fleet_json.hpp"
#include "report/shapes/fleet.hpp"
#include "server/tools/schema_check.hpp"
#include "tracedb/schema.hpp"

using namespace causeway::fleet;

TEST_CASE("RowBinary values read back as written", "[fleet][unit]") {
    RowBinaryWriter out;
    out.int64(-5);
    out.uint64(1ULL << 63);
    out.float64(2.5);
    out.string(std::string(300, 'x'));  // a length that takes two LEB128 bytes
    out.null_flag(true);
    out.string("");
    RowBinaryReader in(out.bytes(), "test");
    CHECK(in.int64().value() == -5);
    CHECK(in.uint64().value() == (1ULL << 63));
    CHECK(in.float64().value() == 2.5);
    CHECK(in.string().value() == std::string(300, 'x'));
    CHECK(in.null_flag().value());
    CHECK(in.string().value().empty());
    CHECK(in.at_end());
}

TEST_CASE("a RowBinary answer cut in a row is an error naming what was read", "[fleet][unit]") {
    RowBinaryWriter out;
    out.string("node-1");
    std::string cut = out.bytes().substr(0, 3);
    RowBinaryReader in(cut, "the nodes of job j");
    auto value = in.string();
    REQUIRE_FALSE(value);
    CHECK(value.error().message.find("the nodes of job j") != std::string::npos);
    RowBinaryReader empty("", "x");
    CHECK_FALSE(empty.int64());
}

TEST_CASE("a Native block holds each column's values together, NULLs in a map before them",
          "[fleet][unit]") {
    NativeBlockWriter block({{"n", NativeType::kInt64, true},
                             {"s", NativeType::kString, false},
                             {"u", NativeType::kUInt64, false},
                             {"f", NativeType::kFloat64, false},
                             {"job", NativeType::kString, false}});
    block.repeat_string(4, "j1");
    block.null(0);
    block.string(1, "ab");
    block.uint64(2, 7);
    block.float64(3, 1.5);
    block.end_row();
    block.int64(0, -2);
    block.string(1, std::string(300, 'x'));  // a length that takes two LEB128 bytes
    block.uint64(2, 1ULL << 63);
    block.float64(3, 0);
    block.end_row();
    RowBinaryWriter expected;
    expected.uint8(5);  // columns
    expected.uint8(2);  // rows
    expected.string("n");
    expected.string("Nullable(Int64)");
    expected.uint8(1);  // row 1 is NULL
    expected.uint8(0);
    expected.int64(0);  // under the NULL
    expected.int64(-2);
    expected.string("s");
    expected.string("String");
    expected.string("ab");
    expected.string(std::string(300, 'x'));
    expected.string("u");
    expected.string("UInt64");
    expected.uint64(7);
    expected.uint64(1ULL << 63);
    expected.string("f");
    expected.string("Float64");
    expected.float64(1.5);
    expected.float64(0);
    expected.string("job");
    expected.string("String");
    expected.string("j1");
    expected.string("j1");
    std::string taken = "a buffer used before";
    REQUIRE(block.take({}, taken));
    CHECK(taken == expected.bytes());
    CHECK(block.rows() == 0);

    // The writer starts the next block empty, and writes its rows in the order asked.
    const std::vector<std::int64_t> numbers{10, 11, 12};
    for (std::size_t row = 0; row < 3; ++row) {
        row == 1 ? block.null(0) : block.int64(0, numbers[row]);
        block.string(1, std::string(row + 1, 'a'));
        block.uint64(2, row);
        block.float64(3, 0.5);
        block.end_row();
    }
    REQUIRE(block.take({2, 0, 1}, taken));
    RowBinaryWriter reordered;
    reordered.uint8(5);
    reordered.uint8(3);
    reordered.string("n");
    reordered.string("Nullable(Int64)");
    for (std::uint8_t null : {0, 0, 1}) {
        reordered.uint8(null);
    }
    for (std::int64_t number : {12, 10, 0}) {
        reordered.int64(number);
    }
    reordered.string("s");
    reordered.string("String");
    for (const char* text : {"aaa", "a", "aa"}) {
        reordered.string(text);
    }
    reordered.string("u");
    reordered.string("UInt64");
    for (std::uint64_t row : {2, 0, 1}) {
        reordered.uint64(row);
    }
    reordered.string("f");
    reordered.string("Float64");
    for (int row = 0; row < 3; ++row) {
        reordered.float64(0.5);
    }
    reordered.string("job");
    reordered.string("String");
    for (int row = 0; row < 3; ++row) {
        reordered.string("j1");
    }
    CHECK(taken == reordered.bytes());

    // An order that is not one of each row, or a row missing a value, is an error, not a block.
    for (std::size_t row = 0; row < 2; ++row) {
        block.int64(0, 1);
        block.string(1, "");
        block.uint64(2, 1);
        block.float64(3, 1);
        block.end_row();
    }
    auto twice = block.take({1, 1}, taken);
    REQUIRE_FALSE(twice);
    CHECK(twice.error().message == "the order of a Native block's rows names row 1 of 2 twice");
    auto short_order = block.take({1}, taken);
    REQUIRE_FALSE(short_order);
    CHECK(short_order.error().message == "the order of a Native block's rows names 1 of its 2");
    REQUIRE(block.take({}, taken));
    block.null(0);
    block.string(1, "");
    block.uint64(2, 1);
    block.end_row();
    auto uneven = block.take({}, taken);
    REQUIRE_FALSE(uneven);
    CHECK(uneven.error().message == "column f of a Native block holds 0 values for 1 rows");
}

TEST_CASE("a block's rows go in (thread, time) order, in runs or not, with few threads or many",
          "[fleet][unit]") {
    // The order a sort of every key gives.
    auto sorted_rows = [](std::vector<SortKey> keys) {
        std::sort(keys.begin(), keys.end());
        std::vector<std::uint32_t> rows;
        for (const SortKey& key : keys) {
            rows.push_back(key.row);
        }
        return rows;
    };
    for (std::int64_t threads : {1, 3, 300}) {
        INFO(threads << " threads");
        std::vector<SortKey> keys;
        std::uint64_t state = 42;
        for (std::uint32_t row = 0; row < 5000; ++row) {
            state = state * 6364136223846793005ULL + 1442695040888963407ULL;
            const auto thread = -5 + static_cast<std::int64_t>((state >> 33) % threads);
            // In time order but for one call in ten, and ties between threads.
            const auto ts = static_cast<std::int64_t>(row / 2) - ((state >> 20) % 10 == 0 ? 7 : 0);
            keys.push_back({thread, ts, row});
        }
        const auto expected = sorted_rows(keys);
        CHECK(thread_time_order(keys) == expected);
    }
    std::vector<SortKey> none;
    CHECK(thread_time_order(none).empty());
}

TEST_CASE("calls summed per thread as ClickHouse sums them, ends wrapping as Int64 does",
          "[fleet][unit]") {
    ThreadCallSummary calls;
    calls.add(7, 100, 10);
    calls.add(7, 50, 5);  // earlier, ending earlier
    calls.add(3, 200, 1);
    calls.add(7, 120, 1);
    calls.add(9, std::numeric_limits<std::int64_t>::max(), 2);
    REQUIRE(calls.threads().size() == 3);
    const auto& seven = calls.threads().at(7);
    CHECK(seven.calls == 3);
    CHECK(seven.first_ts_ns == 50);
    CHECK(seven.last_end_ns == 121);
    CHECK(calls.threads().at(3).calls == 1);
    CHECK(calls.threads().at(9).last_end_ns == std::numeric_limits<std::int64_t>::min() + 1);
}

TEST_CASE("every trace table has a ClickHouse table, calls ordered per thread in time",
          "[fleet][unit]") {
    auto tables = trace_tables();
    REQUIRE(tables);
    auto find = [&](const std::string& name) {
        return std::find_if(tables->begin(), tables->end(),
                            [&](const TraceTable& t) { return t.name == name; });
    };
    for (const char* name : {"session", "process", "thread", "cuda_call", "offcpu", "meta",
                             "stack_python_frame", "data_quality", "event_count"}) {
        INFO(name);
        CHECK(find(name) != tables->end());
    }
    CHECK(find("cuda_call")->thread_time_ordered);
    CHECK(find("offcpu")->thread_time_ordered);
    CHECK_FALSE(find("process")->thread_time_ordered);
    CHECK(find("cuda_call")->cuda_calls);
    CHECK_FALSE(find("offcpu")->cuda_calls);
    auto statements = schema_statements("c1");
    REQUIRE(statements);
    // plus push, node_cause, node_rank, node_collective and node_thread
    CHECK(statements->local.size() == tables->size() + 5);
    // node_cause's columns added since its first version, where a table made before lacks them
    REQUIRE(statements->local_added.size() == 2);
    CHECK(statements->local_added[0].table == node_cause_table() + "_local");
    CHECK(statements->local_added[0].column.name == "speedup");
    CHECK(statements->distributed_added[0].table == node_cause_table());
    CHECK(statements->distributed.size() == statements->local.size());
    auto calls =
        std::find_if(statements->local.begin(), statements->local.end(), [](const std::string& s) {
            return s.find(" causeway_v" + std::to_string(causeway::tracedb::kSchemaVersion) +
                          "_cuda_call_local ") != std::string::npos;
        });
    REQUIRE(calls != statements->local.end());
    CHECK(calls->find("ORDER BY (job, node, thread_id, ts_ns)") != std::string::npos);
    CHECK(calls->find("bytes Nullable(Int64)") != std::string::npos);
    CHECK(calls->find("ts_ns Int64") != std::string::npos);
    auto single = schema_statements("");
    REQUIRE(single);
    CHECK(single->distributed.empty());
}

TEST_CASE("fleet JSON matches the get_fleet_overview output schema", "[fleet][unit]") {
    const nlohmann::json schema = causeway::report::output_schema<FleetOverview>();
    FleetOverview overview;
    overview.job = "train-1";
    const causeway::analysis::ContainerIdentity pod{
        .runtime = "containerd",
        .container_id = std::string(64, 'a'),
        .pod_uid = "7c1e0d9a-1111-2222-3333-444455556666",
        .qos_class = "Burstable"};
    const NodeCause device{.cause = "GPU-BOUND",
                           .lost_ns = 1'600'000'000,
                           .actor_kind = "device",
                           .actor = "GPU",
                           .container = pod};
    overview.nodes.push_back({"node-1", 0, 600, 2'000'000'000, 300, 600, "GPU-BOUND", {device}});
    overview.nodes.push_back({"node-2", -1, 0, 0, 0, 0, "INSUFFICIENT-DATA", {}});
    CHECK(causeway::server::schema_violation(schema, causeway::report::to_json(overview)) == "");
    overview.straggler = Straggler{.node = "node-1",
                                   .rank = 0,
                                   .loop_calls_per_s = 300,
                                   .cause = "GPU-BOUND",
                                   .cause_lost_ns = 1'600'000'000,
                                   .slower_than_median_pct = 0,
                                   .actor = "GPU",
                                   .container = pod};
    auto json = causeway::report::to_json(overview);
    CHECK(causeway::server::schema_violation(schema, json) == "");
    CHECK(json["nodes"][1]["rank"].is_null());
    CHECK(json["nodes"][0]["causes"][0]["container"]["pod_uid"] == pod.pod_uid);
    CHECK(json["straggler"]["container"]["qos_class"] == "Burstable");
    CHECK(json["straggler"]["basis"] == "slowest_loop");

    // A job whose ranks were aligned across its nodes, its straggler the rank others waited for.
    overview.communicators.push_back({.nranks = 2,
                                      .aligned = 10,
                                      .ranks = {{"node-1", 0, 11, 10, 0, 0, 30'000'000},
                                                {"node-2", 1, 12, 10, 10, 30'000'000, 0}},
                                      .late_rank = LateRank{.node = "node-2",
                                                            .rank = 1,
                                                            .arrived_last_share = 1,
                                                            .mean_late_ns = 3'000'000,
                                                            .span_ns = 60'000'000,
                                                            .late_ns = 30'000'000,
                                                            .job_speedup = 2}});
    overview.clock_reference = "node-1";
    overview.nodes[0].clock_offset_ns = 0;
    overview.straggler->basis = StragglerBasis::kOthersWaitForIt;
    overview.straggler->late = overview.communicators[0].late_rank;
    overview.straggler->cause_speedup = 1.9;
    json = causeway::report::to_json(overview);
    CHECK(causeway::server::schema_violation(schema, json) == "");
    CHECK(json["straggler"]["basis"] == "others_wait_for_it");
    CHECK(json["straggler"]["late"]["job_speedup"] == 2);
    CHECK(json["nodes"][1]["clock_offset_ns"].is_null());
}

TEST_CASE("SQL in a URL is percent-encoded but for RFC 3986's unreserved bytes",
          "[fleet][clickhouse]") {
    using causeway::fleet::percent_encode;
    CHECK(percent_encode("SELECT a_b-c.d~e") == "SELECT%20a_b-c.d~e");
    CHECK(percent_encode("x='1'&y=2#z") == "x%3D%271%27%26y%3D2%23z");
    CHECK(percent_encode("\xc3\xa9\n") == "%C3%A9%0A");
    CHECK(percent_encode("") == "");
}
