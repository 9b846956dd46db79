#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs PowerShell 7 (dotnet global tool) and Pester (NuGet) for the
# Pester tests and the release package; idempotent and quiet when done.
#
#   scripts/install-pwsh.sh            pwsh + Pester (+ zip/unzip via apt)
# (wine32 for the x86 iospd.exe is installed by scripts/deps.sh.)
# Prints the Pester module path on the last line of a successful run when
# IOSPD_PRINT_PESTER=1 (used by run-pester.sh).
set -euo pipefail

PWSH_VERSION=7.6.9
PESTER_VERSION=${IOSPD_PESTER_VERSION:-5.7.1}
root=$(cd "$(dirname "$0")/.." && pwd)
tools="$HOME/.dotnet/tools"
export PATH="$PATH:$tools"
export DOTNET_CLI_TELEMETRY_OPTOUT=1 DOTNET_NOLOGO=1 DOTNET_SKIP_FIRST_TIME_EXPERIENCE=1

for a in "$@"; do
  echo "install-pwsh.sh: unknown option '$a' (it takes none; wine32 comes from scripts/deps.sh)" >&2; exit 2
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

if [ "${IOSPD_PRINT_PESTER:-0}" = 1 ]; then
  echo "$pester_psd1"
fi
