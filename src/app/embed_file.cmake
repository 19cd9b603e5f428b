# embed_file.cmake — turn a binary file into a C++ header holding it as a byte array.
#   cmake -DINPUT=<file> -DOUTPUT=<header> -DSYMBOL=<name> [-DTEXT=1] -P embed_file.cmake
# Defines `inline constexpr unsigned char SYMBOL[]` and `SYMBOL_size`. With TEXT=1 a terminating
# zero is appended (not counted in SYMBOL_size) so the array can be used as a C string.
file(READ "${INPUT}" hex HEX)
string(LENGTH "${hex}" hex_len)
math(EXPR size "${hex_len} / 2")
if(TEXT)
  string(APPEND hex "00")
endif()
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
# Break the single line every 24 bytes to keep the header readable for compilers and editors.
string(REGEX REPLACE "((0x..,){24})" "\\1\n  " bytes "${bytes}")
get_filename_component(name "${INPUT}" NAME)
file(WRITE "${OUTPUT}.tmp"
  "// Generated from ${name} by embed_file.cmake at build time. Do not edit.\n"
  "#pragma once\n#include <cstddef>\n"
  "inline constexpr unsigned char ${SYMBOL}[] = {\n  ${bytes}\n};\n"
  "inline constexpr std::size_t ${SYMBOL}_size = ${size};\n")
file(COPY_FILE "${OUTPUT}.tmp" "${OUTPUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUTPUT}.tmp")
