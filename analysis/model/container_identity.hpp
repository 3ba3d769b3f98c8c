#pragma once
// The container and Kubernetes pod a process runs in, read from its cgroup path as the container
// runtimes and the kubelet name their groups, under either cgroup driver:
//   docker      /docker/<id>                 system.slice/docker-<id>.scope
//   containerd  .../<id> under a pod         cri-containerd-<id>.scope
//   cri-o       .../crio-<id>                crio-<id>.scope
//   podman      /libpod_parent/libpod-<id>   machine.slice/libpod-<id>.scope
//   pod         /kubepods[/burstable|/besteffort]/pod<uid>/...
//               /kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod<uid_with_underscores>.slice/...
// A container id is 64 hex digits. A pod directly under kubepods is of QoS class Guaranteed.

#include <optional>
#include <string>
#include <string_view>

namespace causeway::analysis {

struct ContainerIdentity {
    std::string runtime;       // docker, containerd, cri-o, podman; "" when the path does not say
    std::string container_id;  // 64 hex digits; "" when only a pod was seen
    std::string pod_uid;       // with dashes, as Kubernetes writes it; "" outside a pod
    std::string qos_class;     // Guaranteed, Burstable or BestEffort; "" outside a pod

    // "container 3f2a1b2c3d4e of pod 7c1e0d9a-...", "pod 7c1e0d9a-...", "container 3f2a1b2c3d4e".
    std::string short_text() const;

    bool operator==(const ContainerIdentity&) const = default;
};

// std::nullopt when the path names no container and no pod (a plain group, or the root).
std::optional<ContainerIdentity> container_of(std::string_view cgroup_path);

// " in container 3f2a1b2c3d4e of pod 7c1e...", or "" for none: after a process's name.
std::string in_container_text(const std::optional<ContainerIdentity>& container);

}  // namespace causeway::analysis
