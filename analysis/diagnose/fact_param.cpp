#include "analysis/diagnose/fact_param.hpp"

#include <algorithm>
#include <stdexcept>

namespace causeway::analysis {
namespace {

std::string_view type_name(FactType type) {
    switch (type) {
        case FactType::kCount:
            return "an integer";
        case FactType::kRatio:
            return "a ratio";
        case FactType::kText:
            return "text";
    }
    return "unknown";
}

}  // namespace

void check_fact_type(Fact fact, const FactParam::Value& value) {
    const FactType given = std::holds_alternative<std::int64_t>(value) ? FactType::kCount
                           : std::holds_alternative<double>(value)     ? FactType::kRatio
                                                                       : FactType::kText;
    if (given == fact_info(fact).type) {
        return;
    }
    throw std::logic_error("fact " + std::string(fact_name(fact)) + " holds " +
                           std::string(type_name(fact_info(fact).type)) + ", given " +
                           std::string(type_name(given)));
}

const FactParam* find_fact(const FactParams& params, Fact key) {
    auto it = std::find_if(params.begin(), params.end(),
                           [key](const FactParam& p) { return p.fact == key; });
    return it == params.end() ? nullptr : &*it;
}

}  // namespace causeway::analysis
