#include "collector/record/push_after_record.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

namespace causeway::collector {
namespace {

std::string causeway_cli() {
    std::error_code error;
    auto self = std::filesystem::read_symlink("/proc/self/exe", error);
    if (!error) {
        for (const auto& candidate : {self.parent_path() / "causeway",
                                      self.parent_path().parent_path() / "cli" / "causeway"}) {
            if (access(candidate.c_str(), X_OK) == 0) {
                return candidate.string();
            }
        }
    }
    return "causeway";  // from PATH
}

}  // namespace

Status push_recording(const PushRequest& request, const std::string& db_path) {
    std::string cli = causeway_cli();
    std::vector<std::string> args = {cli,     "push",     "--clickhouse", request.clickhouse,
                                     "--job", request.job};
    if (!request.node.empty()) {
        args.insert(args.end(), {"--node", request.node});
    }
    if (request.rank) {
        args.insert(args.end(), {"--rank", std::to_string(*request.rank)});
    }
    if (!request.cluster.empty()) {
        args.insert(args.end(), {"--cluster", request.cluster});
    }
    args.push_back(db_path);
    std::vector<char*> argv;
    for (auto& arg : args) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    pid_t child = fork();
    if (child < 0) {
        return Error{"cannot start `causeway push`: " + std::string(std::strerror(errno))};
    }
    if (child == 0) {
        execvp(argv[0], argv.data());
        std::fprintf(stderr, "causeway-collector: cannot run %s: %s\n", argv[0],
                     std::strerror(errno));
        _exit(127);
    }
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        return Ok{};
    }
    return Error{"the push to " + request.clickhouse + " failed (" + cli + " exited with " +
                 std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)) +
                 "); the recording is kept in " + db_path +
                 ": push it again with `causeway push "
                 "--clickhouse " +
                 request.clickhouse + " --job " + request.job + " " + db_path + "`"};
}

}  // namespace causeway::collector
