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

  Moving a CSV is disruptive: the volume goes offline on its old owner
  and online on the new one, so I/O of every node and VM using it pauses
  for a moment. ConfirmImpact is therefore High: PowerShell asks before each
  move unless -Confirm:$false is given (or $ConfirmPreference is None), and
  -WhatIf shows the move without doing it. A volume the node already owns
  is not moved and not asked about.

  Errors: IoSpdFailoverClustersMissing (NotInstalled) stops the command;
  IoSpdPathNotOnCsv (ObjectNotFound), IoSpdCsvMoveFailed (InvalidOperation)
  and IoSpdCsvMoveTimeout (OperationTimeout) are non-terminating errors for
  that path. Scripts that must not go on after a failed move use
  -ErrorAction Stop.

  .PARAMETER Path
  A file or folder on a Cluster Shared Volume (a relative path is taken
  relative to the PowerShell location).

  .PARAMETER Node
  The node that should own the volume; default: this node.

  .PARAMETER TimeoutSeconds
  How long to wait for the cluster to report the new owner (default 120).

  .PARAMETER PollMilliseconds
  Interval between two checks (default 500).

  .EXAMPLE
  Move-IoSpdCsvOwner -Path C:\ClusterStorage\Volume1\test.dat

  Makes this node the owner of Volume1 before a local benchmark (asks first).

  .EXAMPLE
  Move-IoSpdCsvOwner -Path C:\ClusterStorage\Volume1\test.dat -Confirm:$false -ErrorAction Stop

  In a script: moves without asking, and stops the script when the move fails.

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
    # Per path, a failure is a non-terminating error written once (the next
    # paths are still moved; -ErrorAction Stop stops); no FailoverClusters
    # module stops the command.
    $missing = Get-IoSpdFailoverClustersError
    if ($missing) { $PSCmdlet.ThrowTerminatingError($missing) }
    try {
      $found = Resolve-IoSpdCsv -Path $Path -BasePath $PSCmdlet.SessionState.Path.CurrentFileSystemLocation.ProviderPath
      if ($found -is [Management.Automation.ErrorRecord]) { $PSCmdlet.WriteError($found); return }
      $name = [string]$found.Csv.Name
      $to = $Node
      if (-not $to) { $to = Get-IoSpdComputerName }
      $owner = Get-IoSpdOwnerName -Csv $found.Csv
      if ($owner -ieq $to) {
        Write-Verbose "$name is already owned by $to"
        return (Get-IoSpdCsvOwner -Path $found.FullPath)
      }
      if (-not $PSCmdlet.ShouldProcess("$name (owner $owner)", "Move to node $to")) { return }
      try {
        $null = Move-ClusterSharedVolume -Name $name -Node $to -ErrorAction Stop
      } catch {
        $PSCmdlet.WriteError((New-IoSpdHostError -Id 'IoSpdCsvMoveFailed' -Category InvalidOperation -Target $name `
              -InnerException $_.Exception -Message "Could not move '$name' to node '$to': $($_.Exception.Message)"))
        return
      }
      # A fixed number of polls (not a wall-clock deadline) keeps the wait
      # deterministic: TimeoutSeconds / PollMilliseconds checks after the first.
      $polls = [int][Math]::Ceiling($TimeoutSeconds * 1000.0 / $PollMilliseconds)
      for ($i = 0; ; $i++) {
        $now = @(Get-ClusterSharedVolume -Name $name -ErrorAction Stop) | Select-Object -First 1
        $owner = Get-IoSpdOwnerName -Csv $now
        if ($owner -ieq $to) { break }
        if ($i -ge $polls) {
          $PSCmdlet.WriteError((New-IoSpdHostError -Id 'IoSpdCsvMoveTimeout' -Category OperationTimeout -Target $name `
                -Message ("Timed out after $TimeoutSeconds s waiting for '$name' to move to node " +
                  "'$to' (the cluster still reports owner '$owner'). Check the cluster events " +
                  'or try again with a larger -TimeoutSeconds.')))
          return
        }
        Start-Sleep -Milliseconds $PollMilliseconds
      }
    } catch {
      $PSCmdlet.WriteError($_)
      return
    }
    Get-IoSpdCsvOwner -Path $found.FullPath
  }
}
