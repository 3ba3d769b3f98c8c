#pragma once
// `record --push URL --job J ...`: once the recording is finished, hands the trace DB to
// `causeway push` (the CLI, which owns the ClickHouse client), so the collector itself carries
// no HTTP client and stays linkable as one static binary. The CLI is looked for next to the
// collector (an installed pair), then in the build tree (../cli/causeway), then on PATH.
// CLICKHOUSE_USER / CLICKHOUSE_PASSWORD reach it through the environment.

#include <cstdint>
#include <optional>
#include <string>

#include "base/result.hpp"

namespace causeway::collector {

struct PushRequest {
    std::string clickhouse;  // empty: no push
    std::string job;
    std::string node;  // empty: causeway push's default (the recorded host)
    std::optional<std::int64_t> rank;
    std::string cluster;
};

// Runs `causeway push` on `db_path` and waits for it. Its output goes to the collector's.
Status push_recording(const PushRequest& request, const std::string& db_path);

}  // namespace causeway::collector
