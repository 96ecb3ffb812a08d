# Finds libclang's C API (clang-c/Index.h and libclang.so), preferring LLVM 22:
# older libclang cannot parse the CUDA 13 headers.  Defines LibClang::LibClang
# and LIBCLANG_LLVM_BIN (the llvm bin dir, where FileCheck and not live).
set(_libclang_hints)
foreach(v 22 23 24)
  list(APPEND _libclang_hints /usr/lib/llvm-${v})
endforeach()
if(LIBCLANG_ROOT)
  list(PREPEND _libclang_hints "${LIBCLANG_ROOT}")
endif()

find_path(LIBCLANG_INCLUDE_DIR clang-c/Index.h
  HINTS ${_libclang_hints} PATH_SUFFIXES include NO_DEFAULT_PATH)
find_library(LIBCLANG_LIBRARY NAMES clang libclang
  HINTS ${_libclang_hints} PATH_SUFFIXES lib NO_DEFAULT_PATH)
if(LIBCLANG_LIBRARY)
  get_filename_component(_libdir "${LIBCLANG_LIBRARY}" DIRECTORY)
  get_filename_component(LIBCLANG_PREFIX "${_libdir}" DIRECTORY)
  set(LIBCLANG_LLVM_BIN "${LIBCLANG_PREFIX}/bin")
endif()

include(FindPackageHandleStandardArgs)
find_package_handle_standard_args(LibClang
  REQUIRED_VARS LIBCLANG_LIBRARY LIBCLANG_INCLUDE_DIR
  FAIL_MESSAGE "libclang 22 not found: run scripts/setup.sh (apt-get install clang-22 libclang-22-dev llvm-22-tools)")

if(LibClang_FOUND AND NOT TARGET LibClang::LibClang)
  add_library(LibClang::LibClang SHARED IMPORTED)
  set_target_properties(LibClang::LibClang PROPERTIES
    IMPORTED_LOCATION "${LIBCLANG_LIBRARY}"
    INTERFACE_INCLUDE_DIRECTORIES "${LIBCLANG_INCLUDE_DIR}")
endif()
