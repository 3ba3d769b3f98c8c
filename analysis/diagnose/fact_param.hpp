#pragma once
// A fact of the diagnosis (a recommendation, a piece of evidence, a chain's symptom, the verdict)
// and its value: the report layer words the fact from these values, analysis/ writes no
// sentence. Each key has one type (fact.hpp): counts and durations are integers (durations in
// ns), shares are ratios 0..1 and rates doubles, names (an op, a thread) text.

#include <concepts>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "analysis/diagnose/fact.hpp"

namespace causeway::analysis {

// A fact's value: a count, a ratio or text (FactType).
using FactParamValue = std::variant<std::int64_t, double, std::string>;

// Throws std::logic_error when `value` is not of the type of `fact`'s key: a programming error.
void check_fact_type(Fact fact, const FactParamValue& value);

struct FactParam {
    using Value = FactParamValue;

    // A value of another type than the key's is refused.
    template <typename V>
    FactParam(Fact key, V&& given) : fact(key), value(stored(std::forward<V>(given))) {
        check_fact_type(key, value);
    }

    Fact fact;
    Value value;

  private:
    template <typename V>
    static auto stored(V&& given) {
        using T = std::remove_cvref_t<V>;
        if constexpr (std::integral<T>) {
            return static_cast<std::int64_t>(given);
        } else if constexpr (std::floating_point<T>) {
            return static_cast<double>(given);
        } else {
            return std::string(std::forward<V>(given));
        }
    }
};
using FactParams = std::vector<FactParam>;

// The fact `key` among `params`, or nullptr when it is not there. report/ reads facts by their
// holder instead (declared_facts.hpp), which refuses a fact the holder's kind never has.
const FactParam* find_fact(const FactParams& params, Fact key);

}  // namespace causeway::analysis
