#include "analysis/model/load_findings.hpp"

namespace causeway::analysis {
namespace {

std::string describe_call(const CallExample& c) {
    return "thread_id " + std::to_string(c.thread_id) + ", op_id " + std::to_string(c.op_id) +
           ", ts_ns " + std::to_string(c.ts_ns) + ", dur_ns " + std::to_string(c.dur_ns) +
           ", bytes " + (c.bytes == -1 ? std::string("NULL") : std::to_string(c.bytes)) + ", ret " +
           std::to_string(c.ret) + ", stack_id " +
           (c.stack_id == -1 ? std::string("NULL") : std::to_string(c.stack_id));
}

}  // namespace

void report_left_out(const std::vector<LeftOutRows>& tables, const PlausibleValues& plausible,
                     std::vector<DataQualityItem>& out) {
    for (const LeftOutRows& table : tables) {
        if (table.count == 0) {
            continue;
        }
        out.push_back(analysis_finding(
            table.counter, table.count,
            std::to_string(table.count) + " " + table.rows +
                " hold impossible values and are left out of every number (" + table.rule +
                "; the session spans " + plausible.describe() + "); the first: " + table.first));
    }
}

void report_call_loading(const LoadedCalls& loaded, const PlausibleValues& plausible,
                         std::vector<DataQualityItem>& out) {
    LeftOutRows times{tracedb::DataQualityCounter::kImpossibleCudaCalls, "CUDA calls",
                      "a call must start and end inside the session and not end before it starts"};
    times.count = loaded.impossible_time;
    if (loaded.first_impossible_time) {
        times.first = describe_call(*loaded.first_impossible_time);
    }
    report_left_out({times}, plausible, out);
    if (loaded.impossible_values > 0) {
        out.push_back(analysis_finding(
            tracedb::DataQualityCounter::kImpossibleCudaCallValues, loaded.impossible_values,
            std::to_string(loaded.impossible_values) +
                " CUDA calls hold a value that cannot be (a size outside 0 .. 1 PiB, a "
                "stack id outside 0 .. 2^31-1, a return code beyond 32 bits): the calls "
                "are counted, that size or stack read as unknown, that return code as "
                "the nearest 32-bit one; the first: " +
                describe_call(*loaded.first_impossible_value)));
    }
    if (const auto& refused = loaded.read_with_sql_because) {
        bool damaged = refused->kind == tracedb::ScanRefusal::Kind::kDamaged;
        out.push_back(analysis_finding(
            damaged ? tracedb::DataQualityCounter::kDamagedFile
                    : tracedb::DataQualityCounter::kCudaCallReadWithSql,
            1,
            refused->reason +
                (damaged ? ". cuda_call was read with SQL instead, which returns what SQLite can "
                           "still read: numbers may be missing rows or hold corrupt values. "
                           "Re-record the trace or restore an intact copy."
                         : ". cuda_call was read with SQL instead: the same rows, read more "
                           "slowly.")));
    }
}

}  // namespace causeway::analysis
