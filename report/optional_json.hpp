#pragma once
// An optional value as JSON: the value, or null where it is not known. Shared by the serialisers
// of the analysis structs.

#include <optional>

#include "report/json.hpp"

namespace causeway::report {

template <class T>
nlohmann::json optional_json(const std::optional<T>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

}  // namespace causeway::report
