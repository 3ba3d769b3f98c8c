# causeway_bpf_skeleton(<target> <name> <source.bpf.c> [DEPENDS headers...])
#
# Compiles one BPF C program with clang (-target bpf -g -O2), turns the object into a libbpf
# skeleton with `bpftool gen skeleton`, and defines <target>: an INTERFACE library whose include
# directory holds <name>.skel.h. Linking <target> also links libbpf (causeway_libbpf).
#
# vmlinux.h (the kernel's types, for CO-RE) is the one committed for the target architecture,
# bpf/vmlinux/<arch>/vmlinux.h, written from a kernel's BTF by scripts/regenerate-vmlinux.sh: libbpf
# relocates each field access to the running kernel's layout when it loads a program, so the build
# does not depend on the build host's kernel. It is on the BPF include path, next to the
# repository root (so sources include "bpf/causeway_abi.h") and the source's own folder. Headers
# listed after DEPENDS, and every header the compiler reports through its depfile, rebuild the
# skeleton when they change.

find_program(CAUSEWAY_BPFTOOL NAMES bpftool PATHS /usr/sbin /sbin /usr/local/sbin REQUIRED)
find_program(CAUSEWAY_BPF_CLANG NAMES clang clang-14 REQUIRED)
find_program(CAUSEWAY_LLVM_STRIP NAMES llvm-strip llvm-strip-14)
# The architecture's folder under bpf/vmlinux and its name in libbpf's __TARGET_ARCH_<name>.
if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64)$")
  set(CAUSEWAY_BPF_ARCH x86_64)
  set(CAUSEWAY_BPF_TARGET_ARCH x86)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
  set(CAUSEWAY_BPF_ARCH arm64)
  set(CAUSEWAY_BPF_TARGET_ARCH arm64)
else()
  message(FATAL_ERROR "The BPF programs have no port to ${CMAKE_SYSTEM_PROCESSOR}")
endif()
set(CAUSEWAY_VMLINUX_DIR ${PROJECT_SOURCE_DIR}/bpf/vmlinux/${CAUSEWAY_BPF_ARCH})
if(NOT EXISTS ${CAUSEWAY_VMLINUX_DIR}/vmlinux.h)
  message(FATAL_ERROR "No vmlinux.h is committed for ${CAUSEWAY_BPF_ARCH}: run "
                      "scripts/regenerate-vmlinux.sh on a ${CAUSEWAY_BPF_ARCH} machine whose "
                      "kernel has BTF (CONFIG_DEBUG_INFO_BTF=y)")
endif()

set(CAUSEWAY_BPF_GEN_DIR ${CMAKE_BINARY_DIR}/bpf-gen)

# libbpf for the programs that load the skeletons. Linked by name so that a fully static link
# (CAUSEWAY_STATIC_COLLECTOR) picks libbpf.a and its dependencies instead of shared objects.
if(NOT TARGET causeway_libbpf)
  add_library(causeway_libbpf INTERFACE)
  target_link_libraries(causeway_libbpf INTERFACE bpf elf z zstd)
endif()

function(causeway_bpf_skeleton target name source)
  cmake_parse_arguments(ARG "" "" "DEPENDS" ${ARGN})
  get_filename_component(source_abs ${source} ABSOLUTE)
  get_filename_component(source_dir ${source_abs} DIRECTORY)
  set(out_dir ${CAUSEWAY_BPF_GEN_DIR}/${name})
  set(object ${out_dir}/${name}.bpf.o)
  set(skeleton ${out_dir}/${name}.skel.h)
  set(headers)
  foreach(header ${ARG_DEPENDS})
    get_filename_component(header_abs ${header} ABSOLUTE)
    list(APPEND headers ${header_abs})
  endforeach()

  # -g gives the BTF that CO-RE and the skeleton need; the DWARF is stripped afterwards because
  # the skeleton embeds the whole object.
  set(strip_command)
  if(CAUSEWAY_LLVM_STRIP)
    set(strip_command COMMAND ${CAUSEWAY_LLVM_STRIP} -g ${object})
  endif()
  add_custom_command(
    OUTPUT ${object}
    COMMAND ${CMAKE_COMMAND} -E make_directory ${out_dir}
    COMMAND ${CAUSEWAY_BPF_CLANG} -target bpf -mcpu=v3 -g -O2 -D__TARGET_ARCH_${CAUSEWAY_BPF_TARGET_ARCH}
            -Wall -Wno-unused-function -Werror
            -I${CAUSEWAY_VMLINUX_DIR} -I${PROJECT_SOURCE_DIR} -I${source_dir}
            -MD -MF ${object}.d -c ${source_abs} -o ${object}
    ${strip_command}
    DEPENDS ${source_abs} ${headers} ${CAUSEWAY_VMLINUX_DIR}/vmlinux.h
    DEPFILE ${object}.d
    COMMENT "Compiling BPF program ${name}.bpf.o"
    VERBATIM)
  add_custom_command(
    OUTPUT ${skeleton}
    COMMAND sh -c "'${CAUSEWAY_BPFTOOL}' gen skeleton '${object}' name '${name}' > '${skeleton}.tmp' && mv '${skeleton}.tmp' '${skeleton}'"
    DEPENDS ${object}
    COMMENT "Generating BPF skeleton ${name}.skel.h"
    VERBATIM)
  add_custom_target(${target}_generate DEPENDS ${skeleton})

  add_library(${target} INTERFACE)
  add_dependencies(${target} ${target}_generate)
  target_include_directories(${target} INTERFACE ${out_dir})
  target_link_libraries(${target} INTERFACE causeway_libbpf)
endfunction()
