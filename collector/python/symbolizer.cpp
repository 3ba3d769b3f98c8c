#include "collector/python/symbolizer.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cstring>

#include "base/unique_fd.hpp"
#include "collector/python/line_table.hpp"

namespace causeway::collector {

namespace {

constexpr std::size_t kMaxTextBytes = 4096;          // longest file or function name read (bytes)
constexpr std::size_t kMaxLineTableBytes = 1 << 20;  // largest co_linetable read (bytes)

// PyASCIIObject.state bits, the same in 3.11 to 3.13: interned:2, kind:3, compact:1, ascii:1.
constexpr unsigned kKindShift = 2, kKindMask = 7, kCompactBit = 1u << 5, kAsciiBit = 1u << 6;

class ProcessMemory {
  public:
    ProcessMemory(const std::string& proc_root, std::uint32_t tgid)
        : fd_(::open((proc_root + "/" + std::to_string(tgid) + "/mem").c_str(),
                     O_RDONLY | O_CLOEXEC)) {}
    bool read(std::uint64_t address, void* out, std::size_t size) const {
        return fd_ && ::pread(fd_.get(), out, size, static_cast<off_t>(address)) ==
                          static_cast<ssize_t>(size);
    }
    template <class T>
    std::optional<T> value(std::uint64_t address) const {
        T out{};
        return read(address, &out, sizeof(out)) ? std::optional<T>(out) : std::nullopt;
    }

  private:
    UniqueFd fd_;
};

void append_utf8(std::string& out, std::uint32_t code_point) {
    if (code_point < 0x80) {
        out += static_cast<char>(code_point);
    } else if (code_point < 0x800) {
        out += static_cast<char>(0xc0 | (code_point >> 6));
        out += static_cast<char>(0x80 | (code_point & 0x3f));
    } else if (code_point < 0x10000) {
        out += static_cast<char>(0xe0 | (code_point >> 12));
        out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (code_point & 0x3f));
    } else {
        out += static_cast<char>(0xf0 | (code_point >> 18));
        out += static_cast<char>(0x80 | ((code_point >> 12) & 0x3f));
        out += static_cast<char>(0x80 | ((code_point >> 6) & 0x3f));
        out += static_cast<char>(0x80 | (code_point & 0x3f));
    }
}

// A str object as UTF-8: compact strings only (every name the compiler makes is one).
std::optional<std::string> read_str(const ProcessMemory& memory, const PythonOffsets& o,
                                    std::uint64_t address) {
    auto length = memory.value<std::int64_t>(address + o.unicode_length);
    auto state = memory.value<std::uint32_t>(address + o.unicode_state);
    if (!length || !state || *length < 0 || (*state & kCompactBit) == 0) {
        return std::nullopt;
    }
    bool ascii = (*state & kAsciiBit) != 0;
    unsigned kind = (*state >> kKindShift) & kKindMask;  // bytes per character
    if (kind != 1 && kind != 2 && kind != 4) {
        return std::nullopt;
    }
    std::size_t count = std::min<std::size_t>(static_cast<std::size_t>(*length), kMaxTextBytes);
    std::vector<std::uint8_t> raw(count * kind);
    if (!memory.read(address + (ascii ? o.unicode_ascii_size : o.unicode_compact_size), raw.data(),
                     raw.size())) {
        return std::nullopt;
    }
    std::string text;
    for (std::size_t i = 0; i < count; ++i) {
        std::uint32_t code_point = 0;
        std::memcpy(&code_point, raw.data() + i * kind, kind);
        append_utf8(text, code_point);
    }
    return text;
}

std::optional<std::vector<std::uint8_t>> read_bytes(const ProcessMemory& memory,
                                                    const PythonOffsets& o, std::uint64_t address) {
    auto size = memory.value<std::int64_t>(address + o.bytes_size);
    if (!size || *size < 0 || static_cast<std::size_t>(*size) > kMaxLineTableBytes) {
        return std::nullopt;
    }
    std::vector<std::uint8_t> bytes(static_cast<std::size_t>(*size));
    if (!bytes.empty() && !memory.read(address + o.bytes_data, bytes.data(), bytes.size())) {
        return std::nullopt;
    }
    return bytes;
}

}  // namespace

PythonSymbolizer::PythonSymbolizer(std::string proc_root) : proc_root_(std::move(proc_root)) {}

const PythonSymbolizer::Code& PythonSymbolizer::code(std::uint32_t tgid,
                                                     const PythonInterpreter& interpreter,
                                                     const cw_python_frame& frame) {
    auto key = std::make_tuple(tgid, frame.code, frame.first_line);
    auto cached = codes_.find(key);
    if (cached != codes_.end()) {
        return cached->second;
    }
    Code& code = codes_[key];
    ProcessMemory memory(proc_root_, tgid);
    const PythonOffsets& o = interpreter.offsets;
    // Still a code object? (Its address may have been freed and reused since the walk.)
    auto type = memory.value<std::uint64_t>(frame.code + o.object_type);
    auto first_line = memory.value<std::int32_t>(frame.code + o.walk.code_firstlineno);
    if (!type || (interpreter.code_type_addr != 0 && *type != interpreter.code_type_addr) ||
        !first_line || static_cast<std::uint32_t>(*first_line) != frame.first_line) {
        return code;
    }
    auto pointer = [&](std::uint16_t offset) {
        return memory.value<std::uint64_t>(frame.code + offset).value_or(0);
    };
    code.file = read_str(memory, o, pointer(o.code_filename));
    code.function = read_str(memory, o, pointer(o.code_qualname));
    code.line_table =
        read_bytes(memory, o, pointer(o.code_linetable)).value_or(std::vector<std::uint8_t>{});
    code.readable = code.file.has_value() && code.function.has_value();
    return code;
}

std::vector<tracedb::PythonFrameRecord> PythonSymbolizer::frames(
    std::uint32_t tgid, const PythonInterpreter& interpreter, const cw_python_stack& stack) {
    std::vector<tracedb::PythonFrameRecord> frames;
    std::uint32_t depth = std::min<std::uint32_t>(stack.depth, CW_PY_MAX_FRAMES);
    for (std::uint32_t i = 0; i < depth; ++i) {
        const cw_python_frame& raw = stack.frames[i];
        tracedb::PythonFrameRecord frame;
        frame.depth = i;
        frame.code_address = static_cast<std::int64_t>(raw.code);
        frame.instr_offset = raw.instr_offset;
        frame.first_line = static_cast<std::int64_t>(raw.first_line);
        const Code& code = this->code(tgid, interpreter, raw);
        if (code.readable) {
            frame.file = code.file;
            frame.function = code.function;
            if (auto line = line_for_offset(code.line_table, static_cast<int>(raw.first_line),
                                            raw.instr_offset)) {
                frame.line = *line;
            }
        } else {
            ++unresolved_frames_;
        }
        frames.push_back(std::move(frame));
    }
    return frames;
}

}  // namespace causeway::collector
