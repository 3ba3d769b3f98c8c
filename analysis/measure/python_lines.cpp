#include "analysis/measure/python_lines.hpp"

#include <algorithm>
#include <array>

#include "analysis/model/saturating.hpp"

namespace causeway::analysis {
namespace {

constexpr std::array<std::string_view, 2> kPackageDirs = {"/site-packages/", "/dist-packages/"};

// The standard library: '/usr/lib/python3.11/threading.py',
// '/root/.pyenv/versions/3.12.1/lib/python3.12/queue.py'.
bool in_stdlib(std::string_view file) {
    auto at = file.find("/lib/python3");
    return at != std::string_view::npos;
}

std::string_view base_name(std::string_view file) {
    auto slash = file.rfind('/');
    return slash == std::string_view::npos ? file : file.substr(slash + 1);
}

}  // namespace

std::string library_package(std::string_view file) {
    for (std::string_view dir : kPackageDirs) {
        if (auto at = file.find(dir); at != std::string_view::npos) {
            std::string_view rest = file.substr(at + dir.size());
            std::string_view package = rest.substr(0, rest.find('/'));
            // A module at the top of site-packages ('six.py') is folded under its own name.
            if (auto dot = package.rfind(".py"); dot != std::string_view::npos && dot > 0) {
                package = package.substr(0, dot);
            }
            return std::string(package.empty() ? dir.substr(1, dir.size() - 2) : package);
        }
    }
    if (file.empty() || file.front() == '<' || in_stdlib(file)) {
        return "stdlib";
    }
    return {};
}

bool is_library_file(std::string_view file) {
    return !library_package(file).empty();
}

namespace {

// A comprehension runs in a frame of its own ('Dataset.__getitem__.<locals>.<genexpr>') on the
// line of the function that holds it, which is the name a person looks for.
bool is_comprehension(const PythonFrame& frame) {
    if (!frame.function) {
        return false;
    }
    for (std::string_view name : {"<genexpr>", "<listcomp>", "<dictcomp>", "<setcomp>"}) {
        if (frame.function->size() >= name.size() &&
            frame.function->compare(frame.function->size() - name.size(), name.size(), name) == 0) {
            return true;
        }
    }
    return false;
}

// Where a multiprocessing child (a DataLoader worker) starts running its own code. A forked
// child inherits its parent's frames below this one, down to the user's line that created the
// DataLoader: those say how the process began, not what it does.
bool is_process_start(const PythonFrame& frame) {
    return frame.function == "BaseProcess._bootstrap" && frame.file &&
           frame.file->find("multiprocessing/process.py") != std::string::npos;
}

}  // namespace

std::optional<std::size_t> leading_frame(const std::vector<PythonFrame>& frames) {
    std::optional<std::size_t> innermost_with_file;
    for (std::size_t i = 0; i < frames.size() && !is_process_start(frames[i]); ++i) {
        if (!frames[i].file) {
            continue;
        }
        if (!is_library_file(*frames[i].file)) {
            while (i + 1 < frames.size() && is_comprehension(frames[i]) &&
                   frames[i + 1].file == frames[i].file) {
                ++i;
            }
            return i;
        }
        if (!innermost_with_file) {
            innermost_with_file = i;
        }
    }
    return innermost_with_file;
}

std::string describe_line(const CodeLine& line) {
    std::string text(base_name(line.file));
    if (line.line > 0) {
        text += ":" + std::to_string(line.line);
    }
    if (!line.function.empty()) {
        text += " in " + line.function;
    }
    return text;
}

std::optional<CodeLine> stack_line(const std::vector<PythonFrame>& frames) {
    auto lead = leading_frame(frames);
    if (!lead) {
        return std::nullopt;
    }
    const PythonFrame& frame = frames[*lead];
    return CodeLine{.file = *frame.file,
                    .function = frame.function.value_or(""),
                    .line = frame.line.value_or(0),
                    .library = is_library_file(*frame.file),
                    .stacks = 1,
                    .stacks_total = 1,
                    .share = 1.0};
}

std::vector<std::string> folded_python_stack(const std::vector<PythonFrame>& frames) {
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < frames.size();) {
        std::string package = frames[i].file ? library_package(*frames[i].file) : "stdlib";
        if (package.empty()) {
            lines.push_back(describe_line({.file = *frames[i].file,
                                           .function = frames[i].function.value_or(""),
                                           .line = frames[i].line.value_or(0)}));
            ++i;
            continue;
        }
        std::vector<std::string> packages;
        std::size_t end = i;
        for (; end < frames.size(); ++end) {
            std::string next = frames[end].file ? library_package(*frames[end].file) : "stdlib";
            if (next.empty()) {
                break;
            }
            if (std::find(packages.begin(), packages.end(), next) == packages.end()) {
                packages.push_back(next);
            }
        }
        std::string text = "[" + std::to_string(end - i) +
                           (end - i == 1 ? " library frame: " : " library frames: ");
        for (std::size_t k = 0; k < packages.size(); ++k) {
            text += (k ? ", " : "") + packages[k];
        }
        lines.push_back(text + "]");
        i = end;
    }
    return lines;
}

void LineTally::add(const std::vector<PythonFrame>& frames, std::int64_t weight_ns) {
    auto lead = leading_frame(frames);
    if (!lead) {
        return;
    }
    const PythonFrame& frame = frames[*lead];
    Sum& sum = lines_[{*frame.file, frame.line.value_or(0), frame.function.value_or("")}];
    add_to(sum.weight_ns, weight_ns);
    ++sum.stacks;
    sum.library = is_library_file(*frame.file);
    add_to(weight_ns_, weight_ns);
    ++stacks_;
}

std::optional<CodeLine> LineTally::top() const {
    const std::pair<const std::tuple<std::string, std::int64_t, std::string>, Sum>* best = nullptr;
    // The user's own lines lead: a library line only when no stack had a user frame. Without
    // time behind the stacks (samples whose interval was not stored), they are counted.
    bool any_user = std::any_of(lines_.begin(), lines_.end(),
                                [](const auto& entry) { return !entry.second.library; });
    for (const auto& entry : lines_) {
        if (any_user && entry.second.library) {
            continue;
        }
        if (best == nullptr || entry.second.weight_ns > best->second.weight_ns ||
            (entry.second.weight_ns == best->second.weight_ns &&
             entry.second.stacks > best->second.stacks)) {
            best = &entry;
        }
    }
    if (best == nullptr) {
        return std::nullopt;
    }
    const auto& [file, line, function] = best->first;
    return CodeLine{
        .file = file,
        .function = function,
        .line = line,
        .library = best->second.library,
        .stacks = best->second.stacks,
        .stacks_total = stacks_,
        .share = weight_ns_ > 0
                     ? static_cast<double>(best->second.weight_ns) / static_cast<double>(weight_ns_)
                     : static_cast<double>(best->second.stacks) / static_cast<double>(stacks_)};
}

}  // namespace causeway::analysis
