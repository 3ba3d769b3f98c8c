/* Prints the structure offsets the collector's table holds (collector/python/offsets.cpp), as the
 * interpreter's own headers compute them: one "name value" per line. Built by
 * python_offsets_test.cpp against each installed interpreter's headers, with Py_BUILD_CORE for
 * the internal ones. */
#define Py_BUILD_CORE 1
#include <Python.h>
#include <stddef.h>
#include <stdio.h>

#include "internal/pycore_code.h"
#include "internal/pycore_frame.h"
#include "internal/pycore_interp.h"
#include "internal/pycore_runtime.h"

#define PRINT(name, value) printf("%s %lu\n", name, (unsigned long)(value))

int main(void) {
    PRINT("version_hex", PY_VERSION_HEX);
    PRINT("runtime_interpreters_head", offsetof(_PyRuntimeState, interpreters.head));
    PRINT("interp_next", offsetof(PyInterpreterState, next));
    PRINT("interp_threads_head", offsetof(PyInterpreterState, threads.head));
    PRINT("tstate_next", offsetof(PyThreadState, next));
    PRINT("tstate_native_thread_id", offsetof(PyThreadState, native_thread_id));
#if PY_VERSION_HEX >= 0x030D0000
    PRINT("tstate_frame", offsetof(PyThreadState, current_frame));
    PRINT("cframe_current_frame", 0xffff);
    PRINT("frame_code", offsetof(_PyInterpreterFrame, f_executable));
    PRINT("frame_instr", offsetof(_PyInterpreterFrame, instr_ptr));
#else
    PRINT("tstate_frame", offsetof(PyThreadState, cframe));
    PRINT("cframe_current_frame", offsetof(_PyCFrame, current_frame));
    PRINT("frame_code", offsetof(_PyInterpreterFrame, f_code));
    PRINT("frame_instr", offsetof(_PyInterpreterFrame, prev_instr));
#endif
    PRINT("frame_previous", offsetof(_PyInterpreterFrame, previous));
    PRINT("frame_owner", offsetof(_PyInterpreterFrame, owner));
#if PY_VERSION_HEX >= 0x030C0000
    PRINT("owner_cstack", FRAME_OWNED_BY_CSTACK);
#else
    PRINT("owner_cstack", 0xff);
#endif
    PRINT("code_adaptive", offsetof(PyCodeObject, co_code_adaptive));
    PRINT("code_firstlineno", offsetof(PyCodeObject, co_firstlineno));
    PRINT("code_filename", offsetof(PyCodeObject, co_filename));
    PRINT("code_qualname", offsetof(PyCodeObject, co_qualname));
    PRINT("code_linetable", offsetof(PyCodeObject, co_linetable));
    PRINT("object_type", offsetof(PyObject, ob_type));
    PRINT("bytes_size", offsetof(PyVarObject, ob_size));
    PRINT("bytes_data", offsetof(PyBytesObject, ob_sval));
    PRINT("unicode_length", offsetof(PyASCIIObject, length));
    PRINT("unicode_state", offsetof(PyASCIIObject, state));
    PRINT("unicode_ascii_size", sizeof(PyASCIIObject));
    PRINT("unicode_compact_size", sizeof(PyCompactUnicodeObject));
    return 0;
}
