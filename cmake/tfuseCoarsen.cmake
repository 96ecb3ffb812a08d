# tfuse_coarsen(): generate thread-coarsened CUDA sources at build time.
#
#   tfuse_coarsen(<out-var>
#                 SOURCES <file.cu>...
#                 FACTOR <K>|auto
#                 [MODE block|thread]
#                 [DIM x|y|z]
#                 [MAPPING stride|consecutive]
#                 [KERNELS <name>...]
#                 [ALL_KERNELS]
#                 [KEEP_GOING]
#                 [CHECK]
#                 [OPTIONS <extra tfuse arguments>...]
#                 [OUTPUT_DIR <dir>])
#
# For each input, adds a custom command that runs
#
#   tfuse -factor K [-mode M] [-dim D] [-mapping P] [-kernel NAME]...
#         [-all-kernels] [-keep-going] [-check]
#         [OPTIONS...] <input> -o <OUTPUT_DIR>/<stem>.tfuse.k<K>[.<tags>].cu
#
# One command per file: the build tool runs them in parallel, as many as it
# runs compilations (Ninja's -j), so a large tree scales with the build.
# ALL_KERNELS coarsens every kernel the file defines; KEEP_GOING leaves a
# kernel tfuse cannot coarsen, or the whole file if it cannot be parsed,
# as it was (with a warning), so the generated file always exists.
#
# and sets <out-var> (in the caller's scope) to the list of generated files,
# one per input, in the order of SOURCES, ready for any CUDA target:
#
#   tfuse_coarsen(gen SOURCES saxpy.cu FACTOR 4)
#   add_executable(saxpy_k4 ${gen})
#
# FACTOR auto runs `tfuse -factor auto` (each kernel emitted once per
# candidate, the choice made at run time): the output is
# <stem>.tfuse.kauto[.<tags>].cu, and the target must link tfuse::tune
# (target_link_libraries(app PRIVATE tfuse::tune)); it cannot be combined
# with CHECK.
#
# <stem> is the input's name without its last extension; <tags> name the
# MODE, DIM and MAPPING given and `check` for CHECK, in that order (none for
# a plain call: saxpy.cu FACTOR 4 -> saxpy.tfuse.k4.cu; MODE thread DIM y ->
# saxpy.tfuse.k4.thread.y.cu).  OUTPUT_DIR defaults to
# CMAKE_CURRENT_BINARY_DIR; two calls that would write the same file (for
# instance the same input with different KERNELS or OPTIONS) are an error:
# give one of them another OUTPUT_DIR.  Relative SOURCES are relative to
# CMAKE_CURRENT_SOURCE_DIR.
# Use <out-var> in targets of the same directory (CMake sees a custom
# command's outputs as generated sources only in the directory that adds it).
#
# A generated file is regenerated when its input or the tfuse executable
# changes, and when the tfuse command line changes.  The input's directory
# is added to the generated file's include path (quoted includes of the
# original keep working); the tfuse parser itself sees only what OPTIONS
# pass it (-I DIR, -D NAME=V, -cuda-path DIR, `--` clang args).
#
# The tfuse executable is the target named by TFUSE_EXECUTABLE (set by
# tfuseConfig.cmake to the imported tfuse::tfuse, and by tfuse's own
# CMakeLists.txt to the in-tree `tfuse` target); when that variable is not
# visible in the calling scope, tfuse::tfuse or tfuse, whichever is a
# target, is used.

include_guard(GLOBAL)

function(tfuse_coarsen out_var)
  set(_opts CHECK ALL_KERNELS KEEP_GOING)
  set(_one FACTOR MODE DIM MAPPING OUTPUT_DIR)
  set(_multi SOURCES KERNELS OPTIONS)
  cmake_parse_arguments(PARSE_ARGV 1 _tf "${_opts}" "${_one}" "${_multi}")

  if(_tf_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tfuse_coarsen: unknown arguments: ${_tf_UNPARSED_ARGUMENTS}")
  endif()
  foreach(_kw IN LISTS _tf_KEYWORDS_MISSING_VALUES)
    if(NOT _kw STREQUAL "OPTIONS" AND NOT _kw STREQUAL "KERNELS")
      message(FATAL_ERROR "tfuse_coarsen: ${_kw} needs a value")
    endif()
  endforeach()
  if(NOT _tf_SOURCES)
    message(FATAL_ERROR "tfuse_coarsen: SOURCES <files...> is required")
  endif()
  if(NOT DEFINED _tf_FACTOR)
    message(FATAL_ERROR "tfuse_coarsen: FACTOR <K> is required")
  endif()
  if(NOT _tf_FACTOR MATCHES "^([1-9][0-9]*|auto)$")
    message(FATAL_ERROR "tfuse_coarsen: FACTOR must be an integer >= 1 or auto, got '${_tf_FACTOR}'")
  endif()
  if(_tf_FACTOR STREQUAL "auto" AND _tf_CHECK)
    message(FATAL_ERROR "tfuse_coarsen: FACTOR auto and CHECK cannot be used together")
  endif()
  if(DEFINED _tf_MODE AND NOT _tf_MODE MATCHES "^(block|thread)$")
    message(FATAL_ERROR "tfuse_coarsen: MODE must be block or thread, got '${_tf_MODE}'")
  endif()
  if(DEFINED _tf_DIM AND NOT _tf_DIM MATCHES "^[xyz]$")
    message(FATAL_ERROR "tfuse_coarsen: DIM must be x, y or z, got '${_tf_DIM}'")
  endif()
  if(DEFINED _tf_MAPPING AND NOT _tf_MAPPING MATCHES "^(stride|consecutive)$")
    message(FATAL_ERROR "tfuse_coarsen: MAPPING must be stride or consecutive, got '${_tf_MAPPING}'")
  endif()

  # Which tfuse to run.
  set(_exe "${TFUSE_EXECUTABLE}")
  if(NOT _exe)
    if(TARGET tfuse::tfuse)
      set(_exe tfuse::tfuse)
    elseif(TARGET tfuse)
      set(_exe tfuse)
    endif()
  endif()
  if(NOT _exe OR NOT TARGET "${_exe}")
    message(FATAL_ERROR "tfuse_coarsen: no tfuse executable target "
      "(TFUSE_EXECUTABLE='${TFUSE_EXECUTABLE}'): call find_package(tfuse CONFIG REQUIRED) "
      "in this directory or a parent first")
  endif()

  # The tfuse arguments shared by all inputs, and the file name tags.
  set(_args -factor ${_tf_FACTOR})
  set(_tags "")
  if(DEFINED _tf_MODE)
    list(APPEND _args -mode ${_tf_MODE})
    string(APPEND _tags ".${_tf_MODE}")
  endif()
  if(DEFINED _tf_DIM)
    list(APPEND _args -dim ${_tf_DIM})
    string(APPEND _tags ".${_tf_DIM}")
  endif()
  if(DEFINED _tf_MAPPING)
    list(APPEND _args -mapping ${_tf_MAPPING})
    string(APPEND _tags ".${_tf_MAPPING}")
  endif()
  foreach(_k IN LISTS _tf_KERNELS)
    list(APPEND _args -kernel "${_k}")
  endforeach()
  if(_tf_ALL_KERNELS)
    list(APPEND _args -all-kernels)
  endif()
  if(_tf_KEEP_GOING)
    list(APPEND _args -keep-going)
  endif()
  if(_tf_CHECK)
    list(APPEND _args -check)
    string(APPEND _tags ".check")
  endif()
  list(APPEND _args ${_tf_OPTIONS})

  if(DEFINED _tf_OUTPUT_DIR)
    get_filename_component(_outdir "${_tf_OUTPUT_DIR}" ABSOLUTE
      BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  else()
    set(_outdir "${CMAKE_CURRENT_BINARY_DIR}")
  endif()
  file(MAKE_DIRECTORY "${_outdir}")

  set(_outputs "")
  foreach(_src IN LISTS _tf_SOURCES)
    get_filename_component(_in "${_src}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    get_filename_component(_stem "${_in}" NAME_WLE)
    get_filename_component(_indir "${_in}" DIRECTORY)
    set(_out "${_outdir}/${_stem}.tfuse.k${_tf_FACTOR}${_tags}.cu")

    # One rule per output file in the whole build.
    get_property(_owner GLOBAL PROPERTY "_TFUSE_COARSEN_OUTPUT:${_out}")
    if(_owner)
      message(FATAL_ERROR "tfuse_coarsen: ${_out} would be generated twice "
        "(from ${_owner} and from ${_in}); give one call another OUTPUT_DIR")
    endif()
    set_property(GLOBAL PROPERTY "_TFUSE_COARSEN_OUTPUT:${_out}" "${_in}")

    file(RELATIVE_PATH _rel "${CMAKE_BINARY_DIR}" "${_out}")
    add_custom_command(
      OUTPUT "${_out}"
      COMMAND "$<TARGET_FILE:${_exe}>" ${_args} "${_in}" -o "${_out}"
      DEPENDS "${_in}" "${_exe}" "$<TARGET_FILE:${_exe}>"
      COMMENT "tfuse: coarsening ${_src} by ${_tf_FACTOR} -> ${_rel}"
      VERBATIM)
    set_property(SOURCE "${_out}" APPEND PROPERTY INCLUDE_DIRECTORIES "${_indir}")
    list(APPEND _outputs "${_out}")
  endforeach()

  set(${out_var} "${_outputs}" PARENT_SCOPE)
endfunction()
