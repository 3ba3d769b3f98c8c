# causeway_bpf_skeleton(<target> <name> <source.bpf.c> [DEPENDS headers...])
#
# Compiles one BPF C program with clang (-target bpf -g -O2), turns the object into a libbpf
# skeleton with `bpftool gen skeleton`, and defines <target>: an INTERFACE library whose include
# directory holds <name>.skel.h. Linking <target> also links libbpf (causeway_libbpf).
#
# vmlinux.h (the kernel's types, for CO-RE) is generated once per build tree from the running
# kernel's BTF and is on the BPF include path, next to the repository root (so sources include
# "bpf/causeway_abi.h") and the source's own folder. Headers listed after DEPENDS, and every
# header the compiler reports through its depfile, rebuild the skeleton when they change.

find_program(CAUSEWAY_BPFTOOL NAMES bpftool PATHS /usr/sbin /sbin /usr/local/sbin REQUIRED)
find_program(CAUSEWAY_BPF_CLANG NAMES clang clang-14 REQUIRED)
find_program(CAUSEWAY_LLVM_STRIP NAMES llvm-strip llvm-strip-14)
set(CAUSEWAY_VMLINUX_BTF /sys/kernel/btf/vmlinux
    CACHE FILEPATH "Kernel BTF from which vmlinux.h is generated for the BPF programs")

set(CAUSEWAY_BPF_GEN_DIR ${CMAKE_BINARY_DIR}/bpf-gen)

# libbpf for the programs that load the skeletons. Linked by name so that a fully static link
# (CAUSEWAY_STATIC_COLLECTOR) picks libbpf.a and its dependencies instead of shared objects.
if(NOT TARGET causeway_libbpf)
  add_library(causeway_libbpf INTERFACE)
  target_link_libraries(causeway_libbpf INTERFACE bpf elf z zstd)
endif()

function(_causeway_vmlinux_header out_var)
  set(vmlinux_h ${CAUSEWAY_BPF_GEN_DIR}/vmlinux/vmlinux.h)
  if(NOT TARGET causeway_vmlinux_h)
    if(NOT EXISTS ${CAUSEWAY_VMLINUX_BTF})
      message(FATAL_ERROR "Kernel BTF ${CAUSEWAY_VMLINUX_BTF} not found: the BPF programs need a "
                          "kernel built with CONFIG_DEBUG_INFO_BTF=y (or set "
                          "-DCAUSEWAY_VMLINUX_BTF=<file> to a BTF file of the target kernel)")
    endif()
    add_custom_command(
      OUTPUT ${vmlinux_h}
      COMMAND ${CMAKE_COMMAND} -E make_directory ${CAUSEWAY_BPF_GEN_DIR}/vmlinux
      COMMAND sh -c "'${CAUSEWAY_BPFTOOL}' btf dump file '${CAUSEWAY_VMLINUX_BTF}' format c > '${vmlinux_h}.tmp' && mv '${vmlinux_h}.tmp' '${vmlinux_h}'"
      COMMENT "Generating vmlinux.h from ${CAUSEWAY_VMLINUX_BTF}"
      VERBATIM)
    add_custom_target(causeway_vmlinux_h DEPENDS ${vmlinux_h})
  endif()
  set(${out_var} ${vmlinux_h} PARENT_SCOPE)
endfunction()

function(causeway_bpf_skeleton target name source)
  cmake_parse_arguments(ARG "" "" "DEPENDS" ${ARGN})
  _causeway_vmlinux_header(vmlinux_h)
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
    COMMAND ${CAUSEWAY_BPF_CLANG} -target bpf -mcpu=v3 -g -O2 -D__TARGET_ARCH_x86
            -Wall -Wno-unused-function -Werror
            -I${CAUSEWAY_BPF_GEN_DIR}/vmlinux -I${PROJECT_SOURCE_DIR} -I${source_dir}
            -MD -MF ${object}.d -c ${source_abs} -o ${object}
    ${strip_command}
    DEPENDS ${source_abs} ${headers} ${vmlinux_h} causeway_vmlinux_h
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
