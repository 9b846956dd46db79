# SPDX-License-Identifier: MIT
# Cross toolchain for Windows with mingw-w64 on Debian/Ubuntu.
#   cmake -B build/win -DCMAKE_TOOLCHAIN_FILE=scripts/toolchain-mingw-w64.cmake
# IOSPD_MINGW_ARCH selects x86_64 (default) or i686. Tests run under wine
# (wine64, or wine with wine32 for i686) through CMAKE_CROSSCOMPILING_EMULATOR
# when wine is installed.
set(CMAKE_SYSTEM_NAME Windows)
if(NOT IOSPD_MINGW_ARCH)
  set(IOSPD_MINGW_ARCH x86_64)
endif()
set(CMAKE_SYSTEM_PROCESSOR ${IOSPD_MINGW_ARCH})
set(_prefix ${IOSPD_MINGW_ARCH}-w64-mingw32)
find_program(CMAKE_C_COMPILER NAMES ${_prefix}-gcc REQUIRED)
find_program(CMAKE_RC_COMPILER NAMES ${_prefix}-windres)
set(CMAKE_FIND_ROOT_PATH /usr/${_prefix})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# Toolchain files are re-read in try_compile projects; keep the variable.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES IOSPD_MINGW_ARCH)
if(IOSPD_MINGW_ARCH STREQUAL "x86_64")
  find_program(IOSPD_WINE NAMES wine64 wine)
else()
  # The i686 build runs through the `wine` launcher, which needs wine32
  # (Debian: wine32:i386, installed by scripts/deps.sh); in a 64-bit prefix
  # it runs under WoW64, as the x86 iospd.exe does on 64-bit Windows.
  find_program(IOSPD_WINE NAMES wine)
endif()
if(IOSPD_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${IOSPD_WINE})
endif()
