// Containers and pods named from cgroup paths as docker, containerd, cri-o, podman and the
// kubelet lay them out, under the cgroupfs and the systemd drivers.
#include <catch2/catch.hpp>

#include <algorithm>

#include "analysis/model/container_identity.hpp"

using causeway::analysis::container_of;

namespace {

const std::string kId = "3f2a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8";
const std::string kPod = "7c1e0d9a-5b4f-4e2d-9c3b-2a1f0e9d8c7b";

std::string underscored(std::string uid) {
    std::replace(uid.begin(), uid.end(), '-', '_');
    return uid;
}

}  // namespace

TEST_CASE("docker containers, under either cgroup driver", "[analysis][container]") {
    for (const std::string& path : {"/docker/" + kId, "/system.slice/docker-" + kId + ".scope"}) {
        INFO(path);
        const auto identity = container_of(path);
        REQUIRE(identity);
        CHECK(identity->runtime == "docker");
        CHECK(identity->container_id == kId);
        CHECK(identity->pod_uid.empty());
        CHECK(identity->short_text() == "container 3f2a1b2c3d4e");
    }
}

TEST_CASE("a pod's containers, with the pod's UID and QoS class", "[analysis][container]") {
    struct Case {
        std::string path, runtime, qos;
    };
    const Case cases[] = {
        {"/kubepods/burstable/pod" + kPod + "/" + kId, "containerd", "Burstable"},
        {"/kubepods/pod" + kPod + "/" + kId, "containerd", "Guaranteed"},
        {"/kubepods/besteffort/pod" + kPod + "/crio-" + kId, "cri-o", "BestEffort"},
        {"/kubepods.slice/kubepods-burstable.slice/kubepods-burstable-pod" + underscored(kPod) +
             ".slice/cri-containerd-" + kId + ".scope",
         "containerd", "Burstable"},
        {"/kubepods.slice/kubepods-pod" + underscored(kPod) + ".slice/crio-" + kId + ".scope",
         "cri-o", "Guaranteed"},
    };
    for (const Case& c : cases) {
        INFO(c.path);
        const auto identity = container_of(c.path);
        REQUIRE(identity);
        CHECK(identity->runtime == c.runtime);
        CHECK(identity->container_id == kId);
        CHECK(identity->pod_uid == kPod);
        CHECK(identity->qos_class == c.qos);
        CHECK(identity->short_text() == "container 3f2a1b2c3d4e of pod " + kPod);
    }
    // The pod's own group (its pause process, or a process moved there): the pod alone.
    const auto pod = container_of("/kubepods/burstable/pod" + kPod);
    REQUIRE(pod);
    CHECK(pod->container_id.empty());
    CHECK(pod->short_text() == "pod " + kPod);
}

TEST_CASE("podman containers", "[analysis][container]") {
    for (const std::string& path :
         {"/libpod_parent/libpod-" + kId, "/machine.slice/libpod-" + kId + ".scope"}) {
        INFO(path);
        const auto identity = container_of(path);
        REQUIRE(identity);
        CHECK(identity->runtime == "podman");
        CHECK(identity->container_id == kId);
    }
}

TEST_CASE("plain groups, look-alikes and the root name no container", "[analysis][container]") {
    for (const std::string& path :
         {std::string("/"), std::string(""),
          std::string("/user.slice/user-0.slice/session-3.scope"),
          std::string("/causeway-quota-4242"), "/docker/" + kId.substr(1), "/docker/" + kId + "0",
          "/pod" + kPod, std::string("/kubepods/burstable/podnot-a-uid"),
          "/system.slice/docker-" + std::string(64, 'g') + ".scope"}) {
        INFO(path);
        CHECK_FALSE(container_of(path));
    }
    // Upper-case hex is not how runtimes write ids.
    std::string upper = kId;
    std::transform(upper.begin(), upper.end(), upper.begin(), ::toupper);
    CHECK_FALSE(container_of("/docker/" + upper));
}
