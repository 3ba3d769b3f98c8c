#pragma once
// What loading a trace noticed about the file itself, as data-quality rows (source
// 'analysis') that every diagnosis shows: rows left out because their values are impossible,
// and how cuda_call was read when its pages could not be (with the reason, and an error when
// the file is damaged).

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/model/call_loader.hpp"
#include "analysis/model/plausible_values.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

// Rows of one table left out because a value cannot be.
struct LeftOutRows {
    LeftOutRows(tracedb::DataQualityCounter counter_id, const char* rows_name,
                const char* rule_text)
        : counter(counter_id), rows(rows_name), rule(rule_text) {}

    tracedb::DataQualityCounter counter;  // kImpossibleOffcpuIntervals
    const char* rows;                     // 'off-CPU intervals'
    const char* rule;                     // what a row must satisfy, in words
    std::int64_t count = 0;
    std::string first;  // the first one left out, as stored

    // Counts a row; `describe` gives its values and is called for the first one only.
    template <class Describe>
    void add(Describe describe) {
        if (count++ == 0) {
            first = describe();
        }
    }
};

// One data-quality row per table with rows left out.
void report_left_out(const std::vector<LeftOutRows>& tables, const PlausibleValues& plausible,
                     std::vector<DataQualityItem>& out);

// The data-quality rows of loading cuda_call: calls left out or kept with an unknown size, and
// the reason it was read with SQL (info; an error when the file is damaged).
void report_call_loading(const LoadedCalls& loaded, const PlausibleValues& plausible,
                         std::vector<DataQualityItem>& out);

}  // namespace causeway::analysis
