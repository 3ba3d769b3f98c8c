#pragma once
// A named value that a fact of the diagnosis rests on (a recommendation, a piece of evidence, a
// chain's symptom, the verdict): the report layer words the fact from these values, analysis/
// writes no sentence. Counts and durations are integers (durations in ns, named `*_ns`), shares
// are ratios 0..1 and rates doubles, names (an op, a thread) text.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace causeway::analysis {

struct FactParam {
    std::string name;
    std::variant<std::int64_t, double, std::string> value;
};
using FactParams = std::vector<FactParam>;

// The parameter `name`, or nullptr when `params` has none of that name.
const FactParam* find_fact(const FactParams& params, const std::string& name);
// Its value: 0 (or empty) when absent or of another type.
std::int64_t fact_count(const FactParams& params, const std::string& name);
double fact_ratio(const FactParams& params, const std::string& name);
std::string fact_text(const FactParams& params, const std::string& name);

}  // namespace causeway::analysis
