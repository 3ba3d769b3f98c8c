#include "server/tools/trace_set.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>

#include "analysis/model/model_bytes.hpp"

namespace causeway::server {
namespace {

namespace fs = std::filesystem;

std::string trace_name_of(const std::string& path) {
    fs::path p(path);
    return p.extension() == ".db" ? p.stem().string() : p.filename().string();
}

struct Expansion {
    std::vector<std::string> files;
    std::vector<SkippedFile> skipped;
    bool from_folder = false;
};

// The files a `--db` argument stands for: itself, or the *.db files of a folder, sorted. Entries
// of a folder that are not regular files (a symlink loop, a folder named x.db) are skipped.
Result<Expansion> expand(const std::string& path) {
    std::error_code error;
    if (!fs::is_directory(path, error)) {
        return Expansion{{path}, {}, false};
    }
    Expansion expansion{{}, {}, true};
    fs::directory_iterator entry(path, error);
    for (; !error && entry != fs::directory_iterator(); entry.increment(error)) {
        if (entry->path().extension() != ".db") {
            continue;
        }
        std::error_code entry_error;
        if (entry->is_regular_file(entry_error)) {
            expansion.files.push_back(entry->path().string());
        } else {
            expansion.skipped.push_back(
                {entry->path().string(),
                 entry_error ? fmt::format("cannot be read: {}", entry_error.message())
                             : std::string("not a regular file")});
        }
    }
    if (error) {
        return Error{fmt::format("cannot list folder {}: {}", path, error.message())};
    }
    if (expansion.files.empty() && expansion.skipped.empty()) {
        return Error{
            fmt::format("folder {} holds no *.db trace files; record one with "
                        "causeway-collector record --db {}/run.db -- COMMAND",
                        path, path)};
    }
    std::sort(expansion.files.begin(), expansion.files.end());
    return expansion;
}

std::string describe(const std::vector<SkippedFile>& skipped) {
    std::vector<std::string> parts;
    for (const auto& file : skipped) {
        parts.push_back(
            fmt::format("{} ({})", fs::path(file.path).filename().string(), file.reason));
    }
    return fmt::format("{}", fmt::join(parts, "; "));
}

}  // namespace

Trace::Trace(std::string name, tracedb::TraceReader reader, ModelCache& models,
             AnswerCache& answers)
    : name_(std::move(name)), reader_(std::move(reader)), models_(models), answers_(answers) {}

bool Trace::finished() const {
    if (finished_.load()) {
        return true;
    }
    std::lock_guard lock(connection_mutex_);
    auto stop = reader_.db().query_int64("SELECT stop_ns IS NOT NULL FROM session WHERE id = 1");
    if (stop.ok() && stop.value() == 1) {
        finished_.store(true);
    }
    return finished_.load();
}

Result<std::shared_ptr<const analysis::TraceModel>> Trace::model() const {
    if (auto cached = models_.find(name_)) {
        return std::move(*cached);
    }
    const bool immutable = finished();
    std::lock_guard lock(load_mutex_);
    if (auto cached = models_.find(name_)) {  // loaded by another call meanwhile
        return std::move(*cached);
    }
    const auto unreadable = [this](const Error& error) {
        return Error{fmt::format("cannot read trace '{}' ({}): {}", name_, path(), error.message)};
    };
    auto reader = tracedb::TraceReader::open(path());
    if (!reader) {
        return unreadable(reader.error());
    }
    auto loaded = analysis::load_trace(*reader);
    if (!loaded) {
        return unreadable(loaded.error());
    }
    auto model = std::make_shared<const analysis::TraceModel>(std::move(loaded).value());
    if (immutable) {
        models_.keep(name_, model, analysis::model_bytes(*model));
    }
    return model;
}

Result<std::shared_ptr<const analysis::Diagnosis>> Trace::whole_diagnosis() const {
    std::lock_guard lock(diagnosis_mutex_);
    if (whole_diagnosis_) {
        return whole_diagnosis_;
    }
    auto loaded = model();
    if (!loaded) {
        return loaded.error();
    }
    auto diagnosis = std::make_shared<const analysis::Diagnosis>(analysis::diagnose(**loaded, {}));
    if (finished()) {
        whole_diagnosis_ = diagnosis;
    }
    return diagnosis;
}

Result<nlohmann::json> Trace::cached(const std::string& key,
                                     const std::function<Result<nlohmann::json>()>& compute) const {
    const std::string trace_key = name_ + "\n" + key;
    if (auto hit = answers_.find(trace_key)) {
        return std::move(*hit);
    }
    auto answer = compute();
    if (answer.ok() && finished()) {
        answers_.keep(trace_key, answer.value());
    }
    return answer;
}

void TraceSet::warm_up(const std::stop_token& stop) const {
    for (const auto& trace : traces_) {
        if (stop.stop_requested() || models_->bytes() >= models_->max_bytes()) {
            return;
        }
        if (trace->finished()) {  // a trace still recording is read again on each call
            // A failure is reported to the call that asks for the trace.
            (void)trace->whole_diagnosis();
        }
    }
}

Result<TraceSet> TraceSet::open(const std::vector<std::string>& paths,
                                std::size_t model_cache_bytes) {
    TraceSet set;
    set.models_ = std::make_unique<ModelCache>(model_cache_bytes, Oversized::kKeptAlone);
    for (const auto& argument : paths) {
        auto expansion = expand(argument);
        if (!expansion) {
            return expansion.error();
        }
        set.skipped_.insert(set.skipped_.end(), expansion->skipped.begin(),
                            expansion->skipped.end());
        for (const auto& file : expansion->files) {
            auto reader = tracedb::TraceReader::open(file);
            if (!reader && expansion->from_folder) {
                set.skipped_.push_back({file, reader.error().message});
                continue;
            }
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
            set.traces_.push_back(std::make_unique<Trace>(name, std::move(reader).value(),
                                                          *set.models_, *set.answers_));
        }
    }
    if (set.traces_.empty() && !set.skipped_.empty()) {
        return Error{fmt::format("no trace to serve: every *.db file was skipped: {}",
                                 describe(set.skipped_))};
    }
    if (set.traces_.empty()) {
        return Error{"no trace given; pass --db run.db (repeatable) or --db FOLDER"};
    }
    return set;
}

std::string TraceSet::skipped_note() const {
    if (skipped_.empty()) {
        return {};
    }
    return fmt::format("not served, skipped: {}", describe(skipped_));
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
                        "of: {}{}",
                        traces_.size(), fmt::join(names(), ", "),
                        skipped_.empty() ? "" : " (" + skipped_note() + ")")};
    }
    for (const auto& trace : traces_) {
        if (trace->name() == *name) {
            return trace.get();
        }
    }
    return Error{fmt::format("no trace is named '{}'; traces served: {}{}", *name,
                             fmt::join(names(), ", "),
                             skipped_.empty() ? "" : " (" + skipped_note() + ")")};
}

}  // namespace causeway::server
