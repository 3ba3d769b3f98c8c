#pragma once
// `causeway import --from ingero IN OUT`: converts an Ingero trace DB into a new Causeway trace
// DB. IN is opened read-only and never modified; OUT must not exist and is removed again when
// the import fails half-way, so a failure leaves nothing behind.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "tracedb/records.hpp"

namespace causeway::interop {

struct IngeroImportOptions {
    // Import only this node of a multi-node recording; all nodes (merged) when absent.
    std::optional<std::string> node{};
};

struct ImportSummary {
    std::string ingero_version{};
    std::int64_t events_read = 0;
    std::int64_t cuda_calls = 0;
    std::int64_t offcpu_intervals = 0;
    std::int64_t processes = 0;
    std::int64_t threads = 0;
    std::int64_t stacks = 0;
    std::int64_t snapshots = 0;
    std::int64_t event_count_rows = 0;
    std::int64_t page_alloc_rows = 0;
    std::int64_t ingero_chains =
        0;  // Ingero's own conclusions, kept in meta 'ingero.causal_chains'
    // What could not be converted as it was, exactly as written to the data_quality table.
    std::vector<tracedb::DataQualityRecord> limits{};
};

Result<ImportSummary> import_ingero(const std::string& in_path, const std::string& out_path,
                                    const IngeroImportOptions& options);

}  // namespace causeway::interop
