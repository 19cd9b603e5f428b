# How the Release wasm build is optimized (the site's download; see README, Performance):
#
#   al_optimize_for_size(target…)          the targets' code compiled with -Oz and no exceptions
#                                          (nothing in src/ throws; nlohmann's throws become aborts)
#   al_optimize_sources_for_size(target file…)  only these sources of target with -Oz (the target
#                                          without exceptions): the core, whose other sources — the
#                                          forward pass's kernels — keep the build type's -O3
#
# Never -Oz and -O3 in one compile: emcc turns any -Os/-Oz on its command line into
# -fno-inline-functions, whatever -O comes last (the kernels' vector helpers would be calls).
# Native builds are left as they are (CMAKE_BUILD_TYPE's flags).
function(al_optimize_for_size)
  if(NOT EMSCRIPTEN)
    return()
  endif()
  foreach(target ${ARGN})
    target_compile_options(${target} PRIVATE -fno-exceptions $<$<CONFIG:Release>:-Oz> $<$<CONFIG:Release>:-flto>)
  endforeach()
endfunction()

function(al_optimize_sources_for_size target)
  if(NOT EMSCRIPTEN)
    return()
  endif()
  target_compile_options(${target} PRIVATE -fno-exceptions $<$<CONFIG:Release>:-flto>)
  foreach(file ${ARGN})
    set_property(SOURCE ${file} TARGET_DIRECTORY ${target} APPEND PROPERTY COMPILE_OPTIONS $<$<CONFIG:Release>:-Oz>)
  endforeach()
endfunction()

# Native builds only: the targets' sources compiled a few at a time as one translation unit
# (CMake's unity build). Most of scene/ and the CLI include nlohmann/json.hpp and CLI11, whose
# templates each file otherwise parses, instantiates and optimizes again: batching them roughly
# halves those targets' compile time (CI builds two native configurations from scratch). The wasm
# build is left file by file: its download size is budgeted byte by byte.
function(al_unity_build)
  if(EMSCRIPTEN OR NOT AL_UNITY_BUILD)
    return()
  endif()
  foreach(target ${ARGN})
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 6)
  endforeach()
endfunction()
