// Hogs outside the traced tree, in cgroups laid out as docker and a Kubernetes pod lay them out,
// take the traced thread's CPU. The recorder samples their cgroups when it first sees them, and
// explain names the container and the pod of each.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "tests/collector/runtime/collector_process.hpp"
#include "tests/support/runtime_guard.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::testing;
namespace fs = std::filesystem;

namespace {

const std::string kDockerId = "3f2a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8";
const std::string kPodContainerId =
    "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b1a0f9e8d";
const std::string kPodUid = "7c1e0d9a-5b4f-4e2d-9c3b-2a1f0e9d8c7b";

// The hierarchy groups are made in: the v1 cpu controller's, else v2's.
std::string hierarchy_root() {
    return fs::exists("/sys/fs/cgroup/cpu/cgroup.procs") ? "/sys/fs/cgroup/cpu" : "/sys/fs/cgroup";
}

// A group at `relative` (its parents made too) holding `pid`; removed, deepest first, with the
// folders it made, when destroyed (the process must be gone by then). Its top folder gets 8 times
// the default CPU weight, as a container given a large request: a group with the default weight
// runs between the traced thread's sleeps, and may never take its CPU while it is runnable.
class CgroupAt {
  public:
    CgroupAt(const std::string& relative, pid_t pid) : root_(hierarchy_root()) {
        fs::path path = root_;
        for (const auto& part : fs::path(relative).relative_path()) {
            path /= part;
            if (::mkdir(path.c_str(), 0755) == 0) {
                made_.push_back(path);
            }
        }
        if (!made_.empty()) {
            std::ofstream(made_.front() / "cpu.shares") << 8192;  // v1
            std::ofstream(made_.front() / "cpu.weight") << 800;   // v2, where the controller is on
        }
        std::ofstream(path / "cgroup.procs") << pid;
    }
    ~CgroupAt() {
        for (auto it = made_.rbegin(); it != made_.rend(); ++it) {
            ::rmdir(it->c_str());
        }
    }
    CgroupAt(const CgroupAt&) = delete;
    CgroupAt& operator=(const CgroupAt&) = delete;

  private:
    std::string root_;
    std::vector<fs::path> made_;
};

// Runs `causeway explain --json` on the trace.
nlohmann::json explain_json(const std::string& db) {
    std::string command = std::string(CAUSEWAY_CLI_BIN) + " explain --json --db '" + db + "'";
    FILE* pipe = ::popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string out;
    char buffer[4096];
    while (std::size_t n = std::fread(buffer, 1, sizeof buffer, pipe)) {
        out.append(buffer, n);
    }
    REQUIRE(::pclose(pipe) == 0);
    return nlohmann::json::parse(out);
}

// Records the contending workload on CPU 0 beside a hog from outside the tree, named `comm`, in
// the group at `group`; returns its explain --json row and checks the recorder sampled its group.
nlohmann::json outside_process_row(const std::string& comm, const std::string& group) {
    TempDir dir;
    std::string db = dir.file("container.db");
    pid_t hog = spawn({CW_HOG_BIN, comm, "0"});
    Finished run;
    {
        CgroupAt cgroup(group, hog);
        run = run_collector(
            {"--db", db, "--quiet", "--", CW_FAKE_WORKLOAD_BIN, "contend", "1.5", "0"}, dir.path());
        kill(hog, SIGKILL);
        wait_for(hog);
    }
    INFO(run.stderr_text);
    REQUIRE(run.exited_ok());
    // Sampled once, as first seen, in the group the test made.
    CHECK(query_int(open_trace(db),
                    "SELECT count(*) FROM cgroup_sample c JOIN process p ON p.id = c.process_id "
                    "WHERE p.comm = '" +
                        comm + "' AND p.in_tree = 0 AND c.path = '" + group + "'") == 1);
    const auto explained = explain_json(db);
    // The traced tree is in no container here.
    nlohmann::json row;
    for (const auto& process : explained.at("processes")) {
        if (process.at("in_tree") == true) {
            CHECK(process.at("container").is_null());
        } else if (process.at("comm") == comm) {
            row = process;
        }
    }
    REQUIRE(row.is_object());
    CHECK(row.at("cgroup") == group);
    return row;
}

}  // namespace

TEST_CASE("processes outside the tree are named by their container and pod") {
    require_runtime_or_skip();
    const auto docker = outside_process_row("cw_docker_hog", "/docker/" + kDockerId);
    CHECK(docker.at("container").at("runtime") == "docker");
    CHECK(docker.at("container").at("container_id") == kDockerId);
    CHECK(docker.at("container").at("pod_uid") == "");

    const auto pod = outside_process_row(
        "cw_pod_hog", "/kubepods/burstable/pod" + kPodUid + "/" + kPodContainerId);
    CHECK(pod.at("container").at("runtime") == "containerd");
    CHECK(pod.at("container").at("container_id") == kPodContainerId);
    CHECK(pod.at("container").at("pod_uid") == kPodUid);
    CHECK(pod.at("container").at("qos_class") == "Burstable");
}
