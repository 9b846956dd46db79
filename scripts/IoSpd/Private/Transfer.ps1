# SPDX-License-Identifier: MIT
# Fetching a release file from a URL or a local path, and reading the
# expected hash out of a .sha256 file (kept separate so tests can Mock them).

function Test-IoSpdUrl {
  [CmdletBinding()]
  [OutputType([bool])]
  param([Parameter(Mandatory)] [string] $Source)
  return ($Source -match '^(?i)(https?|ftp)://')
}

function Copy-IoSpdSourceFile {
  # Downloads (http/https) or copies (path) $Source to $OutFile. Throws with
  # the source named when it cannot be had.
  [CmdletBinding()]
  param(
    [Parameter(Mandatory)] [string] $Source,
    [Parameter(Mandatory)] [string] $OutFile
  )
  if (Test-IoSpdUrl -Source $Source) {
    try {
      $old = $ProgressPreference
      $ProgressPreference = 'SilentlyContinue'   # the progress bar slows IWR 10x
      Invoke-WebRequest -Uri $Source -OutFile $OutFile -UseBasicParsing -ErrorAction Stop
    } catch {
      throw (New-IoSpdHostError -Id 'IoSpdDownloadFailed' -Category ConnectionError -Target $Source `
          -InnerException $_.Exception -Message "Could not download '$Source': $($_.Exception.Message)")
    } finally {
      $ProgressPreference = $old
    }
  } else {
    if (-not (Test-Path -LiteralPath $Source -PathType Leaf)) {
      throw (New-IoSpdHostError -Id 'IoSpdSourceNotFound' -Category ObjectNotFound -Target $Source `
          -Message "The file '$Source' does not exist.")
    }
    Copy-Item -LiteralPath $Source -Destination $OutFile -Force -ErrorAction Stop
  }
}

function Read-IoSpdHashFile {
  # A .sha256 file holds "<64 hex digits>  <file name>" (sha256sum format);
  # returns the digest in upper case.
  [CmdletBinding()]
  [OutputType([string])]
  param([Parameter(Mandatory)] [string] $Path)
  $text = (Get-Content -LiteralPath $Path -Raw -ErrorAction Stop)
  if ($null -eq $text) { $text = '' }
  $m = [regex]::Match($text, '^\s*([0-9A-Fa-f]{64})\b')
  if (-not $m.Success) {
    throw (New-IoSpdHostError -Id 'IoSpdHashFileInvalid' -Category InvalidData -Target $Path `
        -Message "The hash file '$Path' does not start with a SHA-256 digest (64 hex digits).")
  }
  return $m.Groups[1].Value.ToUpperInvariant()
}

function Get-IoSpdSha256 {
  [CmdletBinding()]
  [OutputType([string])]
  param([Parameter(Mandatory)] [string] $Path)
  return (Get-FileHash -LiteralPath $Path -Algorithm SHA256).Hash.ToUpperInvariant()
}

function Expand-IoSpdZip {
  # Extracts with System.IO.Compression (no dependency on the Archive
  # module; entries that would escape the folder are refused by .NET).
  [CmdletBinding()]
  param(
    [Parameter(Mandatory)] [string] $Path,
    [Parameter(Mandatory)] [string] $DestinationPath
  )
  Add-Type -AssemblyName System.IO.Compression.FileSystem -ErrorAction SilentlyContinue
  try {
    [IO.Compression.ZipFile]::ExtractToDirectory($Path, $DestinationPath)
  } catch {
    $e = $_.Exception
    if ($e.InnerException) { $e = $e.InnerException }
    throw (New-IoSpdHostError -Id 'IoSpdUnpackFailed' -Category InvalidData -Target $Path `
        -InnerException $e -Message "Could not unpack '$Path': $($e.Message)")
  }
}
