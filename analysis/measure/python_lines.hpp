#pragma once
// Which Python frames are the user's own: a PyTorch user wants to read their file and line, not
// the interpreter's, torch's or the standard library's. Library frames are kept (and folded by
// renderers); the innermost user frame is what leads.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "analysis/diagnose/causal_chain.hpp"
#include "analysis/model/trace_model.hpp"

namespace causeway::analysis {

// A file of installed packages (site-packages, dist-packages: torch, numpy, ...), of the
// standard library (.../lib/python3.X/...) or code without a file ('<frozen ...>', '<string>').
bool is_library_file(std::string_view file);
// What a library frame is folded under: the package ('torch', 'numpy'), 'stdlib' for the
// standard library and frozen modules; empty for a user file.
std::string library_package(std::string_view file);

// The frame that leads a Python stack (innermost first): the innermost user frame (a
// comprehension's frame gives way to the function that holds it), else the innermost frame
// with a file (then `library` is true in its CodeLine); nullopt when none. In a forked
// multiprocessing child the frames from BaseProcess._bootstrap outward are its parent's, inherited
// at the fork, and never lead.
std::optional<std::size_t> leading_frame(const std::vector<PythonFrame>& frames);

// "train.py:57 in train_step": the file's base name, the line when known, the function when known.
std::string describe_line(const CodeLine& line);

// A Python stack (innermost first) as lines for a person: "train.py:57 in train_step" for the
// user's frames, "[3 library frames: torch, stdlib]" for each run of library frames.
std::vector<std::string> folded_python_stack(const std::vector<PythonFrame>& frames);

// The leading line of one stack (leading_frame), without weights.
std::optional<CodeLine> stack_line(const std::vector<PythonFrame>& frames);

// Weighs the leading lines of many stacks: each stack adds its weight (ns) to its line.
class LineTally {
  public:
    void add(const std::vector<PythonFrame>& frames, std::int64_t weight_ns);
    // The user line with the most weight (ties: the most stacks, then the smallest file, line);
    // a library line only when no stack had a user frame. Its share is of all stacks' weight.
    std::optional<CodeLine> top() const;

  private:
    struct Sum {
        std::int64_t weight_ns = 0;
        std::int64_t stacks = 0;
        bool library = false;
    };
    std::map<std::tuple<std::string, std::int64_t, std::string>, Sum> lines_;
    std::int64_t weight_ns_ = 0;
    std::int64_t stacks_ = 0;
};

}  // namespace causeway::analysis
