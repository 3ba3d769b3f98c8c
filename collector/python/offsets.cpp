#include "collector/python/offsets.hpp"

#include <cstring>

namespace causeway::collector {

namespace {

// FRAME_OWNED_BY_CSTACK in pycore_frame.h of 3.12 and 3.13.
constexpr std::uint8_t kOwnedByCstack = 3;

PythonOffsets offsets_3_11() {
    PythonOffsets o;
    o.major = 3;
    o.minor = 11;
    o.walk.runtime_interpreters_head = 40;
    o.walk.interp_next = 0;
    o.walk.interp_threads_head = 16;
    o.walk.tstate_next = 8;
    o.walk.tstate_native_thread_id = 160;
    o.walk.tstate_frame = 56;  // cframe
    o.walk.cframe_current_frame = 8;
    o.walk.frame_code = 32;
    o.walk.frame_previous = 48;
    o.walk.frame_instr = 56;  // prev_instr
    o.walk.frame_owner = 69;
    o.walk.code_adaptive = 184;
    o.walk.code_firstlineno = 72;
    o.walk.owner_cstack = CW_PY_NO_OWNER;
    o.code_filename = 112;
    o.code_qualname = 128;
    o.code_linetable = 136;
    o.bytes_size = 16;
    o.bytes_data = 32;
    o.unicode_length = 16;
    o.unicode_state = 32;
    o.unicode_ascii_size = 48;  // 3.11 still has the wstr pointer
    o.unicode_compact_size = 72;
    return o;
}

PythonOffsets offsets_3_12() {
    PythonOffsets o = offsets_3_11();
    o.minor = 12;
    o.walk.interp_threads_head = 72;
    o.walk.tstate_native_thread_id = 144;
    o.walk.cframe_current_frame = 0;
    o.walk.frame_code = 0;
    o.walk.frame_previous = 8;
    o.walk.frame_owner = 70;
    o.walk.code_adaptive = 192;
    o.walk.code_firstlineno = 68;
    o.walk.owner_cstack = kOwnedByCstack;
    o.unicode_ascii_size = 40;
    o.unicode_compact_size = 56;
    return o;
}

PythonOffsets offsets_3_13() {
    PythonOffsets o = offsets_3_12();
    o.minor = 13;
    o.walk.runtime_interpreters_head = 632;
    o.walk.interp_next = 7264;
    o.walk.interp_threads_head = 7344;
    o.walk.tstate_native_thread_id = 160;
    o.walk.tstate_frame = 72;  // current_frame, no _PyCFrame any more
    o.walk.cframe_current_frame = CW_PY_NO_CFRAME;
    o.walk.code_adaptive = 200;
    return o;
}

// The 3.13 _Py_DebugOffsets, as uint64_t fields in declaration order (pycore_runtime.h).
namespace debug313 {
constexpr std::size_t kVersion = 1, kFreeThreaded = 2;  // after the 8-byte cookie
// runtime_state {size, finalizing, interpreters_head}
constexpr std::size_t kRuntimeInterpretersHead = 3 + 2;
// interpreter_state {size, id, next, threads_head, ...13 fields}
constexpr std::size_t kInterpreter = 6;
constexpr std::size_t kInterpNext = kInterpreter + 2, kInterpThreadsHead = kInterpreter + 3;
// thread_state {size, prev, next, interp, current_frame, thread_id, native_thread_id, ...9}
constexpr std::size_t kThread = kInterpreter + 13;
constexpr std::size_t kThreadNext = kThread + 2, kThreadCurrentFrame = kThread + 4,
                      kThreadNativeId = kThread + 6;
// interpreter_frame {size, previous, executable, instr_ptr, localsplus, owner}
constexpr std::size_t kFrame = kThread + 9;
constexpr std::size_t kFramePrevious = kFrame + 1, kFrameExecutable = kFrame + 2,
                      kFrameInstr = kFrame + 3, kFrameOwner = kFrame + 5;
// code_object {size, filename, name, qualname, linetable, firstlineno, argcount,
// localsplusnames, localspluskinds, co_code_adaptive}
constexpr std::size_t kCode = kFrame + 6;
constexpr std::size_t kCodeFilename = kCode + 1, kCodeQualname = kCode + 3,
                      kCodeLinetable = kCode + 4, kCodeFirstLine = kCode + 5,
                      kCodeAdaptive = kCode + 9;
// pyobject {size, ob_type}, type_object {4}, tuple_object {3}, list_object {3}, dict_object {3},
// float_object {2}, long_object {3}, bytes_object {size, ob_size, ob_sval},
// unicode_object {size, state, length, asciiobject_size}
constexpr std::size_t kObjectType = kCode + 10 + 1;
constexpr std::size_t kBytes = kCode + 10 + 2 + 4 + 3 + 3 + 3 + 2 + 3;
constexpr std::size_t kBytesSize = kBytes + 1, kBytesData = kBytes + 2;
constexpr std::size_t kUnicode = kBytes + 3;
constexpr std::size_t kUnicodeState = kUnicode + 1, kUnicodeLength = kUnicode + 2,
                      kUnicodeAsciiSize = kUnicode + 3;
constexpr std::size_t kFields = kUnicode + 4;
}  // namespace debug313

}  // namespace

std::optional<PythonOffsets> table_offsets(int major, int minor) {
    if (major != 3) {
        return std::nullopt;
    }
    switch (minor) {
        case 11:
            return offsets_3_11();
        case 12:
            return offsets_3_12();
        case 13:
            return offsets_3_13();
        default:
            return std::nullopt;
    }
}

std::string supported_versions() {
    return "3.11, 3.12, 3.13";
}

Result<PythonOffsets> debug_offsets(std::span<const std::uint8_t> bytes,
                                    std::uint32_t version_hex) {
    using namespace debug313;
    int major = static_cast<int>(version_hex >> 24),
        minor = static_cast<int>((version_hex >> 16) & 0xff);
    if (bytes.size() < 8 || std::memcmp(bytes.data(), "xdebugpy", 8) != 0) {
        return Error{"_PyRuntime does not start with the _Py_DebugOffsets cookie \"xdebugpy\""};
    }
    if (bytes.size() < kFields * 8) {
        return Error{"_Py_DebugOffsets is cut short (" + std::to_string(bytes.size()) +
                     " bytes, 3.13's are " + std::to_string(kFields * 8) + ")"};
    }
    auto field = [&](std::size_t index) {
        std::uint64_t value = 0;
        std::memcpy(&value, bytes.data() + index * 8, sizeof(value));
        return value;
    };
    if (field(kVersion) != version_hex) {
        return Error{"_Py_DebugOffsets names version " + std::to_string(field(kVersion) >> 24) +
                     "." + std::to_string((field(kVersion) >> 16) & 0xff) + ", not the binary's"};
    }
    if (field(kFreeThreaded) != 0) {
        return Error{"a free-threaded build (3." + std::to_string(minor) +
                     "t): its frames are not walked"};
    }
    auto table = table_offsets(major, minor);
    if (!table || minor != 13) {
        return Error{"the _Py_DebugOffsets layout of " + std::to_string(major) + "." +
                     std::to_string(minor) + " is not known to this build (it reads 3.13's)"};
    }
    PythonOffsets o = *table;
    const std::size_t u16_fields[] = {kRuntimeInterpretersHead,
                                      kInterpNext,
                                      kInterpThreadsHead,
                                      kThreadNext,
                                      kThreadCurrentFrame,
                                      kThreadNativeId,
                                      kFramePrevious,
                                      kFrameExecutable,
                                      kFrameInstr,
                                      kFrameOwner,
                                      kCodeFilename,
                                      kCodeQualname,
                                      kCodeLinetable,
                                      kCodeFirstLine,
                                      kCodeAdaptive,
                                      kObjectType,
                                      kBytesSize,
                                      kBytesData,
                                      kUnicodeState,
                                      kUnicodeLength,
                                      kUnicodeAsciiSize};
    for (std::size_t index : u16_fields) {
        if (field(index) > 0xffff) {
            return Error{"_Py_DebugOffsets field " + std::to_string(index) + " is " +
                         std::to_string(field(index)) + " bytes, beyond what a walk reads"};
        }
    }
    auto u16 = [&](std::size_t index) { return static_cast<std::uint16_t>(field(index)); };
    o.walk.runtime_interpreters_head = u16(kRuntimeInterpretersHead);
    o.walk.interp_next = u16(kInterpNext);
    o.walk.interp_threads_head = u16(kInterpThreadsHead);
    o.walk.tstate_next = u16(kThreadNext);
    o.walk.tstate_frame = u16(kThreadCurrentFrame);
    o.walk.tstate_native_thread_id = u16(kThreadNativeId);
    o.walk.frame_previous = u16(kFramePrevious);
    o.walk.frame_code = u16(kFrameExecutable);
    o.walk.frame_instr = u16(kFrameInstr);
    o.walk.frame_owner = u16(kFrameOwner);
    o.walk.code_firstlineno = u16(kCodeFirstLine);
    o.walk.code_adaptive = u16(kCodeAdaptive);
    o.code_filename = u16(kCodeFilename);
    o.code_qualname = u16(kCodeQualname);
    o.code_linetable = u16(kCodeLinetable);
    o.object_type = u16(kObjectType);
    o.bytes_size = u16(kBytesSize);
    o.bytes_data = u16(kBytesData);
    o.unicode_state = u16(kUnicodeState);
    o.unicode_length = u16(kUnicodeLength);
    // PyCompactUnicodeObject adds utf8_length and utf8 to PyASCIIObject.
    o.unicode_compact_size = static_cast<std::uint16_t>(u16(kUnicodeAsciiSize) + 16);
    o.unicode_ascii_size = u16(kUnicodeAsciiSize);
    if (o.walk.frame_code > CW_PY_FRAME_CHUNK - 8 ||
        o.walk.frame_previous > CW_PY_FRAME_CHUNK - 8 ||
        o.walk.frame_instr > CW_PY_FRAME_CHUNK - 8 || o.walk.frame_owner > CW_PY_FRAME_CHUNK - 1) {
        return Error{"_PyInterpreterFrame fields lie beyond the first " +
                     std::to_string(CW_PY_FRAME_CHUNK) + " bytes the kernel reads"};
    }
    return o;
}

}  // namespace causeway::collector
