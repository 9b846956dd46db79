# SPDX-License-Identifier: MIT
# Helpers for the Cluster Shared Volume functions: module presence, path
# normalisation and finding the CSV that holds a path. Failures are thrown
# as ErrorRecords (New-IoSpdHostError) that the public functions hand on.

function Get-IoSpdFailoverClustersError {
  # $null when the cluster cmdlets are there, else the ErrorRecord saying
  # how to get them (FailoverClusters module: RSAT / Failover Clustering).
  # Returned, not thrown, so that the public functions write it once.
  [CmdletBinding()]
  param()
  $mod = Get-Module -ListAvailable -Name 'FailoverClusters'
  if ($mod) { return $null }
  return (New-IoSpdHostError -Id 'IoSpdFailoverClustersMissing' -Category NotInstalled -Target 'FailoverClusters' `
      -Message ('The FailoverClusters PowerShell module is not available on this machine. ' +
        'Run this on a cluster node, or install it with ' +
        "'Install-WindowsFeature RSAT-Clustering-PowerShell' (Windows Server) or " +
        "'Add-WindowsCapability -Online -Name Rsat.FailoverCluster.Management.Tools~~~~0.0.1.0' (Windows client)."))
}

function Assert-IoSpdFailoverClusters {
  # Throws the error of Get-IoSpdFailoverClustersError, if any.
  [CmdletBinding()]
  param()
  $e = Get-IoSpdFailoverClustersError
  if ($e) { throw $e }
}

function ConvertTo-IoSpdWindowsPath {
  # Full Windows-style path. Rooted paths (C:\..., \\server\...) are kept;
  # a relative one is joined to $BasePath, the PowerShell location (not the
  # process directory, which Set-Location does not change), and '.' and
  # '..' steps are resolved as text, so that this also works off Windows.
  [CmdletBinding()]
  [OutputType([string])]
  param(
    [Parameter(Mandatory)] [string] $Path,
    [string] $BasePath = (Get-Location -PSProvider FileSystem).ProviderPath
  )
  $p = $Path -replace '/', '\'
  $base = ($BasePath -replace '/', '\').TrimEnd('\')
  if ($p -match '^[A-Za-z]:\\' -or $p -match '^\\\\') {
    $full = $p
  } elseif ($p -match '^\\') {
    # Rooted on the drive of the location: \x on C:\y is C:\x.
    $drive = ''
    if ($base -match '^([A-Za-z]:)') { $drive = $Matches[1] }
    $full = $drive + $p
  } else {
    $full = $base + '\' + $p
  }
  $prefix = ''
  $rest = $full
  if ($full -match '^(\\\\[^\\]+\\[^\\]+|[A-Za-z]:)?(.*)$') { $prefix = $Matches[1]; $rest = $Matches[2] }
  $parts = [Collections.Generic.List[string]]::new()
  foreach ($seg in $rest.Split('\')) {
    if ($seg -eq '' -or $seg -eq '.') { continue }
    if ($seg -eq '..') { if ($parts.Count -gt 0) { $parts.RemoveAt($parts.Count - 1) }; continue }
    $parts.Add($seg)
  }
  $out = $prefix + '\' + ($parts -join '\')
  if ($full.EndsWith('\') -and $parts.Count -gt 0) { $out += '\' }
  return $out
}

function Resolve-IoSpdCsv {
  # Returns @{ Csv; VolumePath; FullPath } for the CSV whose mount point
  # (SharedVolumeInfo.FriendlyVolumeName) is the longest prefix of Path
  # (relative to $BasePath, by default the PowerShell location), or the
  # ErrorRecord IoSpdPathNotOnCsv when there is none. Checks nothing about
  # the FailoverClusters module (Get-IoSpdFailoverClustersError does).
  [CmdletBinding()]
  param(
    [Parameter(Mandatory)] [string] $Path,
    [string] $BasePath = (Get-Location -PSProvider FileSystem).ProviderPath
  )
  $full = ConvertTo-IoSpdWindowsPath -Path $Path -BasePath $BasePath
  $best = $null
  $bestLen = -1
  foreach ($csv in @(Get-ClusterSharedVolume -ErrorAction Stop)) {
    foreach ($info in @($csv.SharedVolumeInfo)) {
      if ($null -eq $info) { continue }
      $vol = ([string]$info.FriendlyVolumeName).TrimEnd('\')
      if (-not $vol) { continue }
      $match = $full.Equals($vol, [StringComparison]::OrdinalIgnoreCase) -or
        $full.StartsWith($vol + '\', [StringComparison]::OrdinalIgnoreCase)
      if ($match -and $vol.Length -gt $bestLen) {
        $best = @{ Csv = $csv; VolumePath = $vol; FullPath = $full }
        $bestLen = $vol.Length
      }
    }
  }
  if ($best) { return $best }
  return (New-IoSpdHostError -Id 'IoSpdPathNotOnCsv' -Category ObjectNotFound -Target $full `
      -Message ("'$full' is not on a Cluster Shared Volume: no CSV of this cluster is mounted at a " +
        'prefix of it (CSVs are under C:\ClusterStorage\ by default).'))
}

function Find-IoSpdCsv {
  # Resolve-IoSpdCsv after the module check, throwing the ErrorRecord of
  # either (for callers that want one exception).
  [CmdletBinding()]
  param(
    [Parameter(Mandatory)] [string] $Path,
    [string] $BasePath = (Get-Location -PSProvider FileSystem).ProviderPath
  )
  Assert-IoSpdFailoverClusters
  $r = Resolve-IoSpdCsv -Path $Path -BasePath $BasePath
  if ($r -is [Management.Automation.ErrorRecord]) { throw $r }
  return $r
}

function Get-IoSpdOwnerName {
  # OwnerNode is a ClusterNode object (Name) in the real cmdlets; accept a
  # plain string too.
  param($Csv)
  $owner = $Csv.OwnerNode
  if ($null -eq $owner) { return $null }
  if ($owner -is [string]) { return $owner }
  return [string]$owner.Name
}
