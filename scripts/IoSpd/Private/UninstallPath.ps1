# SPDX-License-Identifier: MIT
# PATH entries of an install folder, for Uninstall-IoSpd.

function Remove-IoSpdPathEntryUnder {
  # Pure: $PathValue without the entries that are $Root or a folder in it
  # (compared as Test-IoSpdSamePathEntry does, %VARS% expanded); every other
  # entry kept byte for byte.
  [CmdletBinding()]
  [OutputType([string])]
  param(
    [AllowEmptyString()] [AllowNull()] [string] $PathValue,
    [Parameter(Mandatory)] [string] $Root,
    [string] $Separator = [IO.Path]::PathSeparator,
    [bool] $IgnoreCase = (Test-IoSpdWindows)
  )
  if (-not $PathValue) { return $PathValue }
  $cmp = if ($IgnoreCase) { [StringComparison]::OrdinalIgnoreCase } else { [StringComparison]::Ordinal }
  $want = $Root.Trim().Trim('"').TrimEnd('\', '/')
  $keep = foreach ($p in $PathValue.Split($Separator)) {
    $drop = $false
    foreach ($c in $p, [Environment]::ExpandEnvironmentVariables($p)) {
      $have = $c.Trim().Trim('"').TrimEnd('\', '/')
      if ($have -and ([string]::Equals($have, $want, $cmp) -or $have.StartsWith($want + '\', $cmp) -or
          $have.StartsWith($want + '/', $cmp))) { $drop = $true }
    }
    if (-not $drop) { $p }
  }
  return (@($keep) -join $Separator)
}
