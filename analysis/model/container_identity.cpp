#include "analysis/model/container_identity.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <vector>

namespace causeway::analysis {
namespace {

constexpr std::size_t kIdLength = 64;
constexpr std::size_t kShortIdLength = 12;  // as `docker ps` shows an id

bool is_container_id(std::string_view text) {
    return text.size() == kIdLength && std::all_of(text.begin(), text.end(), [](char c) {
               return std::isxdigit(static_cast<unsigned char>(c)) != 0 &&
                      std::isupper(static_cast<unsigned char>(c)) == 0;
           });
}

std::vector<std::string_view> components(std::string_view path) {
    std::vector<std::string_view> parts;
    while (!path.empty()) {
        const auto slash = path.find('/');
        if (slash != 0) {
            parts.push_back(path.substr(0, slash));
        }
        if (slash == std::string_view::npos) {
            break;
        }
        path.remove_prefix(slash + 1);
    }
    return parts;
}

std::string_view without_suffix(std::string_view text, std::string_view suffix) {
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix
               ? text.substr(0, text.size() - suffix.size())
               : text;
}

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

struct RuntimePrefix {
    std::string_view prefix;  // before the id in a systemd scope, or a cgroupfs parent folder
    std::string_view runtime;
};

// "<prefix><id>[.scope]" of one path component: a container's own group.
std::optional<std::pair<std::string_view, std::string_view>> scoped_container(
    std::string_view part) {
    static constexpr std::array<RuntimePrefix, 4> kPrefixes{{{"docker-", "docker"},
                                                             {"cri-containerd-", "containerd"},
                                                             {"crio-", "cri-o"},
                                                             {"libpod-", "podman"}}};
    const std::string_view name = without_suffix(part, ".scope");
    for (const auto& [prefix, runtime] : kPrefixes) {
        if (starts_with(name, prefix) && is_container_id(name.substr(prefix.size()))) {
            return std::pair{runtime, name.substr(prefix.size())};
        }
    }
    return std::nullopt;
}

// A pod's group: "pod<uid>" (cgroupfs) or "kubepods[-<qos>]-pod<uid_with_underscores>.slice".
std::optional<std::string> pod_uid(std::string_view part) {
    std::string_view name = without_suffix(part, ".slice");
    const auto at = name.rfind("pod");
    if (at == std::string_view::npos || (at != 0 && !starts_with(name, "kubepods"))) {
        return std::nullopt;
    }
    std::string uid(name.substr(at + 3));
    std::replace(uid.begin(), uid.end(), '_', '-');
    const bool uuid_shape =
        uid.size() == 36 && std::all_of(uid.begin(), uid.end(), [](char c) {
            return c == '-' || std::isxdigit(static_cast<unsigned char>(c)) != 0;
        });
    return uuid_shape ? std::optional<std::string>(uid) : std::nullopt;
}

// Burstable / BestEffort from the kubepods level below the root, Guaranteed with none.
std::string qos_class(const std::vector<std::string_view>& parts, std::size_t pod_at) {
    for (std::size_t i = 0; i < pod_at; ++i) {
        const std::string_view name = without_suffix(parts[i], ".slice");
        if (name == "burstable" || name == "kubepods-burstable") {
            return "Burstable";
        }
        if (name == "besteffort" || name == "kubepods-besteffort") {
            return "BestEffort";
        }
    }
    return "Guaranteed";
}

}  // namespace

std::string ContainerIdentity::short_text() const {
    std::string text;
    if (!container_id.empty()) {
        text = "container " + container_id.substr(0, kShortIdLength);
    }
    if (!pod_uid.empty()) {
        text += (text.empty() ? "pod " : " of pod ") + pod_uid;
    }
    return text;
}

std::string in_container_text(const std::optional<ContainerIdentity>& container) {
    return container ? " in " + container->short_text() : std::string();
}

std::optional<ContainerIdentity> container_of(std::string_view cgroup_path) {
    const auto parts = components(cgroup_path);
    ContainerIdentity identity;
    std::optional<std::size_t> pod_at;
    bool under_kubepods = false;  // a pod's group is below the kubelet's kubepods group
    for (std::size_t i = 0; i < parts.size(); ++i) {
        const std::string_view part = parts[i];
        if (auto scoped = scoped_container(part)) {
            identity.runtime = scoped->first;
            identity.container_id = scoped->second;
        } else if (is_container_id(part)) {
            // A bare id: docker's cgroupfs driver under /docker, a pod's container (containerd
            // or cri-o under the kubelet's cgroupfs driver; containerd is the common one).
            const bool docker = i > 0 && parts[i - 1] == "docker";
            identity.runtime = docker ? "docker" : pod_at ? "containerd" : "";
            identity.container_id = part;
        } else if (!pod_at && under_kubepods) {
            if (auto uid = pod_uid(part)) {
                identity.pod_uid = *uid;
                pod_at = i;
            }
        }
        under_kubepods = under_kubepods || starts_with(part, "kubepods");
    }
    if (pod_at) {
        identity.qos_class = qos_class(parts, *pod_at);
    }
    if (identity.container_id.empty() && identity.pod_uid.empty()) {
        return std::nullopt;
    }
    return identity;
}

}  // namespace causeway::analysis
