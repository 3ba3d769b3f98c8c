// report/json.hpp: an enum of the layers below cannot become JSON without its name function.
#include <catch2/catch.hpp>

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/diagnose/process_roles.hpp"
#include "report/json.hpp"
#include "tracedb/data_quality_counters.hpp"

namespace {

using causeway::analysis::Confidence;
using causeway::analysis::Role;
using causeway::tracedb::DataQualityCounter;

// Checked by the compiler; the test case states the rule where the suite lists it.
static_assert(!std::is_constructible_v<nlohmann::json, Role>);
static_assert(!std::is_constructible_v<nlohmann::json, Confidence>);
static_assert(!std::is_constructible_v<nlohmann::json, DataQualityCounter>);
static_assert(!std::is_constructible_v<nlohmann::ordered_json, Role>);
// Numbers and names still are.
static_assert(std::is_constructible_v<nlohmann::json, std::int64_t>);
static_assert(std::is_constructible_v<nlohmann::json, const char*>);

TEST_CASE("an analysis enum is written by its name, never as an integer") {
    nlohmann::json role = causeway::analysis::role_name(Role::kDataLoaderWorker);
    CHECK(role == "dataloader_worker");
}

}  // namespace
