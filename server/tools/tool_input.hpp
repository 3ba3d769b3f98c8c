#pragma once
// A tool's arguments, described once. Each tool's input struct has a
//
//     template <class V> void describe(V& v, In& in)
//
// that names its arguments in order with their descriptions and bounds. `input_schema<In>()`
// walks it with a default-constructed In and writes the tool's input JSON Schema (the defaults
// are the struct's own initial values); `read_input<In>(arguments)` walks it to fill an In from
// an argument object that already passed that schema (server/tools/schema_check.hpp). The two
// cannot drift apart: the schema clients read and the values the handler gets come from the same
// lines.
//
//     std::string -> a required string, std::optional<std::string> -> an optional string,
//     std::int64_t -> an optional integer with the struct's value as its default,
//     std::optional<std::int64_t> -> an optional integer without a default.
//
// Every input object refuses arguments it does not describe (additionalProperties: false).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

namespace causeway::server {

// What an argument says about itself besides its name and type.
struct InputInfo {
    std::string_view description{};
    std::optional<std::size_t> min_length{};  // a string's
    std::optional<std::size_t> max_length{};  // a string's
    std::optional<std::int64_t> minimum{};    // an integer's
    std::optional<std::int64_t> maximum{};    // an integer's
};

// Writes the input JSON Schema of a described struct. Keys keep the order they are written in
// (the committed schema files are read by people).
class InputSchemaWriter {
  public:
    using Schema = nlohmann::ordered_json;

    template <class T>
    void field(std::string_view name, const T& value, const InputInfo& info) {
        Schema schema;
        if constexpr (std::is_same_v<T, std::string> ||
                      std::is_same_v<T, std::optional<std::string>>) {
            schema["type"] = "string";
            if (info.min_length) {
                schema["minLength"] = *info.min_length;
            }
            schema["maxLength"] = info.max_length.value();  // every string argument is bounded
        } else {
            static_assert(
                std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::optional<std::int64_t>>,
                "an argument is a string or an integer, optional or not");
            schema["type"] = "integer";
            schema["minimum"] = info.minimum.value();
            schema["maximum"] = info.maximum.value();
            if constexpr (std::is_same_v<T, std::int64_t>) {
                schema["default"] = value;
            }
        }
        schema["description"] = info.description;
        properties_[std::string(name)] = std::move(schema);
        if constexpr (std::is_same_v<T, std::string>) {
            required_.emplace_back(name);
        }
    }

    Schema take() const {
        Schema schema = {{"type", "object"}, {"properties", properties_}};
        if (!required_.empty()) {
            schema["required"] = required_;
        }
        schema["additionalProperties"] = false;
        return schema;
    }

  private:
    Schema properties_ = Schema::object();
    std::vector<std::string> required_{};
};

// Fills a described struct from an argument object that passed its schema; an argument left out
// keeps the struct's initial value (its default).
class InputReader {
  public:
    explicit InputReader(const nlohmann::json& arguments) : arguments_(arguments) {}

    template <class T>
    void field(std::string_view name, T& value, const InputInfo& /*info*/) {
        auto found = arguments_.find(name);
        if (found == arguments_.end()) {
            return;
        }
        if constexpr (std::is_same_v<T, std::optional<std::string>> ||
                      std::is_same_v<T, std::optional<std::int64_t>>) {
            value = found->get<typename T::value_type>();
        } else {
            value = found->get<T>();
        }
    }

  private:
    const nlohmann::json& arguments_;
};

// The input JSON Schema of In.
template <class In>
nlohmann::ordered_json input_schema() {
    InputSchemaWriter writer;
    In defaults{};
    describe(writer, defaults);
    return writer.take();
}

// The arguments as an In; `arguments` passed input_schema<In>().
template <class In>
In read_input(const nlohmann::json& arguments) {
    In input{};
    InputReader reader(arguments);
    describe(reader, input);
    return input;
}

}  // namespace causeway::server
