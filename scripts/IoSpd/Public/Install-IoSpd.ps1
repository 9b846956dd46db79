# SPDX-License-Identifier: MIT
# Install-IoSpd: fetch a release zip, verify its SHA-256, unpack it next to
# the destination, check the executable's Authenticode signature (Windows),
# swap it into place, then put the right build on PATH.
# It only ever replaces an empty folder or an earlier install it marked.

function Install-IoSpd {
  <#
  .SYNOPSIS
  Installs an iospd release package and adds it to PATH.

  .DESCRIPTION
  Downloads (http/https) or copies (local path) iospd-<version>.zip and the
  matching <zip>.sha256 file (or takes the digest from -Sha256), checks the
  SHA-256 digest BEFORE anything is unpacked, unpacks the package into a
  staging folder beside the destination, checks the signature of the
  executable there (Windows, see below) and only then swaps it into place.
  The folder holding the build for this machine is added to PATH for this
  session and, with -Scope User or -Scope Machine, persistently:
  - Windows: amd64\iospd.exe or x86\iospd.exe (by the processor
    architecture; ARM64 uses amd64). The stored PATH is read and written in
    the registry directly (HKCU\Environment or HKLM\SYSTEM\CurrentControlSet\
    Control\Session Manager\Environment): existing entries are kept as they
    were, %SystemRoot%-style variables unexpanded, the value keeps its kind
    (REG_EXPAND_SZ stays REG_EXPAND_SZ), and WM_SETTINGCHANGE tells Explorer,
    so consoles opened from now on see it.
  - Linux and macOS: linux-<arch>/iospd (macos-<arch>/iospd). The release
    zip from scripts/package.sh holds Windows builds only; on Linux it is
    refused with an error that says so (build iospd from source instead).
    -Scope User writes a marked block into the file the user's login shell
    reads: ~/.zprofile for zsh; for bash the first of ~/.bash_profile,
    ~/.bash_login and ~/.profile that exists; ~/.profile otherwise (an open
    shell needs '. <that file>'). There is one block only: an earlier
    install's block in another of those files is removed. -Scope Machine writes
    /etc/profile.d/iospd.sh; delete the block to undo. When that file cannot
    be written, a warning says that only this session's PATH changed and
    which line to add to the shell profile.

  What the checks prove:
  - The .sha256 file beside the zip proves that the download is complete
    and unchanged since that file was written. It does not prove who made
    the package: anyone who can replace the zip (the web server, the share,
    the download folder) can replace the .sha256 beside it as well.
  - -Sha256 <digest> proves that the zip is the one you vouch for, when you
    took the digest from a channel you trust (the release notes of the
    project, a signed mail, a colleague who built it). The .sha256 file is
    then not read at all.
  - On Windows, the Authenticode signature of iospd.exe (read with
    Get-AuthenticodeSignature in the staging folder) proves who signed it.
    A signature that is there but not valid (HashMismatch: changed after
    signing; NotTrusted; ...) refuses the install (IoSpdSignatureInvalid)
    whatever the digest said. A valid one is reported (Signature, Signer).
    An unsigned executable, and on Linux and macOS (no Authenticode) every
    executable, installs with a warning that says so, unless you gave
    -Sha256. The release zip of scripts/package.sh is not signed today.

  A wrong digest, an invalid signature, a package without the build for
  this machine, or a download that fails leaves any previous install and
  PATH exactly as they were. Running the command twice leaves one PATH
  entry. Errors are ErrorRecords with an id (IoSpdHashMismatch,
  IoSpdSignatureInvalid, IoSpdPackageWrongSystem, IoSpdNotElevated,
  IoSpdDestinationNotEmpty, ...) and a category.

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
  unless -Sha256 is given. Defaults to $env:IOSPD_SOURCE.

  .PARAMETER Destination
  Install folder, used for iospd alone: it must not exist yet, be empty, or
  hold an earlier install made by Install-IoSpd (see the description).
  Give a folder of its own, such as D:\tools\iospd, never a shared one such
  as D:\tools. Default: $env:ProgramFiles\iospd when elevated on Windows,
  $env:LOCALAPPDATA\Programs\iospd otherwise, $HOME/.iospd on Linux/macOS.

  .PARAMETER Scope
  Process (default) changes PATH for this session only; User and Machine also
  store it: in the user or machine environment in the registry on Windows,
  in the login shell's profile or /etc/profile.d/iospd.sh on Linux and macOS (see the
  description). Machine needs an elevated session (root on Linux).

  .PARAMETER Sha256
  SHA-256 digest (64 hex digits, any case) the zip must have, from a channel
  you trust. When given, the .sha256 file beside the zip is not fetched or
  read at all, and a zip with another digest is refused (IoSpdHashMismatch).
  -ExpectedHash is another name for it.

  .EXAMPLE
  Install-IoSpd -Source https://example.org/releases/iospd-1.0.0.zip -Scope User

  Downloads the package and its .sha256, verifies it, installs it under the
  user profile and adds the amd64 or x86 folder to the user PATH.

  .EXAMPLE
  Install-IoSpd -Source .\iospd-1.0.0.zip -Destination D:\tools\iospd -WhatIf

  Shows what would be installed without changing anything.

  .EXAMPLE
  Install-IoSpd -Source \\share\builds\iospd-1.0.0.zip -Sha256 3F2A...C9 -Scope Machine

  Installs from a share for all users, checking the digest given on the
  command line (taken from the release notes, not from the share) instead
  of the .sha256 on the share (must run elevated).

  .EXAMPLE
  Install-IoSpd -Source .\iospd-1.0.0.zip -Destination D:\tools

  Fails if D:\tools already holds other files: the install would replace
  the whole folder. Nothing is changed; use -Destination D:\tools\iospd.

  .EXAMPLE
  Install-IoSpd -Source ./iospd-1.0.0-linux.zip -Scope User

  On Linux: installs linux-amd64/iospd under ~/.iospd and adds it to PATH in
  the login shell's profile (~/.bash_profile, ~/.profile or ~/.zprofile). A Windows-only package is refused (IoSpdPackageWrongSystem).

  .OUTPUTS
  An object with Destination, Architecture, BinPath, Executable, Version,
  Sha256, HashFrom (-Sha256 or the .sha256 file the digest came from),
  Signature (Valid, NotSigned, or NotAvailable where no Authenticode can be
  read), Signer (the subject of the signing certificate, when valid), Scope
  and PathStoredIn (the registry value or profile file that holds the PATH
  entry; empty for -Scope Process).
  #>
  [CmdletBinding(SupportsShouldProcess, ConfirmImpact = 'Medium')]
  param(
    [Parameter(Position = 0)]
    [string] $Source = $env:IOSPD_SOURCE,

    [string] $Destination,

    [ValidateSet('Process', 'User', 'Machine')]
    [string] $Scope = 'Process',

    [Alias('ExpectedHash')]
    [ValidatePattern('^[0-9A-Fa-f]{64}$')]
    [string] $Sha256
  )

  # Every failure leaves as an ErrorRecord with an id and a category, and
  # -ErrorAction SilentlyContinue cannot turn a refusal into an install:
  # inside this try a throw always stops here, and ThrowTerminatingError
  # hands it to the caller.
  try {
    if (-not $Source) {
      throw (New-IoSpdHostError -Id 'IoSpdNoSource' -Category InvalidArgument -Target $null `
          -Message ('No package given: pass -Source with the URL or path of iospd-<version>.zip ' +
            '(or set $env:IOSPD_SOURCE).'))
    }
    if ($Scope -eq 'Machine' -and -not (Test-IoSpdElevated)) {
      throw (New-IoSpdHostError -Id 'IoSpdNotElevated' -Category PermissionDenied -Target $Scope `
          -Message ('Installing with -Scope Machine changes the machine PATH and needs an elevated ' +
            '(administrator) session. Run PowerShell as administrator (sudo on Linux), or use -Scope User.'))
    }
    if (-not $Destination) { $Destination = Get-IoSpdDefaultDestination }
    # Relative to the PowerShell location, not the process directory.
    $Destination = $PSCmdlet.SessionState.Path.GetUnresolvedProviderPathFromPSPath($Destination).TrimEnd('\', '/')
    $arch = Get-IoSpdArchitecture
    $layout = Get-IoSpdPackageLayout -Architecture $arch
    $binPath = Join-Path $Destination $layout.Folder
    # Refuse a folder holding anything that is not ours before fetching or
    # changing anything (checked again just before the swap).
    $null = Assert-IoSpdReplaceableDestination -Destination $Destination

    $action = "Install iospd ($($layout.Folder)) from '$Source' and add '$binPath' to the $Scope PATH"
    if ($Scope -ne 'Process' -and $layout.System -ne 'Windows') {
      $action += $(if ($Scope -eq 'User') { " (a block in $(Get-IoSpdProfileFile -Scope User))" } else { ' (/etc/profile.d/iospd.sh)' })
    }
    if (-not $PSCmdlet.ShouldProcess($Destination, $action)) { return }
    Install-IoSpdPackage -Source $Source -Destination $Destination -Layout $layout `
      -Sha256 $Sha256 -Scope $Scope
  } catch [Management.Automation.PipelineStoppedException] {
    throw   # Ctrl-C or a stopped pipeline: not an error of ours
  } catch {
    $PSCmdlet.ThrowTerminatingError($_)
  }
}
