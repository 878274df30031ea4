# Static files compiled into a library, so that a binary serves them without reading files at
# run time (the web console's HTML, CSS and JavaScript: docs/console.md).
#
# floe_embed_files(<target> <function> <base dir> <files…>) generates a .cc defining
# `std::span<const floe::EmbeddedFile> <function>()` (floe/core/embedded_file.h) with each
# file's path relative to <base dir> and its bytes, and adds it to <target>. Editing a file
# regenerates the .cc at the next build.
function(floe_embed_files target function base)
  set(out "${PROJECT_BINARY_DIR}/generated/embedded/${function}.cc")
  set(inputs "")
  foreach(file ${ARGN})
    list(APPEND inputs "${base}/${file}")
  endforeach()
  string(REPLACE ";" "|" files_arg "${ARGN}")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" "-DOUT=${out}" "-DFUNCTION=${function}" "-DBASE=${base}" "-DFILES=${files_arg}"
            -P "${PROJECT_SOURCE_DIR}/cmake/embed_files_script.cmake"
    DEPENDS ${inputs} "${PROJECT_SOURCE_DIR}/cmake/embed_files_script.cmake"
    COMMENT "Embedding ${function} (${ARGN})"
    VERBATIM)
  target_sources(${target} PRIVATE "${out}")
endfunction()
