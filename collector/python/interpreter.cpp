#include "collector/python/interpreter.hpp"

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

#include "collector/symbols/elf_file.hpp"
#include "collector/symbols/stack_symbolizer.hpp"

namespace causeway::collector {

namespace {

std::string version_text(std::uint32_t hex) {
    return std::to_string(hex >> 24) + "." + std::to_string((hex >> 16) & 0xff) + "." +
           std::to_string((hex >> 8) & 0xff);
}

// The offsets of an interpreter: its own _Py_DebugOffsets when it has them, else the table.
Result<PythonOffsets> offsets_of(const ElfFile& file, std::uint64_t runtime_vaddr,
                                 std::uint32_t version_hex, std::string& source) {
    int major = static_cast<int>(version_hex >> 24);
    int minor = static_cast<int>((version_hex >> 16) & 0xff);
    if (major == 3 && minor >= 13) {
        auto bytes = file.read(runtime_vaddr, kDebugOffsetsBytes);
        auto from_binary = debug_offsets(bytes, version_hex);
        if (!from_binary) {
            return Error{"CPython " + version_text(version_hex) + " in " + file.path() + ": " +
                         from_binary.error().message};
        }
        source = "_Py_DebugOffsets";
        return from_binary;
    }
    auto table = table_offsets(major, minor);
    if (!table) {
        return Error{"CPython " + version_text(version_hex) + " in " + file.path() +
                     ": no structure offsets for this version (supported: " + supported_versions() +
                     ")"};
    }
    source = "table";
    return *table;
}

// The interpreter in one mapped file, found at `mapping`.
Result<std::optional<PythonInterpreter>> interpreter_in(const Mapping& mapping) {
    auto file = ElfFile::open(mapping.path);
    if (!file) {
        return std::optional<PythonInterpreter>{};  // not ELF: not the interpreter's file
    }
    auto objects = file->data_objects({"_PyRuntime", "Py_Version", "PyCode_Type"});
    auto runtime = objects.find("_PyRuntime");
    if (runtime == objects.end()) {
        return std::optional<PythonInterpreter>{};  // no runtime state: not the interpreter's file
    }
    auto version = objects.find("Py_Version");
    if (version == objects.end()) {
        return Error{"CPython in " + mapping.path +
                     " exports no Py_Version: a version before 3.11 (supported: " +
                     supported_versions() + ")"};
    }
    auto version_bytes = file->read(version->second.vaddr, 4);
    if (version_bytes.size() < 4) {
        return Error{"cannot read Py_Version from " + mapping.path};
    }
    PythonInterpreter interpreter;
    interpreter.path = mapping.path;
    interpreter.version_hex = static_cast<std::uint32_t>(version_bytes[0]) |
                              static_cast<std::uint32_t>(version_bytes[1]) << 8 |
                              static_cast<std::uint32_t>(version_bytes[2]) << 16 |
                              static_cast<std::uint32_t>(version_bytes[3]) << 24;
    auto offsets = offsets_of(*file, runtime->second.vaddr, interpreter.version_hex,
                              interpreter.offsets_source);
    if (!offsets) {
        return offsets.error();
    }
    interpreter.offsets = *offsets;
    auto base = file->load_base(mapping.start, mapping.file_offset);
    if (!base) {
        return Error{"cannot tell where " + mapping.path + " is loaded (its mapping at offset " +
                     std::to_string(mapping.file_offset) + " matches no segment)"};
    }
    interpreter.runtime_addr = *base + runtime->second.vaddr;
    std::uint64_t runtime_size = runtime->second.size_bytes;
    interpreter.runtime_size =
        runtime_size <= UINT32_MAX ? static_cast<std::uint32_t>(runtime_size) : 0;
    auto code_type = objects.find("PyCode_Type");
    interpreter.code_type_addr = code_type == objects.end() ? 0 : *base + code_type->second.vaddr;
    return std::optional<PythonInterpreter>{interpreter};
}

}  // namespace

std::string PythonInterpreter::version() const {
    return version_text(version_hex);
}

bool looks_like_python(const std::string& path) {
    std::string name = path.substr(path.rfind('/') + 1);
    for (const char* prefix : {"python", "libpython"}) {
        std::string_view start(prefix);
        // A version follows: python3.11, libpython3.12.so.1.0 (not python.db-shm: opening a file
        // that its owner locks would drop the owner's POSIX locks on it).
        if (name.rfind(start, 0) == 0 && name.size() > start.size() &&
            std::isdigit(static_cast<unsigned char>(name[start.size()])) != 0) {
            return true;
        }
    }
    return false;
}

Result<std::optional<PythonInterpreter>> find_python_interpreter(int pid,
                                                                 const std::string& proc_root) {
    std::ifstream in(proc_root + "/" + std::to_string(pid) + "/maps");
    if (!in) {
        return std::optional<PythonInterpreter>{};  // gone: nothing to walk
    }
    std::stringstream text;
    text << in.rdbuf();
    std::set<std::string> tried;
    for (const auto& mapping : parse_mappings(text.str())) {
        // The lowest mapping of each file comes first in /proc/PID/maps.
        if (!looks_like_python(mapping.path) || !tried.insert(mapping.path).second) {
            continue;
        }
        auto found = interpreter_in(mapping);
        if (!found || *found) {
            return found;
        }
    }
    return std::optional<PythonInterpreter>{};
}

}  // namespace causeway::collector
