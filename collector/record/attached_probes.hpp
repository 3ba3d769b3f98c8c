#pragma once
// The probes of a recording: each attach's outcome as a row of the probe table, a warning for
// what did not attach, the counts of what is missing (data quality), and each CUDA library
// attached once however often it is found.

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "base/result.hpp"
#include "collector/attach/bpf_programs.hpp"
#include "collector/discover/discovery.hpp"
#include "collector/events/data_quality.hpp"
#include "collector/record/record_options.hpp"
#include "tracedb/writer.hpp"

namespace causeway::collector {

class AttachedProbes {
  public:
    AttachedProbes(const RecordOptions& options, tracedb::TraceWriter& writer)
        : options_(options), writer_(writer) {}

    // Writes the outcome of one attach call's `probes`, warning about those that failed.
    Status put(const std::vector<tracedb::ProbeRecord>& probes);
    // Attaches the CUDA probes to `library`, unless a library of the same path already has them.
    Status attach_library(BpfPrograms& programs, const CudaLibrary& library);
    // Fills in the probe counts of `losses`.
    void count_missing(LossCounters& losses) const;

  private:
    const RecordOptions& options_;
    tracedb::TraceWriter& writer_;
    std::set<std::string> attached_libraries_;  // by path
    std::int64_t optional_missing_ = 0;
    std::int64_t required_missing_ = 0;
    std::int64_t symbols_not_exported_ = 0;  // each symbol once (its entry probe)
};

}  // namespace causeway::collector
