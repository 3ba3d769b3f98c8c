#pragma once
// Pushes a finished trace DB into ClickHouse as one node of a job.
//
// A push is one attempt: it writes a 'not complete' row to the push table, sends every trace
// table in RowBinary batches tagged with the attempt, sends the node's diagnosis (one row per
// causal chain), then writes a 'complete' row. Readers see only the latest attempt of a node,
// and only once it is complete, so an attempt that dies half way stays invisible and a retry
// (a new attempt) replaces it whole: nothing is half-visible and nothing is counted twice. A
// recording whose push is already complete is not sent again.

#include <cstdint>
#include <functional>
#include <string>

#include "analysis/diagnose/diagnosis.hpp"
#include "base/result.hpp"
#include "fleet/clickhouse_client.hpp"

namespace causeway::fleet {

// The words of the node's cause rows: fleet/ words nothing itself, the caller passes the report
// layer's (report/chain_text.hpp, report/verdict_text.hpp). Both are required.
struct CauseWords {
    std::function<std::string(const analysis::CausalChain&)> root_cause;     // a chain's row
    std::function<std::string(const analysis::Diagnosis&)> verdict_summary;  // a node without one
};

struct PushOptions {
    std::string job;
    std::string node;        // empty: the recording's session.host
    std::int64_t rank = -1;  // -1: not given
    std::string cluster;     // non-empty: write through Distributed tables of this cluster
    std::size_t batch_rows = 262'144;  // rows per INSERT request
    // Called after each batch the server accepted, with the number sent so far (progress, and
    // the tests' way of stopping a push at a known point).
    std::function<void(std::uint64_t batches_sent)> after_batch;
    CauseWords words;
};

struct PushSummary {
    std::string node;
    std::string push_id;
    std::uint64_t attempt = 0;
    std::int64_t rows = 0;        // trace rows stored by this attempt
    std::int64_t cuda_calls = 0;  // of which CUDA calls
    std::int64_t bytes_sent = 0;  // RowBinary bytes of those rows
    std::int64_t wire_bytes = 0;  // ... as sent (compressed: ClickHouseClient::compress_inserts)
    bool already_pushed = false;  // the same recording was complete already: nothing sent
};

// Creates the tables that are missing. `local_only` creates the MergeTree tables a shard holds
// (run it on every shard of the cluster, or use ON CLUSTER DDL of your own), and no
// Distributed table.
Status create_tables(const ClickHouseClient& client, const std::string& cluster, bool local_only);

Result<PushSummary> push_trace(const ClickHouseClient& client, const std::string& db_path,
                               const PushOptions& options);

}  // namespace causeway::fleet
