// The table of data-quality counters: each stored (source, name) names one counter, the rows
// it makes take their severity from the table, and the map sizes in the descriptions are the
// BPF programs' own.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <utility>

#include "bpf/causeway_abi.h"
#include "tracedb/data_quality_counters.hpp"

using namespace causeway::tracedb;

TEST_CASE("every counter is found under its stored source and name, and only it") {
    std::set<std::pair<std::string, std::string>> names;
    for (const DataQualityCounterSpec& spec : data_quality_counters()) {
        CHECK(&counter_spec(spec.id) == &spec);
        CHECK(std::string(spec.description).size() > 20);
        if (spec.per_event) {
            CHECK_FALSE(find_counter(spec.source, spec.name).has_value());
            continue;
        }
        INFO(spec.source << "/" << spec.name);
        CHECK(names.emplace(spec.source, spec.name).second);
        CHECK(find_counter(spec.source, spec.name) == spec.id);
    }
    CHECK_FALSE(find_counter("cuda", "a_counter_of_a_newer_recorder").has_value());
    // The same name under another source is another counter.
    CHECK(find_counter("collector", "command_not_started") ==
          DataQualityCounter::kCommandNotStarted);
    CHECK(find_counter("analysis", "command_not_started") == DataQualityCounter::kCommandNeverRan);
}

TEST_CASE("a counter's row takes its severity from the table, info at zero") {
    DataQualityRecord lost = counter_record(DataQualityCounter::kCudaRingbufDrops, 3);
    CHECK(lost.source == "cuda");
    CHECK(lost.counter == "ringbuf_drops");
    CHECK(lost.severity == Severity::kDataLoss);
    CHECK(lost.description == counter_spec(DataQualityCounter::kCudaRingbufDrops).description);
    CHECK(counter_record(DataQualityCounter::kCudaRingbufDrops, 0).severity == Severity::kInfo);

    DataQualityRecord calls = event_counter_record(DataQualityCounter::kCallsCountsOnly, "cuda",
                                                   "cuda_malloc", 7, "7 calls not stored");
    CHECK(calls.source == "cuda");
    CHECK(calls.counter == "cuda_malloc_counts_only");
    CHECK(calls.severity == Severity::kDataLoss);
    CHECK(calls.description == "7 calls not stored");
}

TEST_CASE("descriptions state the BPF map sizes of the ABI header") {
    auto says = [](DataQualityCounter counter, long number) {
        return std::string(counter_spec(counter).description).find(std::to_string(number)) !=
               std::string::npos;
    };
    CHECK(says(DataQualityCounter::kSchedMapFull, CW_MAX_TRACED_THREADS));
    CHECK(says(DataQualityCounter::kLifecycleMapFull, CW_MAX_TRACED_PROCESSES));
    CHECK(says(DataQualityCounter::kPythonMapFull, CW_PY_MAX_STACKS));
    CHECK(says(DataQualityCounter::kPythonTruncated, CW_PY_MAX_FRAMES));
    CHECK(says(DataQualityCounter::kCudaEntriesLost, CW_MAX_NESTING));
}
