#pragma once
// The traces one server serves (`--db` repeated, or every *.db of a folder), each opened
// read-only. A finished trace (session.stop_ns set) never changes, so its loaded model and the
// answers computed from it are cached, each kind within one byte budget for all traces (the
// least recently used go first; the last model is kept even when it alone passes the budget); a
// trace still being recorded is re-read on every call. A *.db of a folder that cannot be served
// (not SQLite, not a trace, a broken link) is skipped and reported; a file named on its own is not.

#include <atomic>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/diagnose/diagnosis.hpp"
#include "analysis/model/trace_model.hpp"
#include "base/result.hpp"
#include "server/tools/answer_cache.hpp"
#include "server/tools/lru_bytes.hpp"
#include "tracedb/reader.hpp"

namespace causeway::server {

using ModelCache = LruBytes<std::shared_ptr<const analysis::TraceModel>>;

class Trace {
  public:
    // `models` and `answers` are shared by the traces of one set and outlive them.
    Trace(std::string name, tracedb::TraceReader reader, ModelCache& models, AnswerCache& answers);

    // The name tools take as their `trace` argument: the file name without `.db`.
    const std::string& name() const { return name_; }
    const std::string& path() const { return reader_.path(); }
    const tracedb::TraceReader& reader() const { return reader_; }
    // Serialises use of the SQLite connection (run_sql and the stacks tool share it).
    std::mutex& connection_mutex() const { return connection_mutex_; }

    // The whole trace in memory; loaded once for a finished trace. A load reads through a
    // connection of its own, so run_sql does not wait for it; a call made while the trace is
    // loading waits for that load instead of starting another.
    Result<std::shared_ptr<const analysis::TraceModel>> model() const;
    // The diagnosis of the whole trace (no filter), as get_causal_chains gives it: computed once
    // for a finished trace and kept (a few chains, small beside the model).
    Result<std::shared_ptr<const analysis::Diagnosis>> whole_diagnosis() const;
    // session.stop_ns is set: the recording ended. Read from the trace until it is, then known.
    bool finished() const;

    // Returns the cached answer for `key`, or computes, caches (finished traces only) and returns
    // it. Failures are not cached.
    Result<nlohmann::json> cached(const std::string& key,
                                  const std::function<Result<nlohmann::json>()>& compute) const;

  private:
    std::string name_;
    tracedb::TraceReader reader_;
    ModelCache& models_;
    AnswerCache& answers_;
    mutable std::mutex connection_mutex_;
    mutable std::mutex load_mutex_;  // one load of the model at a time
    mutable std::mutex diagnosis_mutex_;
    mutable std::shared_ptr<const analysis::Diagnosis> whole_diagnosis_;
    mutable std::atomic<bool> finished_{false};  // a finished trace stays finished
};

// A *.db file of a served folder that is not served, and why.
struct SkippedFile {
    std::string path;
    std::string reason;
};

class TraceSet {
  public:
    // Memory the answers of all traces may hold (their JSON text).
    static constexpr std::size_t kAnswerCacheBytes = 32 * 1024 * 1024;
    // Memory the loaded models of all traces may hold (analysis/model/model_bytes.hpp).
    static constexpr std::size_t kModelCacheBytes = std::size_t{1024} * 1024 * 1024;

    // Each path is a trace DB or a folder whose *.db files are served. Fails, naming the file
    // and the cause, when a file named on its own cannot be opened as a Causeway trace, when two
    // traces share a name, or when nothing is left to serve; a folder's files that cannot be
    // served are skipped (skipped()).
    static Result<TraceSet> open(const std::vector<std::string>& paths,
                                 std::size_t model_cache_bytes = kModelCacheBytes);

    const std::vector<std::unique_ptr<Trace>>& traces() const { return traces_; }
    std::vector<std::string> names() const;
    const std::vector<SkippedFile>& skipped() const { return skipped_; }
    // "skipped: a.db (not a SQLite file), ..." or empty: appended to what lists the traces.
    std::string skipped_note() const;
    const AnswerCache& answers() const { return *answers_; }
    const ModelCache& models() const { return *models_; }

    // The trace named `name`, or the only one when `name` is absent. The error lists the names.
    Result<const Trace*> find(const std::optional<std::string>& name) const;

    // Loads and diagnoses the finished traces (model(), whole_diagnosis()), in the order served,
    // until the model cache is full (the first is loaded whatever its size) or `stop` is
    // requested (seen between traces). Run beside the server from its start, it has the first
    // tool call find its trace loaded and diagnosed, or wait for the work under way, instead of
    // starting it then: a 100M-call trace takes 35-43 s to load and diagnose.
    void warm_up(const std::stop_token& stop) const;

  private:
    std::unique_ptr<AnswerCache> answers_ = std::make_unique<AnswerCache>(kAnswerCacheBytes);
    std::unique_ptr<ModelCache> models_;
    std::vector<std::unique_ptr<Trace>> traces_;
    std::vector<SkippedFile> skipped_;
};

}  // namespace causeway::server
