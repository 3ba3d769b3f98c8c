#include "server/tools/schema_check.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>

namespace causeway::server {
namespace {

using nlohmann::json;

bool has_type(const json& value, const std::string& type) {
    if (type == "object")
        return value.is_object();
    if (type == "array")
        return value.is_array();
    if (type == "string")
        return value.is_string();
    if (type == "integer") {
        // 3.0 is an integer in JSON Schema; 2^53 bounds the doubles that hold one exactly.
        return value.is_number_integer() ||
               (value.is_number_float() && std::trunc(value.get<double>()) == value.get<double>() &&
                std::fabs(value.get<double>()) < 9007199254740992.0);
    }
    if (type == "number")
        return value.is_number();
    if (type == "boolean")
        return value.is_boolean();
    if (type == "null")
        return value.is_null();
    return false;
}

std::string json_type_name(const json& value) {
    if (value.is_number_integer())
        return "integer";
    if (value.is_number())
        return "number";
    return value.type_name();
}

std::string label(const std::string& where) {
    return where.empty() ? "arguments" : fmt::format("argument '{}'", where);
}

std::string check(const json& schema, const json& value, const std::string& where);

std::string check_type(const json& schema, const json& value, const std::string& where) {
    auto type = schema.find("type");
    if (type == schema.end()) {
        return {};
    }
    std::vector<std::string> allowed = type->is_array()
                                           ? type->get<std::vector<std::string>>()
                                           : std::vector<std::string>{type->get<std::string>()};
    for (const auto& t : allowed) {
        if (has_type(value, t)) {
            return {};
        }
    }
    return fmt::format("{} must be of type {} (got {})", label(where), fmt::join(allowed, " or "),
                       json_type_name(value));
}

std::string check_object(const json& schema, const json& value, const std::string& where) {
    const json properties = schema.value("properties", json::object());
    for (const auto& name : schema.value("required", json::array())) {
        if (!value.contains(name.get<std::string>())) {
            return fmt::format("{} is required",
                               label(where.empty() ? name.get<std::string>()
                                                   : where + "." + name.get<std::string>()));
        }
    }
    for (const auto& [key, item] : value.items()) {
        const std::string path = where.empty() ? key : where + "." + key;
        auto property = properties.find(key);
        if (property == properties.end()) {
            if (schema.value("additionalProperties", true) == false) {
                std::vector<std::string> known;
                for (const auto& [name, unused] : properties.items()) {
                    known.push_back(name);
                }
                return fmt::format(
                    "{} is not known; accepted: {}", label(path),
                    known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", ")));
            }
            continue;
        }
        if (auto problem = check(*property, item, path); !problem.empty()) {
            return problem;
        }
    }
    return {};
}

std::string check_bounds(const json& schema, const json& value, const std::string& where) {
    if (value.is_number()) {
        if (schema.contains("minimum") && value.get<double>() < schema["minimum"].get<double>()) {
            return fmt::format("{} must be at least {} (got {})", label(where),
                               schema["minimum"].dump(), value.dump());
        }
        if (schema.contains("maximum") && value.get<double>() > schema["maximum"].get<double>()) {
            return fmt::format("{} must be at most {} (got {})", label(where),
                               schema["maximum"].dump(), value.dump());
        }
    }
    if (value.is_string()) {
        const auto length = value.get_ref<const std::string&>().size();
        if (schema.contains("minLength") && length < schema["minLength"].get<std::size_t>()) {
            return fmt::format("{} must be at least {} characters long", label(where),
                               schema["minLength"].get<std::size_t>());
        }
        if (schema.contains("maxLength") && length > schema["maxLength"].get<std::size_t>()) {
            return fmt::format("{} must be at most {} characters long (got {})", label(where),
                               schema["maxLength"].get<std::size_t>(), length);
        }
    }
    if (value.is_array() && schema.contains("maxItems") &&
        value.size() > schema["maxItems"].get<std::size_t>()) {
        return fmt::format("{} must have at most {} items (got {})", label(where),
                           schema["maxItems"].get<std::size_t>(), value.size());
    }
    return {};
}

std::string check(const json& schema, const json& value, const std::string& where) {
    if (auto problem = check_type(schema, value, where); !problem.empty()) {
        return problem;
    }
    if (auto allowed = schema.find("enum"); allowed != schema.end()) {
        if (std::find(allowed->begin(), allowed->end(), value) == allowed->end()) {
            return fmt::format("{} must be one of {} (got {})", label(where), allowed->dump(),
                               value.dump(-1, ' ', false, json::error_handler_t::replace));
        }
    }
    if (auto problem = check_bounds(schema, value, where); !problem.empty()) {
        return problem;
    }
    if (value.is_object()) {
        return check_object(schema, value, where);
    }
    if (value.is_array() && schema.contains("items")) {
        for (std::size_t i = 0; i < value.size(); ++i) {
            if (auto problem = check(schema["items"], value[i], fmt::format("{}[{}]", where, i));
                !problem.empty()) {
                return problem;
            }
        }
    }
    return {};
}

}  // namespace

std::string schema_violation(const json& schema, const json& value) {
    return check(schema, value, "");
}

}  // namespace causeway::server
