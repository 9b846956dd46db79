# SPDX-License-Identifier: MIT
# scripts/windows-selfcheck.ps1: every check's PASS/FAIL/INFO/SKIP decision
# from mocked P/Invoke results and mocked iospd/DISKSPD runs, the table and
# the JSON report, the spare-disk refusals, scratch clean-up, and a few
# checks against the real Linux iospd (IOSPD_EXE or build/linux/iospd).

BeforeDiscovery {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  $exe = $env:IOSPD_EXE
  if (-not $exe) { $exe = Join-Path $repo 'build/linux/iospd' }
  $script:haveLinuxIoSpd = Test-Path -LiteralPath $exe -PathType Leaf
}

BeforeAll {
  $script:repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  $script:selfCheck = Join-Path $script:repo 'scripts/windows-selfcheck.ps1'
  . $script:selfCheck
  Import-Module (Join-Path $script:repo 'scripts/IoSpd/IoSpd.psd1') -Force
  $script:linuxIoSpd = $env:IOSPD_EXE
  if (-not $script:linuxIoSpd) { $script:linuxIoSpd = Join-Path $script:repo 'build/linux/iospd' }

  # A minimal -Rxml result: one thread, one target, optional -D buckets and
  # profile fields.
  function script:New-FakeXml {
    param([int64] $FileSize = 1MB, [int64] $IOs = 1000, [double] $Seconds = 1, [double] $AvgMs = 0.5,
      [double] $P99Ms = 2.0, [double[]] $Buckets = @(), [string] $UseLargePages = 'false',
      [int] $IOPriority = 3, [string] $Version = '0.1.0')
    $inv = [Globalization.CultureInfo]::InvariantCulture
    $b = ($Buckets | ForEach-Object -Begin { $i = 0 } -Process {
        $i++; '<Bucket SampleMillisecond="{0}" Read="{1}" Write="0" Total="{1}"/>' -f ($i * 10), $_.ToString($inv) }) -join ''
    @"
<Results><System><ComputerName>t</ComputerName><Tool><Version>$Version</Version></Tool></System>
<Profile><TimeSpans><TimeSpan><Targets><Target><Path>f</Path><UseLargePages>$UseLargePages</UseLargePages><IOPriority>$IOPriority</IOPriority></Target></Targets></TimeSpan></TimeSpans></Profile>
<TimeSpan><TestTimeSeconds>$($Seconds.ToString($inv))</TestTimeSeconds><ThreadCount>1</ThreadCount><ProcCount>2</ProcCount>
<Latency><AverageReadMilliseconds>$($AvgMs.ToString($inv))</AverageReadMilliseconds><AverageTotalMilliseconds>$($AvgMs.ToString($inv))</AverageTotalMilliseconds>
<Bucket><Percentile>50</Percentile><ReadMilliseconds>$($AvgMs.ToString($inv))</ReadMilliseconds><TotalMilliseconds>$($AvgMs.ToString($inv))</TotalMilliseconds></Bucket>
<Bucket><Percentile>99</Percentile><ReadMilliseconds>$($P99Ms.ToString($inv))</ReadMilliseconds><TotalMilliseconds>$($P99Ms.ToString($inv))</TotalMilliseconds></Bucket></Latency>
<Iops>$b</Iops>
<Thread><Id>0</Id><Target><Path>f</Path><BytesCount>$($IOs * 4096)</BytesCount><FileSize>$FileSize</FileSize><IOCount>$IOs</IOCount>
<ReadBytes>$($IOs * 4096)</ReadBytes><ReadCount>$IOs</ReadCount><WriteBytes>0</WriteBytes><WriteCount>0</WriteCount></Target></Thread>
</TimeSpan></Results>
"@
  }
  function script:New-FakeRun {
    param([int] $ExitCode = 0, [string] $StdOut = '', [string] $StdErr = '')
    [pscustomobject]@{ ExitCode = $ExitCode; StdOut = $StdOut; StdErr = $StdErr; TimedOut = $false; Seconds = 1.5 }
  }
  function script:New-Context {
    param([string] $Dir = $TestDrive, [string] $DiskSpd, [bool] $Elevated = $true, $SpareDisk = $null, $FreeBytes = $null)
    $data = Join-Path $Dir 'data.dat'
    if (-not (Test-Path -LiteralPath $data)) { New-SelfCheckFile -Path $data -Size ([int64]1MB) }
    [pscustomobject]@{
      IoSpd = '/fake/iospd.exe'; IoSpdVersion = '0.1.0'; DiskSpd = $DiskSpd; Elevated = $Elevated; WorkDir = $Dir
      WorkFreeBytes = $FreeBytes; DataFile = $data; RunSeconds = 3; SpareDisk = $SpareDisk
    }
  }
  function script:New-Target {
    param([string] $Name = 'vol')
    $scratch = Join-Path $TestDrive $Name
    $null = New-Item -ItemType Directory -Path $scratch -Force
    [pscustomobject]@{ Root = 'D:\'; FileSystem = 'ReFS'; Kind = 'local'; IsWork = $false; Scratch = $scratch }
  }
}

Describe 'windows-selfcheck.ps1 as a file' {
  It 'parses without errors and starts with the SPDX line' {
    $errors = $null
    $null = [Management.Automation.Language.Parser]::ParseFile($script:selfCheck, [ref]$null, [ref]$errors)
    @($errors).Count | Should -Be 0
    (Get-Content -LiteralPath $script:selfCheck -TotalCount 1) | Should -Be '# SPDX-License-Identifier: MIT'
  }
  It 'has help with a synopsis, every parameter and examples' {
    $help = Get-Help $script:selfCheck -Full
    $help.Synopsis | Should -Match 'real Windows host'
    $names = @($help.parameters.parameter | ForEach-Object name)
    foreach ($p in 'ScratchPath', 'JsonPath', 'IoSpdPath', 'DiskSpdPath', 'Volume', 'SmbPath', 'CsvPath', 'SpareDisk', 'ConfirmSpareDiskOverwrite', 'RunSeconds') {
      $names | Should -Contain $p
    }
    @($help.examples.example).Count | Should -BeGreaterOrEqual 2
  }
  It 'compiles its P/Invoke layer and the Ctrl-C sender (C# for Add-Type)' {
    Initialize-SelfCheckNative
    $m = @([IoSpdSelfCheck.Native].GetMethods() | ForEach-Object Name)
    foreach ($n in 'GetLengthInfo', 'GetStorageInfo', 'GetTimerResolution', 'GetPrivilegeState') { $m | Should -Contain $n }
    $text = $script:SelfCheckCtrlCSender.Replace('__PID__', '1').Replace('__COUNT__', '2').Replace('__GAP__', '500')
    $errors = $null
    $null = [Management.Automation.Language.Parser]::ParseInput($text, [ref]$null, [ref]$errors)
    @($errors).Count | Should -Be 0
    $text | Should -Match 'AttachConsole\(1\)'
    $text | Should -Match 'i -lt 2'
  }
  It 'keeps the expected iospd messages and thresholds in one table' {
    foreach ($k in 'LargePagesRefused', 'CreateByValidData', 'CreateByWriting', 'PriorityRefused', 'RawWriteRefused', 'PacingMaxCv', 'DiskSpdLatencyRatio') {
      $script:SelfCheckExpect.ContainsKey($k) | Should -BeTrue
    }
  }
  It 'refuses to run off Windows with exit code 3 and says why' {
    $pwsh = (Get-Command pwsh -CommandType Application | Select-Object -First 1).Source
    $out = & $pwsh -NoProfile -NonInteractive -File $script:selfCheck -ScratchPath (Join-Path $TestDrive 'never') 2>&1
    $LASTEXITCODE | Should -Be 3 -Because ($out -join "`n")
    ($out -join "`n") | Should -Match 'checks a Windows host'
    Test-Path (Join-Path $TestDrive 'never') | Should -BeFalse
  }
}

Describe 'Test-SelfCheckFileLength' {
  BeforeEach { $script:ctx = New-Context; $script:tgt = New-Target -Name ("v" + [guid]::NewGuid().ToString('N').Substring(0, 6)) }
  It 'PASS when the ioctl is refused and iospd sees the file''s 1 MiB' {
    Mock Get-SelfCheckDiskLength { [pscustomobject]@{ Opened = $true; Answered = $false; Length = 0; Error = 1 } }
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml -FileSize 1MB) }
    $r = Test-SelfCheckFileLength -Context $script:ctx -Target $script:tgt
    $r.Check | Should -Be 'file-length D:\ (ReFS)'
    $r.Result | Should -Be 'PASS'
    $r.Detail | Should -Match 'does not answer IOCTL_DISK_GET_LENGTH_INFO \(error 1\)'
    $r.Data.IoctlAnswered | Should -BeFalse
    $r.Data.IoSpdFileSize | Should -Be 1048576
    (Get-Item (Join-Path $script:tgt.Scratch 'length.dat')).Length | Should -Be 1048576
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter {
      $FilePath -eq '/fake/iospd.exe' -and $ArgumentList -ccontains '-w0' -and $ArgumentList[-1] -like '*length.dat' -and $TimeoutSeconds -eq 61
    }
  }
  It 'PASS but says so when the file system answers the ioctl on a file handle' {
    Mock Get-SelfCheckDiskLength { [pscustomobject]@{ Opened = $true; Answered = $true; Length = 536870912000; Error = 0 } }
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml -FileSize 1MB) }
    $r = Test-SelfCheckFileLength -Context $script:ctx -Target $script:tgt
    $r.Result | Should -Be 'PASS'
    $r.Detail | Should -Match 'ANSWERS IOCTL_DISK_GET_LENGTH_INFO \(536870912000 bytes\)'
    $r.Data.IoctlLength | Should -Be 536870912000
  }
  It 'FAIL when iospd takes the file for the volume' {
    Mock Get-SelfCheckDiskLength { [pscustomobject]@{ Opened = $true; Answered = $true; Length = 536870912000; Error = 0 } }
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml -FileSize 536870912000) }
    $r = Test-SelfCheckFileLength -Context $script:ctx -Target $script:tgt
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match 'took the 1 MiB file for 536870912000 bytes'
  }
  It 'FAIL with iospd''s message when the run fails' {
    Mock Get-SelfCheckDiskLength { [pscustomobject]@{ Opened = $true; Answered = $false; Length = 0; Error = 1 } }
    Mock Invoke-SelfCheckProcess { New-FakeRun -ExitCode 1 -StdErr "error: cannot open 'x'`n  (error 21)" }
    $r = Test-SelfCheckFileLength -Context $script:ctx -Target $script:tgt
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match "exit 1\): error: cannot open 'x' \(error 21\)"
  }
}

Describe 'Test-SelfCheckSectors' {
  BeforeEach { $script:ctx = New-Context; $script:tgt = New-Target -Name ("s" + [guid]::NewGuid().ToString('N').Substring(0, 6)) }
  It 'runs -Su -Z1M with a block of <Block> for logical <Logical> / alignment <Align>' -ForEach @(
    @{ Logical = 512; Align = 512; Block = 4096; Note = $false }
    @{ Logical = 4096; Align = 4096; Block = 4096; Note = $false }
    @{ Logical = 4096; Align = 8192; Block = 8192; Note = $true }
  ) {
    $mockLogical = $Logical; $mockAlign = $Align
    Mock Get-SelfCheckStorageInfo { [pscustomobject]@{ LogicalSector = $mockLogical; PhysicalSector = 4096; PhysicalSectorPerformance = 4096; FileSystemSector = 4096; AlignmentBytes = $mockAlign; StorageError = 0; AlignmentError = 0 } }
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml) }
    $r = Test-SelfCheckSectors -Context $script:ctx -Target $script:tgt
    $r.Result | Should -Be 'PASS'
    $r.Data.Block | Should -Be $Block
    $r.Detail | Should -Match "logical $Logical, physical 4096, buffer alignment $Align"
    ($r.Detail -match 'alignment larger than the logical sector') | Should -Be $Note
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter {
      ($ArgumentList -join ' ') -match "^-b$Block -d1 -W0 -C0 -w50 -Su -Z1M "
    }
  }
  It 'FAIL with the refusal when iospd will not run unbuffered with -Z' {
    Mock Get-SelfCheckStorageInfo { [pscustomobject]@{ LogicalSector = 4096; PhysicalSector = 4096; PhysicalSectorPerformance = 4096; FileSystemSector = 4096; AlignmentBytes = 4096; StorageError = 0; AlignmentError = 0 } }
    Mock Invoke-SelfCheckProcess { New-FakeRun -ExitCode 3 -StdErr 'error: -Z buffer is not aligned to 4096 bytes' }
    $r = Test-SelfCheckSectors -Context $script:ctx -Target $script:tgt
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match 'refused \(exit 3\): error: -Z buffer is not aligned to 4096 bytes'
    $r.Data.LogicalSector | Should -Be 4096
  }
}

Describe 'Test-SelfCheckLongPath' {
  It 'builds a path of more than 260 characters from folders of at most 60' {
    $p = Get-SelfCheckLongPathName -Root 'C:\Users\a\AppData\Local\Temp\iospd-selfcheck\run-1'
    $p.Length | Should -BeGreaterThan 300
    foreach ($part in ($p -split '[\\/]')) { $part.Length | Should -BeLessOrEqual 60 }
  }
  It 'PASS when iospd -c exits 0 and the 1 MiB file is there' {
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml) }
    Mock Get-SelfCheckFileLength { [int64]1048576 }
    $r = Test-SelfCheckLongPath -Context (New-Context)
    $r.Result | Should -Be 'PASS'
    $r.Data.Length | Should -BeGreaterThan 260
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList[0] -eq '-c1M' -and $ArgumentList[-1].Length -gt 260 }
  }
  It 'relative: gives iospd ./up/../ plus the path below the scratch folder, run from there' {
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml) }
    Mock Get-SelfCheckFileLength { [int64]1048576 }
    $ctx = New-Context
    $r = Test-SelfCheckLongPath -Context $ctx -Relative
    $r.Check | Should -Be 'long-path relative'
    $r.Result | Should -Be 'PASS'
    $sep = [IO.Path]::DirectorySeparatorChar
    $r.Data.Given | Should -BeLike ".${sep}up${sep}..${sep}rel${sep}long${sep}segment01-*long-path.dat"
    $r.Data.Path | Should -Be ([IO.Path]::GetFullPath([IO.Path]::Combine($ctx.WorkDir, $r.Data.Given)))
    $r.Data.Length | Should -BeGreaterThan 260
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { $WorkingDirectory -eq $ctx.WorkDir -and $ArgumentList[-1] -eq $r.Data.Given }
  }
  It 'on a target (the SMB share): a long path in that target''s scratch folder' {
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml) }
    Mock Get-SelfCheckFileLength { [int64]1048576 }
    $t = [pscustomobject]@{ Root = '\\fs1\bench'; FileSystem = 'SMB'; Kind = 'smb'; IsWork = $false; Scratch = (Join-Path $TestDrive 'smb-scratch') }
    $r = Test-SelfCheckLongPath -Context (New-Context) -Target $t
    $r.Check | Should -Be 'long-path \\fs1\bench'
    $r.Result | Should -Be 'PASS'
    $r.Data.Path | Should -BeLike "$($t.Scratch)*long-path.dat"
    $r.Data.Length | Should -BeGreaterThan 300
  }
  It 'FAIL when iospd exits 0 but no file was made' {
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml) }
    Mock Get-SelfCheckFileLength { $null }
    $r = Test-SelfCheckLongPath -Context (New-Context)
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match 'holds no file'
  }
  It 'FAIL with the message when iospd fails' {
    Mock Invoke-SelfCheckProcess { New-FakeRun -ExitCode 1 -StdErr 'error: cannot create target (error 206: The filename or extension is too long.)' }
    Mock Get-SelfCheckFileLength { $null }
    $r = Test-SelfCheckLongPath -Context (New-Context)
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match 'error 206'
  }
}

Describe 'Test-SelfCheckLargePages' {
  It '<Want> when the privilege is <State> and iospd -l exits <Exit>: <Why>' -ForEach @(
    @{ State = 'Absent'; Exit = 1; Err = "error: -l: large pages need the 'Lock pages in memory' privilege (SeLockMemoryPrivilege)"; Want = 'PASS'; Why = 'refused, naming it' }
    @{ State = 'Absent'; Exit = 0; Err = 'WARNING: large pages are not used: no SeLockMemoryPrivilege'; Want = 'PASS'; Why = 'ran and warned' }
    @{ State = 'Absent'; Exit = 0; Err = ''; Want = 'FAIL'; Why = 'silent fallback' }
    @{ State = 'Absent'; Exit = 1; Err = 'error: out of memory'; Want = 'FAIL'; Why = 'unclear refusal' }
    @{ State = 'Disabled'; Exit = 0; Err = ''; Want = 'PASS'; Why = 'held, ran' }
    @{ State = 'Enabled'; Exit = 1; Err = 'error: VirtualAlloc failed (1450)'; Want = 'FAIL'; Why = 'held, failed' }
    @{ State = 'Unknown'; Exit = 0; Err = ''; Want = 'INFO'; Why = 'state unreadable' }
  ) {
    $mockState = $State; $mockExit = $Exit; $mockErr = $Err
    Mock Get-SelfCheckPrivilegeState { $mockState } -ParameterFilter { $Name -eq 'SeLockMemoryPrivilege' }
    Mock Invoke-SelfCheckProcess { New-FakeRun -ExitCode $mockExit -StdErr $mockErr -StdOut $(if ($mockExit -eq 0) { New-FakeXml -UseLargePages 'true' } else { '' }) }
    $r = Test-SelfCheckLargePages -Context (New-Context)
    $r.Check | Should -Be 'large-pages'
    $r.Result | Should -Be $Want
    $r.Data.SeLockMemoryPrivilege | Should -Be $State
    if ($Exit -eq 0) { $r.Data.UseLargePages | Should -Be 'true' }
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList[0] -eq '-l' }
  }
  It 'says "silently used small pages" for the fallback' {
    Mock Get-SelfCheckPrivilegeState { 'Absent' }
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml -UseLargePages 'true') }
    (Test-SelfCheckLargePages -Context (New-Context)).Detail | Should -Match 'silently used small pages'
  }
}

Describe 'Get-SelfCheckReaders' {
  It 'lists only Allow rules with read rights of untrusted SIDs' {
    $acl = [pscustomobject]@{ Owner = 'S-1-5-21-1-2-3-1001'; Rules = @(
        [pscustomobject]@{ Sid = 'S-1-5-18'; Rights = 2032127; Type = 'Allow' }           # SYSTEM, full
        [pscustomobject]@{ Sid = 'S-1-5-32-544'; Rights = 2032127; Type = 'Allow' }       # Administrators
        [pscustomobject]@{ Sid = 'S-1-5-21-1-2-3-1001'; Rights = 2032127; Type = 'Allow' } # owner
        [pscustomobject]@{ Sid = 'S-1-5-32-545'; Rights = 1179817; Type = 'Allow' }       # Users, read & execute
        [pscustomobject]@{ Sid = 'S-1-5-11'; Rights = 0x2; Type = 'Allow' }               # write only
        [pscustomobject]@{ Sid = 'S-1-1-0'; Rights = 1179817; Type = 'Deny' }             # deny
        [pscustomobject]@{ Sid = 'S-1-5-21-9-9-9-500'; Rights = 0x80000000; Type = 'Allow' } # GENERIC_READ
      )
    }
    $r = Get-SelfCheckReaders -Acl $acl
    @($r) | Should -Be @('S-1-5-32-545', 'S-1-5-21-9-9-9-500')
  }
}

Describe 'Test-SelfCheckValidData' {
  BeforeEach {
    $script:vdDir = Join-Path $TestDrive ([guid]::NewGuid().ToString('N'))
    $null = New-Item -ItemType Directory -Path $script:vdDir
    Mock Get-SelfCheckPrivilegeState { 'Disabled' } -ParameterFilter { $Name -eq 'SeManageVolumePrivilege' }
    Mock Get-SelfCheckCurrentSid { 'S-1-5-21-1-2-3-1001' }
    Mock Resolve-SelfCheckSidName { if ($Sid -eq 'S-1-5-32-545') { 'BUILTIN\Users' } else { $Sid } }
    $script:ownerOnly = [pscustomobject]@{ Owner = 'S-1-5-32-544'; Sddl = 'O:BAD:P(A;;FA;;;SY)(A;;FA;;;BA)'; Rules = @(
        [pscustomobject]@{ Sid = 'S-1-5-18'; Rights = 2032127; Type = 'Allow' }
        [pscustomobject]@{ Sid = 'S-1-5-32-544'; Rights = 2032127; Type = 'Allow' }
        [pscustomobject]@{ Sid = 'S-1-5-21-1-2-3-1001'; Rights = 2032127; Type = 'Allow' }) }
    $script:inherited = [pscustomobject]@{ Owner = 'S-1-5-32-544'; Sddl = 'O:BAD:AI(A;ID;FA;;;BA)(A;ID;0x1200a9;;;BU)'; Rules = @(
        [pscustomobject]@{ Sid = 'S-1-5-32-544'; Rights = 2032127; Type = 'Allow' }
        [pscustomobject]@{ Sid = 'S-1-5-32-545'; Rights = 1179817; Type = 'Allow' }) }
    # iospd "creates" the file so the check can remove it.
    $script:fakeCreate = { param($err) Set-Content -LiteralPath (Join-Path $script:vdDir 'valid-data.dat') -Value 'x'; New-FakeRun -StdErr $err -StdOut (New-FakeXml) }
  }
  It 'SKIP without elevation, running nothing' {
    Mock Invoke-SelfCheckProcess { throw 'must not run' }
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $script:vdDir -Elevated $false)
    $r.Result | Should -Be 'SKIP'
    $r.Detail | Should -Match 'elevated'
    Should -Invoke Invoke-SelfCheckProcess -Times 0
  }
  It 'SKIP when there is no room for the 1 GiB file' {
    Mock Invoke-SelfCheckProcess { throw 'must not run' }
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $script:vdDir -FreeBytes ([int64]1GB))
    $r.Result | Should -Be 'SKIP'
    $r.Detail | Should -Match 'needs 2048 MiB free'
  }
  It 'PASS for SetFileValidData with an owner-only DACL, and removes the file' {
    Mock Invoke-SelfCheckProcess { & $script:fakeCreate "NOTE: 'x' was created with SetFileValidData: its 1073741824 bytes were not written and hold what the volume held there before, so only its owner and Administrators may open it" }
    Mock Get-SelfCheckAclRules { $script:ownerOnly }
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $script:vdDir)
    $r.Result | Should -Be 'PASS'
    $r.Data.CreationPath | Should -Be 'SetFileValidData'
    @($r.Data.OtherReaders).Count | Should -Be 0
    Test-Path (Join-Path $script:vdDir 'valid-data.dat') | Should -BeFalse
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList[0] -eq '-c1073741824' -and $TimeoutSeconds -eq 180 }
  }
  It 'FAIL for SetFileValidData with the parent''s ACL, naming who can read' {
    Mock Invoke-SelfCheckProcess { & $script:fakeCreate "NOTE: 'x' was created with SetFileValidData: its 1073741824 bytes were not written" }
    Mock Get-SelfCheckAclRules { $script:inherited }
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $script:vdDir)
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match 'readable by: BUILTIN\\Users'
    $r.Data.Sddl | Should -Match 'BU\)$'
  }
  It 'PASS when the privilege is absent and every block was written' {
    Mock Get-SelfCheckPrivilegeState { 'Absent' } -ParameterFilter { $Name -eq 'SeManageVolumePrivilege' }
    Mock Invoke-SelfCheckProcess { & $script:fakeCreate "WARNING: Could not set privileges for setting valid file size; will use a slower method of preparing the file`nNOTE: 'x' was created by writing every block (unbuffered, up to 4 MiB in flight, flushed)" }
    Mock Get-SelfCheckAclRules { $script:inherited }
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $script:vdDir)
    $r.Result | Should -Be 'PASS'
    $r.Data.CreationPath | Should -Be 'written'
    $r.Detail | Should -Match 'harmless'
  }
  It 'written (not SetFileValidData) when iospd fell back after naming SetFileValidData' {
    Mock Get-SelfCheckPrivilegeState { 'Enabled' } -ParameterFilter { $Name -eq 'SeManageVolumePrivilege' }
    Mock Invoke-SelfCheckProcess { & $script:fakeCreate "NOTE: 'x' cannot keep an owner- and Administrators-only ACL (error code: 1), so every block is written rather than SetFileValidData used, which would leave old disk contents readable in it`nNOTE: 'x' was created by writing every block (unbuffered, up to 4 MiB in flight, flushed)" }
    Mock Get-SelfCheckAclRules { $script:inherited }
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $script:vdDir)
    $r.Result | Should -Be 'INFO'
    $r.Data.CreationPath | Should -Be 'written'
    $r.Detail | Should -Match 'harmless'
  }
  It 'FAIL when iospd does not say which creation path ran' {
    Mock Invoke-SelfCheckProcess { & $script:fakeCreate '' }
    Mock Get-SelfCheckAclRules { $script:ownerOnly }
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $script:vdDir)
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match 'did not say which creation path ran'
  }
}

Describe 'Test-SelfCheckTimerResolution' {
  It 'INFO with the three resolutions in ms' {
    Mock Get-SelfCheckTimerResolution { [pscustomobject]@{ CoarsestMs = 15.625; FinestMs = 0.5; CurrentMs = 15.625 } }
    $r = Test-SelfCheckTimerResolution
    $r.Result | Should -Be 'INFO'
    $r.Detail | Should -Match '^current 15\.625 ms, finest 0\.5 ms, coarsest 15\.625 ms'
    $r.Data.CurrentMs | Should -Be 15.625
  }
  It 'SKIP when the call fails' {
    Mock Get-SelfCheckTimerResolution { $null }
    (Test-SelfCheckTimerResolution).Result | Should -Be 'SKIP'
  }
}

Describe 'Pacing (-g with -D10)' {
  It 'Measure-SelfCheckPacing drops the first and last interval' {
    $m = Measure-SelfCheckPacing -Totals @(5, 1000, 1000, 1000, 7) -TargetIops 1000
    $m.Intervals | Should -Be 3
    $m.Mean | Should -Be 1000
    $m.Cv | Should -Be 0
    $m.RateError | Should -Be 0
  }
  It 'measures a 15.6 ms timer pattern as bursty' {
    # 1000 IOPS with a wake-up every ~15.6 ms in 10 ms intervals: 0 or ~1560.
    $m = Measure-SelfCheckPacing -Totals (@(0) + (1..40 | ForEach-Object { if ($_ % 3 -eq 0) { 0 } else { 1500 } }) + @(0)) -TargetIops 1000
    $m.Cv | Should -BeGreaterThan 0.5
    $m.EmptyShare | Should -BeGreaterThan 0.3
  }
  It '<Want> for <Name>' -ForEach @(
    @{ Name = 'even intervals'; Buckets = @(1000) * 50; Want = 'PASS'; Match = '^even: mean 1000 IOPS over 48 intervals of 10 ms, CV 0,' }
    @{ Name = 'bursts'; Buckets = @(0, 2000) * 25; Want = 'FAIL'; Match = '^bursty: .*CV 1, 50 % empty' }
    @{ Name = 'a rate 40 % low'; Buckets = @(600) * 50; Want = 'FAIL'; Match = '^rate off by 40 %' }
    @{ Name = 'no -D output'; Buckets = @(); Want = 'FAIL'; Match = 'had 0 usable intervals' }
  ) {
    $mockBuckets = $Buckets
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml -Buckets $mockBuckets) }
    $r = Test-SelfCheckPacing -Context (New-Context)
    $r.Check | Should -Be 'pacing -g1000i'
    $r.Result | Should -Be $Want
    $r.Detail | Should -Match $Match
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { ($ArgumentList -join ' ') -match '^-b4K -g1000i -D10 -d3 ' -and $TimeoutSeconds -eq 63 }
  }
  It 'FAIL when the run fails' {
    Mock Invoke-SelfCheckProcess { New-FakeRun -ExitCode 3 -StdErr 'error: bad -g' }
    (Test-SelfCheckPacing -Context (New-Context)).Detail | Should -Match 'exit 3\): error: bad -g'
  }
}

Describe 'Test-SelfCheckPriority' {
  It '<Want> for <Name>' -ForEach @(
    @{ Name = 'a run with IOPriority 1'; Exit = 0; Prio = 1; Err = ''; Want = 'PASS' }
    @{ Name = 'a run that dropped the hint'; Exit = 0; Prio = 3; Err = ''; Want = 'FAIL' }
    @{ Name = 'a clear refusal'; Exit = 1; Prio = 1; Err = 'error: -I1: the I/O priority hint did not take effect (error 87)'; Want = 'INFO' }
    @{ Name = 'an unclear failure'; Exit = 1; Prio = 1; Err = 'error: access violation'; Want = 'FAIL' }
  ) {
    $mockExit = $Exit; $mockPrio = $Prio; $mockErr = $Err
    Mock Invoke-SelfCheckProcess { New-FakeRun -ExitCode $mockExit -StdErr $mockErr -StdOut $(if ($mockExit -eq 0) { New-FakeXml -IOPriority $mockPrio } else { '' }) }
    $r = Test-SelfCheckPriority -Context (New-Context)
    $r.Result | Should -Be $Want
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList[0] -eq '-I1' }
  }
}

Describe 'Test-SelfCheckCtrlC' {
  BeforeEach {
    $script:proc = [pscustomobject]@{ Id = 4242; ExitCode = 1; HasExited = $false }
    Mock Start-SelfCheckConsoleProcess { $script:proc }
    Mock Stop-SelfCheckProcess { }
  }
  It 'PASS when iospd ends after two Ctrl-C events' {
    Mock Wait-SelfCheckProcessExit { $TimeoutSeconds -ne 2 }   # still running at 2 s, ended after the events
    Mock Send-SelfCheckCtrlC { 0 }
    $r = Test-SelfCheckCtrlC -Context (New-Context)
    $r.Result | Should -Be 'PASS'
    $r.Detail | Should -Be 'iospd ended (exit 1) after 2 Ctrl-C events'
    Should -Invoke Send-SelfCheckCtrlC -Times 1 -Exactly -ParameterFilter { $ProcessId -eq 4242 -and $Count -eq 2 -and $GapMilliseconds -eq 500 }
    Should -Invoke Start-SelfCheckConsoleProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList -contains '-d60' }
  }
  It 'FAIL and kill when iospd keeps running' {
    Mock Wait-SelfCheckProcessExit { $false }
    Mock Send-SelfCheckCtrlC { 0 }
    $r = Test-SelfCheckCtrlC -Context (New-Context)
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match 'still ran 15 s after 2 Ctrl-C events'
    Should -Invoke Stop-SelfCheckProcess -Times 1 -Exactly
  }
  It 'SKIP when the sender cannot attach to the console' {
    Mock Wait-SelfCheckProcessExit { $false }
    Mock Send-SelfCheckCtrlC { 10 }
    $r = Test-SelfCheckCtrlC -Context (New-Context)
    $r.Result | Should -Be 'SKIP'
    $r.Detail | Should -Match 'could not attach'
  }
  It 'FAIL when the 60 s run ends before any Ctrl-C' {
    Mock Wait-SelfCheckProcessExit { $true }
    Mock Send-SelfCheckCtrlC { throw 'must not be sent' }
    $r = Test-SelfCheckCtrlC -Context (New-Context)
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match 'ended by itself'
  }
}

Describe 'Test-SelfCheckCacheMode and the DISKSPD comparison' {
  It 'without diskspd.exe: one iospd run, PASS, no comparison' {
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml -IOs 30000 -Seconds 3 -AvgMs 0.25 -P99Ms 1.5) }
    $r = Test-SelfCheckCacheMode -Context (New-Context) -Mode '-Sh'
    $r.Check | Should -Be 'cache -Sh'
    $r.Result | Should -Be 'PASS'
    $r.Detail | Should -Be 'iospd 10000 IOPS, avg 0.25 ms, p99 1.5 ms; no diskspd.exe on PATH, no comparison'
    $r.Data.IoSpd.IOPS | Should -Be 10000
    $r.Data.DiskSpd | Should -BeNullOrEmpty
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly
  }
  It 'with diskspd.exe: the same switches for both, and both numbers' {
    $script:seen = @{}
    Mock Invoke-SelfCheckProcess {
      $script:seen[$FilePath] = $ArgumentList -join ' '
      if ($FilePath -like '*diskspd*') { New-FakeRun -StdOut (New-FakeXml -IOs 36000 -Seconds 3 -AvgMs 0.2 -P99Ms 1.0 -Version '2.2.0') }
      else { New-FakeRun -StdOut (New-FakeXml -IOs 30000 -Seconds 3 -AvgMs 0.25 -P99Ms 1.5) }
    }
    $r = Test-SelfCheckCacheMode -Context (New-Context -DiskSpd 'C:\tools\diskspd.exe') -Mode '-Sb'
    $r.Result | Should -Be 'PASS'
    $r.Detail | Should -Be 'iospd 10000 IOPS, avg 0.25 ms, p99 1.5 ms; DISKSPD 12000 IOPS, avg 0.2 ms, p99 1 ms'
    $r.Data.DiskSpd.IOPS | Should -Be 12000
    $r.Data.DiskSpd.Version | Should -Be '2.2.0'
    $r.Data.LatencyRatio | Should -Be 1.25
    $script:seen['C:\tools\diskspd.exe'] | Should -BeExactly $script:seen['/fake/iospd.exe']
    $script:seen['/fake/iospd.exe'] | Should -Match '^-b4K -r -w0 -t1 -o8 -d3 -W1 -C0 -Sb -L -Rxml .*data\.dat$'
  }
  It 'FAIL when iospd''s latency is more than twice DISKSPD''s' {
    Mock Invoke-SelfCheckProcess {
      if ($FilePath -like '*diskspd*') { New-FakeRun -StdOut (New-FakeXml -AvgMs 0.1) } else { New-FakeRun -StdOut (New-FakeXml -AvgMs 0.3) }
    }
    $r = Test-SelfCheckCacheMode -Context (New-Context -DiskSpd 'C:\tools\diskspd.exe') -Mode '-Sb'
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match "iospd's average latency is 3x DISKSPD's"
  }
  It 'INFO when DISKSPD itself fails' {
    Mock Invoke-SelfCheckProcess {
      if ($FilePath -like '*diskspd*') { New-FakeRun -ExitCode 1 -StdErr 'The file is too small' } else { New-FakeRun -StdOut (New-FakeXml) }
    }
    $r = Test-SelfCheckCacheMode -Context (New-Context -DiskSpd 'C:\tools\diskspd.exe') -Mode '-Su'
    $r.Result | Should -Be 'INFO'
    $r.Detail | Should -Match 'DISKSPD failed \(exit 1\): The file is too small'
  }
  It 'FAIL when iospd fails' {
    Mock Invoke-SelfCheckProcess { New-FakeRun -ExitCode 1 -StdErr 'error: bad' }
    (Test-SelfCheckCacheMode -Context (New-Context) -Mode '-Sw').Result | Should -Be 'FAIL'
  }
  It 'Resolve-SelfCheckDiskSpd finds diskspd.exe on PATH or returns nothing' {
    Mock Get-Command { [pscustomobject]@{ Source = 'C:\bin\diskspd.exe' } } -ParameterFilter { $Name -eq 'diskspd.exe' }
    Resolve-SelfCheckDiskSpd | Should -Be 'C:\bin\diskspd.exe'
    Mock Get-Command { } -ParameterFilter { $Name -eq 'diskspd.exe' }
    Resolve-SelfCheckDiskSpd | Should -BeNullOrEmpty
    { Resolve-SelfCheckDiskSpd -Path (Join-Path $TestDrive 'nope.exe') } | Should -Throw '*-DiskSpdPath*does not exist*'
  }
}

Describe 'Spare disk' {
  It 'refuses <Name>' -ForEach @(
    @{ Name = 'without the confirmation switch'; Confirm = $false; Disk = @{ PartitionCount = 0 }; Msg = '*add -ConfirmSpareDiskOverwrite*' }
    @{ Name = 'a disk with partitions'; Confirm = $true; Disk = @{ PartitionCount = 2 }; Msg = '*has 2 partition(s); refused*' }
    @{ Name = 'the boot disk'; Confirm = $true; Disk = @{ PartitionCount = 0; IsBoot = $true }; Msg = '*system or boot disk; refused*' }
  ) {
    $mockDisk = $Disk
    Mock Get-SelfCheckDiskInfo {
      $o = [pscustomobject]@{ Number = 3; FriendlyName = 'Msft Virtual Disk'; Size = 10GB; PartitionStyle = 'RAW'; PartitionCount = 0; IsSystem = $false; IsBoot = $false; IsOffline = $false }
      foreach ($k in $mockDisk.Keys) { $o.$k = $mockDisk[$k] }
      $o
    }
    { Assert-SelfCheckSpareDisk -Number 3 -Confirmed:$Confirm } | Should -Throw $Msg
  }
  It 'accepts an empty, confirmed disk' {
    Mock Get-SelfCheckDiskInfo { [pscustomobject]@{ Number = 3; FriendlyName = 'x'; Size = 10GB; PartitionStyle = 'RAW'; PartitionCount = 0; IsSystem = $false; IsBoot = $false; IsOffline = $false } }
    (Assert-SelfCheckSpareDisk -Number 3 -Confirmed).Size | Should -Be 10GB
  }
  It 'reads #N at its full size and sees the raw-write guard refuse once data is on it' {
    $disk = [pscustomobject]@{ Number = 3; Size = [int64]10GB }
    Mock Invoke-SelfCheckProcess {
      if ($ArgumentList -ccontains '-w0') { return New-FakeRun -StdOut (New-FakeXml -FileSize 10GB) }
      if ($ArgumentList -contains '--allow-raw-write') { return New-FakeRun -StdOut (New-FakeXml -FileSize 10GB) }
      New-FakeRun -ExitCode 3 -StdErr "error: '#3' holds data (non-zero bytes in its first MiB); add --allow-raw-write to write to it anyway"
    }
    $r = @(Test-SelfCheckSpareDisk -Context (New-Context -SpareDisk $disk))
    $r.Count | Should -Be 2
    $r[0].Check | Should -Be 'spare-disk #3 read'
    $r[0].Result | Should -Be 'PASS'
    $r[0].Data.IoSpdSize | Should -Be 10737418240
    $r[1].Check | Should -Be 'spare-disk #3 raw-guard'
    $r[1].Result | Should -Be 'PASS'
    $r[1].Data.GuardExitCode | Should -Be 3
    Should -Invoke Invoke-SelfCheckProcess -Times 3 -Exactly -ParameterFilter { $ArgumentList[-1] -eq '#3' }
  }
  It 'FAIL when the guard lets the write through, or sees the wrong size' {
    $disk = [pscustomobject]@{ Number = 3; Size = [int64]10GB }
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml -FileSize 1MB) }
    $r = @(Test-SelfCheckSpareDisk -Context (New-Context -SpareDisk $disk))
    $r[0].Result | Should -Be 'FAIL'
    $r[0].Detail | Should -Be 'iospd saw 1048576 bytes; Get-Disk says 10737418240'
    $r[1].Result | Should -Be 'FAIL'
    $r[1].Detail | Should -Match 'without --allow-raw-write'
  }
}

Describe 'Table and JSON' {
  It 'prints one aligned row per check and wraps long details under the detail column' {
    $rs = @(
      (New-SelfCheckResult -Check 'host' -Result INFO -Detail 'Windows Server 2022')
      (New-SelfCheckResult -Check 'cache -Sb' -Result FAIL -Detail (('word ' * 40).Trim()))
    )
    $lines = (Format-SelfCheckTable -Results $rs -Width 80) -split [Environment]::NewLine
    $lines[0] | Should -Be 'Check      Result  Detail'
    $lines[1] | Should -Be '---------  ------  ------'
    $lines[2] | Should -Be 'host       INFO    Windows Server 2022'
    $lines[3] | Should -Match '^cache -Sb  FAIL    word( word)+$'
    $lines[4] | Should -Match '^ {19}word( word)+$'
    ($lines[3..($lines.Count - 1)] -join ' ' -split '\s+' | Where-Object { $_ -eq 'word' }).Count | Should -Be 40
  }
}

Describe 'Invoke-WindowsSelfCheck (the whole run, checks mocked)' {
  BeforeEach {
    $script:scratch = Join-Path $TestDrive ('s' + [guid]::NewGuid().ToString('N').Substring(0, 8))
    $script:otherVol = Join-Path $TestDrive ('o' + [guid]::NewGuid().ToString('N').Substring(0, 8))
    $null = New-Item -ItemType Directory -Path $script:otherVol
    Mock Test-SelfCheckWindows { $true }
    Mock Test-SelfCheckElevated { $false }
    Mock Resolve-SelfCheckIoSpd { '/fake/iospd.exe' }
    Mock Resolve-SelfCheckDiskSpd { $null }
    Mock Get-SelfCheckToolVersion { '0.1.0' }
    Mock Get-SelfCheckVolumeRoot { '/' }
    Mock Get-SelfCheckVolumeList {
      [pscustomobject]@{ Root = '/'; FileSystem = 'NTFS'; Kind = 'local'; FreeBytes = 1TB }
      [pscustomobject]@{ Root = $script:otherVol; FileSystem = 'exFAT'; Kind = 'local'; FreeBytes = 1TB }
    }
    Mock Get-SelfCheckCsvList { }
    Mock Invoke-SelfCheckProcess { throw 'no process may run in this test' }
    Mock Test-SelfCheckHost { New-SelfCheckResult -Check 'host' -Result INFO -Detail 'test host' }
    Mock Test-SelfCheckFileLength {
      Set-Content -LiteralPath (Join-Path $Target.Scratch 'length.dat') -Value 'x'
      New-SelfCheckResult -Check "file-length $($Target.Root)" -Result PASS -Detail 'ok' -Data ([ordered]@{ IoctlAnswered = $false; IoSpdFileSize = 1048576 })
    }
    Mock Test-SelfCheckSectors { New-SelfCheckResult -Check "sectors $($Target.Root)" -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckLongPath {
      $name = if ($Target) { "long-path $($Target.Root)" } elseif ($Relative) { 'long-path relative' } else { 'long-path' }
      New-SelfCheckResult -Check $name -Result PASS -Detail 'ok'
    }
    Mock Test-SelfCheckLargePages { New-SelfCheckResult -Check 'large-pages' -Result FAIL -Detail 'silently used small pages' }
    Mock Test-SelfCheckValidData { New-SelfCheckResult -Check 'valid-data' -Result SKIP -Detail 'needs an elevated prompt' }
    Mock Test-SelfCheckTimerResolution { New-SelfCheckResult -Check 'timer-resolution' -Result INFO -Detail 'current 15.625 ms' -Data ([ordered]@{ CurrentMs = 15.625 }) }
    Mock Test-SelfCheckPacing { throw 'boom' }
    Mock Test-SelfCheckPriority { New-SelfCheckResult -Check 'priority -I1' -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckCtrlC { New-SelfCheckResult -Check 'ctrl-c twice' -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckCacheMode { New-SelfCheckResult -Check "cache $Mode" -Result PASS -Detail 'ok' }
  }

  It 'runs every check, writes the JSON report, exits 1 on a FAIL and removes every scratch folder' {
    $o = Invoke-WindowsSelfCheck -ScratchPath $script:scratch -RunSeconds 2
    $o.ExitCode | Should -Be 1
    $o.JsonPath | Should -BeLike (Join-Path $script:scratch 'iospd-selfcheck-*.json')
    # Only the report stays; the run folder and the other volume's folder are gone.
    @(Get-ChildItem -LiteralPath $script:scratch -Force | ForEach-Object Name) | Should -Be @(Split-Path -Leaf $o.JsonPath)
    @(Get-ChildItem -LiteralPath $script:otherVol -Force).Count | Should -Be 0
    Should -Invoke Test-SelfCheckFileLength -Times 2 -Exactly
    Should -Invoke Test-SelfCheckFileLength -Times 1 -Exactly -ParameterFilter { $Target.Scratch -like (Join-Path $script:otherVol 'iospd-selfcheck-*') }
    Should -Invoke Test-SelfCheckCacheMode -Times 4 -Exactly
    Should -Invoke Test-SelfCheckPacing -Times 1 -Exactly -ParameterFilter { $Context.RunSeconds -eq 2 -and $Context.IoSpd -eq '/fake/iospd.exe' }

    $j = Get-Content -LiteralPath $o.JsonPath -Raw | ConvertFrom-Json
    $j.Tool | Should -Be 'iospd windows-selfcheck'
    $j.SchemaVersion | Should -Be 1
    $j.Parameters.RunSeconds | Should -Be 2
    $j.Expectations.PacingMaxCv | Should -Be 0.5
    $checks = @($j.Results | ForEach-Object Check)
    $checks | Should -Be @('host', 'file-length /', 'sectors /', "file-length $script:otherVol", "sectors $script:otherVol",
      'long-path', 'long-path relative', 'large-pages', 'valid-data', 'timer-resolution', 'pacing', 'priority -I1', 'ctrl-c twice',
      'cache -Sb', 'cache -Su', 'cache -Sh', 'cache -Sw')
    $j.Summary.PASS | Should -Be 12
    $j.Summary.FAIL | Should -Be 2
    $j.Summary.INFO | Should -Be 2
    $j.Summary.SKIP | Should -Be 1
    ($j.Results | Where-Object Check -eq 'pacing').Detail | Should -Be 'the check itself failed: boom'
    ($j.Results | Where-Object Check -eq 'timer-resolution').Data.CurrentMs | Should -Be 15.625
    ($j.Results | Where-Object Check -eq 'file-length /').Data.IoSpdFileSize | Should -Be 1048576
    $o.Table | Should -Match '(?m)^large-pages\s+FAIL\s+silently used small pages$'
  }
  It 'writes the report where -JsonPath says and exits 0 when nothing failed' {
    Mock Test-SelfCheckLargePages { New-SelfCheckResult -Check 'large-pages' -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckPacing { New-SelfCheckResult -Check 'pacing' -Result PASS -Detail 'ok' }
    $json = Join-Path $TestDrive 'reports/out.json'
    $o = Invoke-WindowsSelfCheck -ScratchPath $script:scratch -JsonPath $json -ScratchVolumeOnly -CsvPath @()
    $o.ExitCode | Should -Be 0
    $o.JsonPath | Should -Be $json
    $j = Get-Content -LiteralPath $json -Raw | ConvertFrom-Json
    $j.Summary.FAIL | Should -Be 0
    @($j.Results | Where-Object { $_.Check -like 'file-length*' }).Count | Should -Be 1
    @(Get-ChildItem -LiteralPath $script:scratch -Force).Count | Should -Be 0
  }
  It 'checks -SmbPath like a volume, with a long UNC path, and cleans its scratch folder there' {
    $share = Join-Path $TestDrive ('share' + [guid]::NewGuid().ToString('N').Substring(0, 6))
    $null = New-Item -ItemType Directory -Path $share
    $o = Invoke-WindowsSelfCheck -ScratchPath $script:scratch -ScratchVolumeOnly -CsvPath @() -SmbPath $share
    @($o.Results | Where-Object { $_.Check -in @("file-length $share (SMB)", "file-length $share", "sectors $share", "long-path $share") }).Count | Should -Be 3
    Should -Invoke Test-SelfCheckLongPath -Times 1 -Exactly -ParameterFilter { $Target.Kind -eq 'smb' -and $Target.Scratch -like (Join-Path $share 'iospd-selfcheck-*') }
    @(Get-ChildItem -LiteralPath $share -Force).Count | Should -Be 0
  }
  It 'leaves an existing scratch folder on a volume alone and says SKIP' {
    Mock New-SelfCheckScratchFolder -ParameterFilter { $Path -like "$script:otherVol*" } { throw "The scratch folder '$Path' already exists; it is left alone." }
    $o = Invoke-WindowsSelfCheck -ScratchPath $script:scratch
    $row = $o.Results | Where-Object { $_.Check -like "file-length $script:otherVol*" }
    $row.Result | Should -Be 'SKIP'
    $row.Detail | Should -Match 'already exists; it is left alone'
  }
  It 'exits 3 before touching anything when the spare disk is refused' {
    Mock Test-SelfCheckElevated { $true }
    Mock Get-SelfCheckDiskInfo { [pscustomobject]@{ Number = 1; FriendlyName = 'data'; Size = 1TB; PartitionStyle = 'GPT'; PartitionCount = 3; IsSystem = $false; IsBoot = $false; IsOffline = $false } }
    $o = Invoke-WindowsSelfCheck -ScratchPath $script:scratch -SpareDisk 1 -ConfirmSpareDiskOverwrite
    $o.ExitCode | Should -Be 3
    $o.Error | Should -Match '-SpareDisk 1: disk 1 \(data\) has 3 partition\(s\); refused'
    Test-Path $script:scratch | Should -BeFalse
    Should -Invoke Test-SelfCheckHost -Times 0
  }
  It 'exits 3 for a spare disk without elevation, and for the confirmation switch alone' {
    (Invoke-WindowsSelfCheck -ScratchPath $script:scratch -SpareDisk 2 -ConfirmSpareDiskOverwrite).Error | Should -Match 'needs an elevated prompt'
    (Invoke-WindowsSelfCheck -ScratchPath $script:scratch -ConfirmSpareDiskOverwrite).Error | Should -Match 'without -SpareDisk'
    Test-Path $script:scratch | Should -BeFalse
  }
  It 'runs the spare-disk checks on a confirmed empty disk' {
    Mock Test-SelfCheckElevated { $true }
    Mock Get-SelfCheckDiskInfo { [pscustomobject]@{ Number = 4; FriendlyName = 'spare'; Size = 1TB; PartitionStyle = 'RAW'; PartitionCount = 0; IsSystem = $false; IsBoot = $false; IsOffline = $false } }
    Mock Test-SelfCheckSpareDisk { New-SelfCheckResult -Check 'spare-disk #4 read' -Result PASS -Detail 'ok' }
    $o = Invoke-WindowsSelfCheck -ScratchPath $script:scratch -SpareDisk 4 -ConfirmSpareDiskOverwrite -ScratchVolumeOnly
    Should -Invoke Test-SelfCheckSpareDisk -Times 1 -Exactly -ParameterFilter { $Context.SpareDisk.Number -eq 4 }
    ($o.Results | Where-Object Check -eq 'spare-disk #4 read').Result | Should -Be 'PASS'
  }
}

Describe 'Checks against the real Linux iospd' -Skip:(-not $script:haveLinuxIoSpd) {
  # What needs no Windows API runs for real: the process runner, the XML
  # parsing, -g pacing buckets, -I, -c on a long path and a cache-mode run.
  BeforeAll {
    $script:realDir = Join-Path $TestDrive 'real'
    $null = New-Item -ItemType Directory -Path $script:realDir
    $script:real = New-Context -Dir $script:realDir
    $script:real.IoSpd = $script:linuxIoSpd
    $script:real.RunSeconds = 2
  }
  It 'pacing: up to 198 intervals of 10 ms at about 1000 IOPS' {
    $r = Test-SelfCheckPacing -Context $script:real
    $r.Result | Should -BeIn @('PASS', 'FAIL') -Because $r.Detail
    # 2 s in 10 ms intervals less the first and last; a busy machine may lose a few at the end.
    $r.Data.Intervals | Should -BeGreaterOrEqual 150
    $r.Data.Intervals | Should -BeLessOrEqual 198
    $r.Data.MeanIops | Should -BeGreaterThan 750
    $r.Data.MeanIops | Should -BeLessThan 1100
  }
  It 'priority: -I1 runs and the profile says IOPriority 1' {
    $r = Test-SelfCheckPriority -Context $script:real
    $r.Result | Should -Be 'PASS' -Because $r.Detail
    $r.Data.IOPriority | Should -Be '1'
  }
  It 'long-path: iospd -c1M makes the file and its folders' {
    $r = Test-SelfCheckLongPath -Context $script:real
    $r.Result | Should -Be 'PASS' -Because $r.Detail
    $r.Data.CreatedBytes | Should -Be 1048576
    (Get-Item -LiteralPath $r.Data.Path).Length | Should -Be 1048576
  }
  It 'long-path relative: iospd -c1M on ./up/../rel/... from the scratch folder' {
    $r = Test-SelfCheckLongPath -Context $script:real -Relative
    $r.Result | Should -Be 'PASS' -Because $r.Detail
    $r.Data.CreatedBytes | Should -Be 1048576
    (Get-Item -LiteralPath $r.Data.Path).Length | Should -Be 1048576
  }
  It 'cache -Sb: a real run with IOPS and latency' {
    $r = Test-SelfCheckCacheMode -Context $script:real -Mode '-Sb'
    $r.Result | Should -Be 'PASS' -Because $r.Detail
    $r.Data.IoSpd.IOPS | Should -BeGreaterThan 0
    $r.Data.IoSpd.P99Ms | Should -BeGreaterThan 0
  }
  It 'file-length: a 1 MiB file is read as 1 MiB (ioctl mocked)' {
    Mock Get-SelfCheckDiskLength { [pscustomobject]@{ Opened = $true; Answered = $false; Length = 0; Error = 1 } }
    $t = [pscustomobject]@{ Root = '/'; FileSystem = 'ext4'; Kind = 'local'; IsWork = $true; Scratch = (New-Item -ItemType Directory -Path (Join-Path $script:realDir 'vol')).FullName }
    $r = Test-SelfCheckFileLength -Context $script:real -Target $t
    $r.Result | Should -Be 'PASS' -Because $r.Detail
    $r.Data.IoSpdFileSize | Should -Be 1048576
  }
  It 'sectors: -Su -Z1M with half writes runs on a 4096-byte-sector file (storage info mocked)' {
    Mock Get-SelfCheckStorageInfo { [pscustomobject]@{ LogicalSector = 4096; PhysicalSector = 4096; PhysicalSectorPerformance = 4096; FileSystemSector = 4096; AlignmentBytes = 4096; StorageError = 0; AlignmentError = 0 } }
    $t = [pscustomobject]@{ Root = '/'; FileSystem = 'ext4'; Kind = 'local'; IsWork = $true; Scratch = (New-Item -ItemType Directory -Path (Join-Path $script:realDir 'sec')).FullName }
    $r = Test-SelfCheckSectors -Context $script:real -Target $t
    $r.Result | Should -Be 'PASS' -Because $r.Detail
    $r.Data.Block | Should -Be 4096
    $r.Data.ExitCode | Should -Be 0
  }
  It 'a run that exceeds its time is killed and reported' {
    $saved = $script:SelfCheckExpect.RunGraceSeconds
    try {
      $script:SelfCheckExpect.RunGraceSeconds = 0
      $run = Invoke-SelfCheckTool -FilePath $script:linuxIoSpd -ArgumentList @('-b4K', '-d30', '-W0', '-Rxml', $script:real.DataFile) -Seconds 1
      $run.TimedOut | Should -BeTrue
      $run.ExitCode | Should -Be -1
      $run.Seconds | Should -BeLessThan 10
      Get-SelfCheckRunMessage -Run $run | Should -Match '^killed after'
    } finally { $script:SelfCheckExpect.RunGraceSeconds = $saved }
  }
}
