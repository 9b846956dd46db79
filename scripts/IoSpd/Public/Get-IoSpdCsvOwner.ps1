# SPDX-License-Identifier: MIT
# Get-IoSpdCsvOwner: which node owns the Cluster Shared Volume holding a
# path, and whether this node reaches it directly or redirected.

function Get-IoSpdCsvOwner {
  <#
  .SYNOPSIS
  Shows the owner node of the Cluster Shared Volume that holds a path.

  .DESCRIPTION
  Finds the CSV whose mount point (SharedVolumeInfo.FriendlyVolumeName, for
  example C:\ClusterStorage\Volume1) is a prefix of the path, and reports
  its owner node, the local node ($env:COMPUTERNAME), whether they are the
  same, and how the local node reaches the volume (StateInfo from
  Get-ClusterSharedVolumeState: Direct, FileSystemRedirected,
  BlockRedirected) with the redirection reasons. A benchmark on a CSV is
  only meaningful when I/O is Direct, ideally from the owner node.

  Needs the FailoverClusters module: without it the command stops with the
  error IoSpdFailoverClustersMissing (NotInstalled). A path that is not on
  a CSV gives the non-terminating error IoSpdPathNotOnCsv (ObjectNotFound)
  and the other paths are still looked up; use -ErrorAction Stop to stop.

  .PARAMETER Path
  A file or folder on a Cluster Shared Volume. A relative path is taken
  relative to the PowerShell location (Set-Location), not the process
  directory.

  .EXAMPLE
  Get-IoSpdCsvOwner -Path C:\ClusterStorage\Volume1\iospd\test.dat

  Shows CsvName, OwnerNode, LocalNode, IsLocalOwner, StateInfo and IsRedirected.

  .EXAMPLE
  if (-not (Get-IoSpdCsvOwner C:\ClusterStorage\Volume2\t.dat).IsLocalOwner) { Move-IoSpdCsvOwner C:\ClusterStorage\Volume2\t.dat }

  Moves the volume here only when another node owns it.

  .OUTPUTS
  IoSpd.CsvOwner
  #>
  [CmdletBinding()]
  param(
    [Parameter(Mandatory, Position = 0, ValueFromPipeline, ValueFromPipelineByPropertyName)]
    [Alias('FullName')]
    [string] $Path
  )
  process {
    # A path that is not on a CSV (or a cluster call that fails) is a
    # non-terminating error for that path, written once: the next paths are
    # still looked up, and -ErrorAction decides. No FailoverClusters stops.
    $missing = Get-IoSpdFailoverClustersError
    if ($missing) { $PSCmdlet.ThrowTerminatingError($missing) }
    try {
      $found = Resolve-IoSpdCsv -Path $Path -BasePath $PSCmdlet.SessionState.Path.CurrentFileSystemLocation.ProviderPath
      if ($found -is [Management.Automation.ErrorRecord]) { $PSCmdlet.WriteError($found); return }
      $csv = $found.Csv
      $local = Get-IoSpdComputerName
      $owner = Get-IoSpdOwnerName -Csv $csv
      $state = Get-ClusterSharedVolumeState -Name $csv.Name -Node $local -ErrorAction Stop |
        Select-Object -First 1
    } catch {
      $PSCmdlet.WriteError($_)
      return
    }
    $stateInfo = $null; $fsReason = $null; $blockReason = $null
    if ($state) {
      $stateInfo = [string]$state.StateInfo
      if ($state.PSObject.Properties['FileSystemRedirectedIOReason']) {
        $fsReason = [string]$state.FileSystemRedirectedIOReason
      }
      if ($state.PSObject.Properties['BlockRedirectedIOReason']) {
        $blockReason = [string]$state.BlockRedirectedIOReason
      }
    }
    [pscustomobject]@{
      PSTypeName                   = 'IoSpd.CsvOwner'
      Path                         = $found.FullPath
      CsvName                      = [string]$csv.Name
      VolumePath                   = $found.VolumePath
      OwnerNode                    = $owner
      LocalNode                    = $local
      IsLocalOwner                 = ($null -ne $owner -and $owner -ieq $local)
      StateInfo                    = $stateInfo
      IsRedirected                 = ($null -ne $stateInfo -and $stateInfo -ne 'Direct')
      FileSystemRedirectedIOReason = $fsReason
      BlockRedirectedIOReason      = $blockReason
    }
  }
}
