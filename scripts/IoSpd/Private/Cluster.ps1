# SPDX-License-Identifier: MIT
# Helpers for the Cluster Shared Volume functions: module presence, path
# normalisation and finding the CSV that holds a path.

function Assert-IoSpdFailoverClusters {
  # The cluster cmdlets come from the FailoverClusters module (RSAT /
  # Failover Clustering feature); say how to get it when it is missing.
  [CmdletBinding()]
  param()
  $mod = Get-Module -ListAvailable -Name 'FailoverClusters'
  if (-not $mod) {
    throw 'The FailoverClusters PowerShell module is not available on this machine. ' +
      'Run this on a cluster node, or install it with ' +
      "'Install-WindowsFeature RSAT-Clustering-PowerShell' (Windows Server) or " +
      "'Add-WindowsCapability -Online -Name Rsat.FailoverCluster.Management.Tools~~~~0.0.1.0' (Windows client)."
  }
}

function ConvertTo-IoSpdWindowsPath {
  # Full Windows-style path; already rooted paths (C:\..., \\server\...) are
  # kept as they are so that this also works when tested off Windows.
  [CmdletBinding()]
  [OutputType([string])]
  param([Parameter(Mandatory)] [string] $Path)
  $p = $Path -replace '/', '\'
  if ($p -match '^[A-Za-z]:\\' -or $p -match '^\\\\') { return $p }
  return ([IO.Path]::GetFullPath($Path) -replace '/', '\')
}

function Find-IoSpdCsv {
  # Returns @{ Csv; VolumePath; FullPath } for the CSV whose mount point
  # (SharedVolumeInfo.FriendlyVolumeName) is the longest prefix of Path.
  [CmdletBinding()]
  param([Parameter(Mandatory)] [string] $Path)
  Assert-IoSpdFailoverClusters
  $full = ConvertTo-IoSpdWindowsPath -Path $Path
  $best = $null
  $bestLen = -1
  foreach ($csv in @(Get-ClusterSharedVolume)) {
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
  if (-not $best) {
    throw "'$full' is not on a Cluster Shared Volume: no CSV of this cluster is mounted at a " +
      'prefix of it (CSVs are under C:\ClusterStorage\ by default).'
  }
  return $best
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
