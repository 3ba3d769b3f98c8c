#pragma once
// The traces one server serves (`--db` repeated, or every *.db of a folder), each opened
// read-only. A finished trace (session.stop_ns set) never changes, so its loaded model and the
// answers computed from it are cached; a trace still being recorded is re-read on every call.

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/trace_model.hpp"
#include "tracedb/reader.hpp"
#include "tracedb/result.hpp"

namespace causeway::server {

class Trace {
  public:
    Trace(std::string name, tracedb::TraceReader reader);

    // The name tools take as their `trace` argument: the file name without `.db`.
    const std::string& name() const { return name_; }
    const std::string& path() const { return reader_.path(); }
    const tracedb::TraceReader& reader() const { return reader_; }
    // Serialises use of the SQLite connection (run_sql and model loading share it).
    std::mutex& connection_mutex() const { return connection_mutex_; }

    // The whole trace in memory; loaded once for a finished trace.
    Result<std::shared_ptr<const analysis::TraceModel>> model() const;
    bool finished() const;

    // Returns the cached answer for `key`, or computes, caches (finished traces only) and returns
    // it. Failures are not cached.
    Result<nlohmann::json> cached(const std::string& key,
                                  const std::function<Result<nlohmann::json>()>& compute) const;

  private:
    // Cached answers per trace; beyond this the cache starts afresh (answers are small, keys are
    // tool arguments, so this bounds memory against a client that varies arguments forever).
    static constexpr std::size_t kMaxCachedAnswers = 512;

    std::string name_;
    tracedb::TraceReader reader_;
    mutable std::mutex connection_mutex_;
    mutable std::mutex cache_mutex_;
    mutable std::shared_ptr<const analysis::TraceModel> model_;
    mutable std::map<std::string, nlohmann::json> answers_;
};

class TraceSet {
  public:
    // Each path is a trace DB or a folder whose *.db files are all served. Fails, naming the file
    // and the cause, when one cannot be opened as a Causeway trace or two share a name.
    static Result<TraceSet> open(const std::vector<std::string>& paths);

    const std::vector<std::unique_ptr<Trace>>& traces() const { return traces_; }
    std::vector<std::string> names() const;

    // The trace named `name`, or the only one when `name` is absent. The error lists the names.
    Result<const Trace*> find(const std::optional<std::string>& name) const;

  private:
    std::vector<std::unique_ptr<Trace>> traces_;
};

}  // namespace causeway::server
