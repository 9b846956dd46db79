# SPDX-License-Identifier: MIT
# Where a package keeps the build for this machine, and what it holds when
# that build is not there. scripts/package.sh makes the Windows release zip:
# amd64/iospd.exe and x86/iospd.exe (one folder per PROCESSOR_ARCHITECTURE,
# as DiskSpd.zip). A package for Linux or macOS holds linux-<arch>/iospd or
# macos-<arch>/iospd (arch: amd64, arm64, x86); package.sh does not make one
# yet, so there iospd is built from source (README, "Build by hand").

function Get-IoSpdPackageLayout {
  # Folder and file name of the build for this system and $Architecture.
  [CmdletBinding()]
  param(
    [Parameter(Mandatory)] [string] $Architecture,
    [bool] $Windows = (Test-IoSpdWindows)
  )
  if ($Windows) {
    return [pscustomobject]@{ Folder = $Architecture; File = 'iospd.exe'; System = 'Windows'; Architecture = $Architecture }
  }
  $system = 'Linux'; $prefix = 'linux'
  if ($IsMacOS) { $system = 'macOS'; $prefix = 'macos' }
  return [pscustomobject]@{ Folder = "$prefix-$Architecture"; File = 'iospd'; System = $system; Architecture = $Architecture }
}

function Get-IoSpdPackageBuild {
  # The iospd executables a package holds, as 'folder/file' ('amd64/iospd.exe',
  # 'linux-amd64/iospd'), with the system each runs on.
  [CmdletBinding()]
  param([Parameter(Mandatory)] [string] $Root)
  foreach ($dir in @([IO.DirectoryInfo]::new($Root).GetDirectories() | Sort-Object Name)) {
    if ([IO.File]::Exists((Join-Path $dir.FullName 'iospd.exe'))) {
      [pscustomobject]@{ Path = "$($dir.Name)/iospd.exe"; System = 'Windows' }
    }
    if ([IO.File]::Exists((Join-Path $dir.FullName 'iospd'))) {
      $system = 'Linux'
      if ($dir.Name -like 'macos-*') { $system = 'macOS' }
      [pscustomobject]@{ Path = "$($dir.Name)/iospd"; System = $system }
    }
  }
}

function Assert-IoSpdPackageBuild {
  # Throws unless the unpacked package at $Root holds $Layout's build; the
  # error names what the package holds and what to get instead. Returns the
  # executable's path.
  [CmdletBinding()]
  [OutputType([string])]
  param(
    [Parameter(Mandatory)] [string] $Root,
    [Parameter(Mandatory)] $Layout,
    [Parameter(Mandatory)] [string] $Source
  )
  $exe = Join-Path (Join-Path $Root $Layout.Folder) $Layout.File
  if ([IO.File]::Exists($exe)) { return $exe }
  $want = "$($Layout.Folder)/$($Layout.File)"
  $builds = @(Get-IoSpdPackageBuild -Root $Root)
  $held = ($builds | ForEach-Object Path) -join ', '
  $mine = @($builds | Where-Object System -EQ $Layout.System)
  $kept = 'Nothing was installed and the previous install was left as it was.'
  if ($builds.Count -gt 0 -and $mine.Count -eq 0) {
    $systems = (@($builds | ForEach-Object System | Sort-Object -Unique)) -join ' and '
    if ($Layout.System -eq 'Windows') {
      $instead = 'Download the Windows release zip iospd-<version>.zip (amd64\iospd.exe, x86\iospd.exe, made by scripts/package.sh).'
    } else {
      $instead = "Download a $($Layout.System) package (one with $want), or build iospd from source (README, `"Build by hand`")."
    }
    throw (New-IoSpdHostError -Id 'IoSpdPackageWrongSystem' -Category InvalidArgument -Target $Source `
        -Message ("The package '$Source' holds only $systems executables ($held), which cannot run on " +
          "$($Layout.System), so there is nothing to install on this machine. $instead $kept"))
  }
  $what = 'no iospd executable at all'
  if ($held) { $what = "only $held" }
  throw (New-IoSpdHostError -Id 'IoSpdPackageNoBuild' -Category InvalidArgument -Target $Source `
      -Message ("The package '$Source' has no $want, so it cannot run on this machine " +
        "($($Layout.System), $($Layout.Folder)): it holds $what. $kept"))
}

function Set-IoSpdExecutableMode {
  # Zip files made on Windows carry no Unix mode: make the build executable.
  [CmdletBinding()]
  param([Parameter(Mandatory)] [string] $Path)
  if (Test-IoSpdWindows) { return }
  $mode = [IO.File]::GetUnixFileMode($Path)
  $x = [IO.UnixFileMode]::UserExecute -bor [IO.UnixFileMode]::GroupExecute -bor [IO.UnixFileMode]::OtherExecute
  [IO.File]::SetUnixFileMode($Path, $mode -bor $x -bor [IO.UnixFileMode]::UserRead)
}
