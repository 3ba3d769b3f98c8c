// prompts/list, prompts/get and completion/complete.
#include <fmt/format.h>

#include "server/rpc/method_call.hpp"
#include "server/rpc/sanitize.hpp"

namespace causeway::server {
namespace {

// Most completion values returned at once (the spec's limit).
constexpr std::size_t kMaxCompletionValues = 100;

const PromptSpec* find_prompt(const Catalog& catalog, const json& name) {
    if (!name.is_string()) {
        return nullptr;
    }
    for (const auto& prompt : catalog.prompts) {
        if (prompt.name == name.get<std::string>()) {
            return &prompt;
        }
    }
    return nullptr;
}

RpcError unknown_prompt(const Catalog& catalog, const json& name) {
    std::string names;
    for (const auto& prompt : catalog.prompts) {
        names += (names.empty() ? "" : ", ") + prompt.name;
    }
    return invalid_params(fmt::format(
        "unknown prompt {}; prompts: {}",
        sanitize_untrusted(name.dump(-1, ' ', false, json::error_handler_t::replace), 64), names));
}

json completion(std::vector<std::string> candidates, const std::string& prefix) {
    std::vector<std::string> values;
    for (auto& candidate : candidates) {
        if (candidate.rfind(prefix, 0) == 0) {
            values.push_back(std::move(candidate));
        }
    }
    const std::size_t total = values.size();
    if (values.size() > kMaxCompletionValues) {
        values.resize(kMaxCompletionValues);
    }
    return {
        {"completion", {{"values", values}, {"total", total}, {"hasMore", total > values.size()}}}};
}

MethodResult complete_prompt_argument(Call& call, const json& ref, const std::string& argument,
                                      const std::string& prefix) {
    const PromptSpec* prompt = find_prompt(call.catalog, ref.value("name", json()));
    if (prompt == nullptr) {
        return unknown_prompt(call.catalog, ref.value("name", json()));
    }
    for (const auto& spec : prompt->arguments) {
        if (spec.name == argument) {
            return completion(
                spec.suggestions ? spec.suggestions(call.traces) : std::vector<std::string>{},
                prefix);
        }
    }
    return invalid_params(fmt::format("prompt {} has no argument '{}'", prompt->name,
                                      sanitize_untrusted(argument, 64)));
}

MethodResult complete_resource_argument(Call& call, const json& ref, const std::string& argument,
                                        const std::string& prefix) {
    const std::string uri = ref.value("uri", "");
    for (const auto& resource : call.catalog.resources) {
        if (resource.uri_template == uri && uri.find("{trace}") != std::string::npos) {
            return completion(
                argument == "trace" ? call.traces.names() : std::vector<std::string>{}, prefix);
        }
    }
    return invalid_params(fmt::format("no resource template is {}; see resources/templates/list",
                                      sanitize_untrusted(uri, 128)));
}

}  // namespace

MethodResult method_prompts_list(Call& call) {
    if (auto error = check_no_cursor(call.params)) {
        return *error;
    }
    json prompts = json::array();
    for (const auto& prompt : call.catalog.prompts) {
        json arguments = json::array();
        for (const auto& argument : prompt.arguments) {
            arguments.push_back({{"name", argument.name},
                                 {"description", argument.description},
                                 {"required", argument.required}});
        }
        prompts.push_back({{"name", prompt.name},
                           {"title", prompt.title},
                           {"description", prompt.description},
                           {"arguments", std::move(arguments)}});
    }
    return json{{"prompts", std::move(prompts)}};
}

MethodResult method_prompts_get(Call& call) {
    const json name = call.params.value("name", json());
    const PromptSpec* prompt = find_prompt(call.catalog, name);
    if (prompt == nullptr) {
        return unknown_prompt(call.catalog, name);
    }
    const json given = call.params.value("arguments", json::object());
    if (!given.is_object() && !given.is_null()) {
        return invalid_params("prompts/get params.arguments must be an object of strings");
    }
    std::map<std::string, std::string> arguments;
    if (given.is_object()) {
        for (const auto& [key, value] : given.items()) {
            if (!value.is_string()) {
                return invalid_params(fmt::format("prompt argument '{}' must be a string",
                                                  sanitize_untrusted(key, 64)));
            }
            arguments[key] = value.get<std::string>();
        }
    }
    for (const auto& spec : prompt->arguments) {
        if (spec.required && !arguments.count(spec.name)) {
            return invalid_params(
                fmt::format("prompt {} needs the argument '{}'", prompt->name, spec.name));
        }
    }
    auto rendered = prompt->render(arguments, call.traces);
    if (!rendered) {
        return invalid_params(rendered.error().message);
    }
    return rendered.value();
}

MethodResult method_complete(Call& call) {
    const json ref = call.params.value("ref", json());
    const json argument = call.params.value("argument", json());
    if (!ref.is_object() || !argument.is_object() || !argument.value("name", json()).is_string()) {
        return invalid_params(
            "completion/complete needs params.ref ({type: \"ref/prompt\", name} or {type: "
            "\"ref/resource\", uri}) and params.argument ({name, value})");
    }
    const std::string name = argument["name"].get<std::string>();
    const json value = argument.value("value", json(""));
    const std::string prefix = value.is_string() ? value.get<std::string>() : "";
    const std::string type = ref.value("type", "");
    if (type == "ref/prompt") {
        return complete_prompt_argument(call, ref, name, prefix);
    }
    if (type == "ref/resource") {
        return complete_resource_argument(call, ref, name, prefix);
    }
    return invalid_params(fmt::format("params.ref.type must be ref/prompt or ref/resource (got {})",
                                      sanitize_untrusted(type, 64)));
}

}  // namespace causeway::server
