# SPDX-License-Identifier: MIT
# The remote side of Invoke-IoSpdFleet: script blocks that run on a node
# through its PowerShell remoting session (WinRM or SSH). The nodes need
# iospd and PowerShell only, not the IoSpd module, so these blocks use only
# built-in commands. Each node's state between calls lives in the session's
# $global:IoSpdFleet (the session stays open for the whole fleet run).

function Invoke-IoSpdFleetRemote {
  # The one place that talks to a node: tests mock it for the WinRM paths.
  param([Parameter(Mandatory)] $Session, [Parameter(Mandatory)] [scriptblock] $ScriptBlock,
    [object[]] $ArgumentList = @())
  Invoke-Command -Session $Session -ScriptBlock $ScriptBlock -ArgumentList $ArgumentList -ErrorAction Stop
}

function Invoke-IoSpdFleetSignal {
  # Sets the start event on every node at once: Invoke-Command fans out to
  # all sessions in parallel, and each node waits for the same instant,
  # -LeadMs from now. A node's failure does not stop the others.
  param([Parameter(Mandatory)] [object[]] $Session, [int] $LeadMs = 300)
  $errs = $null
  $at = [datetime]::UtcNow.AddMilliseconds($LeadMs)
  $res = @(Invoke-Command -Session $Session -ScriptBlock $script:IoSpdFleetSignalBlock -ArgumentList $at -ThrottleLimit ([Math]::Max(32, $Session.Count)) `
      -ErrorAction SilentlyContinue -ErrorVariable errs)
  [pscustomobject]@{ Results = $res; Errors = @($errs) }
}

# `iospd -?` on the node: its output lines (the version is read from them).
$script:IoSpdFleetVersionBlock = {
  param([string] $Exe)
  $cmd = Get-Command -Name $Exe -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1
  if (-not $cmd) { throw "iospd '$Exe' was not found on this node (install it or pass -IoSpdPath)." }
  @(& $cmd.Source '-?' 2>&1 | ForEach-Object { [string]$_ } | Select-Object -First 5)
}

# The default folder of a node: <its temp folder>/iospd-fleet/<node>.
$script:IoSpdFleetTempBlock = {
  param([string] $Node)
  Join-Path (Join-Path ([IO.Path]::GetTempPath()) 'iospd-fleet') $Node
}

# Starts iospd in the node's folder, detached from the call, its output into
# files there, and returns its process id.
$script:IoSpdFleetStartBlock = {
  param([string] $Node, [string] $Exe, [string] $CommandLine, [string] $Directory,
    [string] $JsonPath, [string] $EventName)
  $cmd = Get-Command -Name $Exe -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1
  if (-not $cmd) { throw "iospd '$Exe' was not found on this node." }
  $created = -not (Test-Path -LiteralPath $Directory)
  $null = New-Item -ItemType Directory -Force -Path $Directory
  $out = Join-Path $Directory 'iospd-fleet.out'
  $err = Join-Path $Directory 'iospd-fleet.err'
  Remove-Item -LiteralPath $JsonPath, $out, $err -Force -ErrorAction SilentlyContinue
  $p = Start-Process -FilePath $cmd.Source -ArgumentList $CommandLine -WorkingDirectory $Directory `
    -RedirectStandardOutput $out -RedirectStandardError $err -PassThru -NoNewWindow
  # Windows PowerShell 5.1 (.NET Framework) reports no ExitCode later for a
  # Start-Process object whose handle was never read: read it now.
  try { $null = $p.Handle } catch { }
  $global:IoSpdFleet = @{ Node = $Node; Exe = $cmd.Source; Process = $p; Out = $out; Err = $err
    JsonPath = $JsonPath; EventName = $EventName; Directory = $Directory; Created = $created }
  $p.Id
}

# The node's work files removed once its results are home (unless
# -KeepNodeFiles): iospd's output, error and JSON files, and the folder when
# this run made it and nothing else is left in it. Returns what is left.
$script:IoSpdFleetCleanBlock = {
  $f = $global:IoSpdFleet
  if (-not $f) { return }
  Remove-Item -LiteralPath $f.Out, $f.Err, $f.JsonPath -Force -ErrorAction SilentlyContinue
  if ($f.Created -and (Test-Path -LiteralPath $f.Directory) -and -not (Get-ChildItem -LiteralPath $f.Directory -Force)) {
    Remove-Item -LiteralPath $f.Directory -Force -ErrorAction SilentlyContinue
  }
  [pscustomobject]@{ Node = $f.Node; Directory = $f.Directory; Left = [bool](Test-Path -LiteralPath $f.Directory) }
}

# Ready (iospd -v printed that it waits for the -yr event), exited, exit code.
$script:IoSpdFleetStateBlock = {
  $f = $global:IoSpdFleet
  $text = Get-Content -LiteralPath $f.Out -Raw -ErrorAction SilentlyContinue
  $exited = $f.Process.HasExited
  [pscustomobject]@{
    Node = $f.Node; Pid = $f.Process.Id
    Ready = [bool]($text -match 'waiting for the start event')
    Exited = $exited
    ExitCode = if ($exited) { $f.Process.ExitCode } else { $null }
  }
}

# Sets the node's event with `iospd -ye<name>` (exit code 1 by design) and
# takes the time right before and after, on the node's clock.
$script:IoSpdFleetSignalBlock = {
  param([datetime] $AtUtc)
  $f = $global:IoSpdFleet
  # Every node waits for the same instant (the controller's clock), so the
  # order the calls reach the nodes in does not become skew.
  $ms = ($AtUtc.ToUniversalTime() - [datetime]::UtcNow).TotalMilliseconds
  if ($ms -gt 20) { Start-Sleep -Milliseconds ([int]($ms - 15)) }
  while ([datetime]::UtcNow -lt $AtUtc.ToUniversalTime()) { }
  $before = [datetime]::UtcNow
  $text = @(& $f.Exe "-ye$($f.EventName)" 2>&1 | ForEach-Object { [string]$_ })
  $after = [datetime]::UtcNow
  $ok = ($text -join "`n") -match "Set event"
  [pscustomobject]@{
    Node = $f.Node; BeforeUtc = $before; SetUtc = if ($ok) { $after } else { $null }
    Error = if ($ok) { $null } else { ($text -join ' ').Trim() }
  }
}

# The node's results once iospd has exited: exit code, stderr, JSON text.
$script:IoSpdFleetCollectBlock = {
  $f = $global:IoSpdFleet
  $f.Process.WaitForExit()
  [pscustomobject]@{
    Node = $f.Node; ExitCode = $f.Process.ExitCode
    Windows = [Environment]::OSVersion.Platform -eq [PlatformID]::Win32NT
    StdErr = [string](Get-Content -LiteralPath $f.Err -Raw -ErrorAction SilentlyContinue)
    Json = [string](Get-Content -LiteralPath $f.JsonPath -Raw -ErrorAction SilentlyContinue)
  }
}

# Stops the node's iospd (timeout, or the fleet run is stopped).
$script:IoSpdFleetStopBlock = {
  $f = $global:IoSpdFleet
  if ($f -and $f.Process -and -not $f.Process.HasExited) {
    $f.Process.Kill()
    $null = $f.Process.WaitForExit(10000)
  }
}

# Installs the release zip copied to $Stage with the module copied beside it;
# returns the iospd executable it installed.
$script:IoSpdFleetInstallBlock = {
  param([string] $Stage, [string] $ZipName, [string] $Destination)
  Import-Module (Join-Path (Join-Path $Stage 'IoSpd') 'IoSpd.psd1') -Force
  $r = Install-IoSpd -Source (Join-Path $Stage $ZipName) -Destination $Destination -Scope Process -Confirm:$false -ErrorAction Stop
  [string]$r.Executable
}

# A fresh staging folder on the node.
$script:IoSpdFleetStageBlock = {
  param([string] $RunId)
  $root = Join-Path ([IO.Path]::GetTempPath()) 'iospd-fleet'
  $stage = Join-Path $root "stage-$RunId"
  $null = New-Item -ItemType Directory -Force -Path $stage
  [pscustomobject]@{ Stage = $stage; Destination = (Join-Path $root 'iospd') }
}

function Copy-IoSpdFleetItem {
  # Copies local files or a folder into a node's session (a seam for tests).
  param([Parameter(Mandatory)] $Session, [Parameter(Mandatory)] [string[]] $Path,
    [Parameter(Mandatory)] [string] $Destination)
  Copy-Item -Path $Path -Destination $Destination -ToSession $Session -Recurse -Force -ErrorAction Stop
}

function Install-IoSpdFleetNode {
  # -InstallFrom on one node: stage the module and the zip there, install
  # with Install-IoSpd -Scope Process, return the node's iospd path.
  param([Parameter(Mandatory)] $Session, [Parameter(Mandatory)] [string] $Zip, [Parameter(Mandatory)] [string] $RunId)
  $where = Invoke-IoSpdFleetRemote -Session $Session -ScriptBlock $script:IoSpdFleetStageBlock -ArgumentList $RunId
  $sep = if ([string]$where.Stage -match '^[A-Za-z]:\\|^\\\\') { '\' } else { '/' }
  $module = Split-Path -Parent $PSScriptRoot   # scripts/IoSpd
  Copy-IoSpdFleetItem -Session $Session -Path $module -Destination ([string]$where.Stage + $sep + 'IoSpd')
  Copy-IoSpdFleetItem -Session $Session -Path $Zip, "$Zip.sha256" -Destination ([string]$where.Stage)
  $exe = Invoke-IoSpdFleetRemote -Session $Session -ScriptBlock $script:IoSpdFleetInstallBlock `
    -ArgumentList $where.Stage, (Split-Path -Leaf $Zip), $where.Destination
  if (-not $exe) { throw 'Install-IoSpd on the node returned no executable' }
  return [string]$exe
}
