#include "interop/json_event_writer.hpp"

#include <cerrno>
#include <cstring>

namespace causeway::interop {
namespace {

using nlohmann::json;

// Names come from the traced system and may hold bytes that are not UTF-8: replaced, not fatal.
std::string dump(const json& value) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace

std::string microseconds_text(std::int64_t ns) {
    const bool negative = ns < 0;
    const std::uint64_t magnitude =
        negative ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
    char text[32];
    std::snprintf(text, sizeof text, "%s%llu.%03llu", negative ? "-" : "",
                  static_cast<unsigned long long>(magnitude / 1000),
                  static_cast<unsigned long long>(magnitude % 1000));
    return text;
}

Result<JsonEventWriter> JsonEventWriter::create(const std::string& path) {
    // "x": fail rather than overwrite.
    std::FILE* file = std::fopen(path.c_str(), "wx");
    if (file == nullptr) {
        return Error{"cannot create " + path + ": " + std::strerror(errno) +
                     (errno == EEXIST ? " (remove it or choose another output path)" : "")};
    }
    JsonEventWriter writer;
    writer.path_ = path;
    writer.file_.reset(file);
    writer.write("{\"traceEvents\":[");
    return writer;
}

void JsonEventWriter::write(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), file_.get());
}

void JsonEventWriter::begin_event(const char* phase, std::int64_t pid, const std::string& name) {
    write(events_++ == 0 ? "\n" : ",\n");
    write("{\"ph\":\"" + std::string(phase) + "\",\"pid\":" + std::to_string(pid) +
          ",\"name\":" + dump(name));
}

void JsonEventWriter::metadata(const char* kind, std::int64_t pid, const std::int64_t* tid,
                               const json& args) {
    begin_event("M", pid, kind);
    if (tid != nullptr) {
        write(",\"tid\":" + std::to_string(*tid));
    }
    write(",\"args\":" + dump(args) + "}");
}

void JsonEventWriter::process_name(std::int64_t pid, const std::string& name) {
    metadata("process_name", pid, nullptr, {{"name", name}});
}

void JsonEventWriter::process_sort_index(std::int64_t pid, std::int64_t index) {
    metadata("process_sort_index", pid, nullptr, {{"sort_index", index}});
}

void JsonEventWriter::thread_name(std::int64_t pid, std::int64_t tid, const std::string& name) {
    metadata("thread_name", pid, &tid, {{"name", name}});
}

void JsonEventWriter::thread_sort_index(std::int64_t pid, std::int64_t tid, std::int64_t index) {
    metadata("thread_sort_index", pid, &tid, {{"sort_index", index}});
}

void JsonEventWriter::slice(std::int64_t pid, std::int64_t tid, std::int64_t ts_ns,
                            std::int64_t dur_ns, const std::string& name,
                            const std::string& category, const json& args) {
    begin_event("X", pid, name);
    write(",\"tid\":" + std::to_string(tid) + ",\"ts\":" + microseconds_text(ts_ns) +
          ",\"dur\":" + microseconds_text(dur_ns) + ",\"cat\":" + dump(category) +
          ",\"args\":" + dump(args) + "}");
}

void JsonEventWriter::counter(std::int64_t pid, std::int64_t ts_ns, const std::string& name,
                              const json& values) {
    begin_event("C", pid, name);
    write(",\"ts\":" + microseconds_text(ts_ns) + ",\"args\":" + dump(values) + "}");
}

Status JsonEventWriter::finish(const json& other_data) {
    write("\n],\"displayTimeUnit\":\"ns\",\"otherData\":" + dump(other_data) + "}\n");
    const bool failed = std::ferror(file_.get()) != 0;
    if (std::fclose(file_.release()) != 0 || failed) {
        return Error{"cannot write " + path_ + ": " + std::strerror(errno) +
                     " (is the disk full?)"};
    }
    return Ok{};
}

}  // namespace causeway::interop
