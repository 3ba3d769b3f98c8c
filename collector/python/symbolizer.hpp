#pragma once
// Names the Python frames the kernel recorded (code object address, instruction offset): reads
// each code object from the process's memory (/proc/PID/mem) once and caches its file, qualified
// name and line table, then decodes the line of every frame from that table.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "bpf/causeway_abi.h"
#include "collector/python/interpreter.hpp"
#include "tracedb/records.hpp"

namespace causeway::collector {

class PythonSymbolizer {
  public:
    explicit PythonSymbolizer(std::string proc_root = "/proc");
    // Frames of `stack` (innermost first) of process `tgid`, whose interpreter is `interpreter`.
    // A frame whose code object cannot be read keeps its address and offset, with no names.
    std::vector<tracedb::PythonFrameRecord> frames(std::uint32_t tgid,
                                                   const PythonInterpreter& interpreter,
                                                   const cw_python_stack& stack);
    // Frames whose code object could not be read (count).
    std::int64_t unresolved_frames() const { return unresolved_frames_; }

  private:
    struct Code {
        std::optional<std::string> file, function;
        std::vector<std::uint8_t> line_table;
        bool readable = false;
    };
    const Code& code(std::uint32_t tgid, const PythonInterpreter& interpreter,
                     const cw_python_frame& frame);

    std::string proc_root_;
    // (tgid, code address, co_firstlineno) -> what the code object says.
    std::map<std::tuple<std::uint32_t, std::uint64_t, std::uint32_t>, Code> codes_;
    std::int64_t unresolved_frames_ = 0;
};

}  // namespace causeway::collector
