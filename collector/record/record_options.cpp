#include "collector/record/record_options.hpp"

#include <sys/stat.h>

#include "base/duration_text.hpp"

namespace causeway::collector {
namespace {

constexpr double kMaxDurationS = 30 * 24 * 3600.0;  // a month: past it, a number is a mistake

// A symbolic link whose target does not exist: the collector runs as root, and SQLite would
// create the target wherever the link points.
bool is_dangling_link(const std::string& path) {
    struct stat link {};
    struct stat target {};
    return ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode) &&
           ::stat(path.c_str(), &target) != 0;
}

}  // namespace

Result<std::int64_t> parse_duration_ns(const std::string& text) {
    return parse_duration_ns(text, BareNumber::kNanoseconds);
}

Status validate(const RecordOptions& options) {
    if (options.db_path.empty()) {
        return Error{"no trace DB given: pass --db run.db"};
    }
    if (is_dangling_link(options.db_path)) {
        return Error{"--db " + options.db_path +
                     " is a symbolic link to a file that does not exist; the collector does not "
                     "create files through links: pass the path of a new file"};
    }
    if (options.pids.empty() == options.command.empty()) {
        return Error{options.pids.empty() ? "nothing to trace: pass --pid PID or a command after --"
                                          : "pass either --pid or a command after --, not both"};
    }
    for (int pid : options.pids) {
        if (pid <= 0) {
            return Error{"invalid --pid " + std::to_string(pid) + ": a pid is a positive number"};
        }
    }
    std::uint32_t ring = options.cuda_ring_bytes;
    if (ring < 4096 || (ring & (ring - 1)) != 0) {
        return Error{"invalid --cuda-ring-size " + std::to_string(ring) +
                     ": it must be a power of two of at least 4096 bytes"};
    }
    if (options.record_stacks && !options.native_frames && !options.python_frames) {
        return Error{
            "--stacks with --no-native-frames and --no-python-frames records no frame: "
            "drop --stacks, or one of the two"};
    }
    // NaN fails the first test; infinity and 1e308 the second (their nanoseconds overflow).
    if (!(options.duration_s >= 0) || options.duration_s > kMaxDurationS) {
        return Error{
            "invalid --duration: it must be 0 (until the command ends) to 2592000 seconds "
            "(30 days)"};
    }
    if (!(options.kill_after_s >= 0) || options.kill_after_s > 3600) {
        return Error{"invalid --kill-after: it must be 0 to 3600 seconds"};
    }
    return Ok{};
}

}  // namespace causeway::collector
