# SPDX-License-Identifier: MIT
# Install-IoSpd: fetch a release zip, verify its SHA-256, unpack it next to
# the destination and swap it into place, then put the right build on PATH.
# It only ever replaces an empty folder or an earlier install it marked.

function Install-IoSpd {
  <#
  .SYNOPSIS
  Installs an iospd release package and adds it to PATH.

  .DESCRIPTION
  Downloads (http/https) or copies (local path) iospd-<version>.zip and the
  matching <zip>.sha256 file, checks the SHA-256 digest BEFORE anything is unpacked, unpacks
  the package into a staging folder beside the destination and only then
  swaps it into place. The folder matching the processor architecture
  (amd64 or x86) is added to PATH for this session and, with -Scope User or
  -Scope Machine, persistently.

  A wrong digest, a package without the folder for this architecture, or a
  download that fails leaves any previous install and PATH exactly as they
  were. Running the command twice leaves one PATH entry.

  Every install gets a marker file, .iospd-install, that records the
  version, the SHA-256 of the package and every file and folder the install
  consists of. Install-IoSpd never deletes anything it did not install:
  - a -Destination that does not exist, or an empty folder, is installed into;
  - a folder with a marker (an earlier Install-IoSpd) is replaced, but only
    while it holds nothing besides what its marker lists; when you have
    added files of your own (anywhere inside it) the command stops and names
    them, so that you can move them out first;
  - any other folder that is not empty (for example D:\tools, or an iospd
    folder installed before installs carried the marker) is refused with an
    error and left as it is: choose a new or empty folder, or empty or remove
    that folder yourself first.
  Files or links that are not a folder are refused as well. When the old
  install is taken away, only the entries its marker lists are deleted, one
  by one; links are never followed.

  .PARAMETER Source
  URL or path of the release zip. The digest is read from "<Source>.sha256"
  unless -ExpectedHash is given. Defaults to $env:IOSPD_SOURCE.

  .PARAMETER Destination
  Install folder, used for iospd alone: it must not exist yet, be empty, or
  hold an earlier install made by Install-IoSpd (see the description).
  Give a folder of its own, such as D:\tools\iospd, never a shared one such
  as D:\tools. Default: $env:ProgramFiles\iospd when elevated on Windows,
  $env:LOCALAPPDATA\Programs\iospd otherwise, $HOME/.iospd on Linux/macOS.

  .PARAMETER Scope
  Process (default) changes PATH for this session only; User and Machine also
  store it in the user or machine environment. Machine needs an elevated
  session.

  .PARAMETER ExpectedHash
  SHA-256 digest (64 hex digits) the zip must have; when given, no .sha256
  file is fetched.

  .EXAMPLE
  Install-IoSpd -Source https://example.org/releases/iospd-1.0.0.zip -Scope User

  Downloads the package and its .sha256, verifies it, installs it under the
  user profile and adds the amd64 or x86 folder to the user PATH.

  .EXAMPLE
  Install-IoSpd -Source .\iospd-1.0.0.zip -Destination D:\tools\iospd -WhatIf

  Shows what would be installed without changing anything.

  .EXAMPLE
  Install-IoSpd -Source \\share\builds\iospd-1.0.0.zip -ExpectedHash 3F2A...C9 -Scope Machine

  Installs from a share for all users, checking the digest given on the
  command line (must run elevated).

  .EXAMPLE
  Install-IoSpd -Source .\iospd-1.0.0.zip -Destination D:\tools

  Fails if D:\tools already holds other files: the install would replace
  the whole folder. Nothing is changed; use -Destination D:\tools\iospd.

  .OUTPUTS
  An object with Destination, Architecture, BinPath, Executable, Version,
  Sha256 and Scope.
  #>
  [CmdletBinding(SupportsShouldProcess, ConfirmImpact = 'Medium')]
  param(
    [Parameter(Position = 0)]
    [string] $Source = $env:IOSPD_SOURCE,

    [string] $Destination,

    [ValidateSet('Process', 'User', 'Machine')]
    [string] $Scope = 'Process',

    [ValidatePattern('^[0-9A-Fa-f]{64}$')]
    [string] $ExpectedHash
  )

  if (-not $Source) {
    throw 'No package given: pass -Source with the URL or path of iospd-<version>.zip ' +
      '(or set $env:IOSPD_SOURCE).'
  }
  if ($Scope -eq 'Machine' -and -not (Test-IoSpdElevated)) {
    throw 'Installing with -Scope Machine changes the machine PATH and needs an elevated ' +
      '(administrator) session. Run PowerShell as administrator, or use -Scope User.'
  }
  if (-not $Destination) { $Destination = Get-IoSpdDefaultDestination }
  # Relative to the PowerShell location, not the process directory.
  $Destination = $PSCmdlet.SessionState.Path.GetUnresolvedProviderPathFromPSPath($Destination).TrimEnd('\', '/')
  $arch = Get-IoSpdArchitecture
  $binPath = Join-Path $Destination $arch
  # Refuse a folder holding anything that is not ours before fetching or
  # changing anything (checked again just before the swap).
  $null = Assert-IoSpdReplaceableDestination -Destination $Destination

  $action = "Install iospd ($arch) from '$Source' and add '$binPath' to the $Scope PATH"
  if (-not $PSCmdlet.ShouldProcess($Destination, $action)) { return }

  $work = Join-Path ([IO.Path]::GetTempPath()) ('iospd-install-' + [guid]::NewGuid().ToString('N'))
  $parent = Split-Path -Parent $Destination
  $leaf = Split-Path -Leaf $Destination
  $tag = [guid]::NewGuid().ToString('N').Substring(0, 8)
  $staging = Join-Path $parent ".$leaf.staging-$tag"
  $old = Join-Path $parent ".$leaf.old-$tag"
  try {
    $null = New-Item -ItemType Directory -Path $work -Force
    $zip = Join-Path $work 'package.zip'
    Write-Verbose "Fetching $Source"
    Copy-IoSpdSourceFile -Source $Source -OutFile $zip

    if ($ExpectedHash) {
      $want = $ExpectedHash.ToUpperInvariant()
    } else {
      $hashFile = Join-Path $work 'package.zip.sha256'
      Copy-IoSpdSourceFile -Source ($Source + '.sha256') -OutFile $hashFile
      $want = Read-IoSpdHashFile -Path $hashFile
    }
    $have = Get-IoSpdSha256 -Path $zip
    if ($have -ne $want) {
      throw "SHA-256 mismatch for '$Source': expected $want, the file has $have. " +
        'Nothing was installed; download the package again or check -ExpectedHash.'
    }
    Write-Verbose "SHA-256 $have verified"

    if (-not (Test-Path -LiteralPath $parent)) {
      $null = New-Item -ItemType Directory -Path $parent -Force
    }
    Expand-IoSpdZip -Path $zip -DestinationPath $staging
    # Accept a package whose content sits in one top-level folder.
    $root = $staging
    $top = @(Get-ChildItem -LiteralPath $staging -Force)
    if ($top.Count -eq 1 -and $top[0].PSIsContainer -and
        -not (Test-Path -LiteralPath (Join-Path $staging $arch))) {
      $root = $top[0].FullName
    }
    $exe = Join-Path (Join-Path $root $arch) 'iospd.exe'
    if (-not (Test-Path -LiteralPath $exe -PathType Leaf)) {
      throw "The package '$Source' has no $arch/iospd.exe, so it cannot run on this " +
        "machine ($arch). The previous install was left as it was."
    }

    $version = Get-IoSpdPackageVersion -Source $Source
    Write-IoSpdInstallMarker -Root $root -Version $version -Sha256 $have

    # Swap: old install aside, new one in, then drop the old one. If the
    # second rename fails, put the old one back. The folder is checked
    # again here (the download may have taken a while), and the old one is
    # dismantled entry by entry from its marker, never with a recursive
    # delete, so nothing the install did not put there can be lost.
    $hadOld = Assert-IoSpdReplaceableDestination -Destination $Destination
    if ($hadOld) { Move-Item -LiteralPath $Destination -Destination $old -ErrorAction Stop }
    try {
      Move-Item -LiteralPath $root -Destination $Destination -ErrorAction Stop
    } catch {
      if ($hadOld) { Move-Item -LiteralPath $old -Destination $Destination -ErrorAction SilentlyContinue }
      throw "Could not move the new install into '$Destination': $($_.Exception.Message)"
    }
    if ($hadOld) {
      $left = @(Remove-IoSpdInstallTree -Path $old)
      if ($left.Count -gt 0) {
        Write-Warning ("The previous install was moved to '$old' and could not be removed " +
          "completely; what is left ($(Format-IoSpdEntryList $left)) was kept. Look through " +
          'it and delete it yourself.')
      }
    }

    # PATH: the session always, the stored environment for User/Machine.
    $name = Get-IoSpdPathVariableName
    $current = Get-IoSpdEnvironmentVariable -Name $name -Scope Process
    $new = Add-IoSpdPathEntry -PathValue $current -Entry $binPath
    if ($new -ne $current) {
      Set-IoSpdEnvironmentVariable -Name $name -Value $new -Scope Process -WhatIf:$false -Confirm:$false
    }
    if ($Scope -ne 'Process') {
      $stored = Get-IoSpdEnvironmentVariable -Name $name -Scope $Scope
      $newStored = Add-IoSpdPathEntry -PathValue $stored -Entry $binPath
      if ($newStored -ne $stored) {
        Set-IoSpdEnvironmentVariable -Name $name -Value $newStored -Scope $Scope -WhatIf:$false -Confirm:$false
      }
    }

    [pscustomobject]@{
      PSTypeName   = 'IoSpd.InstallResult'
      Destination  = $Destination
      Architecture = $arch
      BinPath      = $binPath
      Executable   = Join-Path $binPath 'iospd.exe'
      Version      = $version
      Sha256       = $have
      Scope        = $Scope
    }
  } finally {
    foreach ($d in $work, $staging) {
      if (Test-Path -LiteralPath $d) { Remove-Item -LiteralPath $d -Recurse -Force -ErrorAction SilentlyContinue }
    }
  }
}
