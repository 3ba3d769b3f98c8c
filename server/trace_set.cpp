#include "server/trace_set.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

namespace causeway::server {
namespace {

namespace fs = std::filesystem;

std::string trace_name_of(const std::string& path) {
    fs::path p(path);
    return p.extension() == ".db" ? p.stem().string() : p.filename().string();
}

// The files a `--db` argument stands for: itself, or the *.db files of a folder, sorted.
Result<std::vector<std::string>> expand(const std::string& path) {
    std::error_code error;
    if (!fs::is_directory(path, error)) {
        return std::vector<std::string>{path};
    }
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(path, error)) {
        if (entry.is_regular_file() && entry.path().extension() == ".db") {
            files.push_back(entry.path().string());
        }
    }
    if (error) {
        return Error{fmt::format("cannot list folder {}: {}", path, error.message())};
    }
    if (files.empty()) {
        return Error{
            fmt::format("folder {} holds no *.db trace files; record one with "
                        "causeway-collector record --db {}/run.db -- COMMAND",
                        path, path)};
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

Trace::Trace(std::string name, tracedb::TraceReader reader)
    : name_(std::move(name)), reader_(std::move(reader)) {}

bool Trace::finished() const {
    std::lock_guard lock(connection_mutex_);
    auto stop = reader_.db().query_int64("SELECT stop_ns IS NOT NULL FROM session WHERE id = 1");
    return stop.ok() && stop.value() == 1;
}

Result<std::shared_ptr<const analysis::TraceModel>> Trace::model() const {
    {
        std::lock_guard lock(cache_mutex_);
        if (model_) {
            return model_;
        }
    }
    const bool immutable = finished();
    std::lock_guard lock(connection_mutex_);
    auto loaded = analysis::load_trace(reader_);
    if (!loaded) {
        return Error{
            fmt::format("cannot read trace '{}' ({}): {}", name_, path(), loaded.error().message)};
    }
    auto model = std::make_shared<const analysis::TraceModel>(std::move(loaded).value());
    if (immutable) {
        std::lock_guard cache_lock(cache_mutex_);
        model_ = model;
    }
    return model;
}

Result<nlohmann::json> Trace::cached(const std::string& key,
                                     const std::function<Result<nlohmann::json>()>& compute) const {
    {
        std::lock_guard lock(cache_mutex_);
        if (auto hit = answers_.find(key); hit != answers_.end()) {
            return hit->second;
        }
    }
    auto answer = compute();
    if (answer.ok() && finished()) {
        std::lock_guard lock(cache_mutex_);
        if (answers_.size() >= kMaxCachedAnswers) {
            answers_.clear();
        }
        answers_.emplace(key, answer.value());
    }
    return answer;
}

Result<TraceSet> TraceSet::open(const std::vector<std::string>& paths) {
    TraceSet set;
    for (const auto& argument : paths) {
        auto files = expand(argument);
        if (!files) {
            return files.error();
        }
        for (const auto& file : files.value()) {
            auto reader = tracedb::TraceReader::open(file);
            if (!reader) {
                return Error{fmt::format("cannot serve {}: {}", file, reader.error().message)};
            }
            std::string name = trace_name_of(file);
            auto names = set.names();
            if (std::find(names.begin(), names.end(), name) != names.end()) {
                return Error{
                    fmt::format("two traces are named '{}' ({}); tools pick a trace by "
                                "file name, so rename one of them",
                                name, file)};
            }
            set.traces_.push_back(std::make_unique<Trace>(name, std::move(reader).value()));
        }
    }
    if (set.traces_.empty()) {
        return Error{"no trace given; pass --db run.db (repeatable) or --db FOLDER"};
    }
    return set;
}

std::vector<std::string> TraceSet::names() const {
    std::vector<std::string> names;
    for (const auto& trace : traces_) {
        names.push_back(trace->name());
    }
    return names;
}

Result<const Trace*> TraceSet::find(const std::optional<std::string>& name) const {
    if (!name) {
        if (traces_.size() == 1) {
            return traces_.front().get();
        }
        return Error{
            fmt::format("this server serves {} traces; pass the argument trace with one "
                        "of: {}",
                        traces_.size(), fmt::join(names(), ", "))};
    }
    for (const auto& trace : traces_) {
        if (trace->name() == *name) {
            return trace.get();
        }
    }
    return Error{
        fmt::format("no trace is named '{}'; traces served: {}", *name, fmt::join(names(), ", "))};
}

}  // namespace causeway::server
