// The structure offsets the collector walks CPython with: the table against offsetof() compiled
// with each installed interpreter's own headers, _Py_DebugOffsets read from a 3.13 binary against
// the table, and finding the interpreter of a running process.
#include "collector/python/offsets.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>

#include "collector/python/interpreter.hpp"
#include "collector/symbols/elf_file.hpp"
#include "tests/support/temp_dir.hpp"

using namespace causeway::collector;
using causeway::testing::TempDir;

namespace {

struct HeaderSet {
    std::string include_dir;  // holds Python.h and internal/
    bool required;            // Debian's: the interpreter the collector is verified on
};

// Debian's python3.11-dev, and the headers of the other CPython builds of this machine.
std::vector<HeaderSet> header_sets() {
    std::vector<HeaderSet> sets = {{"/usr/include/python3.11", true}};
    for (const auto& [version, minor] :
         {std::pair{"3.11.7", "3.11"}, std::pair{"3.12.1", "3.12"}, std::pair{"3.13.0", "3.13"}}) {
        sets.push_back(
            {std::string("/root/.pyenv/versions/") + version + "/include/python" + minor, false});
    }
    return sets;
}

std::string run_and_read(const std::string& command) {
    std::string out;
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    char buffer[512];
    while (std::fgets(buffer, sizeof(buffer), pipe) != nullptr) {
        out += buffer;
    }
    INFO(command);
    REQUIRE(pclose(pipe) == 0);
    return out;
}

// name -> value printed by the probe built against `include_dir`.
std::map<std::string, unsigned long> probe_offsets(const std::string& include_dir,
                                                   const TempDir& dir) {
    std::string probe = dir.file("probe");
    run_and_read("cc -I" + include_dir + " -I" + include_dir + "/internal " +
                 CW_OFFSETS_PROBE_SOURCE + " -o " + probe + " 2>&1");
    std::map<std::string, unsigned long> values;
    std::istringstream lines(run_and_read(probe));
    std::string name;
    unsigned long value = 0;
    while (lines >> name >> value) {
        values[name] = value;
    }
    return values;
}

void check_table(const PythonOffsets& o, std::map<std::string, unsigned long>& c) {
    CHECK(o.walk.runtime_interpreters_head == c["runtime_interpreters_head"]);
    CHECK(o.walk.interp_next == c["interp_next"]);
    CHECK(o.walk.interp_threads_head == c["interp_threads_head"]);
    CHECK(o.walk.tstate_next == c["tstate_next"]);
    CHECK(o.walk.tstate_native_thread_id == c["tstate_native_thread_id"]);
    CHECK(o.walk.tstate_frame == c["tstate_frame"]);
    CHECK(o.walk.cframe_current_frame == c["cframe_current_frame"]);
    CHECK(o.walk.frame_code == c["frame_code"]);
    CHECK(o.walk.frame_previous == c["frame_previous"]);
    CHECK(o.walk.frame_instr == c["frame_instr"]);
    CHECK(o.walk.frame_owner == c["frame_owner"]);
    CHECK(o.walk.owner_cstack == c["owner_cstack"]);
    CHECK(o.walk.code_adaptive == c["code_adaptive"]);
    CHECK(o.walk.code_firstlineno == c["code_firstlineno"]);
    CHECK(o.code_filename == c["code_filename"]);
    CHECK(o.code_qualname == c["code_qualname"]);
    CHECK(o.code_linetable == c["code_linetable"]);
    CHECK(o.object_type == c["object_type"]);
    CHECK(o.bytes_size == c["bytes_size"]);
    CHECK(o.bytes_data == c["bytes_data"]);
    CHECK(o.unicode_length == c["unicode_length"]);
    CHECK(o.unicode_state == c["unicode_state"]);
    CHECK(o.unicode_ascii_size == c["unicode_ascii_size"]);
    CHECK(o.unicode_compact_size == c["unicode_compact_size"]);
}

std::vector<std::uint8_t> debug_offsets_of(const std::string& library) {
    auto file = ElfFile::open(library);
    REQUIRE(file);
    auto objects = file->data_objects({"_PyRuntime"});
    REQUIRE(objects.count("_PyRuntime") == 1);
    return file->read(objects.at("_PyRuntime").vaddr, kDebugOffsetsBytes);
}

const char* const kLibPython313 = "/root/.pyenv/versions/3.13.0/lib/libpython3.13.so.1.0";

}  // namespace

TEST_CASE("the offset table matches offsetof() in each installed interpreter's headers") {
    TempDir dir;
    for (const auto& set : header_sets()) {
        INFO("headers " << set.include_dir);
        if (!std::filesystem::exists(set.include_dir + "/internal/pycore_frame.h")) {
            REQUIRE_FALSE(set.required);  // Debian's python3.11-dev: scripts/install-deps.sh
            WARN("not on this machine, not checked: " << set.include_dir);
            continue;
        }
        auto compiled = probe_offsets(set.include_dir, dir);
        auto hex = static_cast<std::uint32_t>(compiled["version_hex"]);
        auto table =
            table_offsets(static_cast<int>(hex >> 24), static_cast<int>((hex >> 16) & 0xff));
        REQUIRE(table);
        check_table(*table, compiled);
    }
}

TEST_CASE("versions without a table entry have none") {
    CHECK_FALSE(table_offsets(3, 10));
    CHECK_FALSE(table_offsets(3, 14));
    CHECK_FALSE(table_offsets(2, 7));
    CHECK(supported_versions() == "3.11, 3.12, 3.13");
}

TEST_CASE("_Py_DebugOffsets of a 3.13 binary give the table's offsets") {
    if (!std::filesystem::exists(kLibPython313)) {
        WARN("no CPython 3.13 on this machine: " << kLibPython313);
        return;
    }
    auto bytes = debug_offsets_of(kLibPython313);
    auto from_binary = debug_offsets(bytes, 0x030d00f0);
    REQUIRE(from_binary);
    auto table = table_offsets(3, 13);
    REQUIRE(table);
    CHECK(std::memcmp(&from_binary->walk, &table->walk, sizeof(cw_python_process)) == 0);
    CHECK(from_binary->code_filename == table->code_filename);
    CHECK(from_binary->code_qualname == table->code_qualname);
    CHECK(from_binary->code_linetable == table->code_linetable);
    CHECK(from_binary->unicode_ascii_size == table->unicode_ascii_size);
    CHECK(from_binary->unicode_compact_size == table->unicode_compact_size);

    SECTION("a version other than the binary's is refused") {
        auto other = debug_offsets(bytes, 0x030d01f0);
        REQUIRE_FALSE(other);
        CHECK(other.error().message.find("not the binary's") != std::string::npos);
    }
    SECTION("a free-threaded build is refused") {
        bytes[16] = 1;  // free_threaded
        auto free_threaded = debug_offsets(bytes, 0x030d00f0);
        REQUIRE_FALSE(free_threaded);
        CHECK(free_threaded.error().message.find("free-threaded") != std::string::npos);
    }
}

TEST_CASE("debug offsets without the cookie, cut short or of an unknown layout are refused") {
    std::vector<std::uint8_t> bytes(kDebugOffsetsBytes, 0);
    auto no_cookie = debug_offsets(bytes, 0x030d00f0);
    REQUIRE_FALSE(no_cookie);
    CHECK(no_cookie.error().message.find("xdebugpy") != std::string::npos);
    std::memcpy(bytes.data(), "xdebugpy", 8);
    auto short_bytes = debug_offsets(std::span(bytes).first(64), 0x030d00f0);
    REQUIRE_FALSE(short_bytes);
    CHECK(short_bytes.error().message.find("cut short") != std::string::npos);
    std::uint64_t version = 0x030e00f0;
    std::memcpy(bytes.data() + 8, &version, sizeof(version));
    auto newer = debug_offsets(bytes, 0x030e00f0);
    REQUIRE_FALSE(newer);
    CHECK(newer.error().message.find("3.14 is not known") != std::string::npos);
}

TEST_CASE("only files named like an interpreter are opened") {
    CHECK(looks_like_python("/usr/bin/python3.11"));
    CHECK(looks_like_python("/usr/bin/python3"));
    CHECK(looks_like_python("/root/.pyenv/versions/3.13.0/lib/libpython3.13.so.1.0"));
    CHECK_FALSE(looks_like_python("/tmp/run/python.db-shm"));
    CHECK_FALSE(looks_like_python("/usr/lib/python3.11/lib-dynload/_ctypes.cpython-311.so"));
    CHECK_FALSE(looks_like_python("/usr/lib/libtorch_python.so"));
    CHECK_FALSE(looks_like_python("/usr/bin/pythonista"));
}

TEST_CASE("the interpreter of a running Debian python3 is found with its version and runtime") {
    int to_child[2];
    REQUIRE(pipe(to_child) == 0);
    pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
        dup2(to_child[0], STDIN_FILENO);
        close(to_child[1]);
        execl("/usr/bin/python3", "python3", "-c", "import sys; sys.stdin.read()", nullptr);
        _exit(127);
    }
    close(to_child[0]);
    // The interpreter is mapped from exec on; poll until the process has execed.
    causeway::Result<std::optional<PythonInterpreter>> found = std::optional<PythonInterpreter>{};
    for (int attempt = 0; attempt < 2000 && found && !*found; ++attempt) {
        found = find_python_interpreter(pid);
        if (found && !*found) {
            usleep(5000);
        }
    }
    close(to_child[1]);
    int status = 0;
    waitpid(pid, &status, 0);
    REQUIRE(found);
    REQUIRE(*found);
    const PythonInterpreter& python = **found;
    CHECK(python.path == "/usr/bin/python3.11");
    CHECK(python.version().rfind("3.11.", 0) == 0);
    CHECK(python.offsets_source == "table");
    // Debian's python3.11 is not position independent: the symbol's address is where it lies.
    auto file = ElfFile::open("/usr/bin/python3.11");
    REQUIRE(file);
    CHECK_FALSE(file->position_independent());
    auto objects = file->data_objects({"_PyRuntime", "PyCode_Type"});
    CHECK(python.runtime_addr == objects.at("_PyRuntime").vaddr);
    CHECK(python.code_type_addr == objects.at("PyCode_Type").vaddr);
}
