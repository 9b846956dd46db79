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
    foreach ($p in 'ScratchPath', 'JsonPath', 'IoSpdPath', 'DiskSpdPath', 'Volume', 'SmbPath', 'CsvPath', 'SpareDisk', 'ConfirmSpareDiskOverwrite', 'RunSeconds', 'Long') {
      $names | Should -Contain $p
    }
    @($help.examples.example).Count | Should -BeGreaterOrEqual 2
  }
  It 'compiles its P/Invoke layer and the Ctrl-C sender (C# for Add-Type)' {
    Initialize-SelfCheckNative
    $m = @([IoSpdSelfCheck.Native].GetMethods() | ForEach-Object Name)
    foreach ($n in 'GetLengthInfo', 'GetStorageInfo', 'GetTimerResolution', 'GetPrivilegeState', 'GetStandardInfo', 'OpenExclusive', 'GetCodePages') { $m | Should -Contain $n }
    $text = $script:SelfCheckCtrlCSender.Replace('__PID__', '1').Replace('__COUNT__', '2').Replace('__GAP__', '500')
    $errors = $null
    $null = [Management.Automation.Language.Parser]::ParseInput($text, [ref]$null, [ref]$errors)
    @($errors).Count | Should -Be 0
    $text | Should -Match 'AttachConsole\(1\)'
    $text | Should -Match 'i -lt 2'
  }
  It 'keeps the expected iospd messages and thresholds in one table' {
    foreach ($k in 'LargePagesRefused', 'CreateByValidData', 'CreateHeldOpen', 'ValidDataDacl', 'PriorityRefused', 'RawWriteRefused', 'MissingDrive', 'CtrlCThirdExitCode', 'Pacing', 'PacingMaxCv', 'DiskSpdLatencyRatio') {
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
  BeforeAll {
    $script:lpRefusal = 'error: Error adjusting token privileges for SeLockMemoryPrivilege (error code: 1300): large pages (-l) need the "Lock pages in memory" user right'
  }
  It '<Want> when the privilege is <State> and iospd -l exits <Exit>: <Why>' -ForEach @(
    @{ State = 'Absent'; Exit = 1; Err = 'refusal'; Want = 'PASS'; Why = 'refused with DISKSPD''s words and 1300' }
    @{ State = 'Absent'; Exit = 1; Err = 'error: large pages need the Lock pages in memory privilege (SeLockMemoryPrivilege)'; Want = 'FAIL'; Why = 'refused without the error code' }
    @{ State = 'Absent'; Exit = 3; Err = 'refusal'; Want = 'FAIL'; Why = 'wrong exit code' }
    @{ State = 'Absent'; Exit = 0; Err = 'WARNING: large pages are not used'; Want = 'FAIL'; Why = 'ran (small pages)' }
    @{ State = 'Absent'; Exit = 1; Err = 'error: out of memory'; Want = 'FAIL'; Why = 'unclear refusal' }
    @{ State = 'Disabled'; Exit = 0; Err = ''; Want = 'PASS'; Why = 'held, ran' }
    @{ State = 'Enabled'; Exit = 1; Err = 'error: VirtualAlloc failed (1450)'; Want = 'FAIL'; Why = 'held, failed' }
    @{ State = 'Unknown'; Exit = 0; Err = ''; Want = 'INFO'; Why = 'state unreadable' }
  ) {
    $mockState = $State; $mockExit = $Exit; $mockErr = $(if ($Err -eq 'refusal') { $script:lpRefusal } else { $Err })
    Mock Get-SelfCheckPrivilegeState { $mockState } -ParameterFilter { $Name -eq 'SeLockMemoryPrivilege' }
    Mock Invoke-SelfCheckProcess { New-FakeRun -ExitCode $mockExit -StdErr $mockErr -StdOut $(if ($mockExit -eq 0) { New-FakeXml -UseLargePages 'true' } else { '' }) }
    $r = Test-SelfCheckLargePages -Context (New-Context)
    $r.Check | Should -Be 'large-pages'
    $r.Result | Should -Be $Want
    $r.Data.SeLockMemoryPrivilege | Should -Be $State
    if ($Exit -eq 0) { $r.Data.UseLargePages | Should -Be 'true' }
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList[0] -eq '-l' }
  }
  It 'names what was missing: the silent fallback, or the expected words' {
    Mock Get-SelfCheckPrivilegeState { 'Absent' }
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml -UseLargePages 'true') }
    (Test-SelfCheckLargePages -Context (New-Context)).Detail | Should -Match 'silently used small pages'
    Mock Invoke-SelfCheckProcess { New-FakeRun -ExitCode 1 -StdErr 'error: no' }
    (Test-SelfCheckLargePages -Context (New-Context)).Detail | Should -Match "without 'SeLockMemoryPrivilege \(error code: 1300\)'"
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
    # What create.c sets: protected, Administrators and OWNER RIGHTS.
    $script:ownerOnly = [pscustomobject]@{ Owner = 'S-1-5-32-544'; Sddl = 'O:BAG:SYD:P(A;;FA;;;BA)(A;;FA;;;OW)'; Protected = $true; Rules = @(
        [pscustomobject]@{ Sid = 'S-1-5-32-544'; Rights = 2032127; Type = 'Allow' }
        [pscustomobject]@{ Sid = 'S-1-3-4'; Rights = 2032127; Type = 'Allow' }) }
    $script:unprotected = [pscustomobject]@{ Owner = 'S-1-5-32-544'; Sddl = 'O:BAG:SYD:(A;;FA;;;BA)(A;;FA;;;OW)'; Protected = $false; Rules = $script:ownerOnly.Rules }
    $script:inherited = [pscustomobject]@{ Owner = 'S-1-5-32-544'; Sddl = 'O:BAD:AI(A;ID;FA;;;BA)(A;ID;0x1200a9;;;BU)'; Protected = $false; Rules = @(
        [pscustomobject]@{ Sid = 'S-1-5-32-544'; Rights = 2032127; Type = 'Allow' }
        [pscustomobject]@{ Sid = 'S-1-5-32-545'; Rights = 1179817; Type = 'Allow' }) }
    $script:vdNote = "NOTE: 'x' was created with SetFileValidData: its 67108864 bytes were not written and hold what the volume held there before, so only its owner and Administrators may open it"
    # iospd "creates" the file so the check can remove it.
    $script:fakeCreate = { param($err, $name = 'valid-data.dat') Set-Content -LiteralPath (Join-Path $script:vdDir $name) -Value 'x'; New-FakeRun -StdErr $err -StdOut (New-FakeXml) }
  }
  It 'SKIP without elevation, running nothing' {
    Mock Invoke-SelfCheckProcess { throw 'must not run' }
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $script:vdDir -Elevated $false)
    $r.Result | Should -Be 'SKIP'
    $r.Detail | Should -Match 'elevated'
    Should -Invoke Invoke-SelfCheckProcess -Times 0
  }
  It 'SKIP when there is no room for the 64 MiB file' {
    Mock Invoke-SelfCheckProcess { throw 'must not run' }
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $script:vdDir -FreeBytes ([int64]64MB))
    $r.Result | Should -Be 'SKIP'
    $r.Detail | Should -Match 'needs 128 MiB free'
  }
  It 'PASS for the SetFileValidData NOTE with the exact protected DACL, and removes the file' {
    Mock Invoke-SelfCheckProcess { & $script:fakeCreate $script:vdNote }
    Mock Get-SelfCheckAclRules { $script:ownerOnly }
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $script:vdDir)
    $r.Result | Should -Be 'PASS' -Because $r.Detail
    $r.Detail | Should -Match 'DACL D:P\(A;;FA;;;BA\)\(A;;FA;;;OW\), protected'
    $r.Data.CreationPath | Should -Be 'SetFileValidData'
    $r.Data.Protected | Should -BeTrue
    Test-Path (Join-Path $script:vdDir 'valid-data.dat') | Should -BeFalse
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList[0] -eq '-c67108864' -and $ArgumentList[1] -eq '-v' -and $TimeoutSeconds -eq 180 }
  }
  It 'over an existing file: the file is there before iospd runs, and the DACL is checked the same' {
    Mock Invoke-SelfCheckProcess {
      $f = Join-Path $script:vdDir 'valid-data-existing.dat'
      if ((Get-Item -LiteralPath $f).Length -ne 1MB) { throw 'no pre-existing 1 MiB file' }
      New-FakeRun -StdErr $script:vdNote -StdOut (New-FakeXml)
    }
    Mock Get-SelfCheckAclRules { $script:unprotected }
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $script:vdDir) -PreExisting
    $r.Check | Should -Be 'valid-data existing'
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match 'the SDDL lacks D:P\(A;;FA;;;BA\)\(A;;FA;;;OW\); AreAccessRulesProtected is False'
    Test-Path (Join-Path $script:vdDir 'valid-data-existing.dat') | Should -BeFalse
  }
  It 'FAIL for SetFileValidData with the parent''s ACL, naming who can read' {
    Mock Invoke-SelfCheckProcess { & $script:fakeCreate $script:vdNote }
    Mock Get-SelfCheckAclRules { $script:inherited }
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $script:vdDir)
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match 'readable by: BUILTIN\\Users'
    $r.Data.Sddl | Should -Match 'BU\)$'
  }
  It '<Want> for the fallback <Path>' -ForEach @(
    @{ Err = 'WARNING: Could not set privileges for setting valid file size; will use a slower method of preparing the file'; State = 'Absent'; Path = 'written (no privilege)'; Want = 'INFO' }
    @{ Err = 'WARNING: Could not set privileges for setting valid file size; will use a slower method of preparing the file'; State = 'Disabled'; Path = 'written (no privilege)'; Want = 'FAIL' }
    @{ Err = "NOTE: 'x' cannot keep an owner- and Administrators-only ACL (error code: 1), so every block is written rather than SetFileValidData used"; State = 'Disabled'; Path = 'written (ACL not kept)'; Want = 'INFO' }
    @{ Err = 'WARNING: Could not set valid file size (error code: 87); trying a slower method of filling the file'; State = 'Disabled'; Path = 'written (SetFileValidData failed)'; Want = 'INFO' }
  ) {
    $mockState = $State; $mockErr = $Err
    Mock Get-SelfCheckPrivilegeState { $mockState } -ParameterFilter { $Name -eq 'SeManageVolumePrivilege' }
    Mock Invoke-SelfCheckProcess { & $script:fakeCreate $mockErr }
    Mock Get-SelfCheckAclRules { $script:inherited }
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $script:vdDir)
    $r.Result | Should -Be $Want
    $r.Data.CreationPath | Should -Be $Path
  }
  It 'on a <Fs> volume: <Want> for <Name>' -ForEach @(
    @{ Fs = 'exFAT'; Name = 'the cannot-keep NOTE'; Err = "NOTE: 'x' cannot keep an owner- and Administrators-only ACL (error code: 1), so every block is written rather than SetFileValidData used, which would leave old disk contents readable in it"; Acl = 'inherited'; Want = 'PASS' }
    @{ Fs = 'FAT32'; Name = 'SetFileValidData'; Err = 'vdNote'; Acl = 'inherited'; Want = 'FAIL' }
    @{ Fs = 'SMB'; Name = 'DISKSPD''s warning and the old ACL'; Err = 'WARNING: Could not set valid file size (error code: 50); trying a slower method of filling the file (this does not affect performance, just makes the test preparation longer)'; Acl = 'inherited'; Want = 'PASS' }
    @{ Fs = 'SMB'; Name = 'the warning but a protected ACL left'; Err = 'WARNING: Could not set valid file size (error code: 50); trying a slower method'; Acl = 'ownerOnly'; Want = 'FAIL' }
    @{ Fs = 'ReFS'; Name = 'SetFileValidData with the exact DACL'; Err = 'vdNote'; Acl = 'ownerOnly'; Want = 'PASS' }
  ) {
    $t = [pscustomobject]@{ Root = 'F:\'; FileSystem = $Fs; Kind = 'local'; IsWork = $false; Scratch = $script:vdDir }
    $mockErr = $(if ($Err -eq 'vdNote') { $script:vdNote } else { $Err }); $mockAcl = (Get-Variable -Scope Script -Name $Acl).Value
    Mock Invoke-SelfCheckProcess { & $script:fakeCreate $mockErr }
    Mock Get-SelfCheckAclRules { $mockAcl }
    # The scratch folder's volume has no room: a target's check does not depend on it.
    $work = Join-Path $TestDrive 'elsewhere'
    $null = New-Item -ItemType Directory -Path $work -Force
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $work -FreeBytes 1) -Target $t
    $r.Check | Should -Be "valid-data F:\ ($Fs)"
    $r.Result | Should -Be $Want -Because $r.Detail
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList[-1] -eq (Join-Path $script:vdDir 'valid-data.dat') }
  }
  It 'FAIL when iospd -c -v says nothing on how the file was made' {
    Mock Invoke-SelfCheckProcess { & $script:fakeCreate '' }
    Mock Get-SelfCheckAclRules { $script:ownerOnly }
    $r = Test-SelfCheckValidData -Context (New-Context -Dir $script:vdDir)
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match 'printed no note'
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
    @{ Name = 'even intervals'; Buckets = @(1000) * 50; Want = 'PASS'; Match = '^even: mean 1000 IOPS \(asked 1000\) over 48 intervals of 10 ms, CV 0,' }
    @{ Name = 'bursts'; Buckets = @(0, 2000) * 25; Want = 'FAIL'; Match = '^bursty: .*CV 1, 50 % empty' }
    @{ Name = 'a rate 40 % low'; Buckets = @(600) * 50; Want = 'FAIL'; Match = '^rate off by 40 %' }
    @{ Name = 'no -D output'; Buckets = @(); Want = 'FAIL'; Match = 'had 0 usable intervals' }
  ) {
    $mockBuckets = $Buckets
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml -Buckets $mockBuckets) }
    $r = Test-SelfCheckPacing -Context (New-Context) -Spec $script:SelfCheckExpect.Pacing[0]
    $r.Check | Should -Be 'pacing -g1000i'
    $r.Result | Should -Be $Want
    $r.Detail | Should -Match $Match
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { ($ArgumentList -join ' ') -match '^-b4K -g1000i -o1 -D10 -d3 ' -and $TimeoutSeconds -eq 63 }
  }
  It 'the three pacing runs: -g1000i, -g400 -o4 (97.66/s) and -i1 -j1 (1000/s)' {
    $p = $script:SelfCheckExpect.Pacing
    @($p | ForEach-Object Name) | Should -Be @('pacing -g1000i', 'pacing -g400', 'pacing -i1 -j1')
    [Math]::Round($p[1].Iops, 2) | Should -Be 97.66
    $p[1].BucketMs | Should -Be 100
    $p[2].Iops | Should -Be 1000
  }
  It '-g400 in 100 ms intervals: <Want> for <Name>' -ForEach @(
    @{ Name = '~9.8 reads per interval'; Buckets = @(97.66) * 30; Want = 'PASS' }
    @{ Name = 'a 15.6 ms tick: 64 per second'; Buckets = @(64) * 30; Want = 'FAIL' }
    @{ Name = 'bursts of two intervals'; Buckets = @(0, 195) * 15; Want = 'FAIL' }
  ) {
    $mockBuckets = $Buckets
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml -Buckets $mockBuckets) }
    $r = Test-SelfCheckPacing -Context (New-Context) -Spec $script:SelfCheckExpect.Pacing[1]
    $r.Result | Should -Be $Want
    $r.Data.TargetIops | Should -Be 97.66
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { ($ArgumentList -join ' ') -match '^-b4K -g400 -o4 -D100 -d3 ' }
  }
  It '-i1 -j1: ~1000/s PASS, 64/s (the default tick) FAIL' {
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml -Buckets (@(960) * 30)) }
    (Test-SelfCheckPacing -Context (New-Context) -Spec $script:SelfCheckExpect.Pacing[2]).Result | Should -Be 'PASS'
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml -Buckets (@(64) * 30)) }
    $r = Test-SelfCheckPacing -Context (New-Context) -Spec $script:SelfCheckExpect.Pacing[2]
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match '^rate off by 94 %'
    Should -Invoke Invoke-SelfCheckProcess -ParameterFilter { ($ArgumentList -join ' ') -match '^-b4K -i1 -j1 -o1 -D100 ' }
  }
  It 'FAIL when the run fails' {
    Mock Invoke-SelfCheckProcess { New-FakeRun -ExitCode 3 -StdErr 'error: bad -g' }
    (Test-SelfCheckPacing -Context (New-Context) -Spec $script:SelfCheckExpect.Pacing[0]).Detail | Should -Match 'exit 3\): error: bad -g'
  }
}

Describe 'Test-SelfCheckPriority' {
  It '<Want> for <Name>' -ForEach @(
    @{ Name = 'a run with IOPriority 1'; Level = 1; Exit = 0; Prio = 1; Err = ''; Want = 'PASS' }
    @{ Name = 'a run with IOPriority 2'; Level = 2; Exit = 0; Prio = 2; Err = ''; Want = 'PASS' }
    @{ Name = 'a run that dropped the hint'; Level = 1; Exit = 0; Prio = 3; Err = ''; Want = 'FAIL' }
    @{ Name = 'the set call refused'; Level = 1; Exit = 1; Prio = 1; Err = "error: Error setting IO priority for file: D:\priority.dat (-I; if its file system or driver takes no priority hints, run without -I): The request is not supported (error 50)"; Want = 'INFO' }
    @{ Name = 'the hint read back differently'; Level = 2; Exit = 1; Prio = 2; Err = "error: the I/O priority hint low of 'D:\priority.dat' did not take effect: the handle reports normal; run without -I"; Want = 'INFO' }
    @{ Name = 'a refusal with exit 3'; Level = 1; Exit = 3; Prio = 1; Err = 'error: Error setting IO priority for file: x'; Want = 'FAIL' }
    @{ Name = 'an unclear failure'; Level = 1; Exit = 1; Prio = 1; Err = 'error: access violation'; Want = 'FAIL' }
  ) {
    $mockExit = $Exit; $mockPrio = $Prio; $mockErr = $Err
    Mock Invoke-SelfCheckProcess { New-FakeRun -ExitCode $mockExit -StdErr $mockErr -StdOut $(if ($mockExit -eq 0) { New-FakeXml -IOPriority $mockPrio } else { '' }) }
    $t = New-Target -Name ('p' + [guid]::NewGuid().ToString('N').Substring(0, 6))
    $r = Test-SelfCheckPriority -Context (New-Context) -Level $Level -Target $t
    $r.Check | Should -Be "priority -I$Level D:\"
    $r.Result | Should -Be $Want
    $r.Data.FileSystem | Should -Be 'ReFS'
    if ($Want -eq 'INFO') { $r.Detail | Should -Match "^ReFS refused the -I$Level hint" }
    (Get-Item (Join-Path $t.Scratch 'priority.dat')).Length | Should -Be 1048576
    $lv = $Level
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList[0] -eq "-I$lv" -and $ArgumentList[-1] -like '*priority.dat' }
  }
  It 'without a target: the scratch data file' {
    Mock Invoke-SelfCheckProcess { New-FakeRun -StdOut (New-FakeXml -IOPriority 1) }
    $r = Test-SelfCheckPriority -Context (New-Context)
    $r.Check | Should -Be 'priority -I1'
    $r.Result | Should -Be 'PASS'
    $r.Detail | Should -Match "IO priority: very low"
  }
}

Describe 'Test-SelfCheckCtrlC' {
  BeforeEach {
    $script:proc = [pscustomobject]@{ Id = 4242; ExitCode = 1; HasExited = $false }
    Mock Start-SelfCheckConsoleProcess { $script:proc }
    Mock Stop-SelfCheckProcess { }
  }
  It 'three times: PASS when the third Ctrl-C ends iospd with 0xC000013A' {
    $script:proc.ExitCode = -1073741510
    Mock Wait-SelfCheckProcessExit { $TimeoutSeconds -ne 2 }   # still running at 2 s, ended after the events
    Mock Send-SelfCheckCtrlC { 0 }
    $r = Test-SelfCheckCtrlC -Context (New-Context)
    $r.Check | Should -Be 'ctrl-c three times'
    $r.Result | Should -Be 'PASS'
    $r.Detail | Should -Match '^the third Ctrl-C ended iospd at once \(exit 0xC000013A'
    $r.Data.ExitCodeHex | Should -Be '0xC000013A'
    Should -Invoke Send-SelfCheckCtrlC -Times 1 -Exactly -ParameterFilter { $ProcessId -eq 4242 -and $Count -eq 3 -and $GapMilliseconds -eq 0 }
    Should -Invoke Start-SelfCheckConsoleProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList -contains '-d60' -and $StdOutPath -like '*ctrl-c-3.stdout.txt' }
  }
  It 'three times: INFO when the first one had already ended the run with exit 0; FAIL for another code' {
    Mock Wait-SelfCheckProcessExit { $TimeoutSeconds -ne 2 }
    Mock Send-SelfCheckCtrlC { Set-Content -LiteralPath (Join-Path $TestDrive 'ctrl-c-3.stdout.txt') -Value "`n*** Ctrl-C: stopping I/O; the results measured so far follow. ***"; 0 }
    $script:proc.ExitCode = 0
    (Test-SelfCheckCtrlC -Context (New-Context)).Result | Should -Be 'INFO'
    $script:proc.ExitCode = 1
    $r = Test-SelfCheckCtrlC -Context (New-Context)
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Be 'after three Ctrl-C iospd exited 0x00000001, not 0xC000013A'
  }
  It 'once: PASS for exit 0 with the Ctrl-C line, FAIL without it' {
    Mock Wait-SelfCheckProcessExit { $TimeoutSeconds -ne 2 }
    $script:proc.ExitCode = 0
    Mock Send-SelfCheckCtrlC { Set-Content -LiteralPath (Join-Path $TestDrive 'ctrl-c-1.stdout.txt') -Value "`n*** Ctrl-C: stopping I/O; the results measured so far follow. ***`nCommand Line: ..."; 0 }
    $r = Test-SelfCheckCtrlC -Context (New-Context) -Count 1
    $r.Check | Should -Be 'ctrl-c once'
    $r.Result | Should -Be 'PASS'
    Should -Invoke Send-SelfCheckCtrlC -Times 1 -Exactly -ParameterFilter { $Count -eq 1 }
    Mock Send-SelfCheckCtrlC { Set-Content -LiteralPath (Join-Path $TestDrive 'ctrl-c-1.stdout.txt') -Value 'Command Line: ...'; 0 }
    $r = Test-SelfCheckCtrlC -Context (New-Context) -Count 1
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match 'the Ctrl-C line was not printed'
  }
  It 'FAIL and kill when iospd keeps running' {
    Mock Wait-SelfCheckProcessExit { $false }
    Mock Send-SelfCheckCtrlC { 0 }
    $r = Test-SelfCheckCtrlC -Context (New-Context)
    $r.Result | Should -Be 'FAIL'
    $r.Detail | Should -Match 'still ran 15 s after 3 Ctrl-C event'
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
      New-FakeRun -ExitCode 3 -StdErr "error: refusing to write to '#3': it holds a partition table, which writing (-w100) would destroy; pass --allow-raw-write to write to it anyway"
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
    Mock Test-SelfCheckValidData { New-SelfCheckResult -Check $(if ($Target) { "valid-data $($Target.Root)" } elseif ($PreExisting) { 'valid-data existing' } else { 'valid-data' }) -Result SKIP -Detail 'needs an elevated prompt' }
    Mock Test-SelfCheckTimerResolution { New-SelfCheckResult -Check 'timer-resolution' -Result INFO -Detail 'current 15.625 ms' -Data ([ordered]@{ CurrentMs = 15.625 }) }
    Mock Test-SelfCheckPacing { throw 'boom' }
    Mock Test-SelfCheckPriority { New-SelfCheckResult -Check "priority -I$Level $($Target.Root)" -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckCtrlC { New-SelfCheckResult -Check $(if ($Count -eq 1) { 'ctrl-c once' } else { 'ctrl-c three times' }) -Result PASS -Detail 'ok' }
    Mock Resolve-SelfCheckIoSpdX86 { $null }
    Mock Test-SelfCheckCaseFold { New-SelfCheckResult -Check 'case-fold' -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckCodePage { New-SelfCheckResult -Check 'code-page' -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckMissingDrive { New-SelfCheckResult -Check 'missing-drive' -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckNeverWritten { New-SelfCheckResult -Check 'never-written' -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckDeviceStandardInfo { New-SelfCheckResult -Check 'device-info \\.\C:' -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckX86 { New-SelfCheckResult -Check 'x86' -Result SKIP -Detail 'no x86' }
    Mock Test-SelfCheckX86WideGroup { New-SelfCheckResult -Check 'x86 wide group' -Result SKIP -Detail 'no x86' }
    Mock Test-SelfCheckSymlinkCreate { New-SelfCheckResult -Check 'symlink -c' -Result SKIP -Detail 'no symbolic links here' }
    Mock Test-SelfCheckHeldOpen { New-SelfCheckResult -Check 'valid-data held-open' -Result SKIP -Detail 'needs an elevated prompt' }
    Mock Test-SelfCheckModifiedPages { New-SelfCheckResult -Check 'fill-cache' -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckCreateInterrupt { New-SelfCheckResult -Check 'ctrl-c during -c' -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckCacheMode { New-SelfCheckResult -Check "cache $Mode" -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckRawWriteVhdx { New-SelfCheckResult -Check 'raw-write vhdx' -Result SKIP -Detail 'needs an elevated prompt' }
    Mock Test-SelfCheckIoRingCaps { New-SelfCheckResult -Check 'ioring-caps' -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckIoRingRun { New-SelfCheckResult -Check ('ioring ' + ($(if ($Engine) { $Engine } else { @('--engine=ioring') }) -join ' ')) -Result PASS -Detail 'ok' }
    Mock Test-SelfCheckBypassIo { New-SelfCheckResult -Check 'bypassio' -Result SKIP -Detail 'not NTFS' }
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
    Should -Invoke Test-SelfCheckPacing -Times 3 -Exactly -ParameterFilter { $Context.RunSeconds -eq 2 -and $Context.IoSpd -eq '/fake/iospd.exe' }
    Should -Invoke Test-SelfCheckPacing -Times 1 -Exactly -ParameterFilter { $Spec.Name -eq 'pacing -g400' }
    Should -Invoke Test-SelfCheckPriority -Times 4 -Exactly
    Should -Invoke Test-SelfCheckPriority -Times 1 -Exactly -ParameterFilter { $Level -eq 2 -and $Target.Root -eq $script:otherVol }
    Should -Invoke Test-SelfCheckModifiedPages -Times 0
    Should -Invoke Test-SelfCheckCreateInterrupt -Times 0

    $j = Get-Content -LiteralPath $o.JsonPath -Raw | ConvertFrom-Json
    $j.Tool | Should -Be 'iospd windows-selfcheck'
    $j.SchemaVersion | Should -Be 1
    $j.Parameters.RunSeconds | Should -Be 2
    $j.Expectations.PacingMaxCv | Should -Be 0.5
    $j.Expectations.LargePagesRefused | Should -Be 'SeLockMemoryPrivilege \(error code: 1300\)'
    $checks = @($j.Results | ForEach-Object Check)
    $checks | Should -Be @('host', 'file-length /', 'sectors /', 'priority -I1 /', 'priority -I2 /',
      "file-length $script:otherVol", "sectors $script:otherVol", "priority -I1 $script:otherVol", "priority -I2 $script:otherVol", "valid-data $script:otherVol",
      'long-path', 'long-path relative', 'case-fold', 'code-page', 'missing-drive', 'never-written', 'device-info \\.\C:', 'x86', 'x86 wide group', 'symlink -c',
      'large-pages', 'valid-data', 'valid-data existing', 'valid-data held-open', 'raw-write vhdx', 'timer-resolution',
      'pacing -g1000i', 'pacing -g400', 'pacing -i1 -j1', 'ctrl-c once', 'ctrl-c three times',
      'cache -Sb', 'cache -Su', 'cache -Sh', 'cache -Sw',
      'ioring-caps', 'ioring --engine=ioring', 'ioring --diskspd=2.3 -u', 'bypassio')
    $j.Summary.PASS | Should -Be 24
    $j.Summary.FAIL | Should -Be 4
    $j.Summary.INFO | Should -Be 2
    $j.Summary.SKIP | Should -Be 9
    Should -Invoke Test-SelfCheckValidData -Times 1 -Exactly -ParameterFilter { $Target.Root -eq $script:otherVol }
    ($j.Results | Where-Object Check -eq 'pacing -g400').Detail | Should -Be 'the check itself failed: boom'
    $j.Parameters.Long | Should -BeFalse
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
  It '-Long adds the Modified Page List and the Ctrl-C-during--c checks at the end' {
    $o = Invoke-WindowsSelfCheck -ScratchPath $script:scratch -ScratchVolumeOnly -CsvPath @() -Long
    $names = @($o.Results | ForEach-Object Check)
    $names[-2..-1] | Should -Be @('fill-cache', 'ctrl-c during -c')
    Should -Invoke Test-SelfCheckModifiedPages -Times 1 -Exactly
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
    Mock Test-SelfCheckSpareDiskGuard { New-SelfCheckResult -Check 'spare-disk #4 zeros' -Result PASS -Detail 'ok' }
    $o = Invoke-WindowsSelfCheck -ScratchPath $script:scratch -SpareDisk 4 -ConfirmSpareDiskOverwrite -ScratchVolumeOnly
    Should -Invoke Test-SelfCheckSpareDisk -Times 1 -Exactly -ParameterFilter { $Context.SpareDisk.Number -eq 4 }
    Should -Invoke Test-SelfCheckSpareDiskGuard -Times 1 -Exactly -ParameterFilter { $Context.SpareDisk.Number -eq 4 }
    ($o.Results | Where-Object Check -eq 'spare-disk #4 read').Result | Should -Be 'PASS'
  }
}

Describe 'Test-SelfCheckCodePage' {
  It '<Want> when the code page is <Before> before and <After> after' -ForEach @(
    @{ Before = 437; After = 437; Exit = 0; Want = 'PASS' }
    @{ Before = 437; After = 65001; Exit = 0; Want = 'FAIL' }
    @{ Before = 850; After = 850; Exit = 1; Want = 'FAIL' }
  ) {
    $script:cpCalls = 0; $b = $Before; $a = $After; $e = $Exit
    Mock Get-SelfCheckCodePage { $script:cpCalls++; if ($script:cpCalls -eq 1) { [pscustomobject]@{ Output = $b; Input = $b } } else { [pscustomobject]@{ Output = $a; Input = $b } } }
    Mock Invoke-SelfCheckInConsole { $e }
    $r = Test-SelfCheckCodePage -Context (New-Context)
    $r.Result | Should -Be $Want
    $r.Data.Before | Should -Be $Before
    $r.Data.After | Should -Be $After
    Should -Invoke Invoke-SelfCheckInConsole -Times 1 -Exactly -ParameterFilter { $ArgumentList -notcontains '-Rxml' -and $StdOutPath -like '*code-page.txt' }
  }
  It 'SKIP without a console, running nothing' {
    Mock Get-SelfCheckCodePage { [pscustomobject]@{ Output = 0; Input = 0 } }
    Mock Invoke-SelfCheckInConsole { throw 'must not run' }
    (Test-SelfCheckCodePage -Context (New-Context)).Result | Should -Be 'SKIP'
  }
}

Describe 'Test-SelfCheckCaseFold' {
  It '<Want> when "Creating file" comes <N> time(s) and x.dat holds <Bytes> bytes' -ForEach @(
    @{ N = 1; Bytes = 65536; Want = 'PASS' }
    @{ N = 2; Bytes = 65536; Want = 'FAIL' }
    @{ N = 1; Bytes = 4096; Want = 'FAIL' }
  ) {
    $n = $N; $bytes = $Bytes
    $ctx = New-Context -Dir (New-Item -ItemType Directory -Path (Join-Path $TestDrive ([guid]::NewGuid().ToString('N')))).FullName
    Mock Invoke-SelfCheckProcess {
      [IO.File]::WriteAllBytes((Join-Path $WorkingDirectory 'x.dat'), [byte[]]::new($bytes))
      New-FakeRun -StdErr ((1..$n | ForEach-Object { "Creating file '$WorkingDirectory/x.dat' of size 65536." }) -join "`n") -StdOut (New-FakeXml)
    }
    $r = Test-SelfCheckCaseFold -Context $ctx
    $r.Result | Should -Be $Want
    $r.Data.CreatingLines | Should -Be $N
    $r.Data.Bytes | Should -Be $Bytes
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter {
      $ArgumentList[0] -eq '-v' -and $ArgumentList -contains '-c64K' -and ($ArgumentList[-2..-1] -join ' ') -ceq 'x.dat X.DAT' -and $WorkingDirectory -like '*case'
    }
  }
  It 'FAIL with the message when the run fails' {
    Mock Invoke-SelfCheckProcess { New-FakeRun -ExitCode 3 -StdErr 'error: x.dat named twice' }
    (Test-SelfCheckCaseFold -Context (New-Context)).Detail | Should -Match 'exit 3\): error: x.dat named twice'
  }
}

Describe 'x86 build' {
  BeforeAll {
    # A minimal PE header: MZ, e_lfanew 0x40, "PE\0\0", machine, characteristics.
    function script:New-FakePe {
      param([string] $Path, [uint16] $Machine = 0x14C, [uint16] $Characteristics = 0x0122)
      $b = [byte[]]::new(0x80)
      $b[0] = 0x4D; $b[1] = 0x5A
      [BitConverter]::GetBytes([int]0x40).CopyTo($b, 0x3C)
      [BitConverter]::GetBytes([uint32]0x00004550).CopyTo($b, 0x40)
      [BitConverter]::GetBytes($Machine).CopyTo($b, 0x44)
      [BitConverter]::GetBytes($Characteristics).CopyTo($b, 0x40 + 22)
      [IO.File]::WriteAllBytes($Path, $b)
      $Path
    }
  }
  It 'Get-SelfCheckPeInfo reads the machine and the large-address-aware flag' {
    $i = Get-SelfCheckPeInfo -Path (New-FakePe -Path (Join-Path $TestDrive 'laa.exe'))
    $i.Is32Bit | Should -BeTrue
    $i.LargeAddressAware | Should -BeTrue
    $i = Get-SelfCheckPeInfo -Path (New-FakePe -Path (Join-Path $TestDrive 'nolaa.exe') -Characteristics 0x0102)
    $i.LargeAddressAware | Should -BeFalse
    (Get-SelfCheckPeInfo -Path (New-FakePe -Path (Join-Path $TestDrive 'x64.exe') -Machine 0x8664)).Is32Bit | Should -BeFalse
    Set-Content -LiteralPath (Join-Path $TestDrive 'text.exe') -Value 'not a PE'
    Get-SelfCheckPeInfo -Path (Join-Path $TestDrive 'text.exe') | Should -BeNullOrEmpty
  }
  It 'reads the real i686 build when there is one' -Skip:(-not (Test-Path (Join-Path $PSScriptRoot '../../build/win32/iospd.exe'))) {
    (Get-SelfCheckPeInfo -Path (Join-Path $PSScriptRoot '../../build/win32/iospd.exe')).LargeAddressAware | Should -BeTrue
  }
  It '<Want> for <Name>' -ForEach @(
    @{ Name = 'a large-address-aware exe that runs -t1000'; Chars = 0x0122; Machine = 0x14C; Exit = 0; Want = 'PASS'; Match = 'large-address-aware, and -t1000 ran' }
    @{ Name = 'a large-address-aware exe that fails -t1000'; Chars = 0x0122; Machine = 0x14C; Exit = 1; Want = 'FAIL'; Match = '-t1000 failed \(exit 1\): error: cannot create thread' }
    @{ Name = 'an exe without the flag'; Chars = 0x0102; Machine = 0x14C; Exit = 0; Want = 'FAIL'; Match = 'not linked large-address-aware' }
    @{ Name = 'an x64 exe in x86\'; Chars = 0x0122; Machine = 0x8664; Exit = 0; Want = 'FAIL'; Match = 'not an x86 PE image \(machine 0x8664\)' }
  ) {
    $ctx = New-Context
    $ctx | Add-Member -NotePropertyName IoSpdX86 -NotePropertyValue (New-FakePe -Path (Join-Path $TestDrive ([guid]::NewGuid().ToString('N') + '.exe')) -Machine $Machine -Characteristics $Chars)
    $e = $Exit
    Mock Invoke-SelfCheckProcess { New-FakeRun -ExitCode $e -StdErr $(if ($e) { 'error: cannot create thread' } else { '' }) -StdOut (New-FakeXml) }
    $r = Test-SelfCheckX86 -Context $ctx
    $r.Result | Should -Be $Want
    $r.Detail | Should -Match $Match
  }
  It 'SKIP without x86\iospd.exe' {
    $ctx = New-Context; $ctx | Add-Member -NotePropertyName IoSpdX86 -NotePropertyValue $null
    (Test-SelfCheckX86 -Context $ctx).Result | Should -Be 'SKIP'
  }
}

Describe 'Test-SelfCheckMissingDrive' {
  It '<Want> for <Name>' -ForEach @(
    @{ Name = 'no such disk or volume (error 2)'; Exit = 1; Err = "error: cannot open 'Q:': no such disk or volume (error 2)"; Want = 'PASS' }
    @{ Name = 'the old "no such file"'; Exit = 1; Err = "error: cannot open 'Q:': no such file (error 2; give a size with -c to create it)"; Want = 'FAIL' }
    @{ Name = 'another code'; Exit = 1; Err = "error: cannot open 'Q:': no such disk or volume (error 3)"; Want = 'FAIL' }
    @{ Name = 'a run that succeeds'; Exit = 0; Err = ''; Want = 'FAIL' }
  ) {
    $e = $Exit; $m = $Err
    Mock Get-SelfCheckUnusedDriveLetter { 'Q:' }
    Mock Invoke-SelfCheckProcess { New-FakeRun -ExitCode $e -StdErr $m }
    $r = Test-SelfCheckMissingDrive -Context (New-Context)
    $r.Result | Should -Be $Want
    $r.Data.Drive | Should -Be 'Q:'
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList[-1] -eq 'Q:' }
  }
  It 'SKIP when every letter is taken' {
    Mock Get-SelfCheckUnusedDriveLetter { $null }
    (Test-SelfCheckMissingDrive -Context (New-Context)).Result | Should -Be 'SKIP'
  }
}

Describe 'Test-SelfCheckNeverWritten' {
  BeforeAll {
    $script:nwWarn = "WARNING: target 'x': 16777216 of its 16777216 bytes (100.0 %) were never written (unwritten extents, as fallocate, SetEndOfFile or an interrupted -c leave); reads there return zeros"
  }
  It '<Want> for <Name>' -ForEach @(
    @{ Name = 'the warning for the extended file only'; A = 'warn'; B = ''; ExitA = 0; Want = 'PASS' }
    @{ Name = 'no warning (Windows answered "unknown")'; A = ''; B = ''; ExitA = 0; Want = 'FAIL' }
    @{ Name = 'a warning for the written file too'; A = 'warn'; B = 'warn'; ExitA = 0; Want = 'FAIL' }
    @{ Name = 'a failed run'; A = 'warn'; B = ''; ExitA = 1; Want = 'FAIL' }
  ) {
    $ea = $A; $eb = $B; $xa = $ExitA; $w = $script:nwWarn
    $ctx = New-Context
    Mock New-SelfCheckExtendedFile { }
    Mock New-SelfCheckFile { }
    Mock Invoke-SelfCheckProcess {
      $extended = $ArgumentList[-1] -like '*never-written.dat'
      $say = if ($extended) { $ea } else { $eb }
      New-FakeRun -ExitCode $(if ($extended) { $xa } else { 0 }) -StdOut (New-FakeXml) -StdErr $(if ($say) { $w } else { '' })
    }
    $r = Test-SelfCheckNeverWritten -Context $ctx
    $r.Result | Should -Be $Want
    Should -Invoke New-SelfCheckExtendedFile -Times 1 -Exactly -ParameterFilter { $Size -eq 16777216 }
    Should -Invoke Invoke-SelfCheckProcess -Times 2 -Exactly
  }
  It 'New-SelfCheckExtendedFile makes a file of the size asked, all zeros' {
    $p = Join-Path $TestDrive 'ext.dat'
    New-SelfCheckExtendedFile -Path $p -Size 65536
    (Get-Item $p).Length | Should -Be 65536
    @([IO.File]::ReadAllBytes($p) | Where-Object { $_ -ne 0 }).Count | Should -Be 0
  }
}

Describe 'Test-SelfCheckDeviceStandardInfo' {
  It 'one row per device: PASS when FileStandardInfo fails, FAIL when it answers, SKIP when not opened' {
    Mock Get-SelfCheckStandardInfo {
      switch ($Path) {
        '\\.\C:' { [pscustomobject]@{ Opened = $true; Answered = $false; Error = 1 } }
        '\\.\PhysicalDrive0' { [pscustomobject]@{ Opened = $true; Answered = $true; Error = 0 } }
        default { [pscustomobject]@{ Opened = $false; Answered = $false; Error = 5 } }
      }
    }
    $r = @(Test-SelfCheckDeviceStandardInfo -Path '\\.\C:', '\\.\PhysicalDrive0', '\\.\PhysicalDrive9')
    @($r | ForEach-Object Result) | Should -Be @('PASS', 'FAIL', 'SKIP')
    $r[0].Check | Should -Be 'device-info \\.\C:'
    $r[0].Detail | Should -Match 'fails on \\\\\.\\C: \(error 1\)'
    $r[2].Detail | Should -Match 'error 5'
  }
}

Describe 'Test-SelfCheckHeldOpen and the -c pattern' {
  BeforeAll {
    function script:New-PatternFile {
      param([string] $Path, [int64] $Size, [int64] $BadAt = -1)
      $b = [byte[]]::new($Size)
      for ($i = 0; $i -lt [Math]::Min(256, $Size); $i++) { $b[$i] = [byte]$i }
      for ($n = [int64]256; $n -lt $Size; $n *= 2) { [Array]::Copy($b, 0, $b, $n, [Math]::Min($n, $Size - $n)) }
      if ($BadAt -ge 0) { $b[$BadAt] = [byte](($BadAt + 1) -band 0xff) }
      [IO.File]::WriteAllBytes($Path, $b)
    }
  }
  It 'Get-SelfCheckPatternMismatch finds the first byte off k & 0xff' {
    $f = Join-Path $TestDrive 'pat.dat'
    New-PatternFile -Path $f -Size 8192
    Get-SelfCheckPatternMismatch -Path $f -Offset 0 | Should -Be -1
    Get-SelfCheckPatternMismatch -Path $f -Offset 4096 | Should -Be -1
    New-PatternFile -Path $f -Size 8192 -BadAt 5000
    Get-SelfCheckPatternMismatch -Path $f -Offset 4096 | Should -Be 5000
    Get-SelfCheckPatternMismatch -Path $f -Offset 0 | Should -Be -1
  }
  It '<Want> for <Name>' -ForEach @(
    @{ Name = 'the NOTE and the pattern'; Note = $true; BadAt = -1; Want = 'PASS' }
    @{ Name = 'no NOTE (SetFileValidData under a reader)'; Note = $false; BadAt = -1; Want = 'FAIL' }
    @{ Name = 'the NOTE but stale bytes at the end'; Note = $true; BadAt = 67108000; Want = 'FAIL' }
  ) {
    $dir = (New-Item -ItemType Directory -Path (Join-Path $TestDrive ([guid]::NewGuid().ToString('N')))).FullName
    $note = $Note; $bad = $BadAt
    $script:held = $null
    Mock Open-SelfCheckSharedHandle { $script:held = [IO.FileStream]::new($Path, 'Open', 'Read', 'ReadWrite, Delete'); $script:held }
    Mock Invoke-SelfCheckProcess {
      # The file is held open while iospd runs.
      if (-not $script:held.CanRead) { throw 'the file was not held open during the run' }
      New-PatternFile -Path ($ArgumentList[-1]) -Size 64MB -BadAt $bad
      New-FakeRun -StdOut (New-FakeXml) -StdErr $(if ($note) { "NOTE: '$($ArgumentList[-1])' is open in another program, so it cannot be replaced and is overwritten in place; an interruption would leave it partly overwritten" } else { "NOTE: 'x' was created with SetFileValidData: ..." })
    }
    $r = Test-SelfCheckHeldOpen -Context (New-Context -Dir $dir)
    $r.Result | Should -Be $Want -Because $r.Detail
    $script:held.CanRead | Should -BeFalse   # closed after the run
    if ($BadAt -ge 0) { $r.Data.FirstMismatch | Should -Be $BadAt }
    if (-not $Note) { $r.Data.CreationPath | Should -Be 'SetFileValidData' }
  }
  It 'SKIP unelevated' {
    (Test-SelfCheckHeldOpen -Context (New-Context -Elevated $false)).Result | Should -Be 'SKIP'
  }
}

Describe '-Long checks' {
  It 'fill-cache: <Want> for a growth of <Growth> MiB' -ForEach @(
    @{ Growth = 40; Exit = 0; Want = 'PASS' }
    @{ Growth = 900; Exit = 0; Want = 'FAIL' }
    @{ Growth = 10; Exit = 1; Want = 'FAIL' }
  ) {
    $g = $Growth; $e = $Exit
    Mock Measure-SelfCheckModifiedGrowth { [pscustomobject]@{ ExitCode = $e; Before = 100MB; Peak = 100MB + $g * 1MB; Growth = $g * 1MB; TimedOut = $false } }
    $r = Test-SelfCheckModifiedPages -Context (New-Context -Elevated $false)
    $r.Result | Should -Be $Want
    $r.Data.GrowthBytes | Should -Be ($Growth * 1MB)
    Should -Invoke Measure-SelfCheckModifiedGrowth -Times 1 -Exactly -ParameterFilter { $ArgumentList[0] -eq '-c1073741824' }
  }
  It 'fill-cache: SKIP elevated (SetFileValidData writes nothing)' {
    Mock Measure-SelfCheckModifiedGrowth { throw 'must not run' }
    (Test-SelfCheckModifiedPages -Context (New-Context -Elevated $true)).Detail | Should -Match 'non-elevated'
  }
  It 'Measure-SelfCheckModifiedGrowth keeps the peak while the process runs' {
    $script:samples = [System.Collections.Generic.Queue[int64]]::new([int64[]]@(100, 300, 700, 200, 150))
    Mock Get-SelfCheckModifiedPageBytes { if ($script:samples.Count -gt 1) { $script:samples.Dequeue() } else { $script:samples.Peek() } }
    $script:mproc = [pscustomobject]@{ Id = 1; ExitCode = 0; HasExited = $false }
    Mock Start-SelfCheckConsoleProcess { $script:mproc }
    $script:waits = 0
    Mock Wait-SelfCheckProcessExit { $script:waits++; if ($script:waits -ge 4) { $script:mproc.HasExited = $true; $true } else { $false } }
    Mock Stop-SelfCheckProcess { }
    $m = Measure-SelfCheckModifiedGrowth -FilePath 'x' -ArgumentList @('-c1G') -StdErrPath (Join-Path $TestDrive 'e.txt')
    $m.Before | Should -Be 100
    $m.Peak | Should -Be 700
    $m.Growth | Should -Be 600
    $m.ExitCode | Should -Be 0
  }
  It 'ctrl-c during -c: <Want> for <Name>' -ForEach @(
    @{ Name = 'file removed and said'; Left = $false; Say = $true; Want = 'PASS' }
    @{ Name = 'file left behind'; Left = $true; Say = $true; Want = 'FAIL' }
    @{ Name = 'removed silently'; Left = $false; Say = $false; Want = 'FAIL' }
  ) {
    $dir = (New-Item -ItemType Directory -Path (Join-Path $TestDrive ([guid]::NewGuid().ToString('N')))).FullName
    $left = $Left; $say = $Say
    $script:iproc = [pscustomobject]@{ Id = 7; ExitCode = 0; HasExited = $false }
    Mock Start-SelfCheckConsoleProcess { $script:iproc }
    Mock Wait-SelfCheckProcessExit { $TimeoutSeconds -ne 3 }
    Mock Stop-SelfCheckProcess { }
    Mock Send-SelfCheckCtrlC {
      if ($left) { Set-Content -LiteralPath (Join-Path $dir 'interrupt.dat') -Value 'partial' }
      $t = if ($say) { "error: creating 'x' (-c) was interrupted ... interrupted after 1 of 2 bytes; the unfinished file was removed" } else { 'error: interrupted' }
      Set-Content -LiteralPath (Join-Path $dir 'interrupt.stderr.txt') -Value $t
      0
    }
    $r = Test-SelfCheckCreateInterrupt -Context (New-Context -Dir $dir -FreeBytes ([int64]100GB))
    $r.Result | Should -Be $Want -Because $r.Detail
    Test-Path (Join-Path $dir 'interrupt.dat') | Should -BeFalse   # cleaned up either way
    Should -Invoke Start-SelfCheckConsoleProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList[0] -eq '-c21474836480' }
    Should -Invoke Send-SelfCheckCtrlC -Times 1 -Exactly -ParameterFilter { $Count -eq 1 -and $ProcessId -eq 7 }
  }
  It 'ctrl-c during -c: the size is capped at half the free space; SKIP when the fill ends first' {
    $script:iproc = [pscustomobject]@{ Id = 7; ExitCode = 0; HasExited = $true }
    Mock Start-SelfCheckConsoleProcess { $script:iproc }
    Mock Wait-SelfCheckProcessExit { $true }
    Mock Stop-SelfCheckProcess { }
    $r = Test-SelfCheckCreateInterrupt -Context (New-Context -FreeBytes ([int64]10GB))
    $r.Result | Should -Be 'SKIP'
    $r.Detail | Should -Match 'nothing to interrupt'
    Should -Invoke Start-SelfCheckConsoleProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList[0] -eq '-c5368709120' }
  }
}

Describe 'Test-SelfCheckRawWriteVhdx' {
  BeforeEach {
    Mock New-SelfCheckVhdx { [pscustomobject]@{ Number = 7; DiskSize = [int64]64MB; Drive = 'V:'; VolumeSize = [int64]60MB } }
    Mock Remove-SelfCheckVhdx { }
    Mock Set-SelfCheckDiskOffline { $script:offline = $true }
    $script:offline = $false
    $script:changed = $false
    Mock Get-SelfCheckRawEnds { [pscustomobject]@{ First = $(if ($script:changed -and $Path -like '*PhysicalDrive7') { 'BB' } else { 'AA' }); Last = 'CC' } }
    # What iospd answers: refused while mounted and online, written offline.
    $script:iospd = {
      param($argv)
      $t = $argv[-1]
      if ($t -eq 'V:') { return New-FakeRun -ExitCode 1 -StdErr "error: cannot write to 'V:': a file system (NTFS) is mounted on this volume, and Windows would let ..." }
      if ($t -eq '#7' -and -not $script:offline) { return New-FakeRun -ExitCode 1 -StdErr "error: cannot write to '#7': the disk is online with 1 partition, whose volumes Windows keeps mounted; ..." }
      New-FakeRun -StdOut (New-FakeXml)
    }
  }
  It 'PASS when both are refused with the ends unchanged and the offline disk is written; the VHDX is removed' {
    Mock Invoke-SelfCheckProcess { & $script:iospd $ArgumentList }
    $r = @(Test-SelfCheckRawWriteVhdx -Context (New-Context))
    @($r | ForEach-Object Check) | Should -Be @('raw-write vhdx volume', 'raw-write vhdx online disk', 'raw-write vhdx offline disk')
    @($r | Where-Object Result -ne 'PASS' | ForEach-Object { "$($_.Check): $($_.Detail)" }) | Should -BeNullOrEmpty
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList[0] -eq '--allow-raw-write' -and $ArgumentList -contains '-w100' -and $ArgumentList[-1] -eq 'V:' }
    Should -Invoke Remove-SelfCheckVhdx -Times 1 -Exactly
  }
  It 'FAIL when a write went through, or the disk''s first MiB changed' {
    Mock Invoke-SelfCheckProcess { if ($ArgumentList[-1] -eq 'V:') { $script:changed = $true; return New-FakeRun -StdOut (New-FakeXml) }; & $script:iospd $ArgumentList }
    $r = @(Test-SelfCheckRawWriteVhdx -Context (New-Context))
    ($r | Where-Object Check -eq 'raw-write vhdx volume').Result | Should -Be 'FAIL'
    ($r | Where-Object Check -eq 'raw-write vhdx volume').Detail | Should -Match 'changed'
    ($r | Where-Object Check -eq 'raw-write vhdx online disk').Result | Should -Be 'FAIL'
  }
  It 'SKIP without elevation, and when no VHDX can be made' {
    (Test-SelfCheckRawWriteVhdx -Context (New-Context -Elevated $false)).Result | Should -Be 'SKIP'
    Mock New-SelfCheckVhdx { throw 'diskpart: access denied' }
    $r = Test-SelfCheckRawWriteVhdx -Context (New-Context)
    $r.Result | Should -Be 'SKIP'
    $r.Detail | Should -Match 'access denied'
  }
}

Describe 'Test-SelfCheckSpareDiskGuard' {
  BeforeEach {
    $script:disk = [pscustomobject]@{ Number = 3; FriendlyName = 'spare'; Size = 10GB; PartitionCount = 0; IsSystem = $false; IsBoot = $false; LogicalSectorSize = 4096; PhysicalSectorSize = 4096 }
    $script:tableOn = $false
    $script:disposed = $null
    $script:fakeHandle = [pscustomobject]@{}
    $script:fakeHandle | Add-Member -MemberType ScriptMethod -Name Dispose -Value { $script:disposed = $true }
    Mock Open-SelfCheckExclusive { $script:disposed = $false; $script:fakeHandle }
    Mock Initialize-SelfCheckDiskTable { $script:tableOn = $true }
    Mock Clear-SelfCheckDisk { $script:tableOn = $false }
    Mock New-SelfCheckSpareVolume { $script:tableOn = $true; [pscustomobject]@{ Drive = 'E:'; Size = [int64]10GB - 2MB } }
    # The -c file on the spare volume lives in TestDrive.
    $script:cfile = Join-Path $TestDrive 'iospd-c5000000.dat'
    Mock Get-SelfCheckFileLength { if (Test-Path -LiteralPath $script:cfile) { (Get-Item -LiteralPath $script:cfile).Length } else { $null } } -ParameterFilter { $Path -like 'E:*' }
    Mock Get-SelfCheckPatternMismatch { if ($script:cfileGood) { -1 } else { 4999999 } } -ParameterFilter { $Path -like 'E:*' }
    $script:cfileGood = $true
    # A model of Windows and iospd: what each spare-disk run answers.
    $script:model = {
      param($argv)
      $raw = $argv -contains '--allow-raw-write'
      $t = $argv[-1]
      if ($t -like 'E:\*') { [IO.File]::WriteAllBytes($script:cfile, [byte[]]::new(5000000)); return New-FakeRun -StdOut (New-FakeXml) }
      if ($t -eq 'E:') {
        if ($argv -contains '-w100') { return New-FakeRun -ExitCode 1 -StdErr "error: cannot write to 'E:': a file system (NTFS) is mounted on this volume, and Windows would let the writes that fall on its boot sectors or outside its space land and refuse the rest, so iospd refuses them all, even with --allow-raw-write (nothing was written)" }
        return New-FakeRun -StdOut (New-FakeXml -IOs 1)
      }
      if ($script:disposed -eq $false -and -not $raw) { return New-FakeRun -ExitCode 1 -StdErr "error: refusing to write to '#3': it holds unknown content (it cannot be opened for reading: Win32 error 32), which writing (-w100) would destroy; pass --allow-raw-write to write to it anyway" }
      if ($script:tableOn -and -not $raw) { return New-FakeRun -ExitCode 1 -StdErr "error: refusing to write to '#3': it holds a partition table, which writing (-w100) would destroy; pass --allow-raw-write to write to it anyway" }
      New-FakeRun -StdOut (New-FakeXml)
    }
  }
  It 'PASS for every case when Windows and iospd answer as they should, and leaves the disk empty' {
    Mock Invoke-SelfCheckProcess { & $script:model $ArgumentList }
    $r = @(Test-SelfCheckSpareDiskGuard -Context (New-Context -SpareDisk $script:disk))
    @($r | ForEach-Object Check) | Should -Be @('spare-disk #3 zeros', 'spare-disk #3 share-mode-0', 'spare-disk #3 partition-table', 'spare-disk #3 4Kn', 'spare-disk #3 volume raw-write', 'spare-disk #3 volume last MiB', 'spare-disk #3 volume 4Kn -c5000000')
    @($r | Where-Object Result -ne 'PASS' | ForEach-Object { "$($_.Check): $($_.Detail)" }) | Should -BeNullOrEmpty
    $script:tableOn | Should -BeFalse
    $script:disposed | Should -BeTrue
    Should -Invoke Clear-SelfCheckDisk -Times 2 -Exactly
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { ($ArgumentList -join ' ') -match '^-b1M -s -B10734272512 -w0 -Su ' -and $ArgumentList[-1] -eq 'E:' }
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { ($ArgumentList -join ' ') -match '^--allow-raw-write -b4K -r -Su -Z1M -w50 ' }
  }
  It 'volume 4Kn -c5000000: FAIL when the tail is off the pattern' {
    $script:cfileGood = $false
    Mock Invoke-SelfCheckProcess { & $script:model $ArgumentList }
    $r = @(Test-SelfCheckSpareDiskGuard -Context (New-Context -SpareDisk $script:disk))
    ($r | Where-Object Check -eq 'spare-disk #3 volume 4Kn -c5000000').Result | Should -Be 'FAIL'
    Should -Invoke Invoke-SelfCheckProcess -Times 1 -Exactly -ParameterFilter { $ArgumentList[0] -eq '-c5000000' -and $ArgumentList[-1] -eq 'E:\iospd-c5000000.dat' }
  }
  It 'FAIL where the guard lets writes through or refuses zeros; SKIP 4Kn on a 512-byte disk' {
    $script:disk.LogicalSectorSize = 512
    Mock Invoke-SelfCheckProcess {
      if ($ArgumentList[-1] -eq 'E:') { return New-FakeRun -ExitCode 1 -StdErr 'error: cannot write: Access is denied (error 5)' }
      if ($ArgumentList -contains '--allow-raw-write') { return New-FakeRun -StdOut (New-FakeXml) }
      New-FakeRun -ExitCode 1 -StdErr "error: refusing to write to '#3': it holds a mounted NTFS file system, which writing (-w100) would destroy; pass --allow-raw-write to write to it anyway"
    }
    $r = @(Test-SelfCheckSpareDiskGuard -Context (New-Context -SpareDisk $script:disk))
    $by = @{}; foreach ($x in $r) { $by[$x.Check] = $x.Result }
    $by['spare-disk #3 zeros'] | Should -Be 'FAIL'
    $by['spare-disk #3 share-mode-0'] | Should -Be 'FAIL'
    $by['spare-disk #3 partition-table'] | Should -Be 'FAIL'
    $by['spare-disk #3 4Kn'] | Should -Be 'SKIP'
    $by['spare-disk #3 volume raw-write'] | Should -Be 'FAIL'
    $script:tableOn | Should -BeFalse
  }
  It 'SKIP rows whose disk set-up fails, still clearing the disk' {
    Mock Invoke-SelfCheckProcess { & $script:model $ArgumentList }
    Mock Open-SelfCheckExclusive { throw 'cannot open \\.\PhysicalDrive3 exclusively (error 5)' }
    Mock New-SelfCheckSpareVolume { throw 'New-Partition: the disk is offline' }
    $r = @(Test-SelfCheckSpareDiskGuard -Context (New-Context -SpareDisk $script:disk))
    ($r | Where-Object Check -eq 'spare-disk #3 share-mode-0').Result | Should -Be 'SKIP'
    ($r | Where-Object Check -eq 'spare-disk #3 volume').Detail | Should -Match 'disk is offline'
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
    $r = Test-SelfCheckPacing -Context $script:real -Spec $script:SelfCheckExpect.Pacing[0]
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

Describe '$SelfCheckExpect matches the C source' {
  # Each message pattern the verdicts rest on, checked against the message
  # as the C source builds it: a rewording in src/ breaks this test instead
  # of the check on a real host. IOSPD_SOURCE_ROOT points at another tree
  # (for example a branch with src/win/create.c before it is merged).
  BeforeAll {
    $script:srcRoot = if ($env:IOSPD_SOURCE_ROOT) { $env:IOSPD_SOURCE_ROOT } else { $script:repo }
    # A C file's string literals, adjacent ones joined ("a" "b" -> "ab").
    function script:Get-CLiteral {
      param([string] $File)
      $raw = [IO.File]::ReadAllText((Join-Path $script:srcRoot $File))
      $joined = [regex]::Replace($raw, '"\s+L?"', '')
      @([regex]::Matches($joined, '"((?:[^"\\\n]|\\.)*)"') | ForEach-Object { $_.Groups[1].Value -replace '\\"', '"' -replace '\\\\', '\' })
    }
    # The one literal of $File containing $Anchor, with its printf
    # conversions replaced by $Values in order.
    function script:Format-CLiteral {
      param([string] $File, [string] $Anchor, [string[]] $Values = @())
      $hits = @(Get-CLiteral -File $File | Where-Object { $_.Contains($Anchor) })
      if ($hits.Count -ne 1) { throw "$File has $($hits.Count) string literals containing '$Anchor' (want 1)" }
      $out = [Text.StringBuilder]::new()
      $pos = 0; $i = 0
      foreach ($m in [regex]::Matches($hits[0], '%(%|[-+ 0#]*\d*(?:\.\d+)?(?:ll|l|z|h)?[sduxc])')) {
        $null = $out.Append($hits[0].Substring($pos, $m.Index - $pos))
        if ($m.Value -eq '%%') { $null = $out.Append('%') } else { $null = $out.Append($Values[$i]); $i++ }
        $pos = $m.Index + $m.Length
      }
      $null = $out.Append($hits[0].Substring($pos))
      $out.ToString()
    }
    $script:haveCreateC = Test-Path -LiteralPath (Join-Path $script:srcRoot 'src/win/create.c')
  }

  It 'LargePagesRefused: run_env.c''s -l failure with ERROR_NOT_ALL_ASSIGNED (1300)' {
    $what = Format-CLiteral -File 'src/win/run_env.c' -Anchor 'Error adjusting token privileges for'
    $what | Should -Be 'Error adjusting token privileges for SeLockMemoryPrivilege'
    $msg = Format-CLiteral -File 'src/win/run_env.c' -Anchor '(error code: %lu): large pages' -Values @($what, '1300')
    $msg | Should -Match $script:SelfCheckExpect.LargePagesRefused
  }
  It 'PriorityRefused: both -I failures of priority.c' {
    Format-CLiteral -File 'src/win/priority.c' -Anchor 'Error setting IO priority' -Values @('D:\x.dat') | Should -Match $script:SelfCheckExpect.PriorityRefused
    Format-CLiteral -File 'src/win/priority.c' -Anchor 'did not take effect' -Values @('low', 'D:\x.dat', 'normal') | Should -Match $script:SelfCheckExpect.PriorityRefused
  }
  It 'PriorityLine: the text report''s -I<Level> line' -ForEach @(@{ Level = '1' }, @{ Level = '2' }) {
    $want = $script:SelfCheckExpect.PriorityLine[$Level]
    @(Get-CLiteral -File 'src/report/report_profile_text.c' | Where-Object { $_ -eq "\t\t$want\n" }).Count | Should -Be 1
  }
  It 'RawWriteRefused: run_files.c''s refusal names --allow-raw-write (and the partition table)' {
    $msg = Format-CLiteral -File 'src/run/run_files.c' -Anchor "refusing to write to '%s'" -Values @('#3', 'holds', 'a partition table', '100')
    $msg | Should -Match $script:SelfCheckExpect.RawWriteRefused
    $msg | Should -Match 'partition table'
  }
  It 'MissingDrive: file.c''s missing disk or volume with ERROR_FILE_NOT_FOUND' {
    Format-CLiteral -File 'src/win/file.c' -Anchor 'no such disk or volume' -Values @('Q:', '2') | Should -Match $script:SelfCheckExpect.MissingDrive
  }
  It 'RawWriteInVolume: the system text with "(error 5)" (error.c) then iocp.c''s advice' {
    $text = Format-CLiteral -File 'src/win/error.c' -Anchor '%s (error %lu)' -Values @('Access is denied', '5')
    $advice = Format-CLiteral -File 'src/win/iocp.c' -Anchor 'take the disk offline'
    "cannot write '\\.\E:': $text$advice" | Should -Match $script:SelfCheckExpect.RawWriteInVolume
  }
  It 'RawWriteMounted: raw_write.c''s refusal of a mounted NTFS volume, within the 300 characters a run message keeps' {
    $msg = Format-CLiteral -File 'src/win/raw_write.c' -Anchor 'is mounted on this' -Values @('E:', ' (', 'NTFS', ')')
    $msg | Should -Match $script:SelfCheckExpect.RawWriteMounted
    $msg.Substring(0, 120) | Should -Match $script:SelfCheckExpect.RawWriteMounted
  }
  It 'RawWriteOnlineDisk: raw_write.c''s refusal of an online disk, one partition or several' {
    Format-CLiteral -File 'src/win/raw_write.c' -Anchor 'the disk is online with' -Values @('#3', '2', 's') | Should -Match $script:SelfCheckExpect.RawWriteOnlineDisk
    Format-CLiteral -File 'src/win/raw_write.c' -Anchor 'the disk is online with' -Values @('#3', '1', '') | Should -Match $script:SelfCheckExpect.RawWriteOnlineDisk
  }
  It 'CtrlCLine: app_run.c''s line before the partial results' {
    @(Get-CLiteral -File 'src/app/app_run.c' | Where-Object { $_ -match $script:SelfCheckExpect.CtrlCLine }).Count | Should -Be 1
  }
  It 'CtrlCThirdExitCode: 0xC000013A, the default handler''s exit after thread.c declines the third event' {
    '{0:X8}' -f $script:SelfCheckExpect.CtrlCThirdExitCode | Should -Be 'C000013A'
    [IO.File]::ReadAllText((Join-Path $script:srcRoot 'src/win/thread.c')) | Should -Match 'if \(n >= 3\) return FALSE;'
  }
  It 'CreatingFileLine: run_files.c''s -v line, once per created target' {
    @(Get-CLiteral -File 'src/run/run_files.c' | Where-Object { $_.StartsWith($script:SelfCheckExpect.CreatingFileLine) }).Count | Should -Be 1
  }
  It '<Key>: create.c''s -c note' -ForEach @(
    @{ Key = 'CreateByValidData'; Anchor = 'was created with SetFileValidData'; Values = @('S:\x.dat', '67108864') }
    @{ Key = 'CreateHeldOpen'; Anchor = 'is open in another program'; Values = @('S:\x.dat') }
    @{ Key = 'CreateAclNotKept'; Anchor = 'cannot keep an owner'; Values = @('F:\x.dat', '1') }
    @{ Key = 'CreateNoPrivilege'; Anchor = 'Could not set privileges for setting valid'; Values = @() }
    @{ Key = 'CreateValidDataFail'; Anchor = 'Could not set valid file size (error code'; Values = @('87') }
    @{ Key = 'CreateInterrupted'; Anchor = 'the unfinished file was removed'; Values = @() }
    @{ Key = 'ValidDataDacl'; Anchor = 'D:P('; Values = @() }
  ) {
    if (-not $script:haveCreateC) { Set-ItResult -Skipped -Because 'src/win/create.c is not in this tree yet (branch h-win-safe); set IOSPD_SOURCE_ROOT to a tree that has it' ; return }
    $msg = Format-CLiteral -File 'src/win/create.c' -Anchor $Anchor -Values $Values
    if ($Key -eq 'ValidDataDacl') { $msg | Should -Be $script:SelfCheckExpect.ValidDataDacl }
    else { $msg | Should -Match $script:SelfCheckExpect[$Key] }
  }
  It 'RawGuardShareDenied: file.c''s guard on a disk it cannot open (ERROR_SHARING_VIOLATION)' {
    if (-not $script:haveCreateC) { Set-ItResult -Skipped -Because 'the fail-closed guard is not in this tree yet (branch h-win-safe); set IOSPD_SOURCE_ROOT to a tree that has it'; return }
    $content = Format-CLiteral -File 'src/win/file.c' -Anchor 'cannot be opened for reading' -Values @('32')
    $msg = Format-CLiteral -File 'src/run/run_files.c' -Anchor "refusing to write to '%s'" -Values @('#3', 'holds', $content, '100')
    $msg | Should -Match $script:SelfCheckExpect.RawGuardShareDenied
    $msg | Should -Match $script:SelfCheckExpect.RawWriteRefused
  }
}

Describe 'IoRing and BypassIO checks (DISKSPD 2.3)' {
  BeforeAll {
    $script:srcRoot = if ($env:IOSPD_SOURCE_ROOT) { $env:IOSPD_SOURCE_ROOT } else { $script:repo }
    function script:Get-CLiteral2 {
      param([string] $File)
      $raw = [IO.File]::ReadAllText((Join-Path $script:srcRoot $File))
      $joined = [regex]::Replace($raw, '"\s+L?"', '')
      @([regex]::Matches($joined, '"((?:[^"\\\n]|\\.)*)"') | ForEach-Object { $_.Groups[1].Value -replace '\\"', '"' -replace '\\\\', '\' })
    }
    function script:One-Literal {
      param([string] $File, [string] $Anchor)
      $hits = @(Get-CLiteral2 -File $File | Where-Object { $_.Contains($Anchor) })
      if ($hits.Count -ne 1) { throw "$File has $($hits.Count) literals containing '$Anchor' (want 1)" }
      $hits[0]
    }
  }
  It 'IoRingMissing matches every refusal of ioring_api.c' {
    foreach ($a in 'this Windows has no %s in', 'QueryIoRingCapabilities failed', 'QueryIoRingCapabilities reports no') {
      One-Literal -File 'src/win/ioring_api.c' -Anchor $a | Should -Match $script:SelfCheckExpect.IoRingMissing
    }
  }
  It 'IoRingNoWrite matches the version and the op refusals' {
    One-Literal -File 'src/win/ioring_api.c' -Anchor 'which only reads' | Should -Match $script:SelfCheckExpect.IoRingNoWrite
    One-Literal -File 'src/win/ioring.c' -Anchor 'IsIoRingOpSupported says' | Should -Match $script:SelfCheckExpect.IoRingNoWrite
    $h = [IO.File]::ReadAllText((Join-Path $script:srcRoot 'src/win/ioring_api.h'))
    $h | Should -Match ("#define IOSPD_IOR_BUILD_WRITE {0}u" -f $script:SelfCheckExpect.IoRingWriteBuild)
    $h | Should -Match ("#define IOSPD_IOR_BUILD_READ {0}u" -f $script:SelfCheckExpect.IoRingReadBuild)
  }
  It 'BypassFullRefused matches the three -SY refusals of bypass.c' {
    foreach ($a in 'cannot be enabled on', 'is not possible on', 'is only partial on') {
      (One-Literal -File 'src/win/bypass.c' -Anchor $a) -replace "'%s'", "'C:\x.dat'" | Should -Match $script:SelfCheckExpect.BypassFullRefused
    }
  }
  It 'ioring-caps: <Why>' -ForEach @(
    @{ Why = 'Windows 10 without IoRing is INFO'; Build = 19045; Present = $false; V = 0; Want = 'INFO' }
    @{ Why = '22H2 with version 3 passes'; Build = 22621; Present = $true; V = 300; Want = 'PASS' }
    @{ Why = '21H2 with version 1 passes'; Build = 22000; Present = $true; V = 1; Want = 'PASS' }
    @{ Why = '22H2 with only version 2 fails'; Build = 22631; Present = $true; V = 2; Want = 'FAIL' }
    @{ Why = 'Windows 11 without the call fails'; Build = 22631; Present = $false; V = 0; Want = 'FAIL' }
  ) {
    $caps = [ordered]@{ Present = $Present; HResult = '0x00000000'; MaxVersion = $V; MaxSubmissionQueueSize = 32768; MaxCompletionQueueSize = 65536; FeatureFlags = 0 }
    (Test-SelfCheckIoRingCaps -Build $Build -Caps $caps).Result | Should -Be $Want
  }
  It 'ioring run: <Why>' -ForEach @(
    @{ Why = 'Windows 10 refusing with the file unchanged passes'; Build = 19045; WExit = 1; RExit = 1; Err = 'error: cannot create the I/O queue of thread 0: IoRing (-u) is not available: this Windows has no QueryIoRingCapabilities'; Write = $false; Want = 'PASS' }
    @{ Why = 'Windows 10 running anyway fails'; Build = 19045; WExit = 0; RExit = 0; Err = ''; Write = $true; Want = 'FAIL' }
    @{ Why = '21H2 reads, writes refused, passes'; Build = 22000; WExit = 1; RExit = 0; Err = 'IoRing (-u) cannot write here: version 1'; Write = $false; Want = 'PASS' }
    @{ Why = '22H2 with the bytes written passes'; Build = 22621; WExit = 0; RExit = 0; Err = ''; Write = $true; Want = 'PASS' }
    @{ Why = '22H2 with the bytes not written fails'; Build = 22621; WExit = 0; RExit = 0; Err = ''; Write = $false; Want = 'FAIL' }
    @{ Why = 'a parser without -u skips'; Build = 22621; WExit = 3; RExit = 3; Err = 'unknown option'; Write = $false; Want = 'SKIP' }
  ) {
    $dir = Join-Path ([IO.Path]::GetTempPath()) ("ioring-sc-" + [guid]::NewGuid())
    $null = New-Item -ItemType Directory -Path $dir
    try {
      $ctx = [pscustomobject]@{ IoSpd = 'iospd.exe'; WorkDir = $dir }
      Mock Get-SelfCheckOsBuild { $Build }
      $script:fakeW = $Write
      $script:fakeRuns = [System.Collections.Generic.List[object]]::new()
      Mock Invoke-SelfCheckTool {
        $isWrite = $ArgumentList -contains '-w100'
        $file = $ArgumentList[-1]
        if ($isWrite -and $script:fakeW) {
          $b = New-Object byte[] (1MB); for ($i = 0; $i -lt $b.Length; $i++) { $b[$i] = [byte]($i -band 0xFF) }
          [IO.File]::WriteAllBytes($file, $b)
        }
        $script:fakeRuns.Add($ArgumentList)
        $code = if ($isWrite) { $WExit } else { $RExit }
        [pscustomobject]@{ ExitCode = $code; StdOut = $(if ($code -eq 0) { '<Results><IoEngine>IoRing</IoEngine></Results>' } else { '' }); StdErr = $(if ($code -ne 0) { $Err } else { '' }); TimedOut = $false; Seconds = 1 }
      }
      (Test-SelfCheckIoRingRun -Context $ctx -Engine @('--diskspd=2.3', '-u')).Result | Should -Be $Want
      $script:fakeRuns[0][0] | Should -Be '--diskspd=2.3'
      $script:fakeRuns[0][1] | Should -Be '-u'
    } finally { Remove-Item -LiteralPath $dir -Recurse -Force }
  }
}
