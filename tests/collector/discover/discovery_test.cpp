#include "collector/discover/discovery.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "collector/discover/readiness.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::collector;
using causeway::testing::TempDir;

namespace {

void write_file(const std::string& path, const std::string& text) {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path) << text;
}

}  // namespace

TEST_CASE("CUDA libraries are recognised by file name") {
    CHECK(cuda_library_kind("/usr/local/cuda/lib64/libcudart.so.13") == CudaLibraryKind::kRuntime);
    CHECK(cuda_library_kind("/opt/venv/lib/libcudart.so.12.4.127") == CudaLibraryKind::kRuntime);
    CHECK(cuda_library_kind("libcudart.so") == CudaLibraryKind::kRuntime);
    CHECK(cuda_library_kind("/usr/lib/x86_64-linux-gnu/libcuda.so.1") == CudaLibraryKind::kDriver);
    CHECK(cuda_library_kind("/venv/lib/python3.11/site-packages/nvidia/nccl/lib/libnccl.so.2") ==
          CudaLibraryKind::kNccl);
    CHECK(cuda_library_kind("/usr/local/cuda/lib64/libnccl.so") == CudaLibraryKind::kNccl);
    CHECK_FALSE(cuda_library_kind("/usr/lib/libnccl_static.a"));
    CHECK_FALSE(cuda_library_kind("/usr/lib/libnccl-net.so"));
    CHECK_FALSE(cuda_library_kind("/usr/local/cuda/lib64/libcudart_static.a"));
    CHECK_FALSE(cuda_library_kind("/usr/local/cuda/lib64/libcudadevrt.a"));
    CHECK_FALSE(cuda_library_kind("/usr/local/cuda/lib64/stubs/libcuda.so"));
    CHECK_FALSE(cuda_library_kind("/usr/lib/libcudnn.so.9"));
}

TEST_CASE("mapped files are read from /proc/PID/maps text, once each, deleted ones skipped") {
    const char* maps =
        "55d0c0a00000-55d0c0a01000 r--p 00000000 fd:01 1234 /usr/bin/python3.11\n"
        "7f00000000-7f00001000 r-xp 00001000 fd:01 99 /opt/my env/lib/libcudart.so.12\n"
        "7f00001000-7f00002000 r--p 00002000 fd:01 99 /opt/my env/lib/libcudart.so.12\n"
        "7f00002000-7f00003000 rw-p 00000000 00:00 0 \n"
        "7f00003000-7f00004000 r-xp 00000000 fd:01 7 /tmp/old.so (deleted)\n"
        "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]\n";
    auto files = mapped_files(maps);
    REQUIRE(files.size() == 2);
    CHECK(files[0] == "/usr/bin/python3.11");
    CHECK(files[1] == "/opt/my env/lib/libcudart.so.12");
}

TEST_CASE("ldconfig -p output yields the CUDA libraries") {
    const char* output =
        "1234 libs found in cache `/etc/ld.so.cache'\n"
        "\tlibcudart.so.13 (libc6,x86-64) => /usr/local/cuda/lib64/libcudart.so.13\n"
        "\tlibcuda.so.1 (libc6,x86-64) => /usr/lib/x86_64-linux-gnu/libcuda.so.1\n"
        "\tlibc.so.6 (libc6,x86-64, OS ABI: Linux 3.2.0) => /lib/x86_64-linux-gnu/libc.so.6\n";
    auto paths = cuda_libraries_in_ldconfig(output);
    REQUIRE(paths.size() == 2);
    CHECK(paths[0] == "/usr/local/cuda/lib64/libcudart.so.13");
    CHECK(paths[1] == "/usr/lib/x86_64-linux-gnu/libcuda.so.1");
}

TEST_CASE("discovery finds a runtime at an odd path through a process's maps") {
    TempDir dir;
    std::string library = dir.file("odd place/libcudart.so.13");
    write_file(library, "not really an ELF file");
    write_file(dir.file("proc/4242/maps"), "7f0-7f1 r-xp 00000000 fd:01 99 " + library + "\n");
    DiscoveryRequest request;
    request.pids = {4242};
    request.proc_root = dir.file("proc");
    request.use_ldconfig = false;
    request.use_standard_folders = false;
    auto result = discover_cuda_libraries(request);
    REQUIRE(result.libraries.size() == 1);
    CHECK(result.libraries[0].path == std::filesystem::canonical(library).string());
    CHECK(result.libraries[0].kind == CudaLibraryKind::kRuntime);
    CHECK(result.libraries[0].found_by == dir.file("proc/4242/maps"));
    CHECK(result.searched == std::vector<std::string>{dir.file("proc/4242/maps")});
}

TEST_CASE("two names of one file are one library") {
    TempDir dir;
    write_file(dir.file("lib/libcudart.so.13.0.48"), "x");
    std::filesystem::create_symlink(dir.file("lib/libcudart.so.13.0.48"),
                                    dir.file("lib/libcudart.so.13"));
    DiscoveryRequest request;
    request.explicit_paths = {dir.file("lib/libcudart.so.13")};
    request.ld_library_path = dir.file("lib");
    request.use_ldconfig = false;
    request.use_standard_folders = false;
    auto result = discover_cuda_libraries(request);
    REQUIRE(result.libraries.size() == 1);
    CHECK(result.libraries[0].found_by == "--cuda-lib");
    CHECK(result.has(CudaLibraryKind::kRuntime));
    CHECK_FALSE(result.has(CudaLibraryKind::kDriver));
}

TEST_CASE("a --cuda-lib path that does not exist is a problem that names it") {
    DiscoveryRequest request;
    request.explicit_paths = {"/nonexistent/libcudart.so.13"};
    request.use_ldconfig = false;
    request.use_standard_folders = false;
    auto result = discover_cuda_libraries(request);
    CHECK(result.libraries.empty());
    REQUIRE(result.problems.size() == 1);
    CHECK(result.problems[0] == "--cuda-lib /nonexistent/libcudart.so.13 does not exist");
}

TEST_CASE("the installed CUDA 13 runtime is found through ldconfig or the standard folders") {
    // The CUDA toolkit is a dependency of the project, installed on every machine that runs it.
    INFO("the CUDA toolkit is missing: /usr/local/cuda/lib64/libcudart.so.13");
    REQUIRE(std::filesystem::exists("/usr/local/cuda/lib64/libcudart.so.13"));
    auto result = discover_cuda_libraries({});
    CHECK(result.has(CudaLibraryKind::kRuntime));
}

TEST_CASE("effective capabilities are parsed from /proc/PID/status") {
    CHECK(effective_capabilities("Name:\tx\nCapEff:\t000001ffffffffff\n") == 0x1ffffffffffULL);
    CHECK(effective_capabilities("Name:\tx\nCapEff:\t000000c000000000\n") == (3ULL << 38));
    CHECK(effective_capabilities("Name:\tx\n") == 0);
}

TEST_CASE("missing privileges name the missing capability and the fix") {
    CHECK(privilege_problem({true, false, false}).empty());
    CHECK(privilege_problem({false, true, true}).empty());
    auto problem = privilege_problem({false, true, false});
    CHECK(problem.find("missing CAP_PERFMON") != std::string::npos);
    CHECK(problem.find("sudo") != std::string::npos);
}

TEST_CASE("the readiness report describes this machine") {
    auto report = check_readiness();
    CHECK_FALSE(report.kernel_release.empty());
    CHECK(report.btf_present == std::filesystem::exists("/sys/kernel/btf/vmlinux"));
    CHECK(report.ready() == report.problems.empty());
    if (!report.libcudart_found) {
        REQUIRE_FALSE(report.warnings.empty());
        CHECK(report.warnings[0].find("looked in") != std::string::npos);
    }
}
