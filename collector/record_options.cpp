#include "collector/record_options.hpp"

#include "tracedb/duration_text.hpp"

namespace causeway::collector {

Result<std::int64_t> parse_duration_ns(const std::string& text) {
    return tracedb::parse_duration_ns(text, tracedb::BareNumber::kNanoseconds);
}

Status validate(const RecordOptions& options) {
    if (options.db_path.empty()) {
        return Error{"no trace DB given: pass --db run.db"};
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
    if (options.duration_s < 0) {
        return Error{"invalid --duration: it must be positive (seconds)"};
    }
    if (!(options.kill_after_s >= 0) || options.kill_after_s > 3600) {
        return Error{"invalid --kill-after: it must be 0 to 3600 seconds"};
    }
    return Ok{};
}

}  // namespace causeway::collector
