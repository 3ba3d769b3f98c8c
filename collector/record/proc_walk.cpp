#include "collector/record/proc_walk.hpp"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>

namespace causeway::collector {

std::vector<int> with_descendants(const std::vector<int>& roots) {
    std::vector<std::pair<int, int>> parent_of;  // (pid, ppid)
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator("/proc", error)) {
        std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        std::ifstream in(entry.path() / "stat");
        std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        auto close = stat.rfind(')');
        if (close == std::string::npos) {
            continue;
        }
        std::istringstream fields(stat.substr(close + 1));
        std::string state;
        int ppid = 0;
        fields >> state >> ppid;
        parent_of.emplace_back(std::stoi(name), ppid);
    }
    std::vector<int> result = roots;
    std::set<int> seen(roots.begin(), roots.end());
    for (std::size_t i = 0; i < result.size(); ++i) {
        for (const auto& [pid, ppid] : parent_of) {
            if (ppid == result[i] && seen.insert(pid).second) {
                result.push_back(pid);
            }
        }
    }
    return result;
}

}  // namespace causeway::collector
