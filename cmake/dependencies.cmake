# Third-party headers and sources, found the same way natively and under Emscripten.
#
# Emscripten quirk: never add -I/usr/include to a wasm build (glibc headers break it), and
# find_package(Eigen3) does not see the host's package under the Emscripten toolchain. So each
# header-only library gets a private include folder in the build tree holding one symlink to the
# host's header directory, and Eigen is added by its own folder.

set(EIGEN3_INCLUDE_DIR "/usr/include/eigen3" CACHE PATH "Eigen 3.4 headers (the folder holding Eigen/)")
if(NOT EXISTS "${EIGEN3_INCLUDE_DIR}/Eigen/Core")
  message(FATAL_ERROR "Eigen not found in ${EIGEN3_INCLUDE_DIR}: run scripts/setup (libeigen3-dev)")
endif()

set(AL_HOST_INCLUDE "${CMAKE_BINARY_DIR}/host_include")
# al_host_headers(NAME VAR DEFAULT DOC [OPTIONAL]): the cache path VAR (DEFAULT unless set) made
# available as <NAME/...> through ${AL_HOST_INCLUDE}; a missing folder stops the configure, or with
# OPTIONAL is skipped.
function(al_host_headers name var default doc)
  set(${var} "${default}" CACHE PATH "${doc}")
  set(dir "$CACHE{${var}}")
  if(NOT EXISTS "${dir}")
    if(NOT "OPTIONAL" IN_LIST ARGN)
      message(FATAL_ERROR "${name} headers not found in ${dir}: run scripts/setup")
    endif()
    return()
  endif()
  file(MAKE_DIRECTORY "${AL_HOST_INCLUDE}")
  file(CREATE_LINK "${dir}" "${AL_HOST_INCLUDE}/${name}" SYMBOLIC)
endfunction()

al_host_headers(nlohmann NLOHMANN_JSON_DIR "/usr/include/nlohmann" "nlohmann-json headers")
al_host_headers(doctest DOCTEST_DIR "/usr/include/doctest" "doctest headers")
al_host_headers(stb STB_DIR "/usr/include/stb" "stb headers" OPTIONAL)

add_library(al_eigen INTERFACE)
target_include_directories(al_eigen SYSTEM INTERFACE "${EIGEN3_INCLUDE_DIR}")
add_library(al_host_headers INTERFACE)
target_include_directories(al_host_headers SYSTEM INTERFACE "${AL_HOST_INCLUDE}")

# Dear ImGui sources: IMGUI_DIR (env or cache) or third_party/imgui filled by scripts/setup.
if(DEFINED ENV{IMGUI_DIR} AND NOT IMGUI_DIR)
  set(IMGUI_DIR "$ENV{IMGUI_DIR}")
endif()
set(IMGUI_DIR "${IMGUI_DIR}" CACHE PATH "Dear ImGui (>= 1.86) source folder")
if(NOT IMGUI_DIR)
  set(IMGUI_DIR "${PROJECT_SOURCE_DIR}/third_party/imgui" CACHE PATH "" FORCE)
endif()

if(EMSCRIPTEN)
  # Emscripten quirk: node 20's global fetch breaks 3.1.6's loader; run tests without it.
  find_program(NODE_EXECUTABLE node REQUIRED)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${NODE_EXECUTABLE};--no-experimental-fetch" CACHE STRING "" FORCE)
endif()
