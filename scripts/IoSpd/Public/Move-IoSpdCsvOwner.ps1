# SPDX-License-Identifier: MIT
# Move-IoSpdCsvOwner: make a node (by default this one) the owner of the
# Cluster Shared Volume holding a path and wait until the cluster shows it.

function Move-IoSpdCsvOwner {
  <#
  .SYNOPSIS
  Moves the Cluster Shared Volume holding a path to a node and waits for it.

  .DESCRIPTION
  Finds the CSV that holds -Path (as Get-IoSpdCsvOwner does), runs
  Move-ClusterSharedVolume -Name <csv> -Node <node> unless the node already
  owns it, then polls Get-ClusterSharedVolume until the new owner shows,
  failing with a clear error after -TimeoutSeconds. Returns the state after
  the move (Get-IoSpdCsvOwner).

  .PARAMETER Path
  A file or folder on a Cluster Shared Volume.

  .PARAMETER Node
  The node that should own the volume; default: this node.

  .PARAMETER TimeoutSeconds
  How long to wait for the cluster to report the new owner (default 120).

  .PARAMETER PollMilliseconds
  Interval between two checks (default 500).

  .EXAMPLE
  Move-IoSpdCsvOwner -Path C:\ClusterStorage\Volume1\test.dat

  Makes this node the owner of Volume1 before a local benchmark.

  .EXAMPLE
  Move-IoSpdCsvOwner -Path C:\ClusterStorage\Volume1 -Node NODE2 -TimeoutSeconds 60 -WhatIf

  Shows the move without doing it.

  .OUTPUTS
  IoSpd.CsvOwner
  #>
  [CmdletBinding(SupportsShouldProcess, ConfirmImpact = 'High')]
  param(
    [Parameter(Mandatory, Position = 0, ValueFromPipelineByPropertyName)]
    [string] $Path,
    [Parameter(Position = 1)] [string] $Node,
    [ValidateRange(1, 86400)] [int] $TimeoutSeconds = 120,
    [ValidateRange(10, 60000)] [int] $PollMilliseconds = 500
  )
  process {
    $found = Find-IoSpdCsv -Path $Path
    $name = [string]$found.Csv.Name
    if (-not $Node) { $Node = Get-IoSpdComputerName }
    $owner = Get-IoSpdOwnerName -Csv $found.Csv
    if ($owner -ieq $Node) {
      Write-Verbose "$name is already owned by $Node"
      return (Get-IoSpdCsvOwner -Path $Path)
    }
    if (-not $PSCmdlet.ShouldProcess("$name (owner $owner)", "Move to node $Node")) { return }
    $null = Move-ClusterSharedVolume -Name $name -Node $Node -ErrorAction Stop
    # A fixed number of polls (not a wall-clock deadline) keeps the wait
    # deterministic: TimeoutSeconds / PollMilliseconds checks after the first.
    $polls = [int][Math]::Ceiling($TimeoutSeconds * 1000.0 / $PollMilliseconds)
    for ($i = 0; ; $i++) {
      $now = @(Get-ClusterSharedVolume -Name $name) | Select-Object -First 1
      $owner = Get-IoSpdOwnerName -Csv $now
      if ($owner -ieq $Node) { break }
      if ($i -ge $polls) {
        throw "Timed out after $TimeoutSeconds s waiting for '$name' to move to node " +
          "'$Node' (the cluster still reports owner '$owner'). Check the cluster events " +
          'or try again with a larger -TimeoutSeconds.'
      }
      Start-Sleep -Milliseconds $PollMilliseconds
    }
    Get-IoSpdCsvOwner -Path $Path
  }
}
