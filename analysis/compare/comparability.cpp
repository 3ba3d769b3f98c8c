#include "analysis/compare/comparability.hpp"

#include <sstream>

namespace causeway::analysis {
namespace {

std::string base_name(const std::string& path) {
    const auto slash = path.rfind('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

std::string op_list(const std::vector<std::string>& ops) {
    if (ops.empty()) {
        return "no CUDA calls";
    }
    std::string list;
    for (std::size_t i = 0; i < ops.size() && i < 5; ++i) {
        list += (i > 0 ? ", " : "") + ops[i];
    }
    return ops.size() > 5 ? list + " and " + std::to_string(ops.size() - 5) + " more" : list;
}

}  // namespace

std::string program_of(const TraceModel& model, int training_process) {
    if (model.session.command_line) {
        std::istringstream words(*model.session.command_line);
        std::string word;
        words >> word;
        // env [-i] [NAME=VALUE ...] program: the program is what env runs.
        while (base_name(word) == "env" || word.find('=') != std::string::npos ||
               (word.size() > 1 && word[0] == '-')) {
            if (!(words >> word)) {
                break;
            }
        }
        const std::string executable = base_name(word);
        if (executable.rfind("python", 0) != 0) {
            return executable;
        }
        // python [-u -X ...] script.py | -m module
        while (words >> word) {
            if (word == "-m" && (words >> word)) {
                return word;
            }
            if (word.empty() || word[0] != '-') {
                return base_name(word);
            }
        }
        return executable;
    }
    if (training_process >= 0) {
        return model.processes[static_cast<std::size_t>(training_process)].comm;
    }
    return {};
}

Status check_common_ops(const TraceModel& before, const TraceModel& after, const OpChanges& ops) {
    if (!ops.common.empty()) {
        return Ok{};
    }
    return Error{"cannot compare " + before.path + " (" + op_list(ops.only_before) + ") with " +
                 after.path + " (" + op_list(ops.only_after) +
                 "): no CUDA operation was called in both, so there is nothing to compare; record "
                 "the same job before and after the change (with the same --window and --pid, if "
                 "given)"};
}

std::vector<Difference> comparison_differences(const ComparedRecording& before,
                                               const ComparedRecording& after) {
    std::vector<Difference> differences;
    if (!before.program.empty() && !after.program.empty() && before.program != after.program) {
        differences.push_back(Difference::kProgram);
    }
    if (before.cpu_count != after.cpu_count) {
        differences.push_back(Difference::kCpuCount);
    }
    if (before.host != after.host) {
        differences.push_back(Difference::kHost);
    }
    if (before.data_loss) {
        differences.push_back(Difference::kBeforeLostEvents);
    }
    if (after.data_loss) {
        differences.push_back(Difference::kAfterLostEvents);
    }
    return differences;
}

}  // namespace causeway::analysis
