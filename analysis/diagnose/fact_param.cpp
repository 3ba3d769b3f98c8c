#include "analysis/diagnose/fact_param.hpp"

#include <algorithm>

namespace causeway::analysis {
namespace {

template <typename T>
T value_of(const FactParams& params, const std::string& name) {
    const FactParam* p = find_fact(params, name);
    return p && std::holds_alternative<T>(p->value) ? std::get<T>(p->value) : T{};
}

}  // namespace

const FactParam* find_fact(const FactParams& params, const std::string& name) {
    auto it = std::find_if(params.begin(), params.end(),
                           [&name](const FactParam& p) { return p.name == name; });
    return it == params.end() ? nullptr : &*it;
}

std::int64_t fact_count(const FactParams& params, const std::string& name) {
    return value_of<std::int64_t>(params, name);
}

double fact_ratio(const FactParams& params, const std::string& name) {
    return value_of<double>(params, name);
}

std::string fact_text(const FactParams& params, const std::string& name) {
    return value_of<std::string>(params, name);
}

}  // namespace causeway::analysis
