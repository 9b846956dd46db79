#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs PowerShell 7 (dotnet global tool) and Pester (NuGet) for the
# Pester tests and the release package; idempotent and quiet when done.
#
#   scripts/install-pwsh.sh            pwsh + Pester (+ zip/unzip via apt)
#   scripts/install-pwsh.sh --wine32   also try Debian's wine32 (i386) so the
#                                      x86 iospd.exe can run under wine
# Prints the Pester module path on the last line of a successful run when
# IOSPD_PRINT_PESTER=1 (used by run-pester.sh).
set -euo pipefail

PWSH_VERSION=7.6.9
PESTER_VERSION=${IOSPD_PESTER_VERSION:-5.7.1}
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$HOME/.dotnet/tools"
export PATH="$PATH:$tools"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

want_wine32=0
for a in "$@"; do
  case "$a" in
    --wine32) want_wine32=1 ;;
    *) echo "install-pwsh.sh: unknown option '$a' (allowed: --wine32)" >&2; exit 2 ;;
  esac
done

log=$(mktemp)
trap 'rm -f "$log"' EXIT
run_quiet() { # run a command, show its output only when it fails
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "install-pwsh.sh: failed: $*" >&2
    return 1
  fi
}

# zip/unzip for package.sh and the package test.
missing=()
command -v zip >/dev/null || missing+=(zip)
command -v unzip >/dev/null || missing+=(unzip)
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-pwsh.sh: installing ${missing[*]}"
  run_quiet apt-get update -qq || true
  run_quiet env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}"
fi

# PowerShell 7 as a dotnet global tool.
if ! command -v pwsh >/dev/null || [ "$(pwsh -NoLogo -NoProfile -Command '$PSVersionTable.PSVersion.ToString()' 2>/dev/null)" != "$PWSH_VERSION" ]; then
  command -v dotnet >/dev/null || { echo "install-pwsh.sh: the .NET SDK (dotnet) is needed to install PowerShell" >&2; exit 1; }
  echo "install-pwsh.sh: installing PowerShell $PWSH_VERSION (dotnet tool)"
  if [ -x "$tools/pwsh" ]; then
    run_quiet dotnet tool update --global PowerShell --version "$PWSH_VERSION"
  else
    run_quiet dotnet tool install --global PowerShell --version "$PWSH_VERSION"
  fi
fi

# Pester from NuGet: a throw-away project with a PackageDownload puts it in
# the NuGet package cache; we import it from there.
nuget_root=${NUGET_PACKAGES:-$HOME/.nuget/packages}
pester_psd1="$nuget_root/pester/$PESTER_VERSION/tools/Pester.psd1"
if [ ! -f "$pester_psd1" ]; then
  echo "install-pwsh.sh: fetching Pester $PESTER_VERSION (NuGet)"
  proj="$root/build/pester-restore"
  mkdir -p "$proj"
  cat >"$proj/pester-restore.csproj" <<XML
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup><TargetFramework>net$(dotnet --version | cut -d. -f1).0</TargetFramework></PropertyGroup>
  <ItemGroup><PackageDownload Include="Pester" Version="[$PESTER_VERSION]" /></ItemGroup>
</Project>
XML
  run_quiet dotnet restore "$proj/pester-restore.csproj"
  [ -f "$pester_psd1" ] || { echo "install-pwsh.sh: Pester restored but $pester_psd1 is missing" >&2; exit 1; }
fi

if [ "$want_wine32" = 1 ] && ! dpkg -s wine32:i386 >/dev/null 2>&1; then
  # Needs i386 multiarch. If the i386 packages cannot be installed (their
  # versions must match the amd64 ones exactly), undo the architecture so
  # that later apt-get update runs do not fail on i386 indexes.
  echo "install-pwsh.sh: trying wine32 (i386) for the x86 build"
  added=0
  if ! dpkg --print-foreign-architectures | grep -qx i386; then
    dpkg --add-architecture i386; added=1
  fi
  if apt-get update -qq >"$log" 2>&1 &&
     DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wine32:i386 >"$log" 2>&1; then
    echo "install-pwsh.sh: wine32 installed"
  else
    echo "install-pwsh.sh: wine32 could not be installed here; the x86 build is checked by its PE header only:" >&2
    grep -E '^(E:|W:)| Depends: ' "$log" | head -5 >&2 || true
    if [ "$added" = 1 ]; then
      dpkg --remove-architecture i386 || true
      apt-get update -qq >/dev/null 2>&1 || true
    fi
  fi
fi

if [ "${IOSPD_PRINT_PESTER:-0}" = 1 ]; then
  echo "$pester_psd1"
fi
