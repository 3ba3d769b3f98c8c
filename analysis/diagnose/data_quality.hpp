#pragma once
// What the trace lost or cannot show, for every result: the counters the recorder stored in
// data_quality plus what the analysis itself notices (an unfinished recording, no off-CPU
// intervals, an imported trace that holds only counts).

#include <vector>

#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

struct DataQualityReport {
    std::vector<DataQualityItem> items;  // data_loss first, then error, then info
    bool data_loss = false;              // any item of severity data_loss with a value > 0
    std::int64_t events_lost = 0;        // sum of data_loss values
};

DataQualityReport data_quality_report(const TraceModel& model);

}  // namespace causeway::analysis
