#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Writes the Scoop and winget manifests of a Windows release zip made by
# scripts/package.sh, with the zip's SHA-256, beside it:
#
#   scripts/package-manifests.sh <outdir>/iospd-<version>.zip <base URL>
#     -> <outdir>/iospd.json                  (Scoop: scoop install ./iospd.json)
#        <outdir>/iospd-<version>.winget.yaml (winget singleton manifest 1.6.0:
#                                              winget install --manifest <file>)
#
# <base URL> is where the zip will be published (the release page's
# download folder): the manifests point at <base URL>/iospd-<version>.zip.
# Both install the zip's amd64\iospd.exe (and x86\iospd.exe on 32-bit
# Windows) as the command iospd.
set -euo pipefail

usage() { echo "usage: scripts/package-manifests.sh <iospd-<version>.zip> <base URL>   (e.g. dist/iospd-1.0.0.zip https://example.org/releases/1.0.0)" >&2; exit 2; }
[ $# -eq 2 ] || usage
zip=$1
base=${2%/}
[ -f "$zip" ] || { echo "package-manifests.sh: '$zip' does not exist; make it with scripts/package.sh first" >&2; exit 2; }
leaf=$(basename "$zip")
if ! [[ "$leaf" =~ ^iospd-([0-9A-Za-z][0-9A-Za-z._+-]*)\.zip$ ]]; then
  echo "package-manifests.sh: '$leaf' is not named iospd-<version>.zip (scripts/package.sh's name)" >&2
  exit 2
fi
version=${BASH_REMATCH[1]}
case "$base" in https://*) ;; *) echo "package-manifests.sh: the base URL must start with https:// (got '$base')" >&2; exit 2 ;; esac
hash=$(sha256sum "$zip" | cut -d' ' -f1)
url="$base/$leaf"
out=$(dirname "$zip")

cat >"$out/iospd.json" <<JSON
{
  "version": "$version",
  "description": "Storage benchmark with DISKSPD's command line, results and -Rxml output (IOCP on Windows).",
  "homepage": "$base",
  "license": "MIT",
  "architecture": {
    "64bit": { "url": "$url", "hash": "$hash", "bin": "amd64\\\\iospd.exe" },
    "32bit": { "url": "$url", "hash": "$hash", "bin": "x86\\\\iospd.exe" }
  }
}
JSON

cat >"$out/iospd-$version.winget.yaml" <<YAML
# yaml-language-server: \$schema=https://aka.ms/winget-manifest.singleton.1.6.0.schema.json
PackageIdentifier: iospd.iospd
PackageVersion: $version
PackageLocale: en-US
Publisher: The iospd authors
PackageName: iospd
License: MIT
ShortDescription: Storage benchmark with DISKSPD's command line, results and -Rxml output.
Commands:
  - iospd
Installers:
  - Architecture: x64
    InstallerType: zip
    NestedInstallerType: portable
    NestedInstallerFiles:
      - RelativeFilePath: amd64\\iospd.exe
        PortableCommandAlias: iospd
    InstallerUrl: $url
    InstallerSha256: ${hash^^}
  - Architecture: x86
    InstallerType: zip
    NestedInstallerType: portable
    NestedInstallerFiles:
      - RelativeFilePath: x86\\iospd.exe
        PortableCommandAlias: iospd
    InstallerUrl: $url
    InstallerSha256: ${hash^^}
ManifestType: singleton
ManifestVersion: 1.6.0
YAML
echo "package-manifests.sh: $out/iospd.json $out/iospd-$version.winget.yaml (sha256 $hash)"
