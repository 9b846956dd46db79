# SPDX-License-Identifier: MIT

<#
.SYNOPSIS
Checks, on a real Windows host, the things iospd's wine tests cannot show.

.DESCRIPTION
Runs in a minute or two and writes only inside scratch folders it creates
itself (and removes again), plus an optional spare disk you name and
confirm. It checks:

  file-length   whether a plain file's handle answers IOCTL_DISK_GET_LENGTH_INFO
                on each local file system (NTFS, ReFS, FAT, exFAT), each
                Cluster Shared Volume (C:\ClusterStorage\*) and -SmbPath, and
                that iospd still sizes the file as a file
  sectors       logical/physical sector size and FileAlignmentInfo per volume,
                and an unbuffered (-Su) run with a -Z1M buffer there
  long-path     iospd -c on a path longer than 260 characters, given in full
                and as a relative path with '..' in it (and as a UNC path
                on -SmbPath)
  priority      -I1 and -I2 on each of those file systems: the hint takes
                effect, or iospd fails saying so (INFO: that file system
                refuses hints)
  case-fold     iospd -v -c64K x.dat X.DAT creates the one file once
  code-page     the console's code page is the same before and after a run
  missing-drive an unused drive letter gives "no such disk or volume (error 2)"
  device-info   FileStandardInfo fails on \\.\C: and \\.\PhysicalDrive0
  x86           x86\iospd.exe (if beside the script) is large-address-aware
                and runs -t1000
  large-pages   without "Lock pages in memory", -l fails with
                "SeLockMemoryPrivilege (error code: 1300)"; with it, -l runs
  valid-data    elevated: iospd -c -v says "created with SetFileValidData"
                and the file's DACL is D:P(A;;FA;;;BA)(A;;FA;;;OW), protected,
                for a new and for an existing file; a file held open
                elsewhere is written with the pattern instead, and says so;
                on other volumes, FAT/exFAT and SMB say which fallback ran
  timer         the timer resolution (NtQueryTimerResolution) and whether
                -g1000i, -g400 and -i1 -j1 come at their rate, evenly per -D
                interval
  ctrl-c        iospd in its own console: one Ctrl-C prints the Ctrl-C line
                and exits 0; two end it with 0xC000013A
  ioring        IoRing's capabilities against the Windows build (reads from
                22000, writes from 22621); a short --engine=ioring and -u
                write run whose bytes are read back and a read run, or, where
                IoRing or its writes are missing, the refusal before any I/O
  bypassio      on NTFS: -Suy runs whatever is bypassed; -SuY runs when fully
                bypassed or fails before any I/O saying what is missing
                (fsutil bypassIo state kept in the report)
  cache         a short IOCP run per cache mode (-Sb, -Su, -Sh, -Sw) with its
                latency, beside DISKSPD with the same switches when
                diskspd.exe is on PATH (or -DiskSpdPath)
  -Long         non-elevated -c1G must not fill the Modified Page List; Ctrl-C
                during a large -c removes the partial file
  raw-write     elevated: on a 64 MiB VHDX with NTFS, --allow-raw-write -w100
                on X: and on the online #N is refused and the first and last
                MiB of disk and volume are unchanged; offline, #N is written
  spare-disk    with -SpareDisk N -ConfirmSpareDiskOverwrite only: a read run
                on #N, the raw-write guard (data, all zeros, a partition
                table, share mode 0), -Su -Z1M -w50 on a 4Kn disk, and on an
                NTFS volume made there: --allow-raw-write is refused before
                any write, the last MiB reads, and on 4Kn -c5000000 is exact
                (the disk is overwritten and left empty; a disk with
                partitions is refused)

Each check reports PASS, FAIL, INFO or SKIP with the reason. The table goes
to the console and everything (with raw numbers and iospd's messages) to a
JSON file to attach to a bug report. Exit code: 0 when nothing failed, 1
when a check failed, 3 for bad input (for example a refused spare disk).

.PARAMETER ScratchPath
Folder for the run's scratch files and the JSON report; default
%TEMP%\iospd-selfcheck. The run's files go into a new subfolder that is
removed at the end; the JSON report stays.

.PARAMETER JsonPath
Where to write the JSON report; default <ScratchPath>\iospd-selfcheck-<computer>-<time>.json.

.PARAMETER IoSpdPath
iospd.exe to check; default the one beside this script (amd64\ or x86\ of
the release zip), else iospd on PATH.

.PARAMETER DiskSpdPath
diskspd.exe for the side-by-side cache-mode runs; default diskspd.exe on
PATH. Without one those rows say so.

.PARAMETER Volume
Only these volume roots (for example 'C:\', 'D:\') for the file-length and
sectors checks; default every local NTFS, ReFS, FAT and exFAT volume with
a drive letter. On volumes other than the scratch folder's, a folder
iospd-selfcheck-<id> is created at the root and removed again.

.PARAMETER ScratchVolumeOnly
Check only the scratch folder's volume (plus -SmbPath and -CsvPath).

.PARAMETER CsvPath
Cluster Shared Volume folders to check; default every C:\ClusterStorage\* folder.

.PARAMETER SmbPath
A folder on an SMB share (\\server\share\folder) to check.

.PARAMETER SpareDisk
Number of an empty disk (Get-Disk) that may be overwritten. Refused when
it has partitions or is a system or boot disk.

.PARAMETER ConfirmSpareDiskOverwrite
Required with -SpareDisk: confirms that the disk's content may be destroyed.

.PARAMETER RunSeconds
Length of the measured runs (timer pacing and cache modes); default 3.

.PARAMETER Long
Adds the slow checks: a non-elevated -c1G against the Modified Page List,
and Ctrl-C during a -c of up to 20 GiB (half the free space at most).

.EXAMPLE
.\windows-selfcheck.ps1

Runs every check on the local volumes and writes the JSON report under %TEMP%\iospd-selfcheck.

.EXAMPLE
.\windows-selfcheck.ps1 -SmbPath \\fs1\bench\iospd -SpareDisk 3 -ConfirmSpareDiskOverwrite -JsonPath C:\reports\selfcheck.json

Adds an SMB share and the empty disk 3, and writes the report to C:\reports.
#>
[CmdletBinding()]
param(
  [string] $ScratchPath = (Join-Path ([IO.Path]::GetTempPath()) 'iospd-selfcheck'),
  [string] $JsonPath,
  [string] $IoSpdPath,
  [string] $DiskSpdPath,
  [string[]] $Volume,
  [switch] $ScratchVolumeOnly,
  [string[]] $CsvPath,
  [string] $SmbPath,
  [int] $SpareDisk = -1,
  [switch] $ConfirmSpareDiskOverwrite,
  [ValidateRange(1, 60)] [int] $RunSeconds = 3,
  [switch] $Long
)

Set-StrictMode -Version 3.0

# ---------------------------------------------------------------------------
# What iospd is expected to say: every pattern and threshold the verdicts
# depend on. Each message pattern is checked against the C source's own
# string by tests/pester/WindowsSelfCheck.Tests.ps1 ("matches the C
# source"), so rewording a message breaks that test, not the field check.
# ---------------------------------------------------------------------------
$script:SelfCheckExpect = @{
  # -l without "Lock pages in memory" (src/win/run_env.c): exit 1 with
  # DISKSPD's words and the Win32 code ERROR_NOT_ALL_ASSIGNED.
  LargePagesRefused   = 'SeLockMemoryPrivilege \(error code: 1300\)'
  # -c (src/win/create.c, shown with -v): which way the file was made.
  CreateByValidData   = 'was created with SetFileValidData'
  CreateHeldOpen      = 'is open in another program, so it cannot be replaced and is overwritten in place'
  CreateAclNotKept    = 'cannot keep an owner- and Administrators-only ACL'
  CreateNoPrivilege   = 'Could not set privileges for setting valid file size'
  CreateValidDataFail = 'Could not set valid file size \(error code: \d+\)'
  # DACL of a SetFileValidData file: protected, Administrators and OWNER RIGHTS.
  ValidDataDacl       = 'D:P(A;;FA;;;BA)(A;;FA;;;OW)'
  # -c with -v: the line each created target gets once (src/run/run_files.c).
  CreatingFileLine    = "Creating file '"
  # -c interrupted (src/win/create.c): the unfinished file (or the copy made
  # beside an existing target) is gone.
  CreateInterrupted   = 'the unfinished (file|copy) was removed'
  # -I (src/win/priority.c): the call failed, or the handle reads back another hint.
  PriorityRefused     = 'Error setting IO priority|did not take effect'
  # The text report's priority line (src/report/report_profile_text.c), by -I level.
  PriorityLine        = @{ '1' = 'IO priority: very low'; '2' = 'IO priority: low' }
  # A write to a disk that holds data, without --allow-raw-write (src/run/run_files.c).
  RawWriteRefused     = "refusing to write to '.*--allow-raw-write"
  # The raw-write guard cannot open the disk (src/win/file.c): held with share mode 0.
  RawGuardShareDenied = 'cannot be opened for reading: Win32 error 32'
  # --allow-raw-write inside a mounted volume (src/win/iocp.c, src/win/error.c).
  RawWriteInVolume    = '\(error 5\).*take the disk offline'
  # --allow-raw-write on a mounted volume or an online disk with partitions,
  # refused before any write (src/win/raw_write.c).
  RawWriteMounted     = 'a file system \(NTFS\) is mounted on this volume'
  RawWriteOnlineDisk  = 'the disk is online with \d+ partitions?, whose volumes'
  # An unused drive letter (src/win/file.c): ERROR_FILE_NOT_FOUND.
  MissingDrive        = 'no such disk or volume \(error 2\)'
  # Issue #26 (helper e26b): -c through a file symbolic link replaces the
  # link's target, never the link (src/win/create_link.c); the x86 iospd
  # on a processor group of more than 32 refuses (src/win/wow64.c).
  SymlinkDangling     = 'is a symbolic link to a file that does not exist'
  SymlinkBytes        = 1MB
  X86WideGroup        = 'addresses only 32 per group .*run the 64-bit iospd'
  # A file extended without being written (src/run/run_files.c, answered by
  # FSCTL_QUERY_FILE_REGIONS in src/win/file.c): the warning, with its bytes.
  NeverWritten        = "of its {0} bytes \(100\.0 %\) were never written"
  NeverWrittenBytes   = 16777216
  # Ctrl-C (src/app/app_run.c): the line printed before the partial results.
  CtrlCLine           = 'Ctrl-C: stopping I/O'
  # The second Ctrl-C ends the process through the default handler.
  CtrlCThirdExitCode = [int]-1073741510   # 0xC000013A, STATUS_CONTROL_C_EXIT
  # -c size for the SetFileValidData checks (run with -v for the notes).
  ValidDataFileBytes  = 64MB
  # -g/-j pacing runs: name, switches, the rate asked for, -D interval.
  # -g400 is 400 bytes per ms per thread: 400000 / 4096 = 97.66 reads/s.
  Pacing              = @(
    @{ Name = 'pacing -g1000i'; Switches = @('-b4K', '-g1000i', '-o1'); Iops = 1000.0; BucketMs = 10 }
    @{ Name = 'pacing -g400'; Switches = @('-b4K', '-g400', '-o4'); Iops = 400000.0 / 4096; BucketMs = 100 }
    @{ Name = 'pacing -i1 -j1'; Switches = @('-b4K', '-i1', '-j1', '-o1'); Iops = 1000.0; BucketMs = 100 }
  )
  PacingMaxCv         = 0.5
  PacingRateTolerance = 0.25
  # Ctrl-C: events sent, the gap between them, how long iospd may take.
  CtrlCCount          = 2
  CtrlCGapMs          = 0
  CtrlCExitSeconds    = 15
  # Cache modes: iospd's average latency above this multiple of DISKSPD's
  # (same switches, same file) is a FAIL.
  DiskSpdLatencyRatio = 2.0
  # -Long: a non-elevated -c of this size must grow the Modified Page List
  # by less than ModifiedGrowthMax (a buffered fill would leave it all dirty).
  ModifiedFileBytes   = 1GB
  ModifiedGrowthMax   = 256MB
  # -Long: Ctrl-C this many seconds into a -c of up to InterruptFileBytes.
  InterruptFileBytes  = 20GB
  InterruptAfterSec   = 3
  # x86 build: threads for the address-space check.
  X86Threads          = 1000
  # Extra seconds a run may take beyond its -d before it is killed.
  RunGraceSeconds     = 60
  # IoRing (src/win/ioring_api.c, ioring.c): the refusals before any I/O,
  # and the builds that have IoRing (reads) and IoRing writes.
  IoRingMissing       = 'IoRing \(-u\) is not available: '
  IoRingNoWrite       = 'IoRing \(-u\) cannot write'
  IoRingReadBuild     = 22000
  IoRingWriteBuild    = 22621
  IoRingFileBytes     = 1MB
  # BypassIO (src/win/bypass.c): -SY short of a full bypass.
  BypassFullRefused   = 'BypassIO \(-SY\) (cannot be enabled|is not possible|is only partial) on '
}

# Read and allowed-to-read: FILE_READ_DATA, GENERIC_READ, GENERIC_ALL.
$script:SelfCheckReadMask = 0x1 -bor 0x80000000 -bor 0x10000000
# SYSTEM, Administrators, OWNER RIGHTS (the file owner is added at run time).
$script:SelfCheckTrustedSids = @('S-1-5-18', 'S-1-5-32-544', 'S-1-3-4')
$script:SelfCheckFileSystems = @('NTFS', 'ReFS', 'FAT', 'FAT32', 'exFAT', 'CSVFS')
$script:SelfCheckCleanup = [System.Collections.Generic.List[string]]::new()

# ---------------------------------------------------------------------------
# Results, table, JSON
# ---------------------------------------------------------------------------
function New-SelfCheckResult {
  param(
    [Parameter(Mandatory)] [string] $Check,
    [Parameter(Mandatory)] [ValidateSet('PASS', 'FAIL', 'INFO', 'SKIP')] [string] $Result,
    [Parameter(Mandatory)] [AllowEmptyString()] [string] $Detail,
    [System.Collections.IDictionary] $Data = @{}
  )
  [pscustomobject][ordered]@{ Check = $Check; Result = $Result; Detail = $Detail; Data = $Data }
}

function Format-SelfCheckTable {
  # One line per result: check, result, detail; the detail wraps under its column.
  param([Parameter(Mandatory)] [AllowEmptyCollection()] [object[]] $Results, [int] $Width = 120)
  $cw = [Math]::Max(5, ($Results | ForEach-Object { $_.Check.Length } | Measure-Object -Maximum).Maximum)
  $lines = [System.Collections.Generic.List[string]]::new()
  $lines.Add(('{0}  {1}  {2}' -f 'Check'.PadRight($cw), 'Result', 'Detail'))
  $lines.Add(('{0}  {1}  {2}' -f ('-' * $cw), '------', '------'))
  $dw = [Math]::Max(30, $Width - $cw - 10)
  foreach ($r in $Results) {
    $words = ([string]$r.Detail) -split '\s+' | Where-Object { $_ }
    $chunks = [System.Collections.Generic.List[string]]::new()
    $cur = ''
    foreach ($w in $words) {
      if ($cur.Length -gt 0 -and ($cur.Length + 1 + $w.Length) -gt $dw) { $chunks.Add($cur); $cur = $w }
      elseif ($cur.Length -gt 0) { $cur += ' ' + $w }
      else { $cur = $w }
    }
    $chunks.Add($cur)
    $lines.Add(('{0}  {1}  {2}' -f $r.Check.PadRight($cw), $r.Result.PadRight(6), $chunks[0]).TrimEnd())
    for ($i = 1; $i -lt $chunks.Count; $i++) { $lines.Add((' ' * ($cw + 10)) + $chunks[$i]) }
  }
  $lines -join [Environment]::NewLine
}

function Get-SelfCheckSummary {
  param([Parameter(Mandatory)] [AllowEmptyCollection()] [object[]] $Results)
  $s = [ordered]@{ PASS = 0; FAIL = 0; INFO = 0; SKIP = 0 }
  foreach ($r in $Results) { $s[$r.Result]++ }
  $s
}

function Write-SelfCheckJson {
  # UTF-8 without a byte order mark, on Windows PowerShell 5.1 too.
  param([Parameter(Mandatory)] [string] $Path, [Parameter(Mandatory)] [System.Collections.IDictionary] $Report)
  $dir = Split-Path -Parent $Path
  if ($dir -and -not (Test-Path -LiteralPath $dir)) { $null = New-Item -ItemType Directory -Path $dir -Force }
  $json = $Report | ConvertTo-Json -Depth 8
  [IO.File]::WriteAllText($Path, $json, [Text.UTF8Encoding]::new($false))
}

# ---------------------------------------------------------------------------
# The machine: thin wrappers so the tests can Mock each of them
# ---------------------------------------------------------------------------
function Test-SelfCheckWindows {
  if (Test-Path -Path 'Variable:IsWindows') { return [bool]$IsWindows }
  return $true   # Windows PowerShell 5.1
}

function Test-SelfCheckElevated {
  $id = [Security.Principal.WindowsIdentity]::GetCurrent()
  ([Security.Principal.WindowsPrincipal]::new($id)).IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)
}

function Get-SelfCheckCurrentSid {
  [Security.Principal.WindowsIdentity]::GetCurrent().User.Value
}

function Get-SelfCheckHostInfo {
  $os = [Environment]::OSVersion.VersionString
  try {
    $cv = Get-ItemProperty -Path 'HKLM:\SOFTWARE\Microsoft\Windows NT\CurrentVersion' -ErrorAction Stop
    $os = '{0} (build {1}.{2})' -f $cv.ProductName, $cv.CurrentBuild, $cv.UBR
  } catch { }
  [ordered]@{
    Computer       = [Environment]::MachineName
    OS             = $os
    PowerShell     = $PSVersionTable.PSVersion.ToString()
    Processors     = [Environment]::ProcessorCount
    Is64BitProcess = [Environment]::Is64BitProcess
  }
}

function Get-SelfCheckArchitectureFolder {
  $arch = $env:PROCESSOR_ARCHITEW6432
  if (-not $arch) { $arch = $env:PROCESSOR_ARCHITECTURE }
  if ($arch -match '^(x86|X86)$') { return 'x86' }
  return 'amd64'
}

function Resolve-SelfCheckIoSpd {
  # -IoSpdPath, else the release zip's amd64\ or x86\ beside this script,
  # else iospd on PATH.
  param([string] $Path, [string] $ScriptRoot = $PSScriptRoot)
  if ($Path) {
    if (-not (Test-Path -LiteralPath $Path -PathType Leaf)) { throw "-IoSpdPath '$Path' does not exist." }
    return (Resolve-Path -LiteralPath $Path).ProviderPath
  }
  $beside = Join-Path (Join-Path $ScriptRoot (Get-SelfCheckArchitectureFolder)) 'iospd.exe'
  if (Test-Path -LiteralPath $beside -PathType Leaf) { return $beside }
  $cmd = Get-Command -Name 'iospd' -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1
  if ($cmd) { return $cmd.Source }
  throw "iospd.exe was found neither beside this script ($beside) nor on PATH; pass -IoSpdPath."
}

function Resolve-SelfCheckDiskSpd {
  # -DiskSpdPath, else diskspd.exe on PATH, else $null (no comparison).
  param([string] $Path)
  if ($Path) {
    if (-not (Test-Path -LiteralPath $Path -PathType Leaf)) { throw "-DiskSpdPath '$Path' does not exist." }
    return (Resolve-Path -LiteralPath $Path).ProviderPath
  }
  $cmd = Get-Command -Name 'diskspd.exe' -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1
  if ($cmd) { return $cmd.Source }
  return $null
}

function Import-SelfCheckModule {
  # ConvertFrom-IoSpdXml comes from the IoSpd module beside this script
  # (scripts\IoSpd in the source tree, IoSpd\ in the release zip).
  if (Get-Command -Name 'ConvertFrom-IoSpdXml' -ErrorAction SilentlyContinue) { return }
  $psd1 = Join-Path (Join-Path $PSScriptRoot 'IoSpd') 'IoSpd.psd1'
  if (-not (Test-Path -LiteralPath $psd1)) {
    throw "The IoSpd module was not found at $psd1; keep windows-selfcheck.ps1 beside the IoSpd folder of the release zip."
  }
  Import-Module $psd1 -ErrorAction Stop -Global
}

function Invoke-SelfCheckProcess {
  # Runs a program with each argument passed as-is, reads both streams,
  # kills it after TimeoutSeconds. Returns ExitCode (-1 when killed),
  # StdOut, StdErr, TimedOut, Seconds.
  param(
    [Parameter(Mandatory)] [string] $FilePath,
    [string[]] $ArgumentList = @(),
    [int] $TimeoutSeconds = 120,
    [string] $WorkingDirectory
  )
  $psi = [Diagnostics.ProcessStartInfo]::new($FilePath)
  if ($WorkingDirectory) { $psi.WorkingDirectory = $WorkingDirectory }
  if ($null -ne $psi.PSObject.Properties['ArgumentList']) {
    foreach ($a in $ArgumentList) { $psi.ArgumentList.Add($a) }
  } else {
    $psi.Arguments = (@($ArgumentList | ForEach-Object {
          if ($_ -match '[\s"]' -or $_ -eq '') { '"' + ($_ -replace '(\\*)"', '$1$1\"') + '"' } else { $_ }
        }) -join ' ')
  }
  $psi.UseShellExecute = $false
  $psi.RedirectStandardOutput = $true
  $psi.RedirectStandardError = $true
  $psi.CreateNoWindow = $true
  $sw = [Diagnostics.Stopwatch]::StartNew()
  $p = [Diagnostics.Process]::Start($psi)
  try {
    $out = $p.StandardOutput.ReadToEndAsync()
    $err = $p.StandardError.ReadToEndAsync()
    $timedOut = -not $p.WaitForExit($TimeoutSeconds * 1000)
    if ($timedOut) { try { $p.Kill() } catch { }; $null = $p.WaitForExit(5000) }
    $p.WaitForExit()   # drains the asynchronous readers
    [pscustomobject]@{
      ExitCode = $(if ($timedOut) { -1 } else { $p.ExitCode })
      StdOut   = $out.GetAwaiter().GetResult()
      StdErr   = $err.GetAwaiter().GetResult()
      TimedOut = $timedOut
      Seconds  = [Math]::Round($sw.Elapsed.TotalSeconds, 2)
    }
  } finally { $p.Dispose() }
}

function Get-SelfCheckToolVersion {
  param([Parameter(Mandatory)] [string] $Path)
  $r = Invoke-SelfCheckProcess -FilePath $Path -ArgumentList @('-?') -TimeoutSeconds 30
  $m = [regex]::Match(([string]$r.StdOut + [string]$r.StdErr), 'iospd (\S+),')
  if ($m.Success) { return $m.Groups[1].Value }
  return $null
}

function Get-SelfCheckVolumeList {
  # Local volumes with a drive letter and a file system iospd targets.
  foreach ($d in [IO.DriveInfo]::GetDrives()) {
    if ($d.DriveType -notin @([IO.DriveType]::Fixed, [IO.DriveType]::Removable)) { continue }
    if (-not $d.IsReady) { continue }
    if ($d.DriveFormat -notin $script:SelfCheckFileSystems) { continue }
    [pscustomobject]@{ Root = $d.RootDirectory.FullName; FileSystem = $d.DriveFormat; Kind = 'local'; FreeBytes = $d.AvailableFreeSpace }
  }
}

function Get-SelfCheckCsvList {
  $base = 'C:\ClusterStorage'
  if (-not (Test-Path -LiteralPath $base)) { return }
  foreach ($d in Get-ChildItem -LiteralPath $base -Directory -ErrorAction SilentlyContinue) {
    [pscustomobject]@{ Root = $d.FullName; FileSystem = 'CSVFS'; Kind = 'csv'; FreeBytes = $null }
  }
}

function Get-SelfCheckVolumeRoot {
  param([Parameter(Mandatory)] [string] $Path)
  [IO.Path]::GetPathRoot([IO.Path]::GetFullPath($Path))
}

function New-SelfCheckFile {
  # A file of $Size bytes, written (not just extended), so every block is allocated.
  param([Parameter(Mandatory)] [string] $Path, [Parameter(Mandatory)] [int64] $Size)
  $buf = [byte[]]::new(1MB)
  for ($i = 0; $i -lt $buf.Length; $i++) { $buf[$i] = [byte](($i * 7 + 3) -band 0xff) }
  $fs = [IO.FileStream]::new($Path, [IO.FileMode]::CreateNew, [IO.FileAccess]::Write, [IO.FileShare]::Read)
  try {
    [int64]$left = $Size
    while ($left -gt 0) {
      $n = [int][Math]::Min([int64]$buf.Length, $left)
      $fs.Write($buf, 0, $n)
      $left -= $n
    }
    $fs.Flush($true)
  } finally { $fs.Dispose() }
}

function ConvertTo-SelfCheckLongPath {
  # \\?\ or \\?\UNC\ so Windows PowerShell 5.1 can reach paths over 260 characters.
  param([Parameter(Mandatory)] [string] $Path)
  if ([IO.Path]::DirectorySeparatorChar -ne '\' -or $Path.StartsWith('\\?\')) { return $Path }
  $full = [IO.Path]::GetFullPath($Path)
  if ($full.StartsWith('\\')) { return '\\?\UNC\' + $full.Substring(2) }
  return '\\?\' + $full
}

function Get-SelfCheckFileLength {
  # Length of a file, or $null when it does not exist.
  param([Parameter(Mandatory)] [string] $Path)
  $fi = [IO.FileInfo]::new((ConvertTo-SelfCheckLongPath -Path $Path))
  if ($fi.Exists) { return $fi.Length }
  return $null
}

function New-SelfCheckScratchFolder {
  # Creates a folder that did not exist and remembers it for clean-up.
  # Refuses an existing one, so nothing of the user's is ever touched.
  param([Parameter(Mandatory)] [string] $Path)
  if (Test-Path -LiteralPath $Path) { throw "The scratch folder '$Path' already exists; it is left alone." }
  $null = New-Item -ItemType Directory -Path $Path -ErrorAction Stop
  $script:SelfCheckCleanup.Add($Path)
  return $Path
}

function Remove-SelfCheckTree {
  param([Parameter(Mandatory)] [string] $Path)
  $long = ConvertTo-SelfCheckLongPath -Path $Path
  if ([IO.Directory]::Exists($long)) { [IO.Directory]::Delete($long, $true) }
  elseif ([IO.File]::Exists($long)) { [IO.File]::Delete($long) }
}

function Clear-SelfCheckScratch {
  # Removes every scratch folder of this run; returns what could not be removed.
  $left = @()
  for ($i = $script:SelfCheckCleanup.Count - 1; $i -ge 0; $i--) {
    $p = $script:SelfCheckCleanup[$i]
    try {
      Remove-SelfCheckTree -Path $p
      if (Test-Path -LiteralPath $p) { $left += "$p (still there)" }
    } catch { $left += "$p ($($_.Exception.Message))" }
  }
  $script:SelfCheckCleanup.Clear()
  return , $left
}

function Get-SelfCheckDiskInfo {
  param([Parameter(Mandatory)] [int] $Number)
  $d = Get-Disk -Number $Number -ErrorAction Stop
  $parts = @(Get-Partition -DiskNumber $Number -ErrorAction SilentlyContinue)
  [pscustomobject]@{
    Number         = $Number
    FriendlyName   = $d.FriendlyName
    Size           = [int64]$d.Size
    PartitionStyle = [string]$d.PartitionStyle
    PartitionCount = $parts.Count
    IsSystem       = [bool]$d.IsSystem
    IsBoot         = [bool]$d.IsBoot
    IsOffline      = [bool]$d.IsOffline
    LogicalSectorSize  = [int64]$d.LogicalSectorSize
    PhysicalSectorSize = [int64]$d.PhysicalSectorSize
  }
}

# ---------------------------------------------------------------------------
# P/Invoke layer (Windows only; the tests Mock the Get-/Send- functions)
# ---------------------------------------------------------------------------
$script:SelfCheckNativeSource = @'
using System;
using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;

namespace IoSpdSelfCheck {
  public static class Native {
    [StructLayout(LayoutKind.Sequential)]
    struct FILE_STORAGE_INFO {
      public uint LogicalBytesPerSector, PhysicalBytesPerSectorForAtomicity,
        PhysicalBytesPerSectorForPerformance, FileSystemEffectivePhysicalBytesPerSectorForAtomicity,
        Flags, ByteOffsetForSectorAlignment, ByteOffsetForPartitionAlignment;
    }

    [DllImport("kernel32.dll", SetLastError = true, CharSet = CharSet.Unicode)]
    static extern SafeFileHandle CreateFileW(string name, uint access, uint share, IntPtr sa,
                                             uint disposition, uint flags, IntPtr template);
    [DllImport("kernel32.dll", SetLastError = true)]
    static extern bool DeviceIoControl(SafeFileHandle h, uint code, IntPtr inBuf, uint inSize,
                                       out long outBuf, uint outSize, out uint returned, IntPtr overlapped);
    [DllImport("kernel32.dll", SetLastError = true)]
    static extern bool GetFileInformationByHandleEx(SafeFileHandle h, int cls, out FILE_STORAGE_INFO info, uint size);
    [DllImport("kernel32.dll", SetLastError = true)]
    static extern bool GetFileInformationByHandleEx(SafeFileHandle h, int cls, out uint info, uint size);
    [DllImport("ntdll.dll")]
    static extern int NtQueryTimerResolution(out uint coarsest, out uint finest, out uint current);
    [DllImport("advapi32.dll", SetLastError = true)]
    static extern bool OpenProcessToken(IntPtr process, uint access, out IntPtr token);
    [DllImport("advapi32.dll", SetLastError = true, CharSet = CharSet.Unicode)]
    static extern bool LookupPrivilegeValueW(string system, string name, out long luid);
    [DllImport("advapi32.dll", SetLastError = true)]
    static extern bool GetTokenInformation(IntPtr token, int cls, IntPtr buf, int len, out int returned);
    [DllImport("kernel32.dll")]
    static extern IntPtr GetCurrentProcess();
    [DllImport("kernel32.dll")]
    static extern bool CloseHandle(IntPtr h);

    const uint GENERIC_READ = 0x80000000;
    const uint SHARE_ALL = 7;        // read, write, delete
    const uint OPEN_EXISTING = 3;
    const uint IOCTL_DISK_GET_LENGTH_INFO = 0x0007405C;

    static SafeFileHandle Open(string path) {
      return CreateFileW(path, GENERIC_READ, SHARE_ALL, IntPtr.Zero, OPEN_EXISTING, 0, IntPtr.Zero);
    }

    // { opened (1/0), answered (1/0), length, win32 error }
    public static long[] GetLengthInfo(string path) {
      using (SafeFileHandle h = Open(path)) {
        if (h.IsInvalid) return new long[] { 0, 0, 0, Marshal.GetLastWin32Error() };
        long len; uint got;
        bool ok = DeviceIoControl(h, IOCTL_DISK_GET_LENGTH_INFO, IntPtr.Zero, 0, out len, 8, out got, IntPtr.Zero);
        int err = ok ? 0 : Marshal.GetLastWin32Error();
        return new long[] { 1, ok ? 1 : 0, ok ? len : 0, err };
      }
    }

    // { logical, physical (atomicity), physical (performance), fs effective,
    //   alignment requirement + 1, storage info error, alignment info error }
    public static long[] GetStorageInfo(string path) {
      using (SafeFileHandle h = Open(path)) {
        if (h.IsInvalid) { int e = Marshal.GetLastWin32Error(); return new long[] { 0, 0, 0, 0, 0, e, e }; }
        FILE_STORAGE_INFO si; uint align;
        bool ok1 = GetFileInformationByHandleEx(h, 16, out si, (uint)Marshal.SizeOf(typeof(FILE_STORAGE_INFO)));
        int e1 = ok1 ? 0 : Marshal.GetLastWin32Error();
        bool ok2 = GetFileInformationByHandleEx(h, 17, out align, 4);
        int e2 = ok2 ? 0 : Marshal.GetLastWin32Error();
        return new long[] {
          ok1 ? si.LogicalBytesPerSector : 0, ok1 ? si.PhysicalBytesPerSectorForAtomicity : 0,
          ok1 ? si.PhysicalBytesPerSectorForPerformance : 0,
          ok1 ? si.FileSystemEffectivePhysicalBytesPerSectorForAtomicity : 0,
          ok2 ? (long)align + 1 : 0, e1, e2 };
      }
    }

    // { opened (1/0), FileStandardInfo answered (1/0), win32 error }: a
    // handle opened with no access, so volumes and disks open unelevated.
    [DllImport("kernel32.dll", SetLastError = true)]
    static extern bool GetFileInformationByHandleEx(SafeFileHandle h, int cls, byte[] info, uint size);
    public static long[] GetStandardInfo(string path) {
      using (SafeFileHandle h = CreateFileW(path, 0, SHARE_ALL, IntPtr.Zero, OPEN_EXISTING, 0, IntPtr.Zero)) {
        if (h.IsInvalid) return new long[] { 0, 0, Marshal.GetLastWin32Error() };
        byte[] buf = new byte[24];   // FILE_STANDARD_INFO
        bool ok = GetFileInformationByHandleEx(h, 1, buf, (uint)buf.Length);
        return new long[] { 1, ok ? 1 : 0, ok ? 0 : Marshal.GetLastWin32Error() };
      }
    }

    // A read handle with share mode 0 (nobody else may open it), or an invalid one.
    public static SafeFileHandle OpenExclusive(string path) {
      return CreateFileW(path, GENERIC_READ, 0, IntPtr.Zero, OPEN_EXISTING, 0, IntPtr.Zero);
    }

    [DllImport("kernel32.dll")]
    static extern uint GetConsoleOutputCP();
    [DllImport("kernel32.dll")]
    static extern uint GetConsoleCP();
    // { output code page, input code page }; 0 when there is no console.
    public static uint[] GetCodePages() { return new uint[] { GetConsoleOutputCP(), GetConsoleCP() }; }

    // { coarsest, finest, current } in 100 ns units, or null.
    public static uint[] GetTimerResolution() {
      uint a, b, c;
      if (NtQueryTimerResolution(out a, out b, out c) != 0) return null;
      return new uint[] { a, b, c };
    }

    // "Enabled", "Disabled" (held, not enabled), "Absent" or "Unknown".
    public static string GetPrivilegeState(string name) {
      long luid;
      if (!LookupPrivilegeValueW(null, name, out luid)) return "Unknown";
      IntPtr token;
      if (!OpenProcessToken(GetCurrentProcess(), 0x0008, out token)) return "Unknown";
      try {
        int len;
        GetTokenInformation(token, 3, IntPtr.Zero, 0, out len);
        if (len <= 0) return "Unknown";
        IntPtr buf = Marshal.AllocHGlobal(len);
        try {
          if (!GetTokenInformation(token, 3, buf, len, out len)) return "Unknown";
          int count = Marshal.ReadInt32(buf);
          for (int i = 0; i < count; i++) {
            IntPtr p = new IntPtr(buf.ToInt64() + 4 + i * 12);   // LUID_AND_ATTRIBUTES, pack 4
            long l = (long)(uint)Marshal.ReadInt32(p) | ((long)Marshal.ReadInt32(p, 4) << 32);
            uint attr = (uint)Marshal.ReadInt32(p, 8);
            if (l == luid) return (attr & 2) != 0 ? "Enabled" : "Disabled";
          }
          return "Absent";
        } finally { Marshal.FreeHGlobal(buf); }
      } finally { CloseHandle(token); }
    }
  }
}
'@

# Run in a separate PowerShell: it leaves its own console, attaches to
# iospd's and sends Ctrl-C to everything on it (ignoring them itself), so
# the console of this session is never touched.
$script:SelfCheckCtrlCSender = @'
$ErrorActionPreference = 'Stop'
Add-Type -Namespace IoSpdSelfCheck -Name Console -MemberDefinition @"
[DllImport("kernel32.dll", SetLastError = true)] public static extern bool FreeConsole();
[DllImport("kernel32.dll", SetLastError = true)] public static extern bool AttachConsole(uint pid);
[DllImport("kernel32.dll", SetLastError = true)] public static extern bool SetConsoleCtrlHandler(System.IntPtr h, bool add);
[DllImport("kernel32.dll", SetLastError = true)] public static extern bool GenerateConsoleCtrlEvent(uint ev, uint group);
"@
$null = [IoSpdSelfCheck.Console]::FreeConsole()
if (-not [IoSpdSelfCheck.Console]::AttachConsole(__PID__)) { exit 10 }
$null = [IoSpdSelfCheck.Console]::SetConsoleCtrlHandler([IntPtr]::Zero, $true)
for ($i = 0; $i -lt __COUNT__; $i++) {
  if ($i -gt 0) { Start-Sleep -Milliseconds __GAP__ }
  if (-not [IoSpdSelfCheck.Console]::GenerateConsoleCtrlEvent(0, 0)) { exit 11 }
}
exit 0
'@

function Initialize-SelfCheckNative {
  if (-not ('IoSpdSelfCheck.Native' -as [type])) { Add-Type -TypeDefinition $script:SelfCheckNativeSource }
}

function Get-SelfCheckDiskLength {
  # IOCTL_DISK_GET_LENGTH_INFO on a CreateFile handle of $Path.
  param([Parameter(Mandatory)] [string] $Path)
  Initialize-SelfCheckNative
  $r = [IoSpdSelfCheck.Native]::GetLengthInfo((ConvertTo-SelfCheckLongPath -Path $Path))
  [pscustomobject]@{ Opened = [bool]$r[0]; Answered = [bool]$r[1]; Length = [int64]$r[2]; Error = [int]$r[3] }
}

function Get-SelfCheckStorageInfo {
  # FileStorageInfo and FileAlignmentInfo of an open handle of $Path.
  param([Parameter(Mandatory)] [string] $Path)
  Initialize-SelfCheckNative
  $r = [IoSpdSelfCheck.Native]::GetStorageInfo((ConvertTo-SelfCheckLongPath -Path $Path))
  [pscustomobject]@{
    LogicalSector = [int64]$r[0]; PhysicalSector = [int64]$r[1]; PhysicalSectorPerformance = [int64]$r[2]
    FileSystemSector = [int64]$r[3]; AlignmentBytes = [int64]$r[4]; StorageError = [int]$r[5]; AlignmentError = [int]$r[6]
  }
}

function Get-SelfCheckTimerResolution {
  # NtQueryTimerResolution in milliseconds, or $null.
  Initialize-SelfCheckNative
  $r = [IoSpdSelfCheck.Native]::GetTimerResolution()
  if ($null -eq $r) { return $null }
  [pscustomobject]@{ CoarsestMs = $r[0] / 10000.0; FinestMs = $r[1] / 10000.0; CurrentMs = $r[2] / 10000.0 }
}

function Get-SelfCheckPrivilegeState {
  param([Parameter(Mandatory)] [string] $Name)
  Initialize-SelfCheckNative
  [IoSpdSelfCheck.Native]::GetPrivilegeState($Name)
}

function Get-SelfCheckAclRules {
  # Access rules of a file as SIDs: Sid, Rights (int), Type (Allow/Deny), and the owner's SID.
  param([Parameter(Mandatory)] [string] $Path)
  $acl = Get-Acl -LiteralPath $Path
  $owner = $null
  try { $owner = $acl.GetOwner([Security.Principal.SecurityIdentifier]).Value } catch { }
  $rules = foreach ($r in $acl.GetAccessRules($true, $true, [Security.Principal.SecurityIdentifier])) {
    [pscustomobject]@{ Sid = $r.IdentityReference.Value; Rights = [int64]$r.FileSystemRights; Type = [string]$r.AccessControlType }
  }
  [pscustomobject]@{ Owner = $owner; Rules = @($rules); Sddl = $acl.Sddl; Protected = [bool]$acl.AreAccessRulesProtected }
}

function Resolve-SelfCheckSidName {
  param([Parameter(Mandatory)] [string] $Sid)
  try { return ([Security.Principal.SecurityIdentifier]::new($Sid)).Translate([Security.Principal.NTAccount]).Value }
  catch { return $Sid }
}

function Start-SelfCheckConsoleProcess {
  # Starts a console program in a new (hidden) console of its own; stderr to a file.
  param([Parameter(Mandatory)] [string] $FilePath, [string[]] $ArgumentList, [Parameter(Mandatory)] [string] $StdErrPath, [string] $StdOutPath)
  $quoted = @($ArgumentList | ForEach-Object { if ($_ -match '\s') { '"' + $_ + '"' } else { $_ } })
  $splat = @{ FilePath = $FilePath; ArgumentList = $quoted; PassThru = $true; WindowStyle = 'Hidden'; RedirectStandardError = $StdErrPath }
  if ($StdOutPath) { $splat['RedirectStandardOutput'] = $StdOutPath }
  Start-Process @splat
}

function Send-SelfCheckCtrlC {
  # Sends $Count CTRL_C_EVENTs to the console of process $ProcessId; returns the sender's exit code.
  param([Parameter(Mandatory)] [int] $ProcessId, [int] $Count = 2, [int] $GapMilliseconds = 500)
  $text = $script:SelfCheckCtrlCSender.Replace('__PID__', "$ProcessId").Replace('__COUNT__', "$Count").Replace('__GAP__', "$GapMilliseconds")
  $encoded = [Convert]::ToBase64String([Text.Encoding]::Unicode.GetBytes($text))
  # Windows PowerShell is on every Windows host (this session may be a pwsh
  # hosted by dotnet.exe, whose path would not run a script).
  $shell = Join-Path $env:SystemRoot 'System32\WindowsPowerShell\v1.0\powershell.exe'
  if (-not (Test-Path -LiteralPath $shell)) { $shell = (Get-Command -Name 'pwsh', 'powershell' -CommandType Application | Select-Object -First 1).Source }
  $p = Start-Process -FilePath $shell -ArgumentList @('-NoLogo', '-NoProfile', '-NonInteractive', '-EncodedCommand', $encoded) `
    -PassThru -Wait -WindowStyle Hidden
  $p.ExitCode
}

function Wait-SelfCheckProcessExit {
  # True when the process ended within TimeoutSeconds.
  param([Parameter(Mandatory)] $Process, [Parameter(Mandatory)] [double] $TimeoutSeconds)
  $Process.WaitForExit([int]($TimeoutSeconds * 1000))
}

function Stop-SelfCheckProcess {
  param([Parameter(Mandatory)] $Process)
  try { if (-not $Process.HasExited) { $Process.Kill(); $null = $Process.WaitForExit(5000) } } catch { }
}

# ---------------------------------------------------------------------------
# Reading iospd's answers
# ---------------------------------------------------------------------------
function Invoke-SelfCheckTool {
  # Runs iospd (or DISKSPD) with a timeout of the run's length plus grace.
  param([Parameter(Mandatory)] [string] $FilePath, [Parameter(Mandatory)] [string[]] $ArgumentList, [int] $Seconds = 1, [string] $WorkingDirectory)
  $splat = @{ FilePath = $FilePath; ArgumentList = $ArgumentList; TimeoutSeconds = ($Seconds + $script:SelfCheckExpect.RunGraceSeconds) }
  if ($WorkingDirectory) { $splat["WorkingDirectory"] = $WorkingDirectory }
  Invoke-SelfCheckProcess @splat
}

function Get-SelfCheckRunMessage {
  # iospd's own words from a run, on one line, at most 300 characters.
  param([Parameter(Mandatory)] $Run)
  # A failed run may print its error on stdout; a good one's stdout is the XML.
  $t = ([string]$Run.StdErr).Trim()
  if (-not $t -and $Run.ExitCode -ne 0) { $t = ([string]$Run.StdOut).Trim() }
  if ($Run.TimedOut) { $t = "killed after $($Run.Seconds) s without ending. $t" }
  if (-not $t -and $Run.ExitCode -eq 0) { return '' }
  if (-not $t) { $t = '(no output)' }
  $t = ($t -replace '\s+', ' ').Trim()
  if ($t.Length -gt 300) { $t = $t.Substring(0, 297) + '...' }
  $t
}

function ConvertFrom-SelfCheckRun {
  # The first IoSpd.Result of a run's -Rxml output, or $null.
  param([Parameter(Mandatory)] $Run)
  if ($Run.ExitCode -ne 0 -or -not $Run.StdOut) { return $null }
  Import-SelfCheckModule
  try { return (ConvertFrom-IoSpdXml -Xml ([string]$Run.StdOut) | Select-Object -First 1) } catch { return $null }
}

function Get-SelfCheckXmlDocument {
  param([AllowEmptyString()] [string] $Text)
  $start = $Text.IndexOf('<Results')
  if ($start -lt 0) { return $null }
  try { return [xml]$Text.Substring($start) } catch { return $null }
}

function Get-SelfCheckProfileValue {
  # Text of <Profile>...<Target><$Name> of the first target, or $null.
  param([AllowEmptyString()] [string] $Text, [Parameter(Mandatory)] [string] $Name)
  $doc = Get-SelfCheckXmlDocument -Text $Text
  if ($null -eq $doc) { return $null }
  $n = $doc.SelectSingleNode("/Results/Profile/TimeSpans/TimeSpan/Targets/Target/$Name")
  if ($null -eq $n) { return $null }
  $n.InnerText.Trim()
}

function Get-SelfCheckIopsBuckets {
  # Total I/O rate of each -D interval over all threads (/Results/TimeSpan/Iops/Bucket).
  param([AllowEmptyString()] [string] $Text)
  $doc = Get-SelfCheckXmlDocument -Text $Text
  if ($null -eq $doc) { return , @() }
  $inv = [Globalization.CultureInfo]::InvariantCulture
  , @($doc.SelectNodes('/Results/TimeSpan/Iops/Bucket') | ForEach-Object { [double]::Parse($_.GetAttribute('Total'), $inv) })
}

function Measure-SelfCheckPacing {
  # Evenness of per-interval rates; the first and last interval are dropped
  # (start-up and the cut at the end).
  param([Parameter(Mandatory)] [AllowEmptyCollection()] [double[]] $Totals, [Parameter(Mandatory)] [double] $TargetIops)
  $v = @($Totals)
  if ($v.Count -gt 2) { $v = @($v[1..($v.Count - 2)]) }
  if ($v.Count -eq 0) { return [pscustomobject]@{ Intervals = 0; Mean = 0.0; Cv = $null; EmptyShare = $null; RateError = $null } }
  $mean = ($v | Measure-Object -Average).Average
  $var = 0.0
  foreach ($x in $v) { $var += ($x - $mean) * ($x - $mean) }
  $sd = [Math]::Sqrt($var / $v.Count)
  $cv = $null
  if ($mean -gt 0) { $cv = $sd / $mean }
  [pscustomobject]@{
    Intervals  = $v.Count
    Mean       = [Math]::Round($mean, 1)
    Cv         = $(if ($null -ne $cv) { [Math]::Round($cv, 3) } else { $null })
    EmptyShare = [Math]::Round(@($v | Where-Object { $_ -eq 0 }).Count / $v.Count, 3)
    RateError  = [Math]::Round([Math]::Abs($mean - $TargetIops) / $TargetIops, 3)
  }
}

function Get-SelfCheckReaders {
  # SIDs that an Allow rule lets read the file, apart from the trusted ones.
  param([Parameter(Mandatory)] $Acl, [string[]] $TrustedSids = @())
  $trusted = @($script:SelfCheckTrustedSids) + @($TrustedSids)
  if ($Acl.Owner) { $trusted += $Acl.Owner }
  $readers = foreach ($r in $Acl.Rules) {
    if ($r.Type -ne 'Allow') { continue }
    if (($r.Rights -band $script:SelfCheckReadMask) -eq 0) { continue }
    if ($r.Sid -in $trusted) { continue }
    $r.Sid
  }
  , @($readers | Select-Object -Unique)
}

# ---------------------------------------------------------------------------
# The checks: each returns one result object (or a few)
# ---------------------------------------------------------------------------
function Test-SelfCheckHost {
  param([Parameter(Mandatory)] $Context)
  $h = Get-SelfCheckHostInfo
  $h['IoSpd'] = $Context.IoSpd
  $h['IoSpdVersion'] = $Context.IoSpdVersion
  $h['DiskSpd'] = $Context.DiskSpd
  $h['Elevated'] = $Context.Elevated
  $detail = '{0}; iospd {1} ({2}); {3}; {4}' -f $h.OS, $Context.IoSpdVersion, $Context.IoSpd,
    $(if ($Context.Elevated) { 'elevated' } else { 'not elevated: valid-data and spare-disk checks are skipped' }),
    $(if ($Context.DiskSpd) { "DISKSPD: $($Context.DiskSpd)" } else { 'no diskspd.exe on PATH' })
  New-SelfCheckResult -Check 'host' -Result INFO -Detail $detail -Data $h
}

function Test-SelfCheckFileLength {
  # A plain file must stay a file: iospd classifies targets by spelling, so
  # even if the file system answers the disk-length ioctl on a file handle,
  # iospd must report the file's own size.
  param([Parameter(Mandatory)] $Context, [Parameter(Mandatory)] $Target)
  $name = "file-length $($Target.Root) ($($Target.FileSystem))"
  $file = Join-Path $Target.Scratch 'length.dat'
  $size = [int64]1MB
  New-SelfCheckFile -Path $file -Size $size
  $ioctl = Get-SelfCheckDiskLength -Path $file
  $data = [ordered]@{ File = $file; FileBytes = $size; IoctlOpened = $ioctl.Opened; IoctlAnswered = $ioctl.Answered; IoctlLength = $ioctl.Length; IoctlError = $ioctl.Error }
  $said = if ($ioctl.Answered) { "the file handle ANSWERS IOCTL_DISK_GET_LENGTH_INFO ($($ioctl.Length) bytes)" }
          elseif ($ioctl.Opened) { "the file handle does not answer IOCTL_DISK_GET_LENGTH_INFO (error $($ioctl.Error))" }
          else { "the file could not be opened for the ioctl (error $($ioctl.Error))" }
  $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList @('-b4K', '-d1', '-W0', '-C0', '-w0', '-t1', '-o1', '-Rxml', $file)
  $res = ConvertFrom-SelfCheckRun -Run $run
  if ($null -eq $res) {
    $data['IoSpdMessage'] = Get-SelfCheckRunMessage -Run $run
    return New-SelfCheckResult -Check $name -Result FAIL -Detail "iospd could not read a plain 1 MiB file (exit $($run.ExitCode)): $($data.IoSpdMessage); $said" -Data $data
  }
  $seen = [int64]($res.Threads | Select-Object -First 1).FileSize
  $data['IoSpdFileSize'] = $seen
  if ($seen -ne $size) {
    return New-SelfCheckResult -Check $name -Result FAIL -Detail "iospd took the 1 MiB file for $seen bytes (a device?); $said" -Data $data
  }
  New-SelfCheckResult -Check $name -Result PASS -Detail "iospd sized the file as a file ($seen bytes); $said" -Data $data
}

function Test-SelfCheckSectors {
  # Sector sizes and the buffer alignment Windows checks for unbuffered I/O,
  # then an unbuffered run with a -Z buffer, which must not be refused.
  param([Parameter(Mandatory)] $Context, [Parameter(Mandatory)] $Target)
  $name = "sectors $($Target.Root)"
  $file = Join-Path $Target.Scratch 'sectors.dat'
  New-SelfCheckFile -Path $file -Size ([int64]1MB)
  $si = Get-SelfCheckStorageInfo -Path $file
  $data = [ordered]@{
    LogicalSector = $si.LogicalSector; PhysicalSector = $si.PhysicalSector; PhysicalSectorPerformance = $si.PhysicalSectorPerformance
    FileSystemSector = $si.FileSystemSector; AlignmentBytes = $si.AlignmentBytes; StorageError = $si.StorageError; AlignmentError = $si.AlignmentError
  }
  $sizes = if ($si.LogicalSector -gt 0) { "logical $($si.LogicalSector), physical $($si.PhysicalSector), buffer alignment $($si.AlignmentBytes)" }
           else { "FileStorageInfo failed (error $($si.StorageError))" }
  $block = [Math]::Max([int64]4096, [Math]::Max($si.LogicalSector, $si.AlignmentBytes))
  $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList @("-b$block", '-d1', '-W0', '-C0', '-w50', '-Su', '-Z1M', '-t1', '-o2', '-Rxml', $file)
  $data['Block'] = $block
  $data['ExitCode'] = $run.ExitCode
  if ($run.ExitCode -ne 0) {
    $data['IoSpdMessage'] = Get-SelfCheckRunMessage -Run $run
    return New-SelfCheckResult -Check $name -Result FAIL -Detail "-Su -Z1M -b$block was refused (exit $($run.ExitCode)): $($data.IoSpdMessage); $sizes" -Data $data
  }
  $note = ''
  if ($si.AlignmentBytes -gt $si.LogicalSector -and $si.LogicalSector -gt 0) { $note = ' (alignment larger than the logical sector)' }
  New-SelfCheckResult -Check $name -Result PASS -Detail "-Su -Z1M -b$block ran; $sizes$note" -Data $data
}

function Get-SelfCheckLongPathName {
  # A path under $Root longer than $MinLength characters, in 60-character folders.
  param([Parameter(Mandatory)] [string] $Root, [int] $MinLength = 300)
  $p = [IO.Path]::Combine($Root, 'long')
  $i = 0
  while ($p.Length -le $MinLength) { $i++; $p = [IO.Path]::Combine($p, ('segment{0:D2}-' -f $i) + ('x' * 50)) }
  [IO.Path]::Combine($p, 'long-path.dat')
}

function Test-SelfCheckLongPath {
  # -c on a path of more than 260 characters whose folders do not exist yet.
  # -Relative gives iospd a relative path with a '..' in it, run from the
  # scratch folder (Windows needs GetFullPathNameW before the \\?\ prefix).
  # -Target puts it in that target's scratch folder (the SMB share: a long UNC path).
  param([Parameter(Mandatory)] $Context, [switch] $Relative, $Target)
  $check = 'long-path'
  $sub = 'abs'
  $base = $Context.WorkDir
  if ($Relative) { $check = 'long-path relative'; $sub = 'rel' }
  if ($Target) { $check = "long-path $($Target.Root)"; $base = $Target.Scratch }
  $path = Get-SelfCheckLongPathName -Root ([IO.Path]::Combine($base, $sub))
  $given = $path
  $cwd = $null
  if ($Relative) {
    $sep = [IO.Path]::DirectorySeparatorChar
    $given = '.' + $sep + 'up' + $sep + '..' + $sep + $path.Substring($Context.WorkDir.TrimEnd($sep).Length + 1)
    $cwd = $Context.WorkDir
    # Windows folds 'up\..' away by name; POSIX needs 'up' to exist.
    $null = New-Item -ItemType Directory -Path ([IO.Path]::Combine($Context.WorkDir, 'up')) -Force
  }
  $data = [ordered]@{ Path = $path; Length = $path.Length; Given = $given }
  $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList @('-c1M', '-b4K', '-d1', '-W0', '-C0', '-w0', '-Rxml', $given) -WorkingDirectory $cwd
  $data['ExitCode'] = $run.ExitCode
  $len = Get-SelfCheckFileLength -Path $path
  $data['CreatedBytes'] = $len
  $what = "a $($path.Length)-character path"
  if ($Relative) { $what = "a relative path with '..' ($($path.Length) characters in full)" }
  if ($run.ExitCode -ne 0) {
    $data['IoSpdMessage'] = Get-SelfCheckRunMessage -Run $run
    return New-SelfCheckResult -Check $check -Result FAIL -Detail "iospd -c on $what failed (exit $($run.ExitCode)): $($data.IoSpdMessage)" -Data $data
  }
  if ($len -ne 1MB) {
    return New-SelfCheckResult -Check $check -Result FAIL -Detail "iospd -c1M exited 0 but $what holds $(if ($null -eq $len) { 'no file' } else { "$len bytes" })" -Data $data
  }
  New-SelfCheckResult -Check $check -Result PASS -Detail "iospd -c1M created the file and its folders on $what, and ran" -Data $data
}

function Test-SelfCheckLargePages {
  # Without "Lock pages in memory" -l must fail as DISKSPD does, naming the
  # privilege and error 1300; with it, -l must run.
  param([Parameter(Mandatory)] $Context)
  $state = Get-SelfCheckPrivilegeState -Name 'SeLockMemoryPrivilege'
  $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList @('-l', '-b64K', '-d1', '-W0', '-C0', '-w0', '-t1', '-o2', '-Rxml', $Context.DataFile)
  $msg = Get-SelfCheckRunMessage -Run $run
  $data = [ordered]@{ SeLockMemoryPrivilege = $state; ExitCode = $run.ExitCode; IoSpdMessage = $msg; UseLargePages = (Get-SelfCheckProfileValue -Text ([string]$run.StdOut) -Name 'UseLargePages') }
  $x = $script:SelfCheckExpect
  if ($state -eq 'Absent') {
    if ($run.ExitCode -eq 1 -and $msg -match $x.LargePagesRefused) {
      return New-SelfCheckResult -Check 'large-pages' -Result PASS -Detail "SeLockMemoryPrivilege not granted; iospd -l failed (exit 1) and said why: $msg" -Data $data
    }
    if ($run.ExitCode -eq 0) {
      return New-SelfCheckResult -Check 'large-pages' -Result FAIL -Detail 'SeLockMemoryPrivilege not granted, yet iospd -l ran: it silently used small pages' -Data $data
    }
    return New-SelfCheckResult -Check 'large-pages' -Result FAIL -Detail "SeLockMemoryPrivilege not granted; iospd -l failed (exit $($run.ExitCode)) without '$($x.LargePagesRefused -replace '\\', '')': $msg" -Data $data
  }
  if ($state -notin @('Enabled', 'Disabled')) {
    return New-SelfCheckResult -Check 'large-pages' -Result INFO -Detail "the privilege state could not be read; iospd -l exit $($run.ExitCode): $msg" -Data $data
  }
  if ($run.ExitCode -eq 0) {
    return New-SelfCheckResult -Check 'large-pages' -Result PASS -Detail "SeLockMemoryPrivilege held ($state); iospd -l ran" -Data $data
  }
  New-SelfCheckResult -Check 'large-pages' -Result FAIL -Detail "SeLockMemoryPrivilege held ($state), yet iospd -l failed (exit $($run.ExitCode)): $msg" -Data $data
}

function Get-SelfCheckCreationPath {
  # Which way iospd -c -v says it made the file (src/win/create.c's notes).
  param([AllowEmptyString()] [string] $Text)
  $x = $script:SelfCheckExpect
  if ($Text -match $x.CreateHeldOpen) { return 'written (held open elsewhere)' }
  if ($Text -match $x.CreateAclNotKept) { return 'written (ACL not kept)' }
  if ($Text -match $x.CreateValidDataFail) { return 'written (SetFileValidData failed)' }
  if ($Text -match $x.CreateNoPrivilege) { return 'written (no privilege)' }
  if ($Text -match $x.CreateByValidData) { return 'SetFileValidData' }
  'not stated'
}

function Test-SelfCheckValidData {
  # iospd -c -v as administrator: the NOTE naming SetFileValidData, and a
  # protected owner/Administrators-only DACL (old disk contents are in the
  # file). -PreExisting: over a file that already exists with the parent's
  # inherited ACL, which must be replaced just the same. -Target: on that
  # volume, where FAT/exFAT must say the ACL cannot be kept and SMB must
  # give DISKSPD's "Could not set valid file size" with the old ACL back.
  param([Parameter(Mandatory)] $Context, [switch] $PreExisting, $Target)
  $check = if ($PreExisting) { 'valid-data existing' } else { 'valid-data' }
  $dir = $Context.WorkDir
  $fs = $null
  if ($Target) { $fs = $Target.FileSystem; $check = "valid-data $($Target.Root) ($fs)"; $dir = $Target.Scratch }
  if (-not $Context.Elevated) {
    return New-SelfCheckResult -Check $check -Result SKIP -Detail 'needs an elevated prompt (SetFileValidData needs "Perform volume maintenance tasks", held by Administrators)'
  }
  $x = $script:SelfCheckExpect
  $bytes = [int64]$x.ValidDataFileBytes
  if (-not $Target -and $null -ne $Context.WorkFreeBytes -and $Context.WorkFreeBytes -lt 2 * $bytes) {
    return New-SelfCheckResult -Check $check -Result SKIP -Detail "needs $([int64](2 * $bytes / 1MB)) MiB free beside the scratch folder; $([int64]($Context.WorkFreeBytes / 1MB)) MiB are"
  }
  $state = Get-SelfCheckPrivilegeState -Name 'SeManageVolumePrivilege'
  $file = Join-Path $dir $(if ($PreExisting) { 'valid-data-existing.dat' } else { 'valid-data.dat' })
  if ($PreExisting) { New-SelfCheckFile -Path $file -Size ([int64]1MB) }
  $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList @("-c$bytes", '-v', '-b64K', '-d1', '-W0', '-C0', '-w0', '-t1', '-o1', '-Rxml', $file) -Seconds 120
  $said = ([string]$run.StdErr + "`n" + [string]$run.StdOut)
  $path = Get-SelfCheckCreationPath -Text $said
  $data = [ordered]@{ SeManageVolumePrivilege = $state; ExitCode = $run.ExitCode; CreationPath = $path; Seconds = $run.Seconds }
  if ($run.ExitCode -ne 0) {
    $data['IoSpdMessage'] = Get-SelfCheckRunMessage -Run $run
    return New-SelfCheckResult -Check $check -Result FAIL -Detail "iospd -c$bytes failed (exit $($run.ExitCode)): $($data.IoSpdMessage)" -Data $data
  }
  $acl = Get-SelfCheckAclRules -Path $file
  $readers = Get-SelfCheckReaders -Acl $acl -TrustedSids @(Get-SelfCheckCurrentSid)
  $names = @($readers | ForEach-Object { Resolve-SelfCheckSidName -Sid $_ })
  $data['Owner'] = $acl.Owner
  $data['Sddl'] = $acl.Sddl
  $data['Protected'] = $acl.Protected
  $data['OtherReaders'] = $names
  Remove-SelfCheckTree -Path $file
  if ($path -eq 'not stated') {
    return New-SelfCheckResult -Check $check -Result FAIL -Detail "iospd -c -v printed no note on how the file was made ('$($x.CreateByValidData)' or a fallback); privilege $state" -Data $data
  }
  if ($fs -in @('FAT', 'FAT32', 'exFAT')) {
    if ($path -eq 'written (ACL not kept)') { return New-SelfCheckResult -Check $check -Result PASS -Detail "$($fs) keeps no ACL: '$($x.CreateAclNotKept)' noted, every block written" -Data $data }
    return New-SelfCheckResult -Check $check -Result FAIL -Detail "on $fs the NOTE '$($x.CreateAclNotKept)' was expected; creation: $path" -Data $data
  }
  if ($fs -eq 'SMB') {
    if ($path -eq 'written (SetFileValidData failed)' -and -not $acl.Protected) { return New-SelfCheckResult -Check $check -Result PASS -Detail "SMB: DISKSPD's 'Could not set valid file size' warning, every block written, the old (unprotected) ACL back" -Data $data }
    return New-SelfCheckResult -Check $check -Result FAIL -Detail "on SMB DISKSPD's 'Could not set valid file size' and an unprotected ACL were expected; creation: $path, protected: $($acl.Protected)" -Data $data
  }
  if ($path -eq 'SetFileValidData') {
    $exact = ([string]$acl.Sddl).Contains($x.ValidDataDacl)
    if (-not $exact -or -not $acl.Protected -or $names.Count -gt 0) {
      $why = @()
      if (-not $exact) { $why += "the SDDL lacks $($x.ValidDataDacl)" }
      if (-not $acl.Protected) { $why += 'AreAccessRulesProtected is False' }
      if ($names.Count -gt 0) { $why += "readable by: $($names -join ', ')" }
      return New-SelfCheckResult -Check $check -Result FAIL -Detail "created with SetFileValidData (old disk contents in it) but $($why -join '; '); SDDL $($acl.Sddl)" -Data $data
    }
    return New-SelfCheckResult -Check $check -Result PASS -Detail "created with SetFileValidData in $($run.Seconds) s; DACL $($x.ValidDataDacl), protected" -Data $data
  }
  if ($path -eq 'written (no privilege)' -and $state -ne 'Absent') {
    return New-SelfCheckResult -Check $check -Result FAIL -Detail "SeManageVolumePrivilege is $state, yet iospd said it could not set it: every block written" -Data $data
  }
  New-SelfCheckResult -Check $check -Result INFO -Detail "$path in $($run.Seconds) s (SeManageVolumePrivilege $state); no SetFileValidData, so no old contents to protect" -Data $data
}

function Test-SelfCheckTimerResolution {
  $t = Get-SelfCheckTimerResolution
  if ($null -eq $t) { return New-SelfCheckResult -Check 'timer-resolution' -Result SKIP -Detail 'NtQueryTimerResolution failed' }
  $data = [ordered]@{ CoarsestMs = $t.CoarsestMs; FinestMs = $t.FinestMs; CurrentMs = $t.CurrentMs }
  New-SelfCheckResult -Check 'timer-resolution' -Result INFO -Detail ('current {0:0.###} ms, finest {1:0.###} ms, coarsest {2:0.###} ms (system-wide; a process may still get the coarse one)' -f $t.CurrentMs, $t.FinestMs, $t.CoarsestMs) -Data $data
}

function Test-SelfCheckPacing {
  # One row of $SelfCheckExpect.Pacing: the rate asked for must come evenly
  # over -D intervals; a 15.6 ms wait makes intervals empty and the next
  # ones double (-g), or stretches each 1 ms think time (-j).
  param([Parameter(Mandatory)] $Context, [Parameter(Mandatory)] [System.Collections.IDictionary] $Spec)
  $x = $script:SelfCheckExpect
  $check = $Spec.Name
  $argv = @($Spec.Switches) + @("-D$($Spec.BucketMs)", "-d$($Context.RunSeconds)", '-W0', '-C0', '-w0', '-t1', '-Rxml', $Context.DataFile)
  $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList $argv -Seconds $Context.RunSeconds
  if ($run.ExitCode -ne 0) {
    return New-SelfCheckResult -Check $check -Result FAIL -Detail "iospd failed (exit $($run.ExitCode)): $(Get-SelfCheckRunMessage -Run $run)" -Data @{ ExitCode = $run.ExitCode }
  }
  $totals = Get-SelfCheckIopsBuckets -Text ([string]$run.StdOut)
  $m = Measure-SelfCheckPacing -Totals $totals -TargetIops $Spec.Iops
  $data = [ordered]@{ Arguments = ($argv -join ' '); TargetIops = [Math]::Round($Spec.Iops, 2); BucketMs = $Spec.BucketMs; Intervals = $m.Intervals; MeanIops = $m.Mean; Cv = $m.Cv; EmptyShare = $m.EmptyShare; RateError = $m.RateError }
  if ($m.Intervals -lt 3 -or $null -eq $m.Cv) {
    return New-SelfCheckResult -Check $check -Result FAIL -Detail "the -D$($Spec.BucketMs) output had $($m.Intervals) usable intervals" -Data $data
  }
  $stats = "mean $($m.Mean) IOPS (asked $([Math]::Round($Spec.Iops, 1))) over $($m.Intervals) intervals of $($Spec.BucketMs) ms, CV $($m.Cv), $([Math]::Round(100 * $m.EmptyShare)) % empty"
  if ($m.Cv -gt $x.PacingMaxCv) {
    return New-SelfCheckResult -Check $check -Result FAIL -Detail "bursty: $stats (waits are coarser than $($Spec.BucketMs) ms)" -Data $data
  }
  if ($m.RateError -gt $x.PacingRateTolerance) {
    return New-SelfCheckResult -Check $check -Result FAIL -Detail "rate off by $([Math]::Round(100 * $m.RateError)) %: $stats" -Data $data
  }
  New-SelfCheckResult -Check $check -Result PASS -Detail "even: $stats" -Data $data
}

function Test-SelfCheckPriority {
  # -I<Level> on a file (of -Target's file system, else the scratch one):
  # exit 0 with the hint in the profile, or exit 1 saying the hint failed
  # (INFO: that file system refuses hints); anything else is a FAIL.
  param([Parameter(Mandatory)] $Context, [ValidateSet(1, 2)] [int] $Level = 1, $Target)
  $file = $Context.DataFile
  $fs = 'scratch'
  $check = "priority -I$Level"
  if ($Target) {
    $fs = $Target.FileSystem
    $check = "priority -I$Level $($Target.Root)"
    $file = Join-Path $Target.Scratch 'priority.dat'
    if (-not (Test-Path -LiteralPath $file)) { New-SelfCheckFile -Path $file -Size ([int64]1MB) }
  }
  $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList @("-I$Level", '-b4K', '-d1', '-W0', '-C0', '-w0', '-t1', '-o1', '-Rxml', $file)
  $msg = Get-SelfCheckRunMessage -Run $run
  $prio = Get-SelfCheckProfileValue -Text ([string]$run.StdOut) -Name 'IOPriority'
  $data = [ordered]@{ FileSystem = $fs; ExitCode = $run.ExitCode; IOPriority = $prio; IoSpdMessage = $msg }
  $line = $script:SelfCheckExpect.PriorityLine["$Level"]
  if ($run.ExitCode -eq 0 -and $prio -eq "$Level") {
    return New-SelfCheckResult -Check $check -Result PASS -Detail "iospd -I$Level ran on $fs with IOPriority $Level ('$line')" -Data $data
  }
  if ($run.ExitCode -eq 0) {
    return New-SelfCheckResult -Check $check -Result FAIL -Detail "iospd -I$Level ran on $fs but its profile shows IOPriority '$prio'" -Data $data
  }
  if ($run.ExitCode -eq 1 -and $msg -match $script:SelfCheckExpect.PriorityRefused) {
    return New-SelfCheckResult -Check $check -Result INFO -Detail "$fs refused the -I$Level hint (exit 1): $msg" -Data $data
  }
  New-SelfCheckResult -Check $check -Result FAIL -Detail "iospd -I$Level on $fs failed without '$($script:SelfCheckExpect.PriorityRefused)' (exit $($run.ExitCode)): $msg" -Data $data
}

function Read-SelfCheckText {
  param([Parameter(Mandatory)] [string] $Path)
  if (Test-Path -LiteralPath $Path) { return [IO.File]::ReadAllText($Path) }
  ''
}

function Test-SelfCheckCtrlC {
  # iospd -d60 in a console of its own. One Ctrl-C: the Ctrl-C line, the
  # results so far and exit 0. Three at once: the first stops the run, the
  # second only says the results are being written, the third is declined
  # by thread.c's handler and the default one ends the process with
  # 0xC000013A.
  param([Parameter(Mandatory)] $Context, [ValidateSet(1, 3)] [int] $Count = 3)
  $x = $script:SelfCheckExpect
  $check = if ($Count -eq 1) { 'ctrl-c once' } else { 'ctrl-c three times' }
  $errFile = Join-Path $Context.WorkDir "ctrl-c-$Count.stderr.txt"
  $outFile = Join-Path $Context.WorkDir "ctrl-c-$Count.stdout.txt"
  $p = Start-SelfCheckConsoleProcess -FilePath $Context.IoSpd -ArgumentList @('-b4K', '-d60', '-W0', '-C0', '-w0', '-t1', '-o1', $Context.DataFile) -StdErrPath $errFile -StdOutPath $outFile
  try {
    if (Wait-SelfCheckProcessExit -Process $p -TimeoutSeconds 2) {
      return New-SelfCheckResult -Check $check -Result FAIL -Detail "iospd -d60 ended by itself within 2 s (exit $($p.ExitCode)) before any Ctrl-C" -Data @{ ExitCode = $p.ExitCode }
    }
    $sender = Send-SelfCheckCtrlC -ProcessId $p.Id -Count $Count -GapMilliseconds $x.CtrlCGapMs
    $sw = [Diagnostics.Stopwatch]::StartNew()
    $ended = Wait-SelfCheckProcessExit -Process $p -TimeoutSeconds $x.CtrlCExitSeconds
    $data = [ordered]@{ SenderExitCode = $sender; Ended = [bool]$ended; SecondsAfterLastEvent = [Math]::Round($sw.Elapsed.TotalSeconds, 2) }
    if ($sender -ne 0) {
      $why = switch ($sender) { 10 { 'could not attach to its console' } 11 { 'GenerateConsoleCtrlEvent failed' } default { "exit $sender" } }
      return New-SelfCheckResult -Check $check -Result SKIP -Detail "the Ctrl-C sender $why" -Data $data
    }
    if (-not $ended) {
      return New-SelfCheckResult -Check $check -Result FAIL -Detail "iospd still ran $($x.CtrlCExitSeconds) s after $Count Ctrl-C event(s) (killed)" -Data $data
    }
    $code = [int]$p.ExitCode
    $said = (Read-SelfCheckText -Path $outFile) + "`n" + (Read-SelfCheckText -Path $errFile)
    $data['ExitCode'] = $code
    $data['ExitCodeHex'] = '0x{0:X8}' -f $code
    $data['CtrlCLine'] = [bool]($said -match $x.CtrlCLine)
    if ($Count -eq 1) {
      if ($code -eq 0 -and $data.CtrlCLine) {
        return New-SelfCheckResult -Check $check -Result PASS -Detail "iospd stopped, printed '$($x.CtrlCLine)' and exited 0" -Data $data
      }
      return New-SelfCheckResult -Check $check -Result FAIL -Detail "after one Ctrl-C iospd exited $($data.ExitCodeHex); the Ctrl-C line was $(if ($data.CtrlCLine) { '' } else { 'not ' })printed" -Data $data
    }
    if ($code -eq $x.CtrlCThirdExitCode) {
      return New-SelfCheckResult -Check $check -Result PASS -Detail "the third Ctrl-C ended iospd at once (exit 0xC000013A, $($data.SecondsAfterLastEvent) s)" -Data $data
    }
    if ($code -eq 0 -and $data.CtrlCLine) {
      return New-SelfCheckResult -Check $check -Result INFO -Detail 'the first Ctrl-C stopped the run and it exited 0 before the third arrived; the third was not tested' -Data $data
    }
    New-SelfCheckResult -Check $check -Result FAIL -Detail "after three Ctrl-C iospd exited $($data.ExitCodeHex), not 0xC000013A" -Data $data
  } finally {
    Stop-SelfCheckProcess -Process $p
  }
}

function Get-SelfCheckCacheArguments {
  # The same switches for iospd and DISKSPD: 4 KiB random reads, 8 deep.
  param([Parameter(Mandatory)] [string] $Mode, [Parameter(Mandatory)] [int] $Seconds, [Parameter(Mandatory)] [string] $File)
  @('-b4K', '-r', '-w0', '-t1', '-o8', "-d$Seconds", '-W1', '-C0', $Mode, '-L', '-Rxml', $File)
}

function Test-SelfCheckCacheMode {
  param([Parameter(Mandatory)] $Context, [Parameter(Mandatory)] [ValidateSet('-Sb', '-Su', '-Sh', '-Sw')] [string] $Mode)
  $check = "cache $Mode"
  $a = Get-SelfCheckCacheArguments -Mode $Mode -Seconds $Context.RunSeconds -File $Context.DataFile
  $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList $a -Seconds ($Context.RunSeconds + 1)
  $res = ConvertFrom-SelfCheckRun -Run $run
  $data = [ordered]@{ Arguments = ($a -join ' '); ExitCode = $run.ExitCode }
  if ($null -eq $res -or $res.TotalIOs -le 0) {
    $data['IoSpdMessage'] = Get-SelfCheckRunMessage -Run $run
    return New-SelfCheckResult -Check $check -Result FAIL -Detail "iospd failed or did no I/O (exit $($run.ExitCode)): $($data.IoSpdMessage)" -Data $data
  }
  $data['IoSpd'] = [ordered]@{ IOPS = [Math]::Round($res.IOPS, 1); AvgLatencyMs = $res.AvgLatencyMs; P50Ms = $res.TotalP50Ms; P99Ms = $res.TotalP99Ms }
  $mine = 'iospd {0:0} IOPS, avg {1:0.###} ms, p99 {2:0.###} ms' -f $res.IOPS, $res.AvgLatencyMs, $res.TotalP99Ms
  if (-not $Context.DiskSpd) {
    $data['DiskSpd'] = $null
    return New-SelfCheckResult -Check $check -Result PASS -Detail "$mine; no diskspd.exe on PATH, no comparison" -Data $data
  }
  $drun = Invoke-SelfCheckTool -FilePath $Context.DiskSpd -ArgumentList $a -Seconds ($Context.RunSeconds + 1)
  $dres = ConvertFrom-SelfCheckRun -Run $drun
  if ($null -eq $dres -or $dres.TotalIOs -le 0) {
    $data['DiskSpd'] = [ordered]@{ ExitCode = $drun.ExitCode; Message = (Get-SelfCheckRunMessage -Run $drun) }
    return New-SelfCheckResult -Check $check -Result INFO -Detail "$mine; DISKSPD failed (exit $($drun.ExitCode)): $($data.DiskSpd.Message)" -Data $data
  }
  $data['DiskSpd'] = [ordered]@{ IOPS = [Math]::Round($dres.IOPS, 1); AvgLatencyMs = $dres.AvgLatencyMs; P50Ms = $dres.TotalP50Ms; P99Ms = $dres.TotalP99Ms; Version = $dres.ToolVersion }
  $ratio = $null
  if ($dres.AvgLatencyMs -gt 0) { $ratio = [Math]::Round($res.AvgLatencyMs / $dres.AvgLatencyMs, 2) }
  $data['LatencyRatio'] = $ratio
  $theirs = 'DISKSPD {0:0} IOPS, avg {1:0.###} ms, p99 {2:0.###} ms' -f $dres.IOPS, $dres.AvgLatencyMs, $dres.TotalP99Ms
  if ($null -ne $ratio -and $ratio -gt $script:SelfCheckExpect.DiskSpdLatencyRatio) {
    return New-SelfCheckResult -Check $check -Result FAIL -Detail "$mine; $theirs; iospd's average latency is $($ratio)x DISKSPD's" -Data $data
  }
  New-SelfCheckResult -Check $check -Result PASS -Detail "$mine; $theirs" -Data $data
}

# ---------------------------------------------------------------------------
# Checks added with the Windows fixes of issue #11 (console, paths, x86,
# errors, device handles, -c safety; -Long and spare-disk ones are opt-in)
# ---------------------------------------------------------------------------
function Get-SelfCheckCodePage {
  # The console's output and input code pages; 0 when there is no console.
  Initialize-SelfCheckNative
  $r = [IoSpdSelfCheck.Native]::GetCodePages()
  [pscustomobject]@{ Output = [int]$r[0]; Input = [int]$r[1] }
}

function Invoke-SelfCheckInConsole {
  # Runs a program in this session's console (stdout to a file, so the
  # console sees no output); returns its exit code.
  param([Parameter(Mandatory)] [string] $FilePath, [string[]] $ArgumentList, [Parameter(Mandatory)] [string] $StdOutPath)
  $quoted = @($ArgumentList | ForEach-Object { if ($_ -match '\s') { '"' + $_ + '"' } else { $_ } })
  $p = Start-Process -FilePath $FilePath -ArgumentList $quoted -NoNewWindow -Wait -PassThru -RedirectStandardOutput $StdOutPath
  $p.ExitCode
}

function Test-SelfCheckCodePage {
  # iospd writes UTF-16 to consoles and never changes the code page, so
  # the shell keeps its own after a run in the same console.
  param([Parameter(Mandatory)] $Context)
  $before = Get-SelfCheckCodePage
  if ($before.Output -eq 0) {
    return New-SelfCheckResult -Check 'code-page' -Result SKIP -Detail 'this session has no console; run the script in a console window (not the ISE or a remote session)'
  }
  $code = Invoke-SelfCheckInConsole -FilePath $Context.IoSpd -ArgumentList @('-b4K', '-d1', '-W0', '-C0', '-w0', '-t1', '-o1', $Context.DataFile) -StdOutPath (Join-Path $Context.WorkDir 'code-page.txt')
  $after = Get-SelfCheckCodePage
  $data = [ordered]@{ Before = $before.Output; After = $after.Output; InputBefore = $before.Input; InputAfter = $after.Input; ExitCode = $code }
  if ($code -ne 0) {
    return New-SelfCheckResult -Check 'code-page' -Result FAIL -Detail "iospd failed in this console (exit $code)" -Data $data
  }
  if ($before.Output -ne $after.Output -or $before.Input -ne $after.Input) {
    return New-SelfCheckResult -Check 'code-page' -Result FAIL -Detail "the console's code page was $($before.Output)/$($before.Input) (output/input) before the run and $($after.Output)/$($after.Input) after it" -Data $data
  }
  New-SelfCheckResult -Check 'code-page' -Result PASS -Detail "the console's code page stayed $($before.Output) (input $($before.Input)) across a run" -Data $data
}

function Test-SelfCheckCaseFold {
  # Windows paths are case-insensitive: x.dat and X.DAT are one target, so
  # -c creates it once.
  param([Parameter(Mandatory)] $Context)
  $dir = Join-Path $Context.WorkDir 'case'
  $null = New-Item -ItemType Directory -Path $dir -Force
  $argv = @('-v', '-c64K', '-b4K', '-d1', '-W0', '-C0', '-w0', '-t1', '-o1', '-Rxml', 'x.dat', 'X.DAT')
  $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList $argv -WorkingDirectory $dir
  $said = [string]$run.StdErr + "`n" + [string]$run.StdOut
  $n = [regex]::Matches($said, [regex]::Escape($script:SelfCheckExpect.CreatingFileLine)).Count
  $len = Get-SelfCheckFileLength -Path (Join-Path $dir 'x.dat')
  $data = [ordered]@{ ExitCode = $run.ExitCode; CreatingLines = $n; Bytes = $len }
  if ($run.ExitCode -ne 0) {
    $data['IoSpdMessage'] = Get-SelfCheckRunMessage -Run $run
    return New-SelfCheckResult -Check 'case-fold' -Result FAIL -Detail "iospd -v -c64K x.dat X.DAT failed (exit $($run.ExitCode)): $($data.IoSpdMessage)" -Data $data
  }
  if ($n -ne 1 -or $len -ne 64KB) {
    return New-SelfCheckResult -Check 'case-fold' -Result FAIL -Detail "iospd -v -c64K x.dat X.DAT printed '$($script:SelfCheckExpect.CreatingFileLine)' $n time(s); x.dat holds $len bytes" -Data $data
  }
  New-SelfCheckResult -Check 'case-fold' -Result PASS -Detail 'x.dat and X.DAT were one target: created once, 65536 bytes' -Data $data
}

function Get-SelfCheckPeInfo {
  # Machine and the large-address-aware flag from a PE file's COFF header.
  param([Parameter(Mandatory)] [string] $Path)
  $b = [IO.File]::ReadAllBytes($Path)
  if ($b.Length -lt 0x40 -or $b[0] -ne 0x4D -or $b[1] -ne 0x5A) { return $null }
  $pe = [BitConverter]::ToInt32($b, 0x3C)
  if ($pe -lt 0 -or $pe + 24 -gt $b.Length -or [BitConverter]::ToUInt32($b, $pe) -ne 0x00004550) { return $null }
  $machine = [BitConverter]::ToUInt16($b, $pe + 4)
  $chars = [BitConverter]::ToUInt16($b, $pe + 22)
  [pscustomobject]@{ Machine = [int]$machine; Is32Bit = ($machine -eq 0x14C); LargeAddressAware = (($chars -band 0x20) -ne 0) }
}

function Resolve-SelfCheckIoSpdX86 {
  # The release zip's x86\iospd.exe beside this script, or $null.
  param([string] $ScriptRoot = $PSScriptRoot)
  $p = Join-Path (Join-Path $ScriptRoot 'x86') 'iospd.exe'
  if (Test-Path -LiteralPath $p -PathType Leaf) { return $p }
  $null
}

function Test-SelfCheckX86 {
  # The 32-bit build: linked large-address-aware, and -t1000 fits in its
  # address space (smaller thread stacks).
  param([Parameter(Mandatory)] $Context)
  $exe = $Context.IoSpdX86
  if (-not $exe) { return New-SelfCheckResult -Check 'x86' -Result SKIP -Detail 'no x86\iospd.exe beside the script' }
  $pe = Get-SelfCheckPeInfo -Path $exe
  $data = [ordered]@{ Path = $exe; Machine = $(if ($pe) { '0x{0:X}' -f $pe.Machine } else { $null }); LargeAddressAware = $(if ($pe) { $pe.LargeAddressAware } else { $null }) }
  if ($null -eq $pe -or -not $pe.Is32Bit) {
    return New-SelfCheckResult -Check 'x86' -Result FAIL -Detail "$exe is not an x86 PE image (machine $($data.Machine))" -Data $data
  }
  if (-not $pe.LargeAddressAware) {
    return New-SelfCheckResult -Check 'x86' -Result FAIL -Detail "$exe is not linked large-address-aware (IMAGE_FILE_LARGE_ADDRESS_AWARE missing)" -Data $data
  }
  $t = $script:SelfCheckExpect.X86Threads
  $run = Invoke-SelfCheckTool -FilePath $exe -ArgumentList @("-t$t", '-b4K', '-d1', '-W0', '-C0', '-w0', '-o1', '-Rxml', $Context.DataFile) -Seconds 30
  $data['ExitCode'] = $run.ExitCode
  if ($run.ExitCode -ne 0) {
    $data['IoSpdMessage'] = Get-SelfCheckRunMessage -Run $run
    return New-SelfCheckResult -Check 'x86' -Result FAIL -Detail "large-address-aware, but -t$t failed (exit $($run.ExitCode)): $($data.IoSpdMessage)" -Data $data
  }
  New-SelfCheckResult -Check 'x86' -Result PASS -Detail "large-address-aware, and -t$t ran" -Data $data
}

function Get-SelfCheckUnusedDriveLetter {
  # A drive letter nothing uses (from Z: down), or $null.
  $used = @([IO.DriveInfo]::GetDrives() | ForEach-Object { $_.Name.Substring(0, 1).ToUpperInvariant() })
  foreach ($c in [char[]]'ZYXWVUTSRQPONMLKJIHGFED') { if ("$c" -notin $used) { return "${c}:" } }
  $null
}

function Test-SelfCheckMissingDrive {
  # An unused drive letter: iospd must say "no such disk or volume (error 2)".
  param([Parameter(Mandatory)] $Context)
  $l = Get-SelfCheckUnusedDriveLetter
  if (-not $l) { return New-SelfCheckResult -Check 'missing-drive' -Result SKIP -Detail 'every drive letter is in use' }
  $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList @('-b4K', '-d1', '-W0', '-C0', '-w0', '-Rxml', $l)
  $msg = Get-SelfCheckRunMessage -Run $run
  $data = [ordered]@{ Drive = $l; ExitCode = $run.ExitCode; IoSpdMessage = $msg }
  if ($run.ExitCode -ne 0 -and $msg -match $script:SelfCheckExpect.MissingDrive) {
    return New-SelfCheckResult -Check 'missing-drive' -Result PASS -Detail "iospd $l (unused): exit $($run.ExitCode), $msg" -Data $data
  }
  New-SelfCheckResult -Check 'missing-drive' -Result FAIL -Detail "iospd $l (unused) gave exit $($run.ExitCode) without '$($script:SelfCheckExpect.MissingDrive -replace '\\', '')': $msg" -Data $data
}

function New-SelfCheckExtendedFile {
  # A file of $Size bytes made by SetEndOfFile alone (FileStream.SetLength):
  # nothing written, its valid data length 0, so NTFS reads zeros without
  # touching the disk (what `fsutil file createnew` makes too).
  param([Parameter(Mandatory)] [string] $Path, [Parameter(Mandatory)] [int64] $Size)
  $fs = [IO.FileStream]::new($Path, [IO.FileMode]::CreateNew, [IO.FileAccess]::Write, [IO.FileShare]::Read)
  try { $fs.SetLength($Size) } finally { $fs.Dispose() }
}

function Test-SelfCheckNeverWritten {
  # A run on a file that was extended but never written must warn that its
  # reads return zeros without touching the device, with the exact bytes;
  # the same run on a written file must not.
  param([Parameter(Mandatory)] $Context)
  $x = $script:SelfCheckExpect
  $bytes = [int64]$x.NeverWrittenBytes
  $extended = Join-Path $Context.WorkDir 'never-written.dat'
  $written = Join-Path $Context.WorkDir 'written.dat'
  New-SelfCheckExtendedFile -Path $extended -Size $bytes
  New-SelfCheckFile -Path $written -Size $bytes
  $args1 = @('-b64K', '-d1', '-W0', '-C0', '-w0', '-t1', '-o1', '-Rxml')
  $a = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList ($args1 + $extended)
  $b = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList ($args1 + $written)
  $want = $x.NeverWritten -f $bytes
  $data = [ordered]@{ ExitCode = $a.ExitCode; WrittenExitCode = $b.ExitCode; Said = ([string]$a.StdErr -replace '\s+', ' ').Trim() }
  if ($a.ExitCode -ne 0 -or $b.ExitCode -ne 0) {
    return New-SelfCheckResult -Check 'never-written' -Result FAIL -Detail "the runs failed (exit $($a.ExitCode) and $($b.ExitCode))" -Data $data
  }
  if ([string]$b.StdErr -match 'were never written') {
    return New-SelfCheckResult -Check 'never-written' -Result FAIL -Detail 'a fully written file was called never written' -Data $data
  }
  if ([string]$a.StdErr -notmatch $want) {
    return New-SelfCheckResult -Check 'never-written' -Result FAIL -Detail "no warning '$($want -replace '\\', '')' for a file extended by SetEndOfFile alone: $($data.Said)" -Data $data
  }
  New-SelfCheckResult -Check 'never-written' -Result PASS -Detail "a file extended by SetEndOfFile alone: '$($want -replace '\\', '')'; a written one: no warning" -Data $data
}

function Get-SelfCheckStandardInfo {
  # Whether GetFileInformationByHandleEx(FileStandardInfo) answers on $Path.
  param([Parameter(Mandatory)] [string] $Path)
  Initialize-SelfCheckNative
  $r = [IoSpdSelfCheck.Native]::GetStandardInfo($Path)
  [pscustomobject]@{ Opened = [bool]$r[0]; Answered = [bool]$r[1]; Error = [int]$r[2] }
}

function Test-SelfCheckDeviceStandardInfo {
  # iospd tells a file from a device partly by FileStandardInfo, which a
  # volume or disk handle must refuse. One row per device path.
  param([string[]] $Path = @("\\.\$($env:SystemDrive)", '\\.\PhysicalDrive0'))
  foreach ($p in $Path) {
    $r = Get-SelfCheckStandardInfo -Path $p
    $data = [ordered]@{ Path = $p; Opened = $r.Opened; Answered = $r.Answered; Error = $r.Error }
    if (-not $r.Opened) {
      New-SelfCheckResult -Check "device-info $p" -Result SKIP -Detail "cannot open $p (error $($r.Error))" -Data $data
    } elseif ($r.Answered) {
      New-SelfCheckResult -Check "device-info $p" -Result FAIL -Detail "FileStandardInfo answers on $p; iospd's file-or-device test assumes it fails there" -Data $data
    } else {
      New-SelfCheckResult -Check "device-info $p" -Result PASS -Detail "FileStandardInfo fails on $p (error $($r.Error)), as iospd's file-or-device test assumes" -Data $data
    }
  }
}

function Open-SelfCheckSharedHandle {
  # Holds $Path open for reading, sharing read, write and delete (so iospd
  # can open it, but not exclusively). Dispose() the result.
  param([Parameter(Mandatory)] [string] $Path)
  [IO.FileStream]::new($Path, [IO.FileMode]::Open, [IO.FileAccess]::Read, [IO.FileShare]::ReadWrite -bor [IO.FileShare]::Delete)
}

function Get-SelfCheckPatternMismatch {
  # First offset in [Offset, Offset+Length) whose byte is not (offset & 0xff),
  # the -c fill pattern; -1 when all match (or the file ends first).
  param([Parameter(Mandatory)] [string] $Path, [int64] $Offset = 0, [int] $Length = 4096)
  $fs = [IO.FileStream]::new($Path, [IO.FileMode]::Open, [IO.FileAccess]::Read, [IO.FileShare]::ReadWrite -bor [IO.FileShare]::Delete)
  try {
    $buf = [byte[]]::new($Length)
    $null = $fs.Seek($Offset, [IO.SeekOrigin]::Begin)
    $n = $fs.Read($buf, 0, $Length)
    for ($i = 0; $i -lt $n; $i++) { if ($buf[$i] -ne (($Offset + $i) -band 0xff)) { return $Offset + $i } }
    -1
  } finally { $fs.Dispose() }
}

function Test-SelfCheckHeldOpen {
  # -c over a file another process holds open: no finished copy can be
  # moved over it, so it is overwritten in place, never with
  # SetFileValidData; iospd says so, and writes the pattern.
  param([Parameter(Mandatory)] $Context)
  if (-not $Context.Elevated) {
    return New-SelfCheckResult -Check 'valid-data held-open' -Result SKIP -Detail 'needs an elevated prompt (unelevated, -c writes every block anyway)'
  }
  $x = $script:SelfCheckExpect
  $bytes = [int64]$x.ValidDataFileBytes
  $file = Join-Path $Context.WorkDir 'held-open.dat'
  New-SelfCheckFile -Path $file -Size ([int64]1MB)
  $h = Open-SelfCheckSharedHandle -Path $file
  try {
    $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList @("-c$bytes", '-v', '-b64K', '-d1', '-W0', '-C0', '-w0', '-t1', '-o1', '-Rxml', $file) -Seconds 120
  } finally { $h.Dispose() }
  $said = [string]$run.StdErr + "`n" + [string]$run.StdOut
  $data = [ordered]@{ ExitCode = $run.ExitCode; CreationPath = (Get-SelfCheckCreationPath -Text $said) }
  if ($run.ExitCode -ne 0) {
    $data['IoSpdMessage'] = Get-SelfCheckRunMessage -Run $run
    return New-SelfCheckResult -Check 'valid-data held-open' -Result FAIL -Detail "iospd -c over a file held open elsewhere failed (exit $($run.ExitCode)): $($data.IoSpdMessage)" -Data $data
  }
  $first = Get-SelfCheckPatternMismatch -Path $file -Offset 0
  $last = Get-SelfCheckPatternMismatch -Path $file -Offset ($bytes - 4096)
  $data['Bytes'] = Get-SelfCheckFileLength -Path $file
  $data['FirstMismatch'] = $(if ($first -ge 0) { $first } elseif ($last -ge 0) { $last } else { $null })
  if ($said -notmatch $x.CreateHeldOpen) {
    return New-SelfCheckResult -Check 'valid-data held-open' -Result FAIL -Detail "no NOTE '$($x.CreateHeldOpen)' (creation: $($data.CreationPath))" -Data $data
  }
  if ($data.Bytes -ne $bytes -or $null -ne $data.FirstMismatch) {
    return New-SelfCheckResult -Check 'valid-data held-open' -Result FAIL -Detail "the NOTE came, but the file holds $($data.Bytes) bytes, first byte off the k & 0xff pattern at $($data.FirstMismatch)" -Data $data
  }
  New-SelfCheckResult -Check 'valid-data held-open' -Result PASS -Detail "'$($x.CreateHeldOpen)' noted; every block written with the k & 0xff pattern" -Data $data
}

function Get-SelfCheckModifiedPageBytes {
  # \Memory\Modified Page List Bytes, by its non-localized WMI name.
  [int64](Get-CimInstance -ClassName Win32_PerfFormattedData_PerfOS_Memory -ErrorAction Stop).ModifiedPageListBytes
}

function Measure-SelfCheckModifiedGrowth {
  # Runs a console process, sampling the Modified Page List every
  # $IntervalMs until it ends; returns ExitCode, Before, Peak, Growth, TimedOut.
  param([Parameter(Mandatory)] [string] $FilePath, [string[]] $ArgumentList, [Parameter(Mandatory)] [string] $StdErrPath, [int] $TimeoutSeconds = 600, [int] $IntervalMs = 250)
  $before = Get-SelfCheckModifiedPageBytes
  $peak = $before
  $p = Start-SelfCheckConsoleProcess -FilePath $FilePath -ArgumentList $ArgumentList -StdErrPath $StdErrPath
  $sw = [Diagnostics.Stopwatch]::StartNew()
  try {
    while (-not (Wait-SelfCheckProcessExit -Process $p -TimeoutSeconds ($IntervalMs / 1000.0))) {
      $peak = [Math]::Max($peak, (Get-SelfCheckModifiedPageBytes))
      if ($sw.Elapsed.TotalSeconds -gt $TimeoutSeconds) { break }
    }
    $peak = [Math]::Max($peak, (Get-SelfCheckModifiedPageBytes))
    $timedOut = -not $p.HasExited
    [pscustomobject]@{ ExitCode = $(if ($timedOut) { -1 } else { $p.ExitCode }); Before = $before; Peak = $peak; Growth = $peak - $before; TimedOut = $timedOut }
  } finally { Stop-SelfCheckProcess -Process $p }
}

function Test-SelfCheckModifiedPages {
  # -Long. A non-elevated -c1G writes every block unbuffered and flushes:
  # the Modified Page List (dirty cache waiting for the lazy writer) must
  # not grow by anything near the file's size.
  param([Parameter(Mandatory)] $Context)
  $x = $script:SelfCheckExpect
  if ($Context.Elevated) {
    return New-SelfCheckResult -Check 'fill-cache' -Result SKIP -Detail 'run from a non-elevated prompt: elevated, -c uses SetFileValidData and writes nothing'
  }
  $bytes = [int64]$x.ModifiedFileBytes
  if ($null -ne $Context.WorkFreeBytes -and $Context.WorkFreeBytes -lt 2 * $bytes) {
    return New-SelfCheckResult -Check 'fill-cache' -Result SKIP -Detail "needs $([int64](2 * $bytes / 1MB)) MiB free beside the scratch folder"
  }
  $file = Join-Path $Context.WorkDir 'fill-cache.dat'
  $m = Measure-SelfCheckModifiedGrowth -FilePath $Context.IoSpd -ArgumentList @("-c$bytes", '-b64K', '-d1', '-W0', '-C0', '-w0', '-t1', '-o1', $file) -StdErrPath (Join-Path $Context.WorkDir 'fill-cache.stderr.txt')
  Remove-SelfCheckTree -Path $file
  $data = [ordered]@{ ExitCode = $m.ExitCode; BeforeBytes = $m.Before; PeakBytes = $m.Peak; GrowthBytes = $m.Growth; LimitBytes = [int64]$x.ModifiedGrowthMax }
  $mib = [Math]::Round($m.Growth / 1MB)
  if ($m.ExitCode -ne 0) {
    return New-SelfCheckResult -Check 'fill-cache' -Result FAIL -Detail "iospd -c$bytes failed (exit $($m.ExitCode))" -Data $data
  }
  if ($m.Growth -ge $x.ModifiedGrowthMax) {
    return New-SelfCheckResult -Check 'fill-cache' -Result FAIL -Detail "the Modified Page List grew by $mib MiB during -c$([int64]($bytes / 1MB))M: the fill left dirty cache for the lazy writer" -Data $data
  }
  New-SelfCheckResult -Check 'fill-cache' -Result PASS -Detail "the Modified Page List grew by $mib MiB at most during -c$([int64]($bytes / 1MB))M (limit $([int64]($x.ModifiedGrowthMax / 1MB)) MiB)" -Data $data
}

function Test-SelfCheckCreateInterrupt {
  # -Long. Ctrl-C while -c fills a large file: iospd stops, removes the
  # partial file and says so.
  param([Parameter(Mandatory)] $Context)
  $x = $script:SelfCheckExpect
  $bytes = [int64]$x.InterruptFileBytes
  if ($null -ne $Context.WorkFreeBytes) { $bytes = [Math]::Min($bytes, [int64]([Math]::Floor($Context.WorkFreeBytes / 2 / 1MB)) * 1MB) }
  if ($bytes -lt 2GB) { return New-SelfCheckResult -Check 'ctrl-c during -c' -Result SKIP -Detail 'needs 4 GiB free beside the scratch folder' }
  $file = Join-Path $Context.WorkDir 'interrupt.dat'
  $errFile = Join-Path $Context.WorkDir 'interrupt.stderr.txt'
  $p = Start-SelfCheckConsoleProcess -FilePath $Context.IoSpd -ArgumentList @("-c$bytes", '-b64K', '-d1', '-W0', '-C0', '-w0', '-t1', '-o1', $file) -StdErrPath $errFile
  try {
    if (Wait-SelfCheckProcessExit -Process $p -TimeoutSeconds $x.InterruptAfterSec) {
      return New-SelfCheckResult -Check 'ctrl-c during -c' -Result SKIP -Detail "-c$bytes finished within $($x.InterruptAfterSec) s (SetFileValidData when elevated): nothing to interrupt" -Data @{ ExitCode = $p.ExitCode }
    }
    $sender = Send-SelfCheckCtrlC -ProcessId $p.Id -Count 1
    $ended = Wait-SelfCheckProcessExit -Process $p -TimeoutSeconds $x.CtrlCExitSeconds
    $said = Read-SelfCheckText -Path $errFile
    $left = Get-SelfCheckFileLength -Path $file
    $data = [ordered]@{ Bytes = $bytes; SenderExitCode = $sender; Ended = [bool]$ended; ExitCode = $(if ($ended) { $p.ExitCode } else { $null }); LeftBytes = $left; Said = ($said -replace '\s+', ' ').Trim() }
    if ($sender -ne 0) { return New-SelfCheckResult -Check 'ctrl-c during -c' -Result SKIP -Detail "the Ctrl-C sender failed (exit $sender)" -Data $data }
    if (-not $ended) { return New-SelfCheckResult -Check 'ctrl-c during -c' -Result FAIL -Detail "iospd still filled $($x.CtrlCExitSeconds) s after Ctrl-C (killed)" -Data $data }
    if ($null -ne $left) { return New-SelfCheckResult -Check 'ctrl-c during -c' -Result FAIL -Detail "after Ctrl-C the partial file is still there ($left bytes)" -Data $data }
    if ($said -notmatch $x.CreateInterrupted) { return New-SelfCheckResult -Check 'ctrl-c during -c' -Result FAIL -Detail "the partial file is gone but iospd did not say '$($x.CreateInterrupted)': $($data.Said)" -Data $data }
    New-SelfCheckResult -Check 'ctrl-c during -c' -Result PASS -Detail "Ctrl-C stopped -c$bytes; '$($x.CreateInterrupted)' (exit $($p.ExitCode))" -Data $data
  } finally {
    Stop-SelfCheckProcess -Process $p
    if ($null -ne (Get-SelfCheckFileLength -Path $file)) { Remove-SelfCheckTree -Path $file }
  }
}

function Assert-SelfCheckSpareDisk {
  # Throws unless disk $Number may be overwritten: confirmed, no partitions,
  # neither system nor boot disk. Returns the disk's description.
  param([Parameter(Mandatory)] [int] $Number, [switch] $Confirmed)
  if (-not $Confirmed) {
    throw "-SpareDisk $Number overwrites that disk; add -ConfirmSpareDiskOverwrite to confirm that its content may be destroyed."
  }
  try { $d = Get-SelfCheckDiskInfo -Number $Number } catch { throw "-SpareDisk ${Number}: Get-Disk -Number $Number failed: $($_.Exception.Message)" }
  if ($d.IsSystem -or $d.IsBoot) { throw "-SpareDisk ${Number}: disk $Number ($($d.FriendlyName)) is a system or boot disk; refused." }
  if ($d.PartitionCount -gt 0) {
    throw "-SpareDisk ${Number}: disk $Number ($($d.FriendlyName)) has $($d.PartitionCount) partition(s); refused. Name an empty disk (Clear-Disk first if it really is spare)."
  }
  return $d
}

function Test-SelfCheckSpareDisk {
  # On the confirmed empty disk: a read run must see the disk's size; then,
  # once data is on it, a write without --allow-raw-write must be refused.
  param([Parameter(Mandatory)] $Context)
  $d = $Context.SpareDisk
  $t = "#$($d.Number)"
  $read = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList @('-b64K', '-d1', '-W0', '-C0', '-w0', '-Su', '-t1', '-o4', '-Rxml', $t)
  $res = ConvertFrom-SelfCheckRun -Run $read
  $rd = [ordered]@{ Disk = $d.Number; Size = $d.Size; ExitCode = $read.ExitCode }
  if ($null -eq $res) {
    $rd['IoSpdMessage'] = Get-SelfCheckRunMessage -Run $read
    New-SelfCheckResult -Check "spare-disk $t read" -Result FAIL -Detail "iospd could not read the disk (exit $($read.ExitCode)): $($rd.IoSpdMessage)" -Data $rd
  } else {
    $seen = [int64]($res.Threads | Select-Object -First 1).FileSize
    $rd['IoSpdSize'] = $seen
    if ($seen -eq $d.Size) { New-SelfCheckResult -Check "spare-disk $t read" -Result PASS -Detail "iospd read $t and saw its $seen bytes" -Data $rd }
    else { New-SelfCheckResult -Check "spare-disk $t read" -Result FAIL -Detail "iospd saw $seen bytes; Get-Disk says $($d.Size)" -Data $rd }
  }

  $fill = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList @('-b64K', '-d1', '-W0', '-C0', '-w100', '-Su', '-t1', '-o1', '--allow-raw-write', '-Rxml', $t)
  $gd = [ordered]@{ Disk = $d.Number; FillExitCode = $fill.ExitCode }
  if ($fill.ExitCode -ne 0) {
    $gd['IoSpdMessage'] = Get-SelfCheckRunMessage -Run $fill
    return New-SelfCheckResult -Check "spare-disk $t raw-guard" -Result FAIL -Detail "writing with --allow-raw-write failed (exit $($fill.ExitCode)): $($gd.IoSpdMessage)" -Data $gd
  }
  $guard = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList @('-b64K', '-d1', '-W0', '-C0', '-w100', '-Su', '-t1', '-o1', '-Rxml', $t)
  $gd['GuardExitCode'] = $guard.ExitCode
  $gd['IoSpdMessage'] = Get-SelfCheckRunMessage -Run $guard
  if ($guard.ExitCode -eq 0) {
    return New-SelfCheckResult -Check "spare-disk $t raw-guard" -Result FAIL -Detail 'iospd wrote to a disk holding data without --allow-raw-write' -Data $gd
  }
  if ($gd.IoSpdMessage -notmatch $script:SelfCheckExpect.RawWriteRefused) {
    return New-SelfCheckResult -Check "spare-disk $t raw-guard" -Result FAIL -Detail "refused, but without naming --allow-raw-write (exit $($guard.ExitCode)): $($gd.IoSpdMessage)" -Data $gd
  }
  New-SelfCheckResult -Check "spare-disk $t raw-guard" -Result PASS -Detail "with data on it, a write without --allow-raw-write was refused (exit $($guard.ExitCode))" -Data $gd
}

function Open-SelfCheckExclusive {
  # A read handle on $Path with share mode 0; Dispose() it.
  param([Parameter(Mandatory)] [string] $Path)
  Initialize-SelfCheckNative
  $h = [IoSpdSelfCheck.Native]::OpenExclusive($Path)
  if ($h.IsInvalid) { $e = [Runtime.InteropServices.Marshal]::GetLastWin32Error(); $h.Dispose(); throw "cannot open $Path exclusively (error $e)" }
  $h
}

function Initialize-SelfCheckDiskTable {
  param([Parameter(Mandatory)] [int] $Number)
  Initialize-Disk -Number $Number -PartitionStyle GPT -ErrorAction Stop
}

function Clear-SelfCheckDisk {
  param([Parameter(Mandatory)] [int] $Number)
  Clear-Disk -Number $Number -RemoveData -RemoveOEM -Confirm:$false -ErrorAction Stop
}

function New-SelfCheckSpareVolume {
  # A GPT partition over the whole spare disk, NTFS, with a drive letter.
  param([Parameter(Mandatory)] [int] $Number)
  Initialize-Disk -Number $Number -PartitionStyle GPT -ErrorAction Stop
  $p = New-Partition -DiskNumber $Number -UseMaximumSize -AssignDriveLetter -ErrorAction Stop
  $null = Format-Volume -Partition $p -FileSystem NTFS -Confirm:$false -ErrorAction Stop
  [pscustomobject]@{ Drive = "$($p.DriveLetter):"; Size = [int64]$p.Size }
}

function Test-SelfCheckSpareDiskGuard {
  # On the confirmed spare disk, the raw-write guard's other answers: all
  # zeros is empty (a write goes ahead), a partition table and a disk held
  # with share mode 0 are refused; a 4Kn disk takes -Su -Z1M -w50; on a
  # volume made there, --allow-raw-write is still refused before any write,
  # and the volume's last MiB is readable. The disk is left empty.
  param([Parameter(Mandatory)] $Context)
  $x = $script:SelfCheckExpect
  $d = $Context.SpareDisk
  $n = $d.Number
  $t = "#$n"
  $base = @('-d1', '-W0', '-C0', '-t1', '-o1', '-Rxml')
  $row = {
    param($name, $run, [bool] $ok, $pass, $fail)
    $msg = Get-SelfCheckRunMessage -Run $run
    $data = [ordered]@{ Disk = $n; ExitCode = $run.ExitCode; IoSpdMessage = $msg }
    if ($ok) { New-SelfCheckResult -Check "spare-disk $t $name" -Result PASS -Detail $pass -Data $data }
    else { New-SelfCheckResult -Check "spare-disk $t $name" -Result FAIL -Detail "$fail (exit $($run.ExitCode)): $msg" -Data $data }
  }

  # All zeros: zero the first MiB (with the switch), then write zeros without it.
  $zero = @('-b1M', '-s', '-f1M', '-Z', '-w100', '-Su') + $base
  $null = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList (@('--allow-raw-write') + $zero + @($t))
  $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList ($zero + @($t))
  & $row 'zeros' $run ($run.ExitCode -eq 0) 'an all-zero disk is taken as empty: -w100 ran without --allow-raw-write' 'an all-zero disk was refused without --allow-raw-write'

  # Share mode 0: the guard cannot read the disk, so its content is unknown.
  try {
    $h = Open-SelfCheckExclusive -Path "\\.\PhysicalDrive$n"
    try { $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList ($zero + @($t)) } finally { $h.Dispose() }
    & $row 'share-mode-0' $run ($run.ExitCode -ne 0 -and (Get-SelfCheckRunMessage -Run $run) -match $x.RawGuardShareDenied) "held with share mode 0 elsewhere, the write was refused: '$($x.RawGuardShareDenied)'" "held with share mode 0, not refused with '$($x.RawGuardShareDenied)'"
  } catch {
    New-SelfCheckResult -Check "spare-disk $t share-mode-0" -Result SKIP -Detail $_.Exception.Message
  }

  # A partition table: refused without the switch.
  try {
    Initialize-SelfCheckDiskTable -Number $n
    try { $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList (@('-b64K', '-w100', '-Su') + $base + @($t)) } finally { Clear-SelfCheckDisk -Number $n }
    $msg = Get-SelfCheckRunMessage -Run $run
    & $row 'partition-table' $run ($run.ExitCode -ne 0 -and $msg -match $x.RawWriteRefused -and $msg -match 'partition table') 'with a GPT partition table, the write was refused naming it and --allow-raw-write' 'with a GPT partition table, not refused naming the partition table and --allow-raw-write'
  } catch {
    New-SelfCheckResult -Check "spare-disk $t partition-table" -Result SKIP -Detail "Initialize-Disk/Clear-Disk failed: $($_.Exception.Message)"
  }

  # 4Kn: the -Z buffer aligned to the device's requirement, not 512.
  if ($d.LogicalSectorSize -eq 4096) {
    $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList (@('--allow-raw-write', '-b4K', '-r', '-Su', '-Z1M', '-w50') + $base + @($t))
    & $row '4Kn' $run ($run.ExitCode -eq 0) '-Su -Z1M -w50 ran on the 4Kn disk' '-Su -Z1M -w50 failed on the 4Kn disk'
  } else {
    New-SelfCheckResult -Check "spare-disk $t 4Kn" -Result SKIP -Detail "logical sector $($d.LogicalSectorSize) bytes, not a 4Kn disk" -Data @{ LogicalSectorSize = $d.LogicalSectorSize; PhysicalSectorSize = $d.PhysicalSectorSize }
  }

  # A mounted volume: refused even with the switch, before any write; its end is readable.
  try {
    $v = New-SelfCheckSpareVolume -Number $n
    $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList (@('--allow-raw-write', '-b64K', '-w100', '-Su') + $base + @($v.Drive))
    & $row 'volume raw-write' $run ($run.ExitCode -ne 0 -and (Get-SelfCheckRunMessage -Run $run) -match $x.RawWriteMounted) "$($v.Drive) --allow-raw-write -w100 was refused before any write: '$($x.RawWriteMounted)'" "$($v.Drive) --allow-raw-write -w100 was not refused with '$($x.RawWriteMounted)'"
    $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList (@('-b1M', '-s', "-B$($v.Size - 1MB)", '-w0', '-Su') + $base + @($v.Drive))
    $res = ConvertFrom-SelfCheckRun -Run $run
    & $row 'volume last MiB' $run ($null -ne $res -and $res.TotalIOs -gt 0) "read the last MiB of $($v.Drive) ($($v.Size) bytes)" "could not read the last MiB of $($v.Drive) ($($v.Size) bytes)"
    if ($d.LogicalSectorSize -eq 4096) {
      # -c of a size that is no multiple of the sector: exact size, pattern to the last byte (4999999 & 0xff = 63).
      $cf = "$($v.Drive)\iospd-c5000000.dat"
      $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList (@('-c5000000', '-b4K', '-w0') + $base + @($cf))
      $len = Get-SelfCheckFileLength -Path $cf
      $ok = $run.ExitCode -eq 0 -and $len -eq 5000000 -and (Get-SelfCheckPatternMismatch -Path $cf -Offset 4995904 -Length 4096) -eq -1
      & $row 'volume 4Kn -c5000000' $run $ok '-c5000000 on the 4Kn volume: 5000000 bytes, the pattern to the last byte (63)' "-c5000000 on the 4Kn volume gave $len bytes or a wrong tail"
    }
  } catch {
    New-SelfCheckResult -Check "spare-disk $t volume" -Result SKIP -Detail "no volume could be made on the disk: $($_.Exception.Message)"
  } finally {
    try { Clear-SelfCheckDisk -Number $n } catch { New-SelfCheckResult -Check "spare-disk $t clear" -Result FAIL -Detail "Clear-Disk -Number $n failed: $($_.Exception.Message)" }
  }
}

# ---------------------------------------------------------------------------
# Raw writes to a mounted volume and an online disk (issue #26, helper e26a)
# ---------------------------------------------------------------------------
$script:SelfCheckRawSource = @'
using System;
using System.IO;
using System.Runtime.InteropServices;
using Microsoft.Win32.SafeHandles;
namespace IoSpdSelfCheck {
  public static class RawRead {
    [DllImport("kernel32.dll", SetLastError = true, CharSet = CharSet.Unicode)]
    static extern SafeFileHandle CreateFileW(string name, uint access, uint share, IntPtr sa, uint disposition, uint flags, IntPtr template);
    // Length bytes at Offset of a disk or volume (both sector multiples),
    // read through a shared read handle; null when it cannot be opened.
    public static byte[] Read(string path, long offset, int length) {
      using (SafeFileHandle h = CreateFileW(path, 0x80000000u, 3u, IntPtr.Zero, 3u, 0u, IntPtr.Zero)) {
        if (h.IsInvalid) return null;
        using (FileStream fs = new FileStream(h, FileAccess.Read, 1)) {
          fs.Seek(offset, SeekOrigin.Begin);
          byte[] b = new byte[length];
          int got = 0;
          while (got < length) { int n = fs.Read(b, got, length - got); if (n <= 0) break; got += n; }
          return b;
        }
      }
    }
  }
}
'@

function Get-SelfCheckRawEnds {
  # The first and last MiB of a disk or volume, hashed (SHA-256, hex).
  param([Parameter(Mandatory)] [string] $Path, [Parameter(Mandatory)] [int64] $Size)
  if (-not ('IoSpdSelfCheck.RawRead' -as [type])) { Add-Type -TypeDefinition $script:SelfCheckRawSource }
  $sha = [Security.Cryptography.SHA256]::Create()
  try {
    $first = [IoSpdSelfCheck.RawRead]::Read($Path, 0, 1MB)
    $last = [IoSpdSelfCheck.RawRead]::Read($Path, $Size - 1MB, 1MB)
    if ($null -eq $first -or $null -eq $last) { throw "cannot read $Path" }
    [pscustomobject]@{
      First = [BitConverter]::ToString($sha.ComputeHash($first)) -replace '-', ''
      Last  = [BitConverter]::ToString($sha.ComputeHash($last)) -replace '-', ''
    }
  } finally { $sha.Dispose() }
}

function New-SelfCheckVhdx {
  # A 64 MiB VHDX in the scratch folder, attached, GPT, one NTFS volume with
  # a drive letter (diskpart creates it: New-VHD needs the Hyper-V module).
  param([Parameter(Mandatory)] [string] $Path)
  $script = Join-Path (Split-Path $Path) 'vhdx-create.txt'
  Set-Content -LiteralPath $script -Encoding ascii -Value @(
    "create vdisk file=`"$Path`" maximum=64 type=expandable",
    "select vdisk file=`"$Path`"",
    'attach vdisk')
  $out = & diskpart.exe /s $script 2>&1
  Remove-Item -LiteralPath $script -ErrorAction SilentlyContinue
  $disk = Get-DiskImage -ImagePath $Path -ErrorAction Stop | Get-Disk -ErrorAction Stop
  if ($null -eq $disk) { throw "diskpart did not attach $Path : $out" }
  Initialize-Disk -Number $disk.Number -PartitionStyle GPT -ErrorAction Stop
  $p = New-Partition -DiskNumber $disk.Number -UseMaximumSize -AssignDriveLetter -ErrorAction Stop
  $null = Format-Volume -Partition $p -FileSystem NTFS -Confirm:$false -ErrorAction Stop
  [pscustomobject]@{ Number = $disk.Number; DiskSize = [int64]$disk.Size; Drive = "$($p.DriveLetter):"; VolumeSize = [int64]$p.Size }
}

function Set-SelfCheckDiskOffline {
  param([Parameter(Mandatory)] [int] $Number)
  Set-Disk -Number $Number -IsOffline $true -ErrorAction Stop
}

function Remove-SelfCheckVhdx {
  param([Parameter(Mandatory)] [string] $Path)
  Dismount-DiskImage -ImagePath $Path -ErrorAction SilentlyContinue | Out-Null
  Remove-Item -LiteralPath $Path -Force -ErrorAction SilentlyContinue
}

function Test-SelfCheckRawWriteVhdx {
  # iospd --allow-raw-write -w100 on a mounted NTFS volume (X:) and on its
  # online disk (#N) must be refused before any write, and the first and
  # last MiB of the disk and of the volume must read the same before and
  # after (before issue #26 the volume's boot sector and backup boot sector,
  # and the disk's GPT copies, were overwritten before the first refused
  # write). Then the disk is taken offline: #N is then written.
  param([Parameter(Mandatory)] $Context)
  $x = $script:SelfCheckExpect
  if (-not $Context.Elevated) {
    return New-SelfCheckResult -Check 'raw-write vhdx' -Result SKIP -Detail 'needs an elevated prompt (attaching a VHDX, raw disk handles)'
  }
  $vhdx = Join-Path $Context.WorkDir 'raw-write.vhdx'
  try { $v = New-SelfCheckVhdx -Path $vhdx } catch {
    Remove-SelfCheckVhdx -Path $vhdx
    return New-SelfCheckResult -Check 'raw-write vhdx' -Result SKIP -Detail "no VHDX could be made and attached: $($_.Exception.Message)"
  }
  try {
    $diskPath = "\\.\PhysicalDrive$($v.Number)"
    $volPath = "\\.\$($v.Drive)"
    $before = @{ Disk = Get-SelfCheckRawEnds -Path $diskPath -Size $v.DiskSize; Volume = Get-SelfCheckRawEnds -Path $volPath -Size $v.VolumeSize }
    $base = @('--allow-raw-write', '-b64K', '-w100', '-s', '-d1', '-W0', '-C0', '-t1', '-o1', '-Su', '-Rxml')
    $rows = [System.Collections.Generic.List[object]]::new()
    foreach ($case in @(@{ Name = 'volume'; Target = $v.Drive; Expect = $x.RawWriteMounted }, @{ Name = 'online disk'; Target = "#$($v.Number)"; Expect = $x.RawWriteOnlineDisk })) {
      $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList ($base + @($case.Target))
      $msg = Get-SelfCheckRunMessage -Run $run
      $after = @{ Disk = Get-SelfCheckRawEnds -Path $diskPath -Size $v.DiskSize; Volume = Get-SelfCheckRawEnds -Path $volPath -Size $v.VolumeSize }
      $same = $after.Disk.First -eq $before.Disk.First -and $after.Disk.Last -eq $before.Disk.Last -and $after.Volume.First -eq $before.Volume.First -and $after.Volume.Last -eq $before.Volume.Last
      $data = [ordered]@{ Target = $case.Target; ExitCode = $run.ExitCode; IoSpdMessage = $msg; Before = $before; After = $after }
      $check = "raw-write vhdx $($case.Name)"
      if ($run.ExitCode -ne 0 -and $msg -match $case.Expect -and $same) {
        $rows.Add((New-SelfCheckResult -Check $check -Result PASS -Detail "$($case.Target) refused ('$($case.Expect)'), first and last MiB of disk and volume unchanged" -Data $data))
      } elseif (-not $same) {
        $rows.Add((New-SelfCheckResult -Check $check -Result FAIL -Detail "$($case.Target): the first or last MiB of the disk or volume changed (exit $($run.ExitCode)): $msg" -Data $data))
      } else {
        $rows.Add((New-SelfCheckResult -Check $check -Result FAIL -Detail "$($case.Target) not refused with '$($case.Expect)' (exit $($run.ExitCode)): $msg" -Data $data))
      }
    }
    # Offline, the disk takes the writes.
    try {
      Set-SelfCheckDiskOffline -Number $v.Number
      $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList ($base + @("#$($v.Number)"))
      $msg = Get-SelfCheckRunMessage -Run $run
      $data = [ordered]@{ Target = "#$($v.Number)"; ExitCode = $run.ExitCode; IoSpdMessage = $msg }
      if ($run.ExitCode -eq 0) { $rows.Add((New-SelfCheckResult -Check 'raw-write vhdx offline disk' -Result PASS -Detail 'offline, #N took --allow-raw-write -w100' -Data $data)) }
      else { $rows.Add((New-SelfCheckResult -Check 'raw-write vhdx offline disk' -Result FAIL -Detail "offline, #N was refused (exit $($run.ExitCode)): $msg" -Data $data)) }
    } catch {
      $rows.Add((New-SelfCheckResult -Check 'raw-write vhdx offline disk' -Result SKIP -Detail "Set-Disk -IsOffline failed: $($_.Exception.Message)"))
    }
    $rows.ToArray()
  } finally {
    Remove-SelfCheckVhdx -Path $vhdx
  }
}

# ---------------------------------------------------------------------------
# IoRing (-u, --engine=ioring) and BypassIO (-Sy/-SY), DISKSPD 2.3
# ---------------------------------------------------------------------------
$script:SelfCheckIoRingSource = @'
using System;
using System.Runtime.InteropServices;
namespace IoSpdSelfCheck {
  public static class IoRing {
    [StructLayout(LayoutKind.Sequential)]
    public struct Caps { public int MaxVersion; public uint MaxSubmissionQueueSize, MaxCompletionQueueSize; public int FeatureFlags; }
    [DllImport("kernelbase.dll")] static extern int QueryIoRingCapabilities(out Caps caps);
    // HRESULT, or 1 (S_FALSE) when kernelbase.dll has no such call.
    public static int Query(out Caps caps) {
      try { return QueryIoRingCapabilities(out caps); }
      catch (EntryPointNotFoundException) { caps = new Caps(); return 1; }
    }
  }
}
'@

function Get-SelfCheckIoRingCaps {
  # What QueryIoRingCapabilities answers: Present, HResult, MaxVersion, sizes.
  if (-not ('IoSpdSelfCheck.IoRing' -as [type])) { Add-Type -TypeDefinition $script:SelfCheckIoRingSource }
  $caps = New-Object IoSpdSelfCheck.IoRing+Caps
  $hr = [IoSpdSelfCheck.IoRing]::Query([ref]$caps)
  [ordered]@{ Present = ($hr -ne 1); HResult = ('0x{0:X8}' -f $hr); MaxVersion = $caps.MaxVersion
    MaxSubmissionQueueSize = $caps.MaxSubmissionQueueSize; MaxCompletionQueueSize = $caps.MaxCompletionQueueSize; FeatureFlags = $caps.FeatureFlags }
}

function Get-SelfCheckOsBuild { [int][Environment]::OSVersion.Version.Build }

function Test-SelfCheckIoRingCaps {
  # IoRing exists from build 22000 and writes (version 3) from 22621.
  param([int] $Build = (Get-SelfCheckOsBuild), [System.Collections.IDictionary] $Caps = (Get-SelfCheckIoRingCaps))
  $x = $script:SelfCheckExpect
  $data = [ordered]@{ Build = $Build; Caps = $Caps }
  $v = [int]$Caps.MaxVersion
  if ($Build -lt $x.IoRingReadBuild) {
    if ($Caps.Present -and $v -gt 0) { return New-SelfCheckResult -Check 'ioring-caps' -Result INFO -Detail "build $Build reports IoRing version $v, before build $($x.IoRingReadBuild)" -Data $data }
    return New-SelfCheckResult -Check 'ioring-caps' -Result INFO -Detail "build $Build has no IoRing (it came with build $($x.IoRingReadBuild)): iospd -u must refuse" -Data $data
  }
  if (-not $Caps.Present -or $v -lt 1) { return New-SelfCheckResult -Check 'ioring-caps' -Result FAIL -Detail "build $Build should have IoRing, but QueryIoRingCapabilities answered $($Caps.HResult), version $v" -Data $data }
  if ($Build -ge $x.IoRingWriteBuild -and $v -lt 300) { return New-SelfCheckResult -Check 'ioring-caps' -Result FAIL -Detail "build $Build should offer IoRing version 3 (writes), but reports $v" -Data $data }
  New-SelfCheckResult -Check 'ioring-caps' -Result PASS -Detail ("IoRing version {0}, queues up to {1}/{2} entries" -f $v, $Caps.MaxSubmissionQueueSize, $Caps.MaxCompletionQueueSize) -Data $data
}

function Test-SelfCheckBytePattern {
  # True when every byte of the file is its offset mod 256 (iospd's write
  # buffer in 4 KiB blocks).
  param([Parameter(Mandatory)] [string] $Path)
  $b = [IO.File]::ReadAllBytes($Path)
  if ($b.Length -eq 0 -or ($b.Length % 256) -ne 0) { return $false }
  $want = [byte[]]@(0..255) * ($b.Length / 256)
  [Linq.Enumerable]::SequenceEqual([byte[]]$b, [byte[]]$want)
}

function Test-SelfCheckIoRingRun {
  # A short write run on the IoRing engine, the bytes read back, then a
  # read run; where IoRing (or its writes) is missing, the refusal before
  # any I/O with the file unchanged.
  param([Parameter(Mandatory)] $Context, [string[]] $Engine = @('--engine=ioring'))
  $x = $script:SelfCheckExpect
  $file = Join-Path $Context.WorkDir 'ioring.dat'
  $zeros = New-Object byte[] $x.IoRingFileBytes
  [IO.File]::WriteAllBytes($file, $zeros)
  $build = Get-SelfCheckOsBuild
  $name = 'ioring ' + ($Engine -join ' ')
  $w = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList (@($Engine) + @('-w100', '-b4K', '-o4', '-t1', '-Sh', '-d1', '-W0', '-C0', '-Rxml', $file))
  $wmsg = Get-SelfCheckRunMessage -Run $w
  $r = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList (@($Engine) + @('-w0', '-b4K', '-o8', '-t2', '-Su', '-d1', '-W0', '-C0', '-Rxml', $file))
  $rmsg = Get-SelfCheckRunMessage -Run $r
  $data = [ordered]@{ Build = $build; WriteExit = $w.ExitCode; WriteMessage = $wmsg; ReadExit = $r.ExitCode; ReadMessage = $rmsg }
  if ($w.ExitCode -eq 3 -or $r.ExitCode -eq 3) { return New-SelfCheckResult -Check $name -Result SKIP -Detail "this iospd does not take $($Engine -join ' ') (exit 3): $wmsg" -Data $data }
  $written = Test-SelfCheckBytePattern -Path $file
  $untouched = [Linq.Enumerable]::SequenceEqual([byte[]][IO.File]::ReadAllBytes($file), [byte[]]$zeros)
  $data['PatternWritten'] = $written
  if ($build -lt $x.IoRingReadBuild) {
    if ($w.ExitCode -eq 1 -and $r.ExitCode -eq 1 -and $wmsg -match $x.IoRingMissing -and $untouched) { return New-SelfCheckResult -Check $name -Result PASS -Detail "no IoRing on build ${build}: refused before any I/O, file unchanged: $wmsg" -Data $data }
    return New-SelfCheckResult -Check $name -Result FAIL -Detail "no IoRing on build ${build}, expected exit 1 with '$($x.IoRingMissing)' and the file unchanged; write exit $($w.ExitCode): $wmsg; read exit $($r.ExitCode)" -Data $data
  }
  if ($build -lt $x.IoRingWriteBuild) {
    if ($w.ExitCode -eq 1 -and $wmsg -match $x.IoRingNoWrite -and $untouched -and $r.ExitCode -eq 0) { return New-SelfCheckResult -Check $name -Result PASS -Detail "build ${build}: IoRing reads ran, the write run was refused before any I/O: $wmsg" -Data $data }
    return New-SelfCheckResult -Check $name -Result FAIL -Detail "build ${build}: expected reads to run and writes refused ('$($x.IoRingNoWrite)'); write exit $($w.ExitCode): $wmsg; read exit $($r.ExitCode): $rmsg" -Data $data
  }
  $engineOk = ([string]$r.StdOut) -match '<IoEngine>IoRing</IoEngine>'
  $data['EngineNamed'] = $engineOk
  if ($w.ExitCode -eq 0 -and $written -and $r.ExitCode -eq 0 -and $engineOk) { return New-SelfCheckResult -Check $name -Result PASS -Detail 'IoRing wrote every block (bytes read back) and read it, the results name IoRing' -Data $data }
  New-SelfCheckResult -Check $name -Result FAIL -Detail "IoRing run: write exit $($w.ExitCode) (pattern in the file: $written): $wmsg; read exit $($r.ExitCode) (IoRing named: $engineOk): $rmsg" -Data $data
}

function Test-SelfCheckBypassIo {
  # On NTFS: -Sy runs whatever is bypassed; -SY runs when fully bypassed
  # or fails before any I/O saying what is missing. fsutil's view is kept.
  param([Parameter(Mandatory)] $Context)
  $x = $script:SelfCheckExpect
  $root = Get-SelfCheckVolumeRoot -Path $Context.WorkDir
  $fs = try { ([IO.DriveInfo]::new($root)).DriveFormat } catch { '' }
  if ($fs -ne 'NTFS') { return New-SelfCheckResult -Check 'bypassio' -Result SKIP -Detail "the scratch folder is on $fs, not NTFS (BypassIO needs NTFS)" }
  $fsutil = try { (& fsutil.exe bypassIo state $Context.DataFile 2>&1 | Out-String).Trim() } catch { "fsutil failed: $($_.Exception.Message)" }
  $common = @('--diskspd=2.3', '-w0', '-b4K', '-o4', '-t1', '-d1', '-W0', '-C0', '-Rxml', $Context.DataFile)
  $p = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList (@('-Suy') + $common)
  $f = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList (@('-SuY') + $common)
  $pm = Get-SelfCheckRunMessage -Run $p
  $fm = Get-SelfCheckRunMessage -Run $f
  $data = [ordered]@{ FileSystem = $fs; Fsutil = $fsutil; PartialExit = $p.ExitCode; PartialMessage = $pm; FullExit = $f.ExitCode; FullMessage = $fm }
  if ($p.ExitCode -eq 3 -or $f.ExitCode -eq 3) { return New-SelfCheckResult -Check 'bypassio' -Result SKIP -Detail "this iospd does not take --diskspd=2.3 -Sy/-SY (exit 3): $pm" -Data $data }
  if ($p.ExitCode -ne 0) { return New-SelfCheckResult -Check 'bypassio' -Result FAIL -Detail "-Suy must run whatever is bypassed, exit $($p.ExitCode): $pm" -Data $data }
  if ($f.ExitCode -eq 0) { return New-SelfCheckResult -Check 'bypassio' -Result PASS -Detail "fully bypassed: -SuY and -Suy ran. fsutil: $fsutil" -Data $data }
  if ($f.ExitCode -eq 1 -and $fm -match $x.BypassFullRefused) { return New-SelfCheckResult -Check 'bypassio' -Result PASS -Detail "not fully bypassed: -Suy ran, -SuY refused before any I/O: $fm. fsutil: $fsutil" -Data $data }
  New-SelfCheckResult -Check 'bypassio' -Result FAIL -Detail "-SuY: exit $($f.ExitCode) without '$($x.BypassFullRefused)': $fm" -Data $data
}

# ---------------------------------------------------------------------------
# The run
# ---------------------------------------------------------------------------
function Get-SelfCheckTargets {
  # Volumes (and CSV/SMB folders) for the per-file-system checks, each with
  # the scratch folder to use there.
  param([Parameter(Mandatory)] [string] $WorkDir, [string] $RunId, [string[]] $Volume, [switch] $ScratchVolumeOnly, [string[]] $CsvPath, [string] $SmbPath)
  $workRoot = Get-SelfCheckVolumeRoot -Path $WorkDir
  $list = [System.Collections.Generic.List[object]]::new()
  foreach ($v in @(Get-SelfCheckVolumeList)) {
    $isWork = [string]::Equals($v.Root, $workRoot, [StringComparison]::OrdinalIgnoreCase)
    if ($ScratchVolumeOnly -and -not $isWork) { continue }
    if ($Volume -and -not ($Volume | Where-Object { [string]::Equals(($_.TrimEnd('\') + '\'), $v.Root, [StringComparison]::OrdinalIgnoreCase) })) { continue }
    $list.Add([pscustomobject]@{ Root = $v.Root; FileSystem = $v.FileSystem; Kind = $v.Kind; IsWork = $isWork })
  }
  $csv = if ($PSBoundParameters.ContainsKey('CsvPath')) { @($CsvPath | ForEach-Object { [pscustomobject]@{ Root = $_; FileSystem = 'CSVFS'; Kind = 'csv' } }) } else { @(Get-SelfCheckCsvList) }
  foreach ($c in $csv) { $list.Add([pscustomobject]@{ Root = $c.Root; FileSystem = 'CSVFS'; Kind = 'csv'; IsWork = $false }) }
  if ($SmbPath) { $list.Add([pscustomobject]@{ Root = $SmbPath; FileSystem = 'SMB'; Kind = 'smb'; IsWork = $false }) }
  foreach ($t in $list) {
    $scratch = if ($t.IsWork) { Join-Path $WorkDir "volume-$($list.IndexOf($t))" } else { Join-Path $t.Root "iospd-selfcheck-$RunId" }
    $t | Add-Member -NotePropertyName Scratch -NotePropertyValue $scratch
  }
  , $list.ToArray()
}

# ---- issue #26 (helper e26b): -c through a symbolic link, x86 on wide groups
function Test-SelfCheckSymlinkCreate {
  # A file symbolic link made with New-Item (elevation or Developer Mode):
  # iospd -c through it must grow the link's target to the -c size and
  # leave the link a link in its folder, with no copy beside it; a
  # dangling link is refused and nothing is made.
  param([Parameter(Mandatory)] $Context)
  $dir = Join-Path $Context.WorkDir 'symlink'
  $null = New-Item -ItemType Directory -Path (Join-Path $dir 'real') -Force
  $null = New-Item -ItemType Directory -Path (Join-Path $dir 'link') -Force
  $target = Join-Path $dir 'real\t.dat'
  $link = Join-Path $dir 'link\t.dat'
  New-SelfCheckFile -Path $target -Size 4096
  try {
    $null = New-Item -ItemType SymbolicLink -Path $link -Target $target -ErrorAction Stop
  } catch {
    return New-SelfCheckResult -Check 'symlink -c' -Result SKIP -Detail "cannot make a symbolic link here (elevation or Developer Mode needed): $($_.Exception.Message)"
  }
  $size = $script:SelfCheckExpect.SymlinkBytes
  $run = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList @("-c$size", '-b4K', '-d1', '-W0', '-C0', '-w0', '-Rxml', $link)
  $item = Get-Item -LiteralPath $link -Force
  $data = [ordered]@{ ExitCode = $run.ExitCode; TargetBytes = (Get-Item -LiteralPath $target).Length
    LinkType = $item.LinkType; LinkFolderFiles = @(Get-ChildItem -LiteralPath (Join-Path $dir 'link') -Force).Count }
  if ($run.ExitCode -ne 0) {
    $data['IoSpdMessage'] = Get-SelfCheckRunMessage -Run $run
    return New-SelfCheckResult -Check 'symlink -c' -Result FAIL -Detail "iospd -c$size through a link: exit $($run.ExitCode): $($data.IoSpdMessage)" -Data $data
  }
  if ($data.TargetBytes -ne $size -or $data.LinkType -ne 'SymbolicLink' -or $data.LinkFolderFiles -ne 1) {
    return New-SelfCheckResult -Check 'symlink -c' -Result FAIL -Detail "after -c$size through the link: target $($data.TargetBytes) bytes, link '$($data.LinkType)', $($data.LinkFolderFiles) entries in the link's folder (want $size, SymbolicLink, 1)" -Data $data
  }
  Remove-Item -LiteralPath $target -Force
  $run2 = Invoke-SelfCheckTool -FilePath $Context.IoSpd -ArgumentList @("-c$size", '-b4K', '-d1', '-W0', '-C0', '-w0', '-Rxml', $link)
  $msg = Get-SelfCheckRunMessage -Run $run2
  $data['DanglingExitCode'] = $run2.ExitCode
  $data['DanglingMessage'] = $msg
  if ($run2.ExitCode -eq 0 -or $msg -notmatch $script:SelfCheckExpect.SymlinkDangling -or (Test-Path -LiteralPath $target)) {
    return New-SelfCheckResult -Check 'symlink -c' -Result FAIL -Detail "a dangling link: exit $($run2.ExitCode), '$msg' (want a refusal with '$($script:SelfCheckExpect.SymlinkDangling)' and no target made)" -Data $data
  }
  New-SelfCheckResult -Check 'symlink -c' -Result PASS -Detail "-c$size through a link grew its target and kept the link; a dangling link was refused" -Data $data
}

function Test-SelfCheckX86WideGroup {
  # The x86 iospd on a host with a processor group of more than 32 logical
  # processors must refuse (WoW64 folds the masks); on a smaller host it
  # runs as usual, which the 'x86' check already shows.
  param([Parameter(Mandatory)] $Context)
  $exe = $Context.IoSpdX86
  if (-not $exe) { return New-SelfCheckResult -Check 'x86 wide group' -Result SKIP -Detail 'no x86\iospd.exe beside the script' }
  $widest = 0
  try {
    Add-Type -Namespace IoSpdSelfCheck -Name Groups -MemberDefinition '[DllImport("kernel32.dll")] public static extern ushort GetActiveProcessorGroupCount(); [DllImport("kernel32.dll")] public static extern uint GetActiveProcessorCount(ushort g);' -ErrorAction SilentlyContinue
    for ($g = 0; $g -lt [IoSpdSelfCheck.Groups]::GetActiveProcessorGroupCount(); $g++) {
      $widest = [Math]::Max($widest, [int][IoSpdSelfCheck.Groups]::GetActiveProcessorCount([uint16]$g))
    }
  } catch { $widest = [Environment]::ProcessorCount }
  $run = Invoke-SelfCheckTool -FilePath $exe -ArgumentList @('-b4K', '-d1', '-W0', '-C0', '-w0', '-Rxml', $Context.DataFile) -Seconds 30
  $msg = Get-SelfCheckRunMessage -Run $run
  $data = [ordered]@{ WidestGroup = $widest; ExitCode = $run.ExitCode; IoSpdMessage = $msg }
  if ($widest -le 32) {
    if ($run.ExitCode -eq 0) { return New-SelfCheckResult -Check 'x86 wide group' -Result INFO -Detail "the widest group has $widest processors: the x86 iospd runs (a host with more than 32 in a group shows the refusal)" -Data $data }
    return New-SelfCheckResult -Check 'x86 wide group' -Result FAIL -Detail "the widest group has $widest processors, yet the x86 iospd failed (exit $($run.ExitCode)): $msg" -Data $data
  }
  if ($run.ExitCode -ne 0 -and $msg -match $script:SelfCheckExpect.X86WideGroup) {
    return New-SelfCheckResult -Check 'x86 wide group' -Result PASS -Detail "a group of $widest processors: the x86 iospd refused (exit $($run.ExitCode))" -Data $data
  }
  New-SelfCheckResult -Check 'x86 wide group' -Result FAIL -Detail "a group of $widest processors: the x86 iospd gave exit $($run.ExitCode) without the refusal: $msg" -Data $data
}

function Invoke-SelfCheckStep {
  # A check that throws becomes a FAIL row instead of ending the run.
  param([Parameter(Mandatory)] [string] $Name, [Parameter(Mandatory)] [scriptblock] $Step)
  try { @(& $Step) } catch { New-SelfCheckResult -Check $Name -Result FAIL -Detail "the check itself failed: $($_.Exception.Message)" }
}

function Invoke-WindowsSelfCheck {
  # Runs every check; returns ExitCode, Results, JsonPath and Table.
  [CmdletBinding()]
  param(
    [string] $ScratchPath = (Join-Path ([IO.Path]::GetTempPath()) 'iospd-selfcheck'),
    [string] $JsonPath,
    [string] $IoSpdPath,
    [string] $DiskSpdPath,
    [string[]] $Volume,
    [switch] $ScratchVolumeOnly,
    [string[]] $CsvPath,
    [string] $SmbPath,
    [int] $SpareDisk = -1,
    [switch] $ConfirmSpareDiskOverwrite,
    [int] $RunSeconds = 3,
    [switch] $Long
  )
  $fail = { param($m) [pscustomobject]@{ ExitCode = 3; Error = $m; Results = @(); JsonPath = $null; Table = $null } }
  if (-not (Test-SelfCheckWindows)) { return & $fail 'windows-selfcheck.ps1 checks a Windows host; run it in PowerShell on Windows (the Linux build has its own tests).' }
  $elevated = [bool](Test-SelfCheckElevated)
  $disk = $null
  if ($SpareDisk -ge 0) {
    if (-not $elevated) { return & $fail "-SpareDisk $SpareDisk needs an elevated prompt (Run as administrator)." }
    try { $disk = Assert-SelfCheckSpareDisk -Number $SpareDisk -Confirmed:$ConfirmSpareDiskOverwrite } catch { return & $fail $_.Exception.Message }
  } elseif ($ConfirmSpareDiskOverwrite) {
    return & $fail '-ConfirmSpareDiskOverwrite was given without -SpareDisk <disk number>.'
  }
  try {
    $iospd = Resolve-SelfCheckIoSpd -Path $IoSpdPath
    $diskspd = Resolve-SelfCheckDiskSpd -Path $DiskSpdPath
    Import-SelfCheckModule
  } catch { return & $fail $_.Exception.Message }

  $started = [DateTime]::UtcNow
  $runId = $started.ToString('yyyyMMdd-HHmmss')
  if (-not (Test-Path -LiteralPath $ScratchPath)) { $null = New-Item -ItemType Directory -Path $ScratchPath -Force }
  if (-not $JsonPath) { $JsonPath = Join-Path $ScratchPath ("iospd-selfcheck-{0}-{1}.json" -f [Environment]::MachineName, $runId) }
  $results = [System.Collections.Generic.List[object]]::new()
  $leftOver = @()
  try {
    $work = New-SelfCheckScratchFolder -Path (Join-Path $ScratchPath "run-$runId")
    $free = $null
    try { $free = ([IO.DriveInfo]::new((Get-SelfCheckVolumeRoot -Path $work))).AvailableFreeSpace } catch { }
    $data = Join-Path $work 'data.dat'
    New-SelfCheckFile -Path $data -Size ([int64]64MB)
    $ctx = [pscustomobject]@{
      IoSpd = $iospd; IoSpdVersion = (Get-SelfCheckToolVersion -Path $iospd); IoSpdX86 = (Resolve-SelfCheckIoSpdX86); DiskSpd = $diskspd; Elevated = $elevated
      WorkDir = $work; WorkFreeBytes = $free; DataFile = $data; RunSeconds = $RunSeconds; SpareDisk = $disk
    }
    $results.AddRange(@(Invoke-SelfCheckStep 'host' { Test-SelfCheckHost -Context $ctx }))
    $targetArgs = @{ WorkDir = $work; RunId = $runId; Volume = $Volume; ScratchVolumeOnly = $ScratchVolumeOnly; SmbPath = $SmbPath }
    if ($PSBoundParameters.ContainsKey('CsvPath')) { $targetArgs['CsvPath'] = $CsvPath }
    foreach ($t in (Get-SelfCheckTargets @targetArgs)) {
      try { $null = New-SelfCheckScratchFolder -Path $t.Scratch } catch {
        $results.Add((New-SelfCheckResult -Check "file-length $($t.Root) ($($t.FileSystem))" -Result SKIP -Detail "no scratch folder there: $($_.Exception.Message)"))
        continue
      }
      $results.AddRange(@(Invoke-SelfCheckStep "file-length $($t.Root)" { Test-SelfCheckFileLength -Context $ctx -Target $t }))
      $results.AddRange(@(Invoke-SelfCheckStep "sectors $($t.Root)" { Test-SelfCheckSectors -Context $ctx -Target $t }))
      foreach ($lv in 1, 2) {
        $results.AddRange(@(Invoke-SelfCheckStep "priority -I$lv $($t.Root)" { Test-SelfCheckPriority -Context $ctx -Level $lv -Target $t }))
      }
      if (-not $t.IsWork) { $results.AddRange(@(Invoke-SelfCheckStep "valid-data $($t.Root)" { Test-SelfCheckValidData -Context $ctx -Target $t })) }
      if ($t.Kind -eq 'smb') { $results.AddRange(@(Invoke-SelfCheckStep "long-path $($t.Root)" { Test-SelfCheckLongPath -Context $ctx -Target $t })) }
    }
    $results.AddRange(@(Invoke-SelfCheckStep 'long-path' { Test-SelfCheckLongPath -Context $ctx }))
    $results.AddRange(@(Invoke-SelfCheckStep 'long-path relative' { Test-SelfCheckLongPath -Context $ctx -Relative }))
    $results.AddRange(@(Invoke-SelfCheckStep 'case-fold' { Test-SelfCheckCaseFold -Context $ctx }))
    $results.AddRange(@(Invoke-SelfCheckStep 'code-page' { Test-SelfCheckCodePage -Context $ctx }))
    $results.AddRange(@(Invoke-SelfCheckStep 'missing-drive' { Test-SelfCheckMissingDrive -Context $ctx }))
    $results.AddRange(@(Invoke-SelfCheckStep 'never-written' { Test-SelfCheckNeverWritten -Context $ctx }))
    $results.AddRange(@(Invoke-SelfCheckStep 'device-info' { Test-SelfCheckDeviceStandardInfo }))
    $results.AddRange(@(Invoke-SelfCheckStep 'x86' { Test-SelfCheckX86 -Context $ctx }))
    $results.AddRange(@(Invoke-SelfCheckStep 'x86 wide group' { Test-SelfCheckX86WideGroup -Context $ctx }))
    $results.AddRange(@(Invoke-SelfCheckStep 'symlink -c' { Test-SelfCheckSymlinkCreate -Context $ctx }))
    $results.AddRange(@(Invoke-SelfCheckStep 'large-pages' { Test-SelfCheckLargePages -Context $ctx }))
    $results.AddRange(@(Invoke-SelfCheckStep 'valid-data' { Test-SelfCheckValidData -Context $ctx }))
    $results.AddRange(@(Invoke-SelfCheckStep 'valid-data existing' { Test-SelfCheckValidData -Context $ctx -PreExisting }))
    $results.AddRange(@(Invoke-SelfCheckStep 'valid-data held-open' { Test-SelfCheckHeldOpen -Context $ctx }))
    $results.AddRange(@(Invoke-SelfCheckStep 'raw-write vhdx' { Test-SelfCheckRawWriteVhdx -Context $ctx }))
    $results.AddRange(@(Invoke-SelfCheckStep 'timer-resolution' { Test-SelfCheckTimerResolution }))
    foreach ($spec in $script:SelfCheckExpect.Pacing) {
      $results.AddRange(@(Invoke-SelfCheckStep $spec.Name { Test-SelfCheckPacing -Context $ctx -Spec $spec }))
    }
    $results.AddRange(@(Invoke-SelfCheckStep 'ctrl-c once' { Test-SelfCheckCtrlC -Context $ctx -Count 1 }))
    $results.AddRange(@(Invoke-SelfCheckStep 'ctrl-c three times' { Test-SelfCheckCtrlC -Context $ctx -Count 3 }))
    foreach ($mode in '-Sb', '-Su', '-Sh', '-Sw') {
      $results.AddRange(@(Invoke-SelfCheckStep "cache $mode" { Test-SelfCheckCacheMode -Context $ctx -Mode $mode }))
    }
    $results.AddRange(@(Invoke-SelfCheckStep 'ioring-caps' { Test-SelfCheckIoRingCaps }))
    $results.AddRange(@(Invoke-SelfCheckStep 'ioring --engine=ioring' { Test-SelfCheckIoRingRun -Context $ctx }))
    $results.AddRange(@(Invoke-SelfCheckStep 'ioring -u' { Test-SelfCheckIoRingRun -Context $ctx -Engine @('--diskspd=2.3', '-u') }))
    $results.AddRange(@(Invoke-SelfCheckStep 'bypassio' { Test-SelfCheckBypassIo -Context $ctx }))
    if ($Long) {
      $results.AddRange(@(Invoke-SelfCheckStep 'fill-cache' { Test-SelfCheckModifiedPages -Context $ctx }))
      $results.AddRange(@(Invoke-SelfCheckStep 'ctrl-c during -c' { Test-SelfCheckCreateInterrupt -Context $ctx }))
    }
    if ($disk) {
      $results.AddRange(@(Invoke-SelfCheckStep "spare-disk #$SpareDisk" { Test-SelfCheckSpareDisk -Context $ctx }))
      $results.AddRange(@(Invoke-SelfCheckStep "spare-disk #$SpareDisk guard" { Test-SelfCheckSpareDiskGuard -Context $ctx }))
    }
  } catch {
    $results.Add((New-SelfCheckResult -Check 'self-check' -Result FAIL -Detail "stopped early: $($_.Exception.Message)"))
  } finally {
    $leftOver = Clear-SelfCheckScratch
  }
  if ($leftOver.Count -gt 0) {
    $results.Add((New-SelfCheckResult -Check 'cleanup' -Result FAIL -Detail "could not remove: $($leftOver -join '; ')"))
  }

  $all = $results.ToArray()
  $summary = Get-SelfCheckSummary -Results $all
  $report = [ordered]@{
    Tool          = 'iospd windows-selfcheck'
    SchemaVersion = 1
    StartedUtc    = $started.ToString('o')
    Seconds       = [Math]::Round(([DateTime]::UtcNow - $started).TotalSeconds, 1)
    Parameters    = [ordered]@{ ScratchPath = $ScratchPath; SmbPath = $SmbPath; SpareDisk = $SpareDisk; RunSeconds = $RunSeconds; Volume = $Volume; Long = [bool]$Long }
    Expectations  = $script:SelfCheckExpect
    Summary       = $summary
    Results       = $all
  }
  Write-SelfCheckJson -Path $JsonPath -Report $report
  [pscustomobject]@{
    ExitCode = $(if ($summary.FAIL -gt 0) { 1 } else { 0 })
    Error    = $null
    Results  = $all
    Summary  = $summary
    JsonPath = $JsonPath
    Table    = (Format-SelfCheckTable -Results $all)
  }
}

# Dot-sourced (the Pester tests): define the functions only.
if ($MyInvocation.InvocationName -eq '.') { return }

$outcome = Invoke-WindowsSelfCheck @PSBoundParameters
if ($outcome.Error) {
  [Console]::Error.WriteLine("windows-selfcheck.ps1: $($outcome.Error)")
  exit $outcome.ExitCode
}
Write-Output $outcome.Table
Write-Output ''
Write-Output ('{0} PASS, {1} FAIL, {2} INFO, {3} SKIP. Report: {4}' -f $outcome.Summary.PASS, $outcome.Summary.FAIL,
  $outcome.Summary.INFO, $outcome.Summary.SKIP, $outcome.JsonPath)
Write-Output 'Attach the report to a bug report at the project''s issue tracker.'
exit $outcome.ExitCode
