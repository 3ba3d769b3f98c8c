#pragma once
// Streams a Chrome trace-event JSON file ({"traceEvents": [...]}, the format ui.perfetto.dev and
// chrome://tracing open) one event at a time, so that a trace of millions of calls never exists
// as one JSON tree in memory. Timestamps go in as nanoseconds and come out as microseconds with
// three decimals, exactly (the format's unit is the microsecond).

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "base/result.hpp"

namespace causeway::interop {

class JsonEventWriter {
  public:
    // Creates `path` (which must not exist) and writes the opening of the document.
    static Result<JsonEventWriter> create(const std::string& path);

    void process_name(std::int64_t pid, const std::string& name);
    void process_sort_index(std::int64_t pid, std::int64_t index);
    void thread_name(std::int64_t pid, std::int64_t tid, const std::string& name);
    void thread_sort_index(std::int64_t pid, std::int64_t tid, std::int64_t index);
    // A complete slice ("ph": "X") on the track (pid, tid).
    void slice(std::int64_t pid, std::int64_t tid, std::int64_t ts_ns, std::int64_t dur_ns,
               const std::string& name, const std::string& category, const nlohmann::json& args);
    // A counter sample ("ph": "C"): one counter track per key of `values`, in process `pid`.
    void counter(std::int64_t pid, std::int64_t ts_ns, const std::string& name,
                 const nlohmann::json& values);

    // Closes the event array, adds `other_data` (facts about the trace) and flushes; an error
    // when anything could not be written (disk full).
    Status finish(const nlohmann::json& other_data);

    std::int64_t events_written() const { return events_; }

  private:
    struct FileCloser {
        void operator()(std::FILE* file) const { std::fclose(file); }
    };
    JsonEventWriter() = default;
    void metadata(const char* kind, std::int64_t pid, const std::int64_t* tid,
                  const nlohmann::json& args);
    // Writes the separator and the fields every event shares; the caller closes the object.
    void begin_event(const char* phase, std::int64_t pid, const std::string& name);
    void write(const std::string& text);

    std::string path_;
    std::unique_ptr<std::FILE, FileCloser> file_;
    std::int64_t events_ = 0;
};

// 1234567 ns -> "1234.567" (microseconds, exact).
std::string microseconds_text(std::int64_t ns);

}  // namespace causeway::interop
