// resources/list, resources/templates/list and resources/read.
#include <fmt/format.h>

#include "server/rpc/method_call.hpp"
#include "server/rpc/sanitize.hpp"

namespace causeway::server {
namespace {

constexpr std::string_view kTracePlaceholder = "{trace}";

bool is_template(const ResourceSpec& resource) {
    return resource.uri_template.find(kTracePlaceholder) != std::string::npos;
}

std::string expand(const ResourceSpec& resource, const std::string& trace_name) {
    std::string uri = resource.uri_template;
    uri.replace(uri.find(kTracePlaceholder), kTracePlaceholder.size(), trace_name);
    return uri;
}

json descriptor(const ResourceSpec& resource, const std::string& uri, const std::string& name) {
    return {{"uri", uri},
            {"name", name},
            {"title", resource.title},
            {"description", resource.description},
            {"mimeType", resource.mime_type}};
}

}  // namespace

MethodResult method_resources_list(Call& call) {
    if (auto error = check_no_cursor(call.params)) {
        return *error;
    }
    json resources = json::array();
    for (const auto& resource : call.catalog.resources) {
        if (!is_template(resource)) {
            resources.push_back(descriptor(resource, resource.uri_template, resource.name));
            continue;
        }
        for (const auto& trace : call.traces.traces()) {
            resources.push_back(descriptor(resource, expand(resource, trace->name()),
                                           resource.name + "-" + trace->name()));
        }
    }
    return json{{"resources", std::move(resources)}};
}

MethodResult method_resource_templates_list(Call& call) {
    if (auto error = check_no_cursor(call.params)) {
        return *error;
    }
    json templates = json::array();
    for (const auto& resource : call.catalog.resources) {
        if (is_template(resource)) {
            templates.push_back({{"uriTemplate", resource.uri_template},
                                 {"name", resource.name},
                                 {"title", resource.title},
                                 {"description", resource.description},
                                 {"mimeType", resource.mime_type}});
        }
    }
    return json{{"resourceTemplates", std::move(templates)}};
}

MethodResult method_resources_read(Call& call) {
    const json uri_value = call.params.value("uri", json());
    if (!uri_value.is_string()) {
        return invalid_params("resources/read needs params.uri, a string from resources/list");
    }
    const std::string uri = uri_value.get<std::string>();
    for (const auto& resource : call.catalog.resources) {
        const Trace* match = nullptr;
        if (!is_template(resource)) {
            if (resource.uri_template != uri) {
                continue;
            }
        } else {
            for (const auto& trace : call.traces.traces()) {
                if (expand(resource, trace->name()) == uri) {
                    match = trace.get();
                }
            }
            if (match == nullptr) {
                continue;
            }
        }
        auto content = resource.read(call.traces, match);
        if (!content) {
            return RpcError{error_code::kInternalError, content.error().message, {{"uri", uri}}};
        }
        json result{{"contents", json::array({{{"uri", uri},
                                               {"mimeType", content->mime_type},
                                               {"text", std::move(content->text)}}})}};
        if (call.revision.era == Era::kStateless && match != nullptr && !match->finished()) {
            result["ttlMs"] = 0;  // a trace still being recorded: its summary changes
        }
        return result;
    }
    return RpcError{error_code::kResourceNotFound,
                    fmt::format("no resource {}; see resources/list", sanitize_untrusted(uri, 256)),
                    {{"uri", sanitize_untrusted(uri, 256)}}};
}

}  // namespace causeway::server
