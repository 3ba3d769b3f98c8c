// The facts a diagnosis rests on (analysis/diagnose/fact.hpp, fact_param.hpp): one name and one
// type per key, a value of another type refused where it is made. Reads by holder:
// declared_facts_test.cpp.
#include <catch2/catch.hpp>

#include <cctype>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "analysis/diagnose/fact_param.hpp"

using namespace causeway::analysis;

static_assert(std::is_same_v<FactValue<Fact::kSlowCalls>, std::int64_t>);
static_assert(std::is_same_v<FactValue<Fact::kPageableShare>, double>);
static_assert(std::is_same_v<FactValue<Fact::kLateCause>, std::string>);

TEST_CASE("every fact has one snake_case name of its own", "[facts]") {
    std::set<std::string_view> names;
    for (const FactInfo& info : kFacts) {
        INFO(info.name);
        CHECK(names.insert(info.name).second);
        CHECK(fact_name(info.fact) == info.name);
        REQUIRE_FALSE(info.name.empty());
        CHECK(std::islower(static_cast<unsigned char>(info.name.front())));
        for (const char c : info.name) {
            CHECK((std::islower(static_cast<unsigned char>(c)) ||
                   std::isdigit(static_cast<unsigned char>(c)) || c == '_'));
        }
    }
}

TEST_CASE("a fact is kept with its key's type, and find_fact finds it by key", "[facts]") {
    const FactParams params = {{Fact::kSlowCalls, 7},
                               {Fact::kPageableShare, 0.25},
                               {Fact::kLateCause, std::string("input_wait")}};
    REQUIRE(find_fact(params, Fact::kSlowCalls) != nullptr);
    CHECK(std::get<std::int64_t>(find_fact(params, Fact::kSlowCalls)->value) == 7);
    CHECK(std::get<double>(find_fact(params, Fact::kPageableShare)->value) == 0.25);
    CHECK(std::get<std::string>(find_fact(params, Fact::kLateCause)->value) == "input_wait");
    CHECK(find_fact(params, Fact::kCgroup) == nullptr);
}

TEST_CASE("a value of another type than its key's is refused, naming the fact", "[facts]") {
    CHECK_THROWS_WITH((FactParam{Fact::kPageableShare, 1}),
                      "fact pageable_share holds a ratio, given an integer");
    CHECK_THROWS_WITH((FactParam{Fact::kSlowCalls, 0.5}),
                      "fact slow_calls holds an integer, given a ratio");
    CHECK_THROWS_AS((FactParam{Fact::kCalls, std::string("many")}), std::logic_error);
    CHECK_THROWS_AS((FactParam{Fact::kOp, 3}), std::logic_error);
}
