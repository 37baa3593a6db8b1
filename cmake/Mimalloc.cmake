# Sets NNC_MIMALLOC to the mimalloc library nnc and nnc-opt link with, or
# leaves it empty: NNC_USE_MIMALLOC=OFF, a sanitizer build, or AUTO without
# the library (Debian's libmimalloc-dev, which scripts/setup.sh installs).
#
# Linked as a shared library after libMLIR and libLLVM and before libc, its
# malloc and free are the ones every library of the process calls.
set(NNC_MIMALLOC "")
if(NNC_USE_MIMALLOC STREQUAL "OFF")
  return()
endif()
if("${CMAKE_CXX_FLAGS} ${CMAKE_EXE_LINKER_FLAGS}" MATCHES "-fsanitize")
  message(STATUS "mimalloc: not under the sanitizers")
  return()
endif()
find_library(NNC_MIMALLOC_LIBRARY NAMES mimalloc)
if(NNC_MIMALLOC_LIBRARY)
  set(NNC_MIMALLOC "${NNC_MIMALLOC_LIBRARY}")
  message(STATUS "mimalloc: ${NNC_MIMALLOC}")
elseif(NNC_USE_MIMALLOC STREQUAL "ON")
  message(FATAL_ERROR "NNC_USE_MIMALLOC=ON but no mimalloc was found "
                      "(apt-get install libmimalloc-dev)")
else()
  message(STATUS "mimalloc: not found, glibc's malloc "
                 "(apt-get install libmimalloc-dev)")
endif()
