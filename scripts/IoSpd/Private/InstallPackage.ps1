# SPDX-License-Identifier: MIT
# The work of Install-IoSpd once its checks passed and ShouldProcess said
# yes: fetch, verify, unpack beside the destination, swap into place, put
# the build on PATH. Every failure throws an ErrorRecord (New-IoSpdHostError)
# that Install-IoSpd hands on.

function Install-IoSpdPackage {
  [CmdletBinding()]
  param(
    [Parameter(Mandatory)] [string] $Source,
    [Parameter(Mandatory)] [string] $Destination,
    [Parameter(Mandatory)] $Layout,
    # The digest the user gave (-Sha256); empty: read <Source>.sha256.
    [AllowEmptyString()] [string] $Sha256,
    [Parameter(Mandatory)] [ValidateSet('Process', 'User', 'Machine')] [string] $Scope
  )
  $binPath = Join-Path $Destination $Layout.Folder
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

    # A digest given by the user is the only one used: the .sha256 beside
    # the zip is then not fetched at all (it proves nothing the user's
    # digest does not, and whoever can replace the zip can replace it).
    if ($Sha256) {
      $want = $Sha256.ToUpperInvariant()
      $hashFrom = '-Sha256'
    } else {
      $hashFrom = $Source + '.sha256'
      $hashFile = Join-Path $work 'package.zip.sha256'
      Copy-IoSpdSourceFile -Source $hashFrom -OutFile $hashFile
      $want = Read-IoSpdHashFile -Path $hashFile
    }
    $have = Get-IoSpdSha256 -Path $zip
    if ($have -ne $want) {
      $from = "'$hashFrom'"; $check = 'download the package again'
      if ($Sha256) { $from = '-Sha256'; $check = 'check the digest you gave and where the package came from' }
      throw (New-IoSpdHostError -Id 'IoSpdHashMismatch' -Category SecurityError -Target $Source `
          -Message ("SHA-256 mismatch for '$Source': expected $want (from $from), the file has $have. " +
            "Nothing was installed; $check."))
    }
    Write-Verbose "SHA-256 $have verified against $hashFrom"

    if (-not (Test-Path -LiteralPath $parent)) {
      $null = New-Item -ItemType Directory -Path $parent -Force
    }
    # .NET refuses entries that lead outside the staging folder (zip slip:
    # ../, absolute paths); the message names the package the user gave,
    # not the temporary copy it was unpacked from.
    try {
      Expand-IoSpdZip -Path $zip -DestinationPath $staging
    } catch {
      if ($_.FullyQualifiedErrorId -notlike 'IoSpdUnpackFailed*') { throw }
      $why = $_.Exception
      if ($why.InnerException) { $why = $why.InnerException }
      throw (New-IoSpdHostError -Id 'IoSpdUnpackFailed' -Category InvalidData -Target $Source -InnerException $why `
          -Message ("Could not unpack '$Source': $($why.Message) Nothing was installed and the previous " +
            'install was left as it was.'))
    }
    # Accept a package whose content sits in one top-level folder.
    $root = $staging
    $top = @(Get-ChildItem -LiteralPath $staging -Force)
    if ($top.Count -eq 1 -and $top[0].PSIsContainer -and
        -not (Test-Path -LiteralPath (Join-Path $staging $Layout.Folder))) {
      $root = $top[0].FullName
    }
    # A package without a build for this system (a Windows zip on Linux)
    # is refused here, before the previous install is touched.
    $exe = Assert-IoSpdPackageBuild -Root $root -Layout $Layout -Source $Source
    # The signature is read in the staging folder, before anything is moved
    # into place: a bad one leaves the previous install as it was.
    $signature = Confirm-IoSpdPackageSignature -Path $exe -Name "$($Layout.Folder)/$($Layout.File)" `
      -Source $Source -HashFrom $hashFrom -UserDigest ([bool]$Sha256)
    Set-IoSpdExecutableMode -Path $exe

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
      throw (New-IoSpdHostError -Id 'IoSpdInstallMoveFailed' -Category WriteError -Target $Destination `
          -InnerException $_.Exception `
          -Message "Could not move the new install into '$Destination': $($_.Exception.Message)")
    }
    if ($hadOld) {
      $left = @(Remove-IoSpdInstallTree -Path $old)
      if ($left.Count -gt 0) {
        Write-Warning ("The previous install was moved to '$old' and could not be removed " +
          "completely; what is left ($(Format-IoSpdEntryList $left)) was kept. Look through " +
          'it and delete it yourself.')
      }
    }

    $stored = Add-IoSpdInstallPath -Entry $binPath -Scope $Scope
    # Said once it is installed: what the checks proved and what they did not.
    if ($signature.Warning) { Write-Warning $signature.Warning }

    [pscustomobject]@{
      PSTypeName   = 'IoSpd.InstallResult'
      Destination  = $Destination
      Architecture = $Layout.Architecture
      BinPath      = $binPath
      Executable   = Join-Path $binPath $Layout.File
      Version      = $version
      Sha256       = $have
      HashFrom     = $hashFrom
      Signature    = $signature.Status
      Signer       = $signature.Signer
      Scope        = $Scope
      PathStoredIn = $stored
    }
  } finally {
    foreach ($d in $work, $staging) {
      if (Test-Path -LiteralPath $d) { Remove-Item -LiteralPath $d -Recurse -Force -ErrorAction SilentlyContinue }
    }
  }
}

function Add-IoSpdInstallPath {
  # Puts $Entry on PATH: stored first for -Scope User/Machine (the registry
  # on Windows, a shell profile elsewhere), then in this session. Returns
  # where it was stored ($null for -Scope Process or when it could not be).
  [CmdletBinding()]
  [OutputType([string])]
  param(
    [Parameter(Mandatory)] [string] $Entry,
    [Parameter(Mandatory)] [ValidateSet('Process', 'User', 'Machine')] [string] $Scope
  )
  $stored = $null
  if ($Scope -ne 'Process') {
    if (Test-IoSpdWindows) {
      try {
        $stored = (Add-IoSpdRegistryPathEntry -Scope $Scope -Entry $Entry -Accessor (Get-IoSpdRegistryAccessor)).StoredIn
      } catch {
        if ($_.FullyQualifiedErrorId -like 'IoSpdPathRegistryKind*') { throw }
        throw (New-IoSpdHostError -Id 'IoSpdPathNotStored' -Category WriteError -Target $Scope `
            -InnerException $_.Exception `
            -Message ("iospd was installed, but the $Scope PATH could not be written: $($_.Exception.Message) " +
              "Add '$Entry' to PATH yourself, or run Install-IoSpd again with -Scope Process."))
      }
    } else {
      $stored = (Add-IoSpdProfilePathEntry -Scope $Scope -Entry $Entry).StoredIn
    }
  }
  $name = Get-IoSpdPathVariableName
  $current = Get-IoSpdEnvironmentVariable -Name $name -Scope Process
  $new = Add-IoSpdPathEntry -PathValue $current -Entry $Entry
  if ($new -ne $current) {
    Set-IoSpdEnvironmentVariable -Name $name -Value $new -Scope Process -WhatIf:$false -Confirm:$false
  }
  return $stored
}
