#pragma once
// One description of an output's shape, read two ways. Each output struct has a
//
//     template <class V> void describe(V& v, const T& value)
//
// (report/shapes/<output>.hpp) that names its fields in order, with their descriptions and, for a
// string that takes a fixed set of values, those values. `write_json` walks it with the value to
// write the JSON; `output_schema` walks it with a default-constructed value and writes the JSON
// Schema from the C++ field types (schemas/tools/*.output.json, by causeway-schemas):
//
//     integer types -> integer, double -> number, bool -> boolean, std::string -> string,
//     Number (an integer or a real) -> number, std::optional<T> -> [T's type, "null"] (or,
//     for a field present only when set, T's type), std::vector<T> -> array of T,
//     std::map<std::string, T> -> object with any names, each a T (additionalProperties),
//     a struct with a describe() -> object with its properties, required unless a field is
//     present only when not empty or only when set (FieldInfo::presence) or belongs to a group
//     of fields that come and go together (v.fields_when(present, [&] { ... })).
//
// A string that takes a fixed set of values lists them in FieldInfo::allowed_values, a name
// table: enum_names() builds one from the function that names an enum's values.
//
// A description belongs to the field, except the one an object has wherever it appears, which
// its describe() gives with v.object_description(...); a field's description replaces it. An
// object whose JSON never has other fields than those described says so with
// v.no_other_fields() (the schema's additionalProperties: false). A field's bounds the type
// cannot say (a list's most items, a count's least value) are FieldInfo::max_items and minimum.

#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "report/json.hpp"

namespace causeway::report {

// Whether a field is always in the JSON, only when its list has items, or only when its
// std::optional is set (so answers about traces without that data keep their shape); the schema
// does not require the latter two.
enum class Presence { kAlways, kWhenNotEmpty, kWhenPresent };

// A number that is a count (integer) or a measure (real), e.g. a recommendation's parameter.
using Number = std::variant<std::int64_t, double>;

// The names of an enum's values from the first to kLast (the enum's alias of its last value), by
// the function that names each one: a field's allowed_values from the one place that names them.
template <auto kLast>
std::array<const char*, static_cast<std::size_t>(kLast) + 1> enum_names(
    const char* (*name_of)(decltype(kLast))) {
    static_assert(std::is_enum_v<decltype(kLast)>, "kLast is the enum's alias of its last value");
    std::array<const char*, static_cast<std::size_t>(kLast) + 1> names{};
    for (std::size_t i = 0; i < names.size(); ++i) {
        names[i] = name_of(static_cast<decltype(kLast)>(i));
    }
    return names;
}

// What a field says about itself besides its name and type.
struct FieldInfo {
    std::string_view description{};
    std::span<const char* const> allowed_values{};  // a string's fixed set of values (enum)
    std::string_view item_description{};            // a list's: what each of its items is
    Presence presence = Presence::kAlways;
    std::optional<std::size_t> max_items{};  // a list's: at most this many items (maxItems)
    std::optional<std::int64_t> minimum{};   // a number's least value (minimum)
};

// A value whose JSON and schema are written by hand, not from fields (an SQL cell: one of several
// types): found by argument-dependent lookup as value_json(const T&) and value_schema(ShapeOf<T>).
template <class T>
struct ShapeOf {};

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};

template <class T>
struct IsNameMap : std::false_type {};
template <class T>
struct IsNameMap<std::map<std::string, T>> : std::true_type {};

// Writes the JSON of a described value: every field, in the names its describe() gives.
class JsonWriter {
  public:
    template <class T>
    void field(std::string_view name, const T& value, const FieldInfo& info = {}) {
        if constexpr (IsVector<T>::value) {
            if (info.presence == Presence::kWhenNotEmpty && value.empty()) {
                return;
            }
        }
        if constexpr (IsOptional<T>::value) {
            if (info.presence == Presence::kWhenPresent && !value) {
                return;
            }
        }
        out_[std::string(name)] = write_json(value);
    }
    void object_description(std::string_view /*description*/) {}
    void no_other_fields() {}
    // Fields that come and go together: `write_fields` names them (v.field(...)), written only
    // when `present`.
    template <class WriteFields>
    void fields_when(bool present, WriteFields write_fields) {
        if (present) {
            write_fields();
        }
    }

    nlohmann::json take() { return std::move(out_); }

    template <class T>
    static nlohmann::json write_json(const T& value) {
        if constexpr (IsOptional<T>::value) {
            return value ? write_json(*value) : nlohmann::json(nullptr);
        } else if constexpr (IsVector<T>::value) {
            nlohmann::json items = nlohmann::json::array();
            for (const auto& item : value) {
                items.push_back(write_json(item));
            }
            return items;
        } else if constexpr (IsNameMap<T>::value) {
            nlohmann::json object = nlohmann::json::object();
            for (const auto& [name, item] : value) {
                object[name] = write_json(item);
            }
            return object;
        } else if constexpr (std::is_same_v<T, Number>) {
            return std::visit([](auto number) { return nlohmann::json(number); }, value);
        } else if constexpr (requires { value_json(value); }) {
            return value_json(value);
        } else if constexpr (std::is_arithmetic_v<T> || std::is_convertible_v<T, std::string>) {
            return nlohmann::json(value);
        } else {
            JsonWriter writer;
            describe(writer, value);
            return writer.take();
        }
    }

  private:
    nlohmann::json out_ = nlohmann::json::object();
};

template <class T>
nlohmann::json write_json(const T& value) {
    return JsonWriter::write_json(value);
}

// Writes the JSON Schema of a described type. Keys keep the order they are written in (the
// committed schema files are read by people).
class SchemaWriter {
  public:
    using Schema = nlohmann::ordered_json;

    template <class T>
    void field(std::string_view name, const T& /*value*/, const FieldInfo& info = {}) {
        Schema schema = field_schema_of<T>(info.presence);
        if (!info.item_description.empty()) {
            schema["items"]["description"] = info.item_description;
        }
        if (!info.allowed_values.empty()) {
            schema["enum"] = Schema::array();
            for (const char* value : info.allowed_values) {
                schema["enum"].push_back(value);
            }
            if (schema["type"].is_array()) {
                schema["enum"].push_back(nullptr);  // a nullable field's other value
            }
        }
        if (info.max_items) {
            schema["maxItems"] = *info.max_items;
        }
        if (info.minimum) {
            schema["minimum"] = *info.minimum;
        }
        if (!info.description.empty()) {
            schema["description"] = info.description;
        }
        properties_[std::string(name)] = std::move(schema);
        if (info.presence == Presence::kAlways && !in_fields_when_) {
            required_.push_back(name);
        }
    }
    void object_description(std::string_view description) { description_ = description; }
    void no_other_fields() { no_other_fields_ = true; }
    // The fields are in the schema, not required.
    template <class WriteFields>
    void fields_when(bool /*present*/, WriteFields write_fields) {
        const bool outer = in_fields_when_;
        in_fields_when_ = true;
        write_fields();
        in_fields_when_ = outer;
    }

    template <class T>
    static Schema schema_of() {
        if constexpr (IsOptional<T>::value) {
            Schema schema = schema_of<typename T::value_type>();
            schema["type"] = Schema::array({schema["type"], "null"});
            return schema;
        } else if constexpr (IsVector<T>::value) {
            return {{"type", "array"}, {"items", schema_of<typename T::value_type>()}};
        } else if constexpr (IsNameMap<T>::value) {
            return {{"type", "object"},
                    {"additionalProperties", schema_of<typename T::mapped_type>()}};
        } else if constexpr (std::is_same_v<T, Number>) {
            return {{"type", "number"}};
        } else if constexpr (requires { value_schema(ShapeOf<T>{}); }) {
            return value_schema(ShapeOf<T>{});
        } else if constexpr (std::is_same_v<T, bool>) {
            return {{"type", "boolean"}};
        } else if constexpr (std::is_integral_v<T>) {
            return {{"type", "integer"}};
        } else if constexpr (std::is_floating_point_v<T>) {
            return {{"type", "number"}};
        } else if constexpr (std::is_same_v<T, std::string>) {
            return {{"type", "string"}};
        } else {
            SchemaWriter writer;
            describe(writer, T{});
            return writer.object();
        }
    }

  private:
    // A field present only when set is never null where it is present.
    template <class T>
    static Schema field_schema_of(Presence presence) {
        if constexpr (IsOptional<T>::value) {
            if (presence == Presence::kWhenPresent) {
                return schema_of<typename T::value_type>();
            }
        }
        return schema_of<T>();
    }

    Schema object() const {
        Schema schema = {{"type", "object"}, {"properties", properties_}, {"required", required_}};
        if (no_other_fields_) {
            schema["additionalProperties"] = false;
        }
        if (!description_.empty()) {
            schema["description"] = description_;
        }
        return schema;
    }

    Schema properties_ = Schema::object();
    std::vector<std::string_view> required_{};
    std::string_view description_{};
    bool no_other_fields_ = false;  // additionalProperties: false
    bool in_fields_when_ = false;   // the fields being written come and go together
};

// The JSON Schema of what write_json writes for a T.
template <class T>
nlohmann::ordered_json output_schema() {
    return SchemaWriter::schema_of<T>();
}

}  // namespace causeway::report
