# SPDX-License-Identifier: MIT
# Invoke-IoSpdFleet: one iospd profile on every node at once through
# PowerShell remoting, started together on named events, merged into one
# cluster total with `iospd --merge`.

function Invoke-IoSpdFleet {
  <#
  .SYNOPSIS
  Runs iospd on several nodes at once and merges their results into one cluster total.

  .DESCRIPTION
  For every node (a PowerShell remoting session: WinRM or SSH with pwsh):
  1. checks that the node's iospd has the same version as every other node
     (`iospd -?`), and refuses to run otherwise unless -Force;
  2. starts iospd there in the background with the raw -ArgumentList, -L, -v,
     a per-node -yr<event> and --output=json:<node folder>/<node>.json, on the
     node's targets (-Target templates with {node} replaced by the node name);
  3. once every node reports that it waits for its event (iospd -v prints
     "waiting for the start event"), sets all events at once (`iospd -ye` on
     every node, in parallel) and measures the start skew;
  4. waits for every node (at most -TimeoutSec), copies each node's JSON to
     -OutputDirectory and merges them on this machine with `iospd --merge`.

  A node that is unreachable, has no iospd, is not ready within
  -ReadyTimeoutSec, fails, is killed or times out is named in the result
  with its error; the other nodes' results are merged and returned with
  Partial = $true, and then one non-terminating IoSpdFleetNodeFailed error
  per failed node follows, whose TargetObject is that partial result: with
  -ErrorAction Stop, catch it and read $_.TargetObject. Without any node's
  results the command fails (IoSpdFleetNoResults).

  Each node's work folder (its iospd output, error and JSON files; the
  folder itself when the run made it) is removed at the end, once the JSON
  is copied to -OutputDirectory; -KeepNodeFiles keeps them.

  Shown at the prompt, the result is a table with one row per node (IOPS,
  MiB/s, mean and p99 latency, CPU, its start after the first node, the
  number of warnings, its error) and a (cluster) row: the merged totals, the
  busiest node's CPU and the start skew. The rows are in its Table property.

  Start skew: each node takes the time ([datetime]::UtcNow, 100 ns ticks)
  right after its `iospd -ye` returned, when its run has been released. The
  skew is the spread of those times (StartSkewMs); each time may be late by
  up to that node's -ye process time (StartSkewUncertaintyMs). The times are
  the nodes' own clocks: across machines, add their clock offset (NTP, often
  around a millisecond).

  Warnings: each node's iospd warnings (its JSON's "warnings" array) are
  written with Write-Warning as "node <name>: iospd: ..." (-WarningAction
  applies) and kept in that node's row (Nodes[i].Warnings) and, prefixed
  with the node name, in the result's Warnings.

  WinRM (-ComputerName, or WinRM sessions) is tested with mocks only and is
  untested on real Windows; SSH remoting is tested for real on Linux.

  .PARAMETER Session
  Open PowerShell sessions, one per node. Several sessions to one machine
  need -NodeName.

  .PARAMETER ComputerName
  Nodes reached with WinRM (New-PSSession -ComputerName); the sessions are
  closed at the end.

  .PARAMETER HostName
  Nodes reached with SSH remoting (New-PSSession -HostName), with -UserName,
  -KeyFilePath, -Port and -SshOption (New-PSSession -Options).

  .PARAMETER NodeName
  A name per node (same order), used for {node} and in the results; default:
  the session's computer name.

  .PARAMETER Target
  Target templates; {node} becomes the node name:
  C:\ClusterStorage\{node}\io.dat, /mnt/{node}/io.dat.

  .PARAMETER DiskSpdVersion
  --diskspd=2.2 or 2.3 on every node (see Invoke-IoSpd).

  .PARAMETER ArgumentList
  Raw iospd switches, the same on every node (for example '-c1G','-b4K',
  '-t4','-o32','-r','-w30','-d60','-Sh'). -R, --output, -y and -X are added
  or not allowed. Give -z<seed> rather than a bare -z: runs only merge when
  their profiles are equal.

  .PARAMETER BlockSize
  As Invoke-IoSpd's (-b); so are -Threads (-t), -OutstandingIO (-o),
  -WritePercent (-w), -Random (-r), -Duration (-d), -Warmup (-W), -Cooldown
  (-C), -CacheMode (-Sb/-Su/-Sw/-Sh), -IopsInterval (-D) and -CreateSize
  (-c). They come before -ArgumentList's switches. -L is always given.

  .PARAMETER IoSpdPath
  The iospd executable on the nodes (a template; default 'iospd' from the
  node's PATH).

  .PARAMETER WorkingDirectory
  The folder on each node for its output files (a template; default
  <node's temp folder>/iospd-fleet/{node}).

  .PARAMETER ExecutablePath
  The iospd on this machine that merges (--merge); default IOSPD_EXE or
  iospd from PATH. -Path is an alias (the old name).

  .PARAMETER OutputDirectory
  Where the nodes' JSON files (<node>.json) and the merged fleet.json are
  kept; default a new folder under the temp folder.

  .PARAMETER TimeoutSec
  The longest time the nodes may run after the start before they are stopped
  and named as timed out (0: no limit).

  .PARAMETER ReadyTimeoutSec
  The longest wait for every node to be ready (file creation with -c counts).

  .PARAMETER Force
  Run even when the nodes' iospd versions differ.

  .PARAMETER KeepNodeFiles
  Keep each node's work folder (-WorkingDirectory) and its files after the
  run instead of removing them.

  .PARAMETER InstallFrom
  A local release zip (with its .sha256 beside it) to install on every node
  first: the zip and this module are copied into the session
  (Copy-Item -ToSession), and Install-IoSpd -Scope Process installs it under
  the node's <temp>/iospd-fleet/iospd; that iospd runs (-IoSpdPath is not
  used). A node where it fails is named with the error. Release zips hold
  Windows builds only. Tested with mocks only.

  .PARAMETER AlignCsvOwner
  Before the run, move the Cluster Shared Volume of each node's targets to
  that node (Move-IoSpdCsvOwner -Node <node name>), so that every node's
  I/O goes direct. Run from a node of the cluster; the node names must be
  the cluster's. Honours -WhatIf and -Confirm. Tested with mocked cluster
  cmdlets only.

  .PARAMETER Credential
  With -ComputerName: the credential for the WinRM sessions opened to the
  nodes.

  .PARAMETER UserName
  With -HostName: the user the SSH sessions log in as.

  .PARAMETER KeyFilePath
  With -HostName: the private key file for the SSH sessions.

  .PARAMETER SshOption
  With -HostName: SSH options for the sessions (New-PSSession -Options),
  for example @{ StrictHostKeyChecking = 'yes' }.

  .PARAMETER Port
  The port of the sessions opened with -HostName (SSH) or -ComputerName
  (WinRM).

  .PARAMETER Threads
  As Invoke-IoSpd's -Threads, turned into the same iospd switch for every node
  (see Get-Help Invoke-IoSpd -Parameter Threads).

  .PARAMETER OutstandingIO
  As Invoke-IoSpd's -OutstandingIO, turned into the same iospd switch for every node
  (see Get-Help Invoke-IoSpd -Parameter OutstandingIO).

  .PARAMETER WritePercent
  As Invoke-IoSpd's -WritePercent, turned into the same iospd switch for every node
  (see Get-Help Invoke-IoSpd -Parameter WritePercent).

  .PARAMETER Random
  As Invoke-IoSpd's -Random, turned into the same iospd switch for every node
  (see Get-Help Invoke-IoSpd -Parameter Random).

  .PARAMETER Duration
  As Invoke-IoSpd's -Duration, turned into the same iospd switch for every node
  (see Get-Help Invoke-IoSpd -Parameter Duration).

  .PARAMETER Warmup
  As Invoke-IoSpd's -Warmup, turned into the same iospd switch for every node
  (see Get-Help Invoke-IoSpd -Parameter Warmup).

  .PARAMETER Cooldown
  As Invoke-IoSpd's -Cooldown, turned into the same iospd switch for every node
  (see Get-Help Invoke-IoSpd -Parameter Cooldown).

  .PARAMETER CacheMode
  As Invoke-IoSpd's -CacheMode, turned into the same iospd switch for every node
  (see Get-Help Invoke-IoSpd -Parameter CacheMode).

  .PARAMETER IopsInterval
  As Invoke-IoSpd's -IopsInterval, turned into the same iospd switch for every node
  (see Get-Help Invoke-IoSpd -Parameter IopsInterval).

  .PARAMETER CreateSize
  As Invoke-IoSpd's -CreateSize, turned into the same iospd switch for every node
  (see Get-Help Invoke-IoSpd -Parameter CreateSize).

  .EXAMPLE
  $s = New-PSSession -HostName n1,n2 -UserName admin -KeyFilePath ~/.ssh/id_ed25519
  Invoke-IoSpdFleet -Session $s -Target '/mnt/{node}/io.dat' -ArgumentList '-c1G','-b4K','-t4','-o32','-r','-d60','-W5'

  .EXAMPLE
  Invoke-IoSpdFleet -ComputerName n1, n2, n3, n4 -Target 'C:\ClusterStorage\{node}\io.dat' -IoSpdPath 'C:\iospd\amd64\iospd.exe' -ArgumentList '-c10G', '-b4K', '-t8', '-o32', '-r', '-w30', '-d120', '-Sh' -TimeoutSec 600 | Select-Object -ExpandProperty Nodes

  A four-node Storage Spaces Direct cluster over WinRM, each node on its own
  CSV (VM Fleet's layout); shows the per-node table.

  .OUTPUTS
  IoSpd.FleetResult: the merged Iops, MiBps, MeanMs, P99Ms, Ios; the
  busiest node's CPU usage (MaxCpuPercent); Nodes (one row per node: Node,
  Iops, MiBps, MeanMs, P99Ms, Ios, CpuPercent, Version, StartUtc,
  StartOffsetMs, Error, Warnings), Table (the node rows and the (cluster) row),
  Warnings (every node's warning lines as "<node>: <line>"), Partial,
  FailedNodes, StartSkewMs, StartSkewUncertaintyMs, MergedPath, Merged (the
  merged JSON as objects).
  #>
  [CmdletBinding(DefaultParameterSetName = 'Session', SupportsShouldProcess)]
  param(
    [Parameter(Mandatory, ParameterSetName = 'Session')] [object[]] $Session,
    [Parameter(Mandatory, ParameterSetName = 'ComputerName')] [string[]] $ComputerName,
    [Parameter(ParameterSetName = 'ComputerName')] [pscredential] $Credential,
    [Parameter(Mandatory, ParameterSetName = 'HostName')] [string[]] $HostName,
    [Parameter(ParameterSetName = 'HostName')] [string] $UserName,
    [Parameter(ParameterSetName = 'HostName')] [string] $KeyFilePath,
    [Parameter(ParameterSetName = 'HostName')] [hashtable] $SshOption,
    [PSDefaultValue(Help = "the transport's own: 5985 (WinRM), 22 (SSH)")] [Parameter(ParameterSetName = 'HostName')] [Parameter(ParameterSetName = 'ComputerName')] [int] $Port,
    [string[]] $NodeName,
    [Parameter(Mandatory)] [string[]] $Target,
    [string[]] $ArgumentList,
    [PSDefaultValue(Help = "iospd's: 64K (-b)")] [object] $BlockSize,
    [PSDefaultValue(Help = "iospd's: 1 thread per target (-t)")] [ValidateRange(1, 65535)] [int] $Threads,
    [PSDefaultValue(Help = "iospd's: 2 per thread and target (-o)")] [ValidateRange(1, 1048576)] [int] $OutstandingIO,
    [PSDefaultValue(Help = "iospd's: 0, reads only (-w)")] [ValidateRange(0, 100)] [int] $WritePercent,
    [switch] $Random,
    [PSDefaultValue(Help = "iospd's: 10 s (-d)")] [ValidateRange(0, 2147483647)] [int] $Duration,
    [PSDefaultValue(Help = "iospd's: 5 s (-W)")] [ValidateRange(0, 2147483647)] [int] $Warmup,
    [PSDefaultValue(Help = "iospd's: 0 s (-C)")] [ValidateRange(0, 2147483647)] [int] $Cooldown,
    [PSDefaultValue(Help = "iospd's: cached, no -S")] [ValidateSet('Cached', 'NoBuffering', 'WriteThrough', 'Both')] [string] $CacheMode,
    [PSDefaultValue(Help = "none: no per-interval IOPS")] [ValidateRange(1, 2147483647)] [int] $IopsInterval,
    [PSDefaultValue(Help = "none: the targets must exist")] [object] $CreateSize,
    [string] $IoSpdPath = 'iospd',
    [string] $WorkingDirectory,
    [Alias('Path')] [string] $ExecutablePath,
    [string] $OutputDirectory,
    [ValidateRange(0, 2147483)] [int] $TimeoutSec = 0,
    [ValidateRange(1, 2147483)] [int] $ReadyTimeoutSec = 120,
    [switch] $Force,
    [switch] $AlignCsvOwner,
    [switch] $KeepNodeFiles,
    [string] $InstallFrom,
    [PSDefaultValue(Help = "iospd's default level (2.3)")] [ValidateSet('2.2', '2.3')] [string] $DiskSpdVersion
  )

  try { Test-IoSpdFleetRawArgument -ArgumentList $ArgumentList } catch { $PSCmdlet.ThrowTerminatingError($_) }
  # Invoke-IoSpd's parameters become the same switches (its own builder,
  # given a placeholder target whose place, and -Rxml, are dropped here).
  $typed = @{}
  foreach ($k in 'BlockSize', 'Threads', 'OutstandingIO', 'WritePercent', 'Random', 'Duration', 'Warmup',
    'Cooldown', 'CacheMode', 'IopsInterval', 'CreateSize', 'DiskSpdVersion') {
    if ($PSBoundParameters.ContainsKey($k)) { $typed[$k] = $PSBoundParameters[$k] }
  }
  if ($typed.Count) {
    $marker = '{iospd-fleet-target}'
    try { $built = [string[]](ConvertTo-IoSpdArgumentList -Target $marker @typed | ForEach-Object { $_ }) }
    catch { $PSCmdlet.ThrowTerminatingError((New-IoSpdFleetErrorRecord -Id 'IoSpdFleetBadParameter' -Category InvalidArgument -Message $_.Exception.Message)) }
    $ArgumentList = @($built | Where-Object { $_ -cne '-Rxml' -and $_ -cne $marker }) + @($ArgumentList | Where-Object { $_ })
  }
  if ($InstallFrom) {
    $zip = (Resolve-Path -LiteralPath $InstallFrom -ErrorAction SilentlyContinue).ProviderPath
    if (-not $zip -or -not (Test-Path -LiteralPath "$zip.sha256" -PathType Leaf)) {
      $PSCmdlet.ThrowTerminatingError((New-IoSpdFleetErrorRecord -Id 'IoSpdFleetNoPackage' -Category ObjectNotFound -Target $InstallFrom `
            -Message "-InstallFrom '$InstallFrom': give a local release zip with its .sha256 file beside it (iospd-<version>.zip and iospd-<version>.zip.sha256)."))
    }
  }
  if (-not $ExecutablePath -and $env:IOSPD_EXE) { $ExecutablePath = $env:IOSPD_EXE }
  try { $mergeExe = Resolve-IoSpdExecutable -Path $ExecutablePath }
  catch { $PSCmdlet.ThrowTerminatingError((New-IoSpdFleetErrorRecord -Id 'IoSpdFleetNoMerger' -Category ObjectNotFound -Message "The iospd that merges on this machine: $($_.Exception.Message)")) }

  $nodeParams = @{}
  foreach ($k in 'Session', 'ComputerName', 'HostName', 'Credential', 'UserName', 'KeyFilePath', 'Port', 'NodeName') {
    if ($PSBoundParameters.ContainsKey($k)) { $nodeParams[$k] = $PSBoundParameters[$k] }
  }
  if ($SshOption) { $nodeParams.SshOption = $SshOption }
  try { $nodes = Get-IoSpdFleetNode @nodeParams } catch { $PSCmdlet.ThrowTerminatingError($_) }

  $runId = [guid]::NewGuid().ToString('N').Substring(0, 12)
  if (-not $OutputDirectory) { $OutputDirectory = Join-Path ([IO.Path]::GetTempPath()) "iospd-fleet-$runId" }

  # Per node: what it runs and what became of it.
  $state = [ordered]@{}
  foreach ($n in $nodes) {
    $state[$n.Name] = [pscustomobject]@{ Node = $n.Name; Session = $n.Session; Error = $n.Error
      Exe = (Expand-IoSpdFleetTemplate -Template $IoSpdPath -Node $n.Name)
      Version = $null; Started = $false; Signal = $null; JsonPath = $null; Summary = $null; Warnings = $null }
  }
  $live = { @($state.Values | Where-Object { -not $_.Error }) }
  $fail = { param($st, [string] $msg) if (-not $st.Error) { $st.Error = $msg; Write-Verbose "node $($st.Node): $msg" } }

  try {
    # 0. -InstallFrom: the release zip installed on every node first.
    if ($InstallFrom) {
      foreach ($st in (& $live)) {
        try { $st.Exe = Install-IoSpdFleetNode -Session $st.Session -Zip $zip -RunId $runId }
        catch { & $fail $st "could not install iospd from '$zip' (-InstallFrom): $($_.Exception.Message)" }
      }
    }

    # 1. Versions.
    foreach ($st in (& $live)) {
      $exe = $st.Exe
      try {
        $help = Invoke-IoSpdFleetRemote -Session $st.Session -ScriptBlock $script:IoSpdFleetVersionBlock -ArgumentList $exe
        $st.Version = Get-IoSpdFleetVersionText -HelpText @($help)
        if (-not $st.Version) { & $fail $st "'$exe -?' printed no iospd version line: $(@($help)[0])" }
      } catch { & $fail $st "version check failed: $($_.Exception.Message)" }
    }
    $versions = @(& $live | Group-Object Version)
    if ($versions.Count -gt 1 -and -not $Force) {
      $list = (& $live | ForEach-Object { "$($_.Node): $($_.Version)" }) -join ', '
      $PSCmdlet.ThrowTerminatingError((New-IoSpdFleetErrorRecord -Id 'IoSpdFleetVersionMismatch' `
            -Category InvalidOperation -Target $list `
            -Message "The nodes run different iospd versions ($list). Install one version everywhere (Install-IoSpd), or pass -Force to run anyway."))
    }

    $what = "iospd $($ArgumentList -join ' ') on $($Target -join ', ')"
    if (-not $PSCmdlet.ShouldProcess(((& $live).Node -join ', '), "Run $what")) { return }
    $null = New-Item -ItemType Directory -Force -Path $OutputDirectory

    # -AlignCsvOwner: each node's targets' CSV moves to that node first
    # (Move-IoSpdCsvOwner here, on this machine, which must be a node of the
    # cluster; it asks under -Confirm). A node whose CSV cannot move is out.
    if ($AlignCsvOwner) {
      foreach ($st in (& $live)) {
        foreach ($t in $Target) {
          $path = Expand-IoSpdFleetTemplate -Template $t -Node $st.Node
          if ($path -match '^#\d+$') { continue }
          try { $null = Move-IoSpdCsvOwner -Path $path -Node $st.Node -ErrorAction Stop }
          catch { & $fail $st "could not move the CSV of '$path' to it (-AlignCsvOwner): $($_.Exception.Message)"; break }
        }
      }
    }

    # 2. Start every node, waiting on its event.
    foreach ($st in (& $live)) {
      $exe = $st.Exe
      $dirT = if ($WorkingDirectory) { $WorkingDirectory } else { $null }
      try {
        $dir = if ($dirT) { Expand-IoSpdFleetTemplate -Template $dirT -Node $st.Node } else {
          [string](Invoke-IoSpdFleetRemote -Session $st.Session -ScriptBlock $script:IoSpdFleetTempBlock -ArgumentList $st.Node)
        }
        $sep = if ($dir -match '^[A-Za-z]:\\|^\\\\') { '\' } else { '/' }
        $json = $dir.TrimEnd('\', '/') + $sep + "$($st.Node).json"
        $targets = @($Target | ForEach-Object { Expand-IoSpdFleetTemplate -Template $_ -Node $st.Node })
        $ev = Get-IoSpdFleetEventName -RunId $runId -Node $st.Node
        $argv = Get-IoSpdFleetNodeArgument -ArgumentList $ArgumentList -EventName $ev -JsonPath $json -Target $targets
        $line = ConvertTo-IoSpdFleetCommandLine -Argument $argv
        Write-Verbose "node $($st.Node): $exe $line"
        $null = Invoke-IoSpdFleetRemote -Session $st.Session -ScriptBlock $script:IoSpdFleetStartBlock `
          -ArgumentList $st.Node, $exe, $line, $dir, $json, $ev
        $st.Started = $true
      } catch { & $fail $st "could not start iospd: $($_.Exception.Message)" }
    }

    # 3. Wait until every started node is ready; a node that exits first failed.
    $deadline = [datetime]::UtcNow.AddSeconds($ReadyTimeoutSec)
    $ready = @{}
    while ($true) {
      foreach ($st in (& $live)) {
        if ($ready[$st.Node]) { continue }
        try {
          $s = Invoke-IoSpdFleetRemote -Session $st.Session -ScriptBlock $script:IoSpdFleetStateBlock
          if ($s.Exited) {
            $c = Invoke-IoSpdFleetRemote -Session $st.Session -ScriptBlock $script:IoSpdFleetCollectBlock
            & $fail $st ((Get-IoSpdFleetExitText -ExitCode $c.ExitCode -StdErr $c.StdErr -NodeIsWindows:([bool]$c.Windows)) + ' (before the start)')
          } elseif ($s.Ready) { $ready[$st.Node] = $true }
        } catch { & $fail $st "lost while starting: $($_.Exception.Message)" }
      }
      $waiting = @(& $live | Where-Object { -not $ready[$_.Node] })
      if ($waiting.Count -eq 0) { break }
      if ([datetime]::UtcNow -gt $deadline) {
        foreach ($st in $waiting) { & $fail $st "not ready within $ReadyTimeoutSec s (-ReadyTimeoutSec)" }
        break
      }
      Start-Sleep -Milliseconds 100
    }

    # 4. Start them all at once: -ye on every ready node in parallel.
    $go = @(& $live)
    $signals = @()
    if ($go.Count) {
      $sent = Invoke-IoSpdFleetSignal -Session @($go | ForEach-Object Session)
      $signals = $sent.Results
      foreach ($st in $go) {
        $sig = @($signals | Where-Object Node -eq $st.Node) | Select-Object -First 1
        $st.Signal = $sig
        if (-not $sig) { & $fail $st "setting its start event failed: $(@($sent.Errors | Select-Object -First 1))" }
        elseif (-not $sig.SetUtc) { & $fail $st "setting its start event failed: $($sig.Error)" }
      }
    }
    $skew = Get-IoSpdFleetSkew -Signal @($state.Values | Where-Object { $_.Signal -and $_.Signal.SetUtc } | ForEach-Object Signal)

    # 5. Wait for the runs, at most -TimeoutSec.
    $runEnd = if ($TimeoutSec) { [datetime]::UtcNow.AddSeconds($TimeoutSec) } else { [datetime]::MaxValue }
    $done = @{}
    while ($true) {
      foreach ($st in (& $live)) {
        if ($done[$st.Node]) { continue }
        try {
          $s = Invoke-IoSpdFleetRemote -Session $st.Session -ScriptBlock $script:IoSpdFleetStateBlock
          if (-not $s.Exited) { continue }
          $done[$st.Node] = $true
          $c = Invoke-IoSpdFleetRemote -Session $st.Session -ScriptBlock $script:IoSpdFleetCollectBlock
          if ($c.ExitCode -ne 0) {
            & $fail $st (Get-IoSpdFleetExitText -ExitCode $c.ExitCode -StdErr $c.StdErr -NodeIsWindows:([bool]$c.Windows))
          } elseif (-not $c.Json) {
            & $fail $st 'iospd wrote no JSON results'
          } else {
            $st.JsonPath = Join-Path $OutputDirectory "$($st.Node).json"
            [IO.File]::WriteAllText($st.JsonPath, $c.Json)
            $doc = $c.Json | ConvertFrom-Json
            $st.Summary = Get-IoSpdFleetDirectionSummary -Json $doc
            # The node's warnings: its JSON's "warnings" array (stderr for
            # an iospd that does not write one).
            $src = if ($doc.PSObject.Properties['warnings']) { [string[]]@($doc.warnings) } else { [string[]]@([string]$c.StdErr) }
            $st.Warnings = ConvertFrom-IoSpdWarningLine -Line $src
          }
        } catch { & $fail $st "lost during the run: $($_.Exception.Message)" }
      }
      $running = @(& $live | Where-Object { -not $done[$_.Node] })
      if ($running.Count -eq 0) { break }
      if ([datetime]::UtcNow -gt $runEnd) {
        foreach ($st in $running) { & $fail $st "did not finish within $TimeoutSec s (-TimeoutSec); stopped" }
        break
      }
      Start-Sleep -Milliseconds 200
    }
  } finally {
    # Whatever happened (an error, Ctrl-C): no iospd is left running.
    foreach ($st in $state.Values) {
      if ($st.Started -and $st.Session -and -not ($st.JsonPath)) {
        try { Invoke-IoSpdFleetRemote -Session $st.Session -ScriptBlock $script:IoSpdFleetStopBlock } catch { }
      }
      # The node's work folder goes (its JSON is home, or the run failed:
      # the error text is in the result) unless -KeepNodeFiles.
      if ($st.Started -and $st.Session -and -not $KeepNodeFiles) {
        try { $null = Invoke-IoSpdFleetRemote -Session $st.Session -ScriptBlock $script:IoSpdFleetCleanBlock } catch { }
      }
    }
    foreach ($n in $nodes) {
      if ($n.Owned -and $n.Session) { Remove-IoSpdFleetSession -Session $n.Session }
    }
  }

  # 6. Merge what arrived.
  $okNodes = @($state.Values | Where-Object { -not $_.Error -and $_.JsonPath })
  $failed = @($state.Values | Where-Object { $_.Error })
  $rows = foreach ($st in $state.Values) {
    $sm = $st.Summary
    [pscustomobject]@{
      PSTypeName = 'IoSpd.FleetNode'
      Node = $st.Node; Iops = if ($sm) { $sm.Iops } else { $null }; MiBps = if ($sm) { $sm.MiBps } else { $null }
      MeanMs = if ($sm) { $sm.MeanMs } else { $null }; P99Ms = if ($sm) { $sm.P99Ms } else { $null }
      Ios = if ($sm) { $sm.Ios } else { $null }; CpuPercent = if ($sm) { $sm.CpuPercent } else { $null }
      Version = $st.Version
      StartUtc = if ($st.Signal) { $st.Signal.SetUtc } else { $null }
      StartOffsetMs = $null
      Error = $st.Error; JsonPath = $st.JsonPath
      Warnings = if ($st.Warnings) { $st.Warnings.Lines } else { [string[]]@() }
    }
  }
  # Each node's start after the first node's (the skew, node by node).
  $starts = @($rows | Where-Object { $null -ne $_.StartUtc } | ForEach-Object { ([datetime]$_.StartUtc).ToUniversalTime().Ticks })
  if ($starts.Count) {
    [long]$first = ($starts | Measure-Object -Minimum).Minimum
    foreach ($row in $rows) {
      if ($null -ne $row.StartUtc) { $row.StartOffsetMs = (([datetime]$row.StartUtc).ToUniversalTime().Ticks - $first) / 1e4 }
    }
  }
  if ($okNodes.Count -eq 0) {
    # Nothing to keep: do not leave an empty folder of our own behind.
    if (-not $PSBoundParameters.ContainsKey('OutputDirectory') -and (Test-Path -LiteralPath $OutputDirectory) -and
      -not (Get-ChildItem -LiteralPath $OutputDirectory -Force)) {
      Remove-Item -LiteralPath $OutputDirectory -Force
    }
    $why = ($failed | ForEach-Object { "$($_.Node): $($_.Error)" }) -join '; '
    $PSCmdlet.ThrowTerminatingError((New-IoSpdFleetErrorRecord -Id 'IoSpdFleetNoResults' `
          -Category OperationStopped -Target $failed.Node -Message "No node returned results. $why"))
  }
  $mergedPath = Join-Path $OutputDirectory 'fleet.json'
  $run = Invoke-IoSpdProcess -FilePath $mergeExe -ArgumentList (@('--merge') + @($okNodes | ForEach-Object JsonPath))
  if ($run.ExitCode -ne 0) {
    $PSCmdlet.ThrowTerminatingError((New-IoSpdFleetErrorRecord -Id 'IoSpdFleetMergeFailed' `
          -Category InvalidResult -Target $mergeExe `
          -Message "iospd --merge of the nodes' results failed (exit code $($run.ExitCode)): $(([string]$run.StdErr).Trim()) The node files are in $OutputDirectory."))
  }
  [IO.File]::WriteAllText($mergedPath, [string]$run.StdOut)
  $merged = [string]$run.StdOut | ConvertFrom-Json
  $total = Get-IoSpdFleetDirectionSummary -Json $merged
  foreach ($st in $okNodes) {
    if (-not $st.Warnings) { continue }
    foreach ($m in $st.Warnings.Messages) { Write-Warning "node $($st.Node): iospd: $m" }
    foreach ($n in $st.Warnings.Notes) { Write-Information -MessageData "node $($st.Node): iospd: $n" -Tags 'IoSpd', 'Note' }
  }
  $maxCpu = ($okNodes | ForEach-Object { $_.Summary.CpuPercent } | Where-Object { $null -ne $_ } | Measure-Object -Maximum).Maximum
  # The cluster row of the table view, after the node rows.
  $clusterRow = [pscustomobject]@{
    PSTypeName = 'IoSpd.FleetNode'
    Node = '(cluster)'; Iops = $total.Iops; MiBps = $total.MiBps; MeanMs = $total.MeanMs; P99Ms = $total.P99Ms
    Ios = $total.Ios; CpuPercent = $maxCpu; Version = $null; StartUtc = $null; StartOffsetMs = $skew.SkewMs
    Error = if ($failed.Count) { "partial: $($failed.Count) of $($state.Count) nodes failed" } else { $null }
    JsonPath = $mergedPath; Warnings = [string[]]@()
  }
  $result = [pscustomobject]@{
    PSTypeName = 'IoSpd.FleetResult'
    Iops = $total.Iops; MiBps = $total.MiBps; MeanMs = $total.MeanMs; P99Ms = $total.P99Ms; Ios = $total.Ios
    MaxCpuPercent = $maxCpu
    NodeCount = $okNodes.Count
    Partial = [bool]($failed.Count -gt 0)
    FailedNodes = @($failed | ForEach-Object Node)
    Nodes = @($rows)
    Warnings = [string[]]@(foreach ($st in $okNodes) { if ($st.Warnings) { $st.Warnings.Lines | ForEach-Object { "$($st.Node): $_" } } })
    StartSkewMs = $skew.SkewMs
    StartSkewUncertaintyMs = $skew.UncertaintyMs
    StartSkewSource = 'node clocks after iospd -ye'
    OutputDirectory = $OutputDirectory
    MergedPath = $mergedPath
    Merged = $merged
    Table = @(@($rows) + $clusterRow)
  }
  # The result first (it is the answer, also when a node failed), then one
  # non-terminating error per failed node whose TargetObject is that same
  # result, so -ErrorAction Stop / try-catch still get the others' numbers.
  $result
  foreach ($st in $failed) {
    $PSCmdlet.WriteError((New-IoSpdFleetErrorRecord -Id 'IoSpdFleetNodeFailed' -Category OperationStopped -Target $result `
          -Message "Invoke-IoSpdFleet: node $($st.Node) has no results: $($st.Error) (the result holds the other nodes' merge, Partial = `$true)"))
  }
}
