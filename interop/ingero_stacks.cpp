#include "interop/ingero_stacks.hpp"

#include <nlohmann/json.hpp>

namespace causeway::interop {
namespace {

using nlohmann::json;
using tracedb::StackFrameRecord;

std::int64_t parse_hex(const std::string& text) {
    try {
        return static_cast<std::int64_t>(std::stoull(text, nullptr, 16));
    } catch (const std::exception&) {
        return 0;
    }
}

// "cudaMalloc+0x1cb" -> symbol "cudaMalloc", offset 0x1cb.
void split_symbol(const std::string& text, StackFrameRecord& frame) {
    auto plus = text.rfind("+0x");
    if (plus == std::string::npos) {
        frame.symbol = text;
        return;
    }
    frame.symbol = text.substr(0, plus);
    frame.offset = parse_hex(text.substr(plus + 1));
}

std::string string_field(const json& object, const char* key) {
    auto it = object.find(key);
    if (it == object.end()) {
        return {};
    }
    return it->is_string() ? it->get<std::string>() : it->dump();
}

StackFrameRecord frame_from(const json& entry, std::int64_t depth) {
    StackFrameRecord frame;
    frame.depth = depth;
    if (entry.is_string()) {  // a bare instruction pointer
        frame.address = parse_hex(entry.get<std::string>());
        return frame;
    }
    if (entry.contains("pfn")) {
        frame.module = string_field(entry, "pf") + ":" + string_field(entry, "pl");
        frame.symbol = string_field(entry, "pfn");
        return frame;
    }
    frame.address = parse_hex(string_field(entry, "i"));
    if (auto module = string_field(entry, "f"); !module.empty()) {
        frame.module = module;
    }
    if (auto symbol = string_field(entry, "s"); !symbol.empty()) {
        split_symbol(symbol, frame);
    }
    return frame;
}

}  // namespace

Result<std::vector<StackFrameRecord>> parse_ingero_stack(const std::string& frames_json,
                                                         const std::string& ips_json) {
    const std::string& text = frames_json.empty() ? ips_json : frames_json;
    std::vector<StackFrameRecord> frames;
    if (text.empty()) {
        return frames;
    }
    json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!parsed.is_array()) {
        return Error{"not a JSON array: " + text.substr(0, 60)};
    }
    for (const auto& entry : parsed) {
        if (!entry.is_object() && !entry.is_string()) {
            return Error{"a frame is neither an object nor a string: " + entry.dump()};
        }
        frames.push_back(frame_from(entry, static_cast<std::int64_t>(frames.size())));
    }
    return frames;
}

}  // namespace causeway::interop
