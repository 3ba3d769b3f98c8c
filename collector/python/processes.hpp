#pragma once
// The traced processes' CPython interpreters as the collector knows them: which processes the
// kernel can walk (their entry in the python_procs map), the interpreter of each (to name its
// frames), and the processes that fall back to native frames, with the reason, for the
// data_quality table.

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "base/result.hpp"
#include "bpf/causeway_abi.h"
#include "collector/python/interpreter.hpp"
#include "tracedb/records.hpp"

namespace causeway::collector {

class PythonProcesses {
  public:
    // Puts a process's interpreter layout into the kernel's python_procs map.
    using Publish = std::function<Status(std::uint32_t tgid, const cw_python_process& layout)>;
    // `find` is find_python_interpreter, replaceable in tests.
    using Find = std::function<Result<std::optional<PythonInterpreter>>(int pid)>;
    explicit PythonProcesses(
        Publish publish, Find find = [](int pid) { return find_python_interpreter(pid); });

    // Looks at what process `tgid` runs now: at start, after an exec, after the loader changed
    // its link map (a libpython loaded late). A process already known to be readable is not
    // looked at again until it execs.
    Status inspect(std::uint32_t tgid);
    // A forked child runs its parent's interpreter (the kernel copied the parent's entry).
    void on_fork(std::uint32_t parent, std::uint32_t child);
    // A new program: its interpreter must be found again (inspect).
    void on_exec(std::uint32_t tgid);

    // The interpreter of a readable process, or nullptr.
    const PythonInterpreter* interpreter(std::uint32_t tgid) const;
    // The data_quality row of the processes whose interpreter cannot be read.
    tracedb::DataQualityRecord unreadable_record() const;

  private:
    Publish publish_;
    Find find_;
    std::map<std::uint32_t, PythonInterpreter> readable_;
    std::map<std::uint32_t, std::string> unreadable_;  // tgid -> why
};

}  // namespace causeway::collector
