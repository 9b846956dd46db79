#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The one test command: installs what is missing, then builds and runs every
# test: native (warnings as errors), native under ASan/UBSan, the Linux
# packages (.deb installed and removed, static tarball), the mingw-w64
# x86_64 and i686 builds with their tests under wine (the i686 one in the
# same WoW64 prefix, through wine32), and the PowerShell module's Pester
# tests. Prints a summary; exits non-zero if anything failed.
# Options: --quick (skip ASan and Pester), --no-install (do not run apt/dotnet).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
quick=0
install=1
for a in "$@"; do
  case "$a" in
    --quick) quick=1 ;;
    --no-install) install=0 ;;
    *) echo "test.sh: unknown option '$a' (use --quick or --no-install)" >&2; exit 2 ;;
  esac
done
jobs=$(nproc 2>/dev/null || echo 2)
results=()
failed=0
step() { echo; echo "=== $* ==="; }
record() { # name rc (77: passed, but some checks were skipped; their SKIP lines say why)
  if [ "$2" = 0 ]; then results+=("PASS  $1")
  elif [ "$2" = 77 ]; then results+=("SKIP  $1 (partly: see its SKIP lines)")
  else results+=("FAIL  $1"); failed=$((failed + 1)); fi
}

if [ $install = 1 ]; then
  step "install missing packages"
  scripts/deps.sh >/dev/null || { echo "dependency installation failed"; exit 1; }
  if [ $quick = 0 ]; then scripts/install-pwsh.sh || { echo "PowerShell/Pester installation failed"; exit 1; }; fi
fi
cmocka_src=$(ls -d "$root"/build/deps/cmocka-*/ 2>/dev/null | head -n1)
cjson_src=$(ls -d "$root"/build/deps/cjson-*/ 2>/dev/null | head -n1)

step "native build and tests (gcc, -Werror)"
cmake -S . -B build/linux -DIOSPD_WERROR=ON >/dev/null &&
  cmake --build build/linux -j"$jobs" >build/linux-build.log 2>&1 || { tail -40 build/linux-build.log; false; }
rc=$?
if [ $rc = 0 ]; then (cd build/linux && ctest --output-on-failure -j"$jobs"); rc=$?; fi
record "native" $rc

step "native Release build (-O2 -Werror: warnings only the optimiser finds)"
cmake -S . -B build/rel -DCMAKE_BUILD_TYPE=Release -DIOSPD_WERROR=ON >/dev/null &&
  cmake --build build/rel -j"$jobs" >build/rel-build.log 2>&1 || { tail -40 build/rel-build.log; false; }
record "native release build" $?

if [ $quick = 0 ]; then
  step "native tests under ASan/UBSan"
  cmake -S . -B build/asan -DIOSPD_WERROR=ON -DIOSPD_ASAN=ON -DIOSPD_UBSAN=ON -DCMAKE_BUILD_TYPE=Debug >/dev/null &&
    cmake --build build/asan -j"$jobs" >build/asan-build.log 2>&1 || { tail -40 build/asan-build.log; false; }
  rc=$?
  if [ $rc = 0 ]; then
    (cd build/asan && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --output-on-failure -j"$jobs"); rc=$?
  fi
  record "asan+ubsan" $rc
fi

# Builds each package once (build/pkg-deb, build/pkg-static), installs and
# removes the .deb (as root; skipped with a reason otherwise).
step "Linux packages: .deb (lintian, dpkg -i/-r) and the static tarball"
tests/packaging/linux_packages_test.sh
record "linux packages" $?

# Windows tests: one wine prefix for both builds, WoW64 (64-bit, with the
# 32-bit half from wine32) as on 64-bit Windows.
export WINEPREFIX="$root/build/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
unset DISPLAY WAYLAND_DISPLAY
have_wine32() { dpkg-query -W -f='${Status}' wine32:i386 2>/dev/null | grep -q "install ok installed"; }
wine_ready() {
  # Create the prefix once, outside ctest, and keep one wineserver running
  # with stdio detached, so each test's wine start costs milliseconds and
  # ctest never waits on wine's helper processes (toolchain.md, section 4).
  if [ ! -f "$WINEPREFIX/system.reg" ]; then
    echo "creating the wine prefix (once, about 10 s)"
    wineboot -i >build/wine-boot.log 2>&1; wineserver -w
  elif have_wine32 && [ ! -f "$WINEPREFIX/drive_c/windows/syswow64/kernel32.dll" ]; then
    # Made before wine32 was installed: no 32-bit half. Wine updates a
    # prefix only when its wine.inf changes, so ask for the update.
    echo "adding the 32-bit (WoW64) half to the wine prefix (once, up to a minute)"
    wineserver -k >/dev/null 2>&1 || true
    rm -f "$WINEPREFIX/.update-timestamp"
    wineboot -u >build/wine-boot.log 2>&1; wineserver -w
  fi
  true | wineserver -p 600 >build/wine-bg.log 2>&1
  true | wine cmd.exe /c exit >>build/wine-bg.log 2>&1
}

step "mingw-w64 x86_64 build, tests under wine"
cmake -S . -B build/win -DCMAKE_TOOLCHAIN_FILE=scripts/toolchain-mingw-w64.cmake -DIOSPD_WERROR=ON \
  -DIOSPD_CMOCKA_SOURCE_DIR="$cmocka_src" -DIOSPD_CJSON_SOURCE_DIR="$cjson_src" -DIOSPD_WINEPREFIX="$WINEPREFIX" >/dev/null &&
  cmake --build build/win -j"$jobs" >build/win-build.log 2>&1 || { tail -40 build/win-build.log; false; }
rc=$?
if [ $rc = 0 ]; then
  wine_ready
  (cd build/win && ctest --output-on-failure -j"$jobs"); rc=$?
  dlls=$(x86_64-w64-mingw32-objdump -p build/win/iospd.exe | awk '/DLL Name/ {print tolower($3)}' | sort -u | tr '\n' ' ')
  echo "iospd.exe imports: $dlls"
fi
record "mingw x86_64 under wine" $rc

# The 32-bit build is where 64-bit offsets, sizes and time arithmetic break:
# the same tests (its exe_imports test included), run by wine32 under WoW64.
step "mingw-w64 i686 build, tests under wine (WoW64)"
cmake -S . -B build/win32 -DCMAKE_TOOLCHAIN_FILE=scripts/toolchain-mingw-w64.cmake -DIOSPD_MINGW_ARCH=i686 \
  -DIOSPD_WERROR=ON -DBUILD_TESTING=ON -DIOSPD_BUILD_TESTS=ON \
  -DIOSPD_CMOCKA_SOURCE_DIR="$cmocka_src" -DIOSPD_CJSON_SOURCE_DIR="$cjson_src" -DIOSPD_WINEPREFIX="$WINEPREFIX" >/dev/null &&
  cmake --build build/win32 -j"$jobs" >build/win32-build.log 2>&1 || { tail -40 build/win32-build.log; false; }
rc=$?
if [ $rc = 0 ] && ! have_wine32; then
  echo "wine32 (i386) is not installed, so the x86 iospd.exe cannot run: run scripts/deps.sh" \
       "(it adds the i386 architecture and installs wine32:i386)"
  rc=1
fi
if [ $rc = 0 ]; then
  wine_ready
  (cd build/win32 && ctest --output-on-failure -j"$jobs"); rc=$?
fi
record "mingw i686 under wine (WoW64)" $rc

if [ $quick = 0 ]; then
  step "PowerShell module (Pester)"
  if [ -x scripts/run-pester.sh ]; then
    IOSPD_EXE="$root/build/linux/iospd" IOSPD_WINEPREFIX="$WINEPREFIX" scripts/run-pester.sh; rc=$?
  else
    echo "scripts/run-pester.sh missing"; rc=1
  fi
  record "pester" $rc
fi
wineserver -k >/dev/null 2>&1 || true

step "summary"
printf '%s\n' "${results[@]}"
passed=$(( ${#results[@]} - failed ))
echo "test.sh: $passed passed, $failed failed"
[ $failed = 0 ]
