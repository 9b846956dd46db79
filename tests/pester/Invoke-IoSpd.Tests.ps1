# SPDX-License-Identifier: MIT
# Invoke-IoSpd: the exact argument lists built from parameters, running a
# program and handling its exit code, and a short real run of the Linux
# iospd binary (IOSPD_EXE or build/linux/iospd).

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  Import-Module (Join-Path $repo 'scripts/IoSpd/IoSpd.psd1') -Force
  # A small hand-written result (1600 I/Os in 2 s) stands in for iospd's output.
  $script:sampleXml = Join-Path $PSScriptRoot 'data/result-small.xml'
}

Describe 'ConvertTo-IoSpdArgumentList (private)' {
  It 'builds <Name>' -ForEach @(
    @{ Name = 'just targets'; P = @{ Target = @('t.dat') }; Want = @('-Rxml', 't.dat') }
    @{ Name = 'two targets keep their order'; P = @{ Target = @('b.dat', 'a.dat') }; Want = @('-Rxml', 'b.dat', 'a.dat') }
    @{ Name = 'integer block size in bytes'; P = @{ Target = 't'; BlockSize = 4096 }; Want = @('-b4096', '-Rxml', 't') }
    @{ Name = 'block size with suffix, upper-cased'; P = @{ Target = 't'; BlockSize = '64k' }; Want = @('-b64K', '-Rxml', 't') }
    @{ Name = 'threads and queue depth'; P = @{ Target = 't'; Threads = 4; OutstandingIO = 32 }; Want = @('-t4', '-o32', '-Rxml', 't') }
    @{ Name = 'write percent 0 is passed'; P = @{ Target = 't'; WritePercent = 0 }; Want = @('-w0', '-Rxml', 't') }
    @{ Name = 'write percent 100'; P = @{ Target = 't'; WritePercent = 100 }; Want = @('-w100', '-Rxml', 't') }
    @{ Name = 'random'; P = @{ Target = 't'; Random = $true }; Want = @('-r', '-Rxml', 't') }
    @{ Name = 'timing incl. zero warm-up'; P = @{ Target = 't'; Duration = 30; Warmup = 0; Cooldown = 2 }; Want = @('-d30', '-W0', '-C2', '-Rxml', 't') }
    @{ Name = 'cache mode Cached'; P = @{ Target = 't'; CacheMode = 'Cached' }; Want = @('-Sb', '-Rxml', 't') }
    @{ Name = 'cache mode NoBuffering'; P = @{ Target = 't'; CacheMode = 'NoBuffering' }; Want = @('-Su', '-Rxml', 't') }
    @{ Name = 'cache mode WriteThrough'; P = @{ Target = 't'; CacheMode = 'WriteThrough' }; Want = @('-Sw', '-Rxml', 't') }
    @{ Name = 'cache mode Both'; P = @{ Target = 't'; CacheMode = 'Both' }; Want = @('-Sh', '-Rxml', 't') }
    @{ Name = 'latency and IOPS interval'; P = @{ Target = 't'; Latency = $true; IopsInterval = 500 }; Want = @('-L', '-D500', '-Rxml', 't') }
    @{ Name = 'create size'; P = @{ Target = 't'; CreateSize = '1G' }; Want = @('-c1G', '-Rxml', 't') }
    @{ Name = 'create size in bytes'; P = @{ Target = 't'; CreateSize = 1048576 }; Want = @('-c1048576', '-Rxml', 't') }
    @{ Name = 'raw arguments before -Rxml'; P = @{ Target = 't'; ArgumentList = @('-Z1M', '-a0,1') }; Want = @('-Z1M', '-a0,1', '-Rxml', 't') }
    @{ Name = 'a path with spaces stays one argument'; P = @{ Target = 'C:\My Files\t.dat' }; Want = @('-Rxml', 'C:\My Files\t.dat') }
    @{ Name = 'verified run'; P = @{ Target = 't'; BlockSize = '4K'; Verify = $true }; Want = @('-b4K', '--verify', '-Rxml', 't') }
    @{ Name = 'verify-only: no -R, it prints its own summary'; P = @{ Target = 't'; BlockSize = '4K'; VerifyOnly = $true }; Want = @('-b4K', '--verify-only', 't') }
    @{ Name = 'verify state file'; P = @{ Target = '#1'; Verify = $true; VerifyState = 'D:\s.state' }; Want = @('--verify', '--verify-state=D:\s.state', '-Rxml', '#1') }
    @{ Name = 'everything in the fixed order'
      P = @{ Target = @('x.dat', 'y.dat'); CreateSize = '64M'; ArgumentList = '-Z1M'; IopsInterval = 1000; Latency = $true
        CacheMode = 'Both'; Cooldown = 1; Warmup = 5; Duration = 3; Random = $true; WritePercent = 25; OutstandingIO = 8
        Threads = 2; BlockSize = '4K' }
      Want = @('-b4K', '-t2', '-o8', '-w25', '-r', '-d3', '-W5', '-C1', '-Sh', '-L', '-D1000', '-c64M', '-Z1M', '-Rxml', 'x.dat', 'y.dat') }
  ) {
    $params = $P
    $got = InModuleScope IoSpd -Parameters @{ Params = $params } { param($Params) ConvertTo-IoSpdArgumentList @Params }
    # -Be on arrays compares element-wise; compare joined too for a readable diff.
    ($got -join ' | ') | Should -BeExactly ($Want -join ' | ')
    $got.Count | Should -Be $Want.Count
  }

  It 'rejects -Verify with -VerifyOnly, and -VerifyState alone' {
    { InModuleScope IoSpd { ConvertTo-IoSpdArgumentList -Target t -Verify -VerifyOnly } } |
      Should -Throw -ExpectedMessage '-Verify and -VerifyOnly cannot be used together*' -ErrorId 'IoSpdInvalidArgument'
    { InModuleScope IoSpd { ConvertTo-IoSpdArgumentList -Target t -VerifyState s } } |
      Should -Throw -ExpectedMessage '-VerifyState needs -Verify or -VerifyOnly.' -ErrorId 'IoSpdInvalidArgument'
  }

  It 'rejects <Name>' -ForEach @(
    @{ Name = 'a block size that is no size'; P = @{ Target = 't'; BlockSize = '4KX' }; Msg = "-BlockSize: '4KX' is not a size. Give *"; Id = 'IoSpdInvalidSize' }
    @{ Name = 'the blocks suffix B'; P = @{ Target = 't'; BlockSize = '4B' }; Msg = "-BlockSize: '4B' is not a size.*"; Id = 'IoSpdInvalidSize' }
    @{ Name = 'a zero block size'; P = @{ Target = 't'; BlockSize = 0 }; Msg = '-BlockSize: 0 is not greater than zero.*'; Id = 'IoSpdInvalidSize' }
    @{ Name = 'a zero block size as text'; P = @{ Target = 't'; BlockSize = '0K' }; Msg = "-BlockSize: '0K' is not greater than zero.*"; Id = 'IoSpdInvalidSize' }
    @{ Name = 'a fraction of a byte'; P = @{ Target = 't'; BlockSize = 1.5 }; Msg = '-BlockSize: 1.5 is not a whole number of bytes.*'; Id = 'IoSpdInvalidSize' }
    @{ Name = 'a negative create size'; P = @{ Target = 't'; CreateSize = '-1' }; Msg = "-CreateSize: '-1' is not a size.*"; Id = 'IoSpdInvalidSize' }
    @{ Name = 'a negative create size as a number'; P = @{ Target = 't'; CreateSize = -1GB }; Msg = '-CreateSize: -1073741824 is not greater than zero.*'; Id = 'IoSpdInvalidSize' }
    @{ Name = 'write percent above 100'; P = @{ Target = 't'; WritePercent = 101 }; Msg = '*-WritePercent must be 0..100*'; Id = 'IoSpdInvalidArgument' }
    @{ Name = 'zero threads'; P = @{ Target = 't'; Threads = 0 }; Msg = '*-Threads must be 1 or more*'; Id = 'IoSpdInvalidArgument' }
    @{ Name = 'zero outstanding I/O'; P = @{ Target = 't'; OutstandingIO = 0 }; Msg = '*-OutstandingIO must be 1 or more*'; Id = 'IoSpdInvalidArgument' }
    @{ Name = 'a second result format in raw arguments'; P = @{ Target = 't'; ArgumentList = '-Rtext' }; Msg = "*contains '-Rtext'*always asks for -Rxml*"; Id = 'IoSpdInvalidArgument' }
    @{ Name = 'an empty target'; P = @{ Target = @('a', ' ') }; Msg = '*-Target contains an empty path*'; Id = 'IoSpdInvalidArgument' }
  ) {
    $params = $P
    $err = { InModuleScope IoSpd -Parameters @{ Params = $params } { param($Params) ConvertTo-IoSpdArgumentList @Params } } |
      Should -Throw -PassThru
    $err.Exception.Message | Should -BeLike $Msg
    $err.FullyQualifiedErrorId | Should -Be $Id
    $err.CategoryInfo.Category | Should -Be 'InvalidArgument'
  }

  # PowerShell's own literals typed as command arguments: they arrive as
  # numbers wrapped in a PSObject whose text is the literal ('4KB'), which
  # the old code read and refused ("-BlockSize '4096' is not a size").
  # Deliberate breakage: reading [string]$Value in ConvertTo-IoSpdSizeArgument
  # again makes the first two fail.
  It 'takes 4KB and 1GB typed as arguments as bytes' {
    $got = InModuleScope IoSpd { ConvertTo-IoSpdArgumentList -Target t -BlockSize 4KB -CreateSize 1GB }
    ($got -join ' ') | Should -BeExactly '-b4096 -c1073741824 -Rxml t'
  }
  It 'takes 10GB (a long) and 1.5GB (a whole double) as bytes' {
    $got = InModuleScope IoSpd { ConvertTo-IoSpdArgumentList -Target t -BlockSize 64KB -CreateSize 10GB }
    ($got -join ' ') | Should -BeExactly '-b65536 -c10737418240 -Rxml t'
    $got = InModuleScope IoSpd { ConvertTo-IoSpdArgumentList -Target t -CreateSize 1.5GB }
    ($got -join ' ') | Should -BeExactly '-c1610612736 -Rxml t'
  }
  It 'takes iospd size text and the PowerShell spelling as text: <In> -> <Want>' -ForEach @(
    @{ In = '4K'; Want = '-b4K' }, @{ In = '4k'; Want = '-b4K' }, @{ In = '4KB'; Want = '-b4K' }
    @{ In = '64kb'; Want = '-b64K' }, @{ In = ' 1G '; Want = '-b1G' }, @{ In = '2T'; Want = '-b2T' }
    @{ In = '512'; Want = '-b512' }
  ) {
    $in = $In
    $got = InModuleScope IoSpd -Parameters @{ V = $in } { param($V) ConvertTo-IoSpdArgumentList -Target t -BlockSize $V }
    ($got -join ' ') | Should -BeExactly "$Want -Rxml t"
  }
  It 'asks for -Rjson instead of -Rxml with -ResultFormat json' {
    $got = InModuleScope IoSpd { ConvertTo-IoSpdArgumentList -Target t -Threads 2 -ResultFormat json }
    ($got -join ' ') | Should -BeExactly '-t2 -Rjson t'
  }
}

Describe 'ConvertTo-IoSpdWindowsArgumentString (private, the Windows PowerShell 5.1 command line)' {
  BeforeAll {
    # A reference splitter written from the documented rules of the
    # Microsoft C runtime (CommandLineToArgvW / parse_cmdline) for the
    # arguments after the program name: space and tab separate arguments
    # outside quotes; 2n backslashes before a quote give n backslashes and
    # the quote opens or closes quoting; 2n+1 backslashes before a quote
    # give n backslashes and a literal quote; backslashes before anything
    # else are literal; "" inside quotes is a literal quote.
    function script:Split-MsvcCommandLine([string] $Line) {
      $out = [System.Collections.Generic.List[string]]::new()
      $i = 0; $n = $Line.Length
      while ($true) {
        while ($i -lt $n -and ($Line[$i] -eq ' ' -or $Line[$i] -eq "`t")) { $i++ }
        if ($i -ge $n) { break }
        $cur = [Text.StringBuilder]::new(); $quoted = $false
        while ($i -lt $n) {
          $c = $Line[$i]
          if (-not $quoted -and ($c -eq ' ' -or $c -eq "`t")) { break }
          if ($c -eq '\') {
            $k = 0
            while ($i -lt $n -and $Line[$i] -eq '\') { $k++; $i++ }
            if ($i -lt $n -and $Line[$i] -eq '"') {
              $null = $cur.Append([char]'\', [int][Math]::Floor($k / 2))
              if ($k % 2 -eq 1) { $null = $cur.Append([char]'"'); $i++ }
            } else {
              $null = $cur.Append([char]'\', $k)
            }
            continue
          }
          if ($c -eq '"') {
            if ($quoted -and $i + 1 -lt $n -and $Line[$i + 1] -eq '"') { $null = $cur.Append([char]'"'); $i += 2; continue }
            $quoted = -not $quoted; $i++; continue
          }
          $null = $cur.Append($c); $i++
        }
        $out.Add($cur.ToString())
      }
      return , $out.ToArray()
    }
  }

  It 'the reference splitter itself reads <Line> as <Count> arguments' -ForEach @(
    @{ Line = 'a b'; Want = @('a', 'b'); Count = 2 }
    @{ Line = '"a b" c'; Want = @('a b', 'c'); Count = 2 }
    @{ Line = 'a\\\"b'; Want = @('a\"b'); Count = 1 }
    @{ Line = '"C:\My Dir\" -b4K'; Want = @('C:\My Dir" -b4K'); Count = 1 }   # the bug the quoting must avoid
    @{ Line = '"" x'; Want = @('', 'x'); Count = 2 }
  ) {
    $got = Split-MsvcCommandLine $Line
    $got.Count | Should -Be $Count
    ($got -join '|') | Should -BeExactly ($Want -join '|')
  }

  # Deliberate breakage: dropping the doubling of trailing backslashes
  # (Append('\', 2 * $slashes) -> $slashes) fails the 'C:\My Dir\' rows and
  # the round trip; quoting without escaping '"' fails the quote rows.
  It 'quotes <Name>' -ForEach @(
    @{ Name = 'a plain argument as it is'; In = @('-b4K'); Want = '-b4K' }
    @{ Name = 'an empty string as ""'; In = @(''); Want = '""' }
    @{ Name = 'a space'; In = @('a b'); Want = '"a b"' }
    @{ Name = 'a tab'; In = @("a`tb"); Want = "`"a`tb`"" }
    @{ Name = 'a newline'; In = @("a`nb"); Want = "`"a`nb`"" }
    @{ Name = 'a trailing backslash in quotes (doubled)'; In = @('C:\My Dir\'); Want = '"C:\My Dir\\"' }
    @{ Name = 'two trailing backslashes in quotes (four)'; In = @('C:\My Dir\\'); Want = '"C:\My Dir\\\\"' }
    @{ Name = 'a trailing backslash without quoting (kept)'; In = @('C:\Dir\'); Want = 'C:\Dir\' }
    @{ Name = 'inner backslashes (kept)'; In = @('\\server\share dir\f.dat'); Want = '"\\server\share dir\f.dat"' }
    @{ Name = 'embedded quotes'; In = @('say "hi"'); Want = '"say \"hi\""' }
    @{ Name = 'a lone quote'; In = @('"'); Want = '"\""' }
    @{ Name = 'backslashes before a quote (2n+1)'; In = @('a\"b'); Want = '"a\\\"b"' }
    @{ Name = 'two backslashes before a quote'; In = @('a\\"b'); Want = '"a\\\\\"b"' }
    @{ Name = 'several arguments, the folder first'; In = @('C:\My Dir\', '-b4K', '', 'x y'); Want = '"C:\My Dir\\" -b4K "" "x y"' }
  ) {
    $in = $In
    $got = InModuleScope IoSpd -Parameters @{ A = $in } { param($A) ConvertTo-IoSpdWindowsArgumentString -ArgumentList $A }
    $got | Should -BeExactly $Want
    # Read back as a C program would: the same arguments, as many.
    $back = Split-MsvcCommandLine $got
    $back.Count | Should -Be $in.Count
    ($back -join '|') | Should -BeExactly ($in -join '|')
  }

  It 'round-trips awkward arguments through the reference splitter' {
    $in = @('C:\a b\', 'x', '\', '\\', '"', '\"', '""', ' ', "`t", 'a\\\"\b c', 'ü ß 日本\', '-c1G', '')
    $line = InModuleScope IoSpd -Parameters @{ A = $in } { param($A) ConvertTo-IoSpdWindowsArgumentString -ArgumentList $A }
    $back = Split-MsvcCommandLine $line
    $back.Count | Should -Be $in.Count
    for ($i = 0; $i -lt $in.Count; $i++) { $back[$i] | Should -BeExactly $in[$i] -Because "argument $i of $line" }
  }

  It 'is what the ProcessStartInfo gets where only one argument string exists' {
    $psi = InModuleScope IoSpd { New-IoSpdProcessStartInfo -FilePath 'iospd.exe' -ArgumentList @('-b4K', 'C:\My Dir\', 'x') -UseArgumentString }
    $psi.Arguments | Should -BeExactly '-b4K "C:\My Dir\\" x'
    $psi.ArgumentList.Count | Should -Be 0
  }
}

Describe 'New-IoSpdProcessStartInfo (private)' {
  # Deliberate breakage: removing the StandardOutputEncoding line makes
  # the first test fail (the property is then $null, the platform default:
  # the OEM code page on Windows).
  It 'decodes stdout and stderr as UTF-8 without a BOM' {
    $psi = InModuleScope IoSpd { New-IoSpdProcessStartInfo -FilePath 'iospd' -ArgumentList @('-b4K', 't.dat') }
    $psi.StandardOutputEncoding | Should -Not -BeNullOrEmpty
    $psi.StandardOutputEncoding.WebName | Should -Be 'utf-8'
    $psi.StandardErrorEncoding.WebName | Should -Be 'utf-8'
    $psi.StandardOutputEncoding.GetPreamble().Length | Should -Be 0
    $psi.RedirectStandardOutput | Should -BeTrue
    $psi.RedirectStandardError | Should -BeTrue
    $psi.UseShellExecute | Should -BeFalse
    @($psi.ArgumentList) | Should -Be @('-b4K', 't.dat')
  }
  It 'starts in the PowerShell location' {
    $dir = Join-Path $TestDrive 'psi location'
    $null = New-Item -ItemType Directory -Path $dir -Force
    Push-Location $dir
    try { $psi = InModuleScope IoSpd { New-IoSpdProcessStartInfo -FilePath 'iospd' } } finally { Pop-Location }
    $psi.WorkingDirectory | Should -Be (Resolve-Path $dir).ProviderPath
  }
}

Describe 'Invoke-IoSpd with a mocked process' {
  BeforeAll {
    $script:xmlText = Get-Content -LiteralPath $script:sampleXml -Raw
    $script:fakeExe = Join-Path $TestDrive 'iospd'
    Set-Content -LiteralPath $script:fakeExe -Value '' # only has to exist
  }
  It 'passes the built arguments and returns parsed results' {
    Mock -ModuleName IoSpd Invoke-IoSpdProcess {
      [pscustomobject]@{ ExitCode = 0; StdOut = $script:xmlText; StdErr = '' }
    }
    $r = Invoke-IoSpd -Path $script:fakeExe -Target 'testfile.dat' -BlockSize 4K -Threads 2 -OutstandingIO 8 `
      -WritePercent 25 -Random -Duration 3 -CacheMode Both -Latency -IopsInterval 1000 -CreateSize 64M
    $r.TotalIOs | Should -Be 1600
    $r.IOPS | Should -Be 800
    $r.TotalP99Ms | Should -Be 0.400
    Should -Invoke -ModuleName IoSpd Invoke-IoSpdProcess -Times 1 -Exactly -ParameterFilter {
      (Split-Path -Leaf $FilePath) -eq 'iospd' -and
      ($ArgumentList -join ' ') -ceq '-b4K -t2 -o8 -w25 -r -d3 -Sh -L -D1000 -c64M -Rxml testfile.dat'
    }
  }
  It 'turns a non-zero exit code into an error carrying stderr' {
    Mock -ModuleName IoSpd Invoke-IoSpdProcess {
      [pscustomobject]@{ ExitCode = 3; StdOut = ''; StdErr = "iospd: -b0 is not a valid block size`n"; TimedOut = $false; Id = 42 }
    }
    $err = { Invoke-IoSpd -Path $script:fakeExe -Target t.dat -BlockSize 4K -ErrorAction Stop } | Should -Throw -PassThru
    $err.Exception.Message | Should -BeExactly 'iospd exited with code 3: iospd: -b0 is not a valid block size'
    $err.FullyQualifiedErrorId | Should -Be 'IoSpdRunFailed,Invoke-IoSpd'
    $err.CategoryInfo.Category | Should -Be 'InvalidResult'
  }
  # A failed run is a non-terminating error, so -ErrorAction decides. The
  # old bare terminating error ignored SilentlyContinue (this threw).
  # Deliberate breakage: ThrowTerminatingError instead of WriteError for
  # IoSpdRunFailed makes the first test fail.
  It 'lets -ErrorAction SilentlyContinue drop a failed run: no output, no throw, the error in -ErrorVariable' {
    Mock -ModuleName IoSpd Invoke-IoSpdProcess {
      [pscustomobject]@{ ExitCode = 1; StdOut = ''; StdErr = 'disk full'; TimedOut = $false; Id = 42 }
    }
    $threw = $false
    try {
      $out = @(Invoke-IoSpd -Path $script:fakeExe -Target t.dat -ErrorAction SilentlyContinue -ErrorVariable ev)
    } catch { $threw = $true }
    $threw | Should -BeFalse
    $out.Count | Should -Be 0
    @($ev).Count | Should -Be 1
    $ev[0].FullyQualifiedErrorId | Should -Be 'IoSpdRunFailed,Invoke-IoSpd'
    $ev[0].Exception.Message | Should -BeExactly 'iospd exited with code 1: disk full'
  }
  It 'makes bad input terminating with its id even under -ErrorAction SilentlyContinue, before running anything' {
    Mock -ModuleName IoSpd Invoke-IoSpdProcess { throw 'must not run' }
    $err = { Invoke-IoSpd -Path $script:fakeExe -Target t.dat -BlockSize '4x' -ErrorAction SilentlyContinue } | Should -Throw -PassThru
    $err.FullyQualifiedErrorId | Should -Be 'IoSpdInvalidSize,Invoke-IoSpd'
    Should -Invoke -ModuleName IoSpd Invoke-IoSpdProcess -Times 0 -Exactly
  }
  It 'passes 4KB and 1GB typed as arguments to iospd as bytes' {
    Mock -ModuleName IoSpd Invoke-IoSpdProcess { [pscustomobject]@{ ExitCode = 0; StdOut = $script:xmlText; StdErr = ''; TimedOut = $false; Id = 42 } }
    $null = Invoke-IoSpd -Path $script:fakeExe -Target t.dat -BlockSize 4KB -CreateSize 1GB
    Should -Invoke -ModuleName IoSpd Invoke-IoSpdProcess -Times 1 -Exactly -ParameterFilter {
      ($ArgumentList -join ' ') -ceq '-b4096 -c1073741824 -Rxml t.dat' }
  }
  It 'passes -TimeoutSec on and reports a timed-out run as IoSpdTimeout' {
    Mock -ModuleName IoSpd Invoke-IoSpdProcess { [pscustomobject]@{ ExitCode = $null; StdOut = ''; StdErr = ''; TimedOut = $true; Id = 4242 } }
    $out = @(Invoke-IoSpd -Path $script:fakeExe -Target t.dat -Duration 30 -TimeoutSec 7 -ErrorAction SilentlyContinue -ErrorVariable ev)
    $out.Count | Should -Be 0
    $ev[0].FullyQualifiedErrorId | Should -Be 'IoSpdTimeout,Invoke-IoSpd'
    $ev[0].CategoryInfo.Category | Should -Be 'OperationTimeout'
    $ev[0].Exception.Message | Should -BeLike 'iospd was stopped after -TimeoutSec 7 s*PID 4242*'
    Should -Invoke -ModuleName IoSpd Invoke-IoSpdProcess -Times 1 -Exactly -ParameterFilter { $TimeoutSec -eq 7 }
  }
  It 'fails clearly when iospd is not on PATH' {
    $old = $env:PATH
    try {
      $empty = Join-Path $TestDrive 'empty-bin'
      $null = New-Item -ItemType Directory -Path $empty -Force
      $env:PATH = $empty
      $err = { Invoke-IoSpd -Target t.dat } | Should -Throw '*iospd was not found on PATH*Install-IoSpd*-Path*' -PassThru
      $err.FullyQualifiedErrorId | Should -Be 'IoSpdExecutableNotFound,Invoke-IoSpd'
    } finally { $env:PATH = $old }
  }
  It 'finds a relative -Path in the PowerShell location' {
    Mock -ModuleName IoSpd Invoke-IoSpdProcess { [pscustomobject]@{ ExitCode = 0; StdOut = $script:xmlText; StdErr = ''; TimedOut = $false; Id = 42 } }
    $dir = Join-Path $TestDrive 'exe location'
    $null = New-Item -ItemType Directory -Path (Join-Path $dir 'bin') -Force
    Set-Content -LiteralPath (Join-Path $dir 'bin/iospd') -Value ''
    Push-Location $dir
    try { $null = Invoke-IoSpd -Path (Join-Path '.' 'bin/iospd') -Target t.dat } finally { Pop-Location }
    $want = Join-Path (Resolve-Path $dir).ProviderPath 'bin/iospd'
    Should -Invoke -ModuleName IoSpd Invoke-IoSpdProcess -Times 1 -Exactly -ParameterFilter { $FilePath -eq $want }
  }
  It 'fails clearly when -Path does not exist' {
    { Invoke-IoSpd -Target t.dat -Path (Join-Path $TestDrive 'nothere') } | Should -Throw "*nothere' does not exist*"
  }
}

Describe 'Invoke-IoSpd -AlignCsvOwner (Cluster helpers mocked)' {
  BeforeAll {
    $script:xmlText = Get-Content -LiteralPath $script:sampleXml -Raw
    $script:fakeExe = Join-Path $TestDrive 'iospd'
    Set-Content -LiteralPath $script:fakeExe -Value ''
  }
  BeforeEach {
    # Each stub records what it was called with, in order, so the tests
    # check the calls (and their order), not just that a stub ran.
    $script:log = [System.Collections.Generic.List[string]]::new()
    Mock -ModuleName IoSpd Invoke-IoSpdProcess {
      $script:log.Add('run ' + ($ArgumentList -join ' '))
      [pscustomobject]@{ ExitCode = 0; StdOut = $script:xmlText; StdErr = ''; TimedOut = $false; Id = 42 }
    }
    Mock -ModuleName IoSpd Move-IoSpdCsvOwner { $script:log.Add("move $Path") }
  }

  # Deliberate breakage: dropping the '#\d+' skip logs 'move #2'; moving
  # after the run puts 'run' first.
  It 'moves each CSV target to this node first, not physical disks' {
    $null = Invoke-IoSpd -Path $script:fakeExe -Target 'C:\ClusterStorage\Volume1\a.dat', '#2' -AlignCsvOwner
    $script:log | Should -Be @('move C:\ClusterStorage\Volume1\a.dat', 'run -Rxml C:\ClusterStorage\Volume1\a.dat #2')
  }
  # The old code neither had -WhatIf (a parameter binding error) nor asked.
  It '-WhatIf neither moves the CSV nor runs iospd, and returns nothing' {
    $out = @(Invoke-IoSpd -Path $script:fakeExe -Target 'C:\ClusterStorage\Volume1\a.dat' -AlignCsvOwner -WhatIf)
    $out.Count | Should -Be 0
    $script:log.Count | Should -Be 0
  }
  It '-WhatIf without -AlignCsvOwner does not run iospd either' {
    $out = @(Invoke-IoSpd -Path $script:fakeExe -Target 't.dat' -WhatIf)
    $out.Count | Should -Be 0
    $script:log.Count | Should -Be 0
  }
  It '-Confirm:$false moves and runs' {
    $out = @(Invoke-IoSpd -Path $script:fakeExe -Target 'C:\ClusterStorage\Volume1\a.dat' -AlignCsvOwner -Confirm:$false)
    $out[0].TotalIOs | Should -Be 1600
    $script:log | Should -Be @('move C:\ClusterStorage\Volume1\a.dat', 'run -Rxml C:\ClusterStorage\Volume1\a.dat')
  }
  It 'stops before the run when the move fails, with the move''s error' {
    Mock -ModuleName IoSpd Move-IoSpdCsvOwner { throw [InvalidOperationException]::new('not on a Cluster Shared Volume') }
    { Invoke-IoSpd -Path $script:fakeExe -Target 'C:\x\a.dat' -AlignCsvOwner } | Should -Throw '*not on a Cluster Shared Volume*'
    $script:log.Count | Should -Be 0
  }
  # The old code passed 'rel.dat' as it was: the CSV lookup then resolved it
  # against the process directory ([IO.Path]::GetFullPath), not $PWD.
  It 'resolves a relative target against the PowerShell location for the CSV lookup' {
    $dir = Join-Path $TestDrive 'csv location'
    $null = New-Item -ItemType Directory -Path $dir -Force
    [Environment]::CurrentDirectory | Should -Not -Be (Resolve-Path $dir).ProviderPath   # else the test proves nothing
    Push-Location $dir
    try { $null = Invoke-IoSpd -Path $script:fakeExe -Target 'rel.dat' -AlignCsvOwner } finally { Pop-Location }
    $want = Join-Path (Resolve-Path $dir).ProviderPath 'rel.dat'
    $script:log | Should -Be @("move $want", 'run -Rxml rel.dat')
  }
  It 'resolves a PowerShell drive path for the CSV lookup' {
    $dir = Join-Path $TestDrive 'drive root'
    $null = New-Item -ItemType Directory -Path $dir -Force
    $null = New-PSDrive -Name IoSpdTestDrv -PSProvider FileSystem -Root $dir -Scope Global
    try { $null = Invoke-IoSpd -Path $script:fakeExe -Target 'IoSpdTestDrv:\sub\d.dat' -AlignCsvOwner }
    finally { Remove-PSDrive -Name IoSpdTestDrv -Scope Global }
    $script:log[0] | Should -Be ('move ' + (Join-Path (Join-Path (Resolve-Path $dir).ProviderPath 'sub') 'd.dat'))
  }
}

Describe 'Invoke-IoSpdProcess (private) with a real program' -Skip:($IsWindows) {
  BeforeAll {
    # A stand-in executable: records its argv one per line, prints a given
    # file to stdout, a message to stderr and exits with a given code.
    $script:stub = Join-Path $TestDrive 'stub.sh'
    Set-Content -LiteralPath $script:stub -Value @'
#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done > "$STUB_ARGS"
pwd > "$STUB_ARGS.pwd"
[ -n "$STUB_OUT" ] && cat "$STUB_OUT"
printf 'stub stderr line\n' >&2
exit "${STUB_RC:-0}"
'@
    chmod +x $script:stub
    $env:STUB_ARGS = Join-Path $TestDrive 'args.txt'
  }
  AfterAll { Remove-Item Env:STUB_ARGS, Env:STUB_OUT, Env:STUB_RC -ErrorAction SilentlyContinue }

  It 'passes arguments with spaces and quotes unchanged and returns both streams' {
    $env:STUB_OUT = $script:sampleXml; $env:STUB_RC = '0'
    $r = InModuleScope IoSpd -Parameters @{ Stub = $script:stub } {
      param($Stub) Invoke-IoSpdProcess -FilePath $Stub -ArgumentList @('-b4K', 'a b.dat', 'q"x', '')
    }
    $r.ExitCode | Should -Be 0
    $r.StdErr | Should -BeExactly "stub stderr line`n"
    $r.StdOut.Length | Should -Be (Get-Item $script:sampleXml).Length
    Get-Content $env:STUB_ARGS | Should -Be @('-b4K', 'a b.dat', 'q"x', '')
  }
  It 'runs end to end through Invoke-IoSpd' {
    $env:STUB_OUT = $script:sampleXml; $env:STUB_RC = '0'
    $r = Invoke-IoSpd -Path $script:stub -Target 'my file.dat' -Threads 2 -Duration 1
    $r.TotalIOs | Should -Be 1600
    $r.Threads[1].IOs | Should -Be 600
    Get-Content $env:STUB_ARGS | Should -Be @('-t2', '-d1', '-Rxml', 'my file.dat')
  }
  It 'runs the program in the PowerShell location so relative targets resolve there' {
    $env:STUB_OUT = $script:sampleXml; $env:STUB_RC = '0'
    $dir = Join-Path $TestDrive 'cwd test'
    $null = New-Item -ItemType Directory -Path $dir -Force
    Push-Location $dir
    try { $null = Invoke-IoSpd -Path $script:stub -Target 'rel.dat' } finally { Pop-Location }
    (Get-Content "$env:STUB_ARGS.pwd") | Should -Be (Resolve-Path $dir).ProviderPath
  }
  It 'reports the exit code and stderr of a failing program' {
    Remove-Item Env:STUB_OUT -ErrorAction SilentlyContinue; $env:STUB_RC = '1'
    { Invoke-IoSpd -Path $script:stub -Target t.dat -ErrorAction Stop } | Should -Throw 'iospd exited with code 1: stub stderr line'
  }
}

Describe 'Invoke-IoSpd against the real Linux iospd' -Skip:($IsWindows) {
  BeforeAll {
    $script:exe = $env:IOSPD_EXE
    if (-not $script:exe) { $script:exe = Join-Path $repo 'build/linux/iospd' }
    if (-not (Test-Path -LiteralPath $script:exe -PathType Leaf)) {
      throw "The Linux iospd binary was not found at '$script:exe'. Build it first " +
        '(cmake -S . -B build/linux && cmake --build build/linux) or set IOSPD_EXE.'
    }
    $script:target = Join-Path $TestDrive 'engine test.dat'
  }
  It 'runs a 1 s 4 KiB random 30% write test and returns consistent counts' {
    $r = Invoke-IoSpd -Path $script:exe -Target $script:target -CreateSize 8M -BlockSize 4K -Threads 1 `
      -OutstandingIO 2 -WritePercent 30 -Random -Duration 1 -Warmup 0 -Cooldown 0 -Latency
    @($r).Count | Should -Be 1
    $r.TestTimeSeconds | Should -BeGreaterThan 0.5
    $r.TestTimeSeconds | Should -BeLessThan 3
    $r.ThreadCount | Should -Be 1
    $r.TotalIOs | Should -BeGreaterThan 0
    $r.TotalBytes | Should -Be ($r.TotalIOs * 4096)
    ($r.ReadIOs + $r.WriteIOs) | Should -Be $r.TotalIOs
    ($r.ReadBytes + $r.WriteBytes) | Should -Be $r.TotalBytes
    $r.ReadIOs | Should -BeGreaterThan 0
    $r.WriteIOs | Should -BeGreaterThan 0
    [Math]::Round($r.IOPS, 6) | Should -Be ([Math]::Round($r.TotalIOs / $r.TestTimeSeconds, 6))
    $r.Threads.Count | Should -Be 1
    $r.Threads[0].Path | Should -BeLike '*engine test.dat'
    $r.Threads[0].IOs | Should -Be $r.TotalIOs
    $r.Threads[0].FileSize | Should -Be 8388608
    $r.TotalMaxMs | Should -Not -BeNullOrEmpty
    $r.TotalP50Ms | Should -BeLessOrEqual $r.TotalMaxMs
    if ($r.TotalIOs -ge 1000) {
      # -w30 is drawn per I/O: far from 30 % only with very few I/Os.
      ($r.WriteIOs / $r.TotalIOs) | Should -BeGreaterThan 0.2
      ($r.WriteIOs / $r.TotalIOs) | Should -BeLessThan 0.4
    }
  }
  It 'reports a bad switch as an error with iospd''s message and exit code 3' {
    $err = { Invoke-IoSpd -Path $script:exe -Target $script:target -ArgumentList '-Q7' -ErrorAction Stop } | Should -Throw -PassThru
    $err.Exception.Message | Should -BeLike 'iospd exited with code 3: *'
  }
  # On Linux .NET decodes as UTF-8 anyway, so this guards the round trip
  # (and the XML reader) rather than the Windows code page; the encoding
  # itself is checked in 'New-IoSpdProcessStartInfo'.
  It 'returns a non-ASCII target path exactly' {
    $t = Join-Path $TestDrive 'ünï ß 日本 ö.dat'
    $r = Invoke-IoSpd -Path $script:exe -Target $t -CreateSize 1M -BlockSize 4K -Duration 1 -Warmup 0 -Cooldown 0
    $r.Threads[0].Path | Should -BeExactly $t
  }
  It 'returns the parsed -Rjson document with -Json' {
    $r = Invoke-IoSpd -Path $script:exe -Target $script:target -CreateSize 8M -BlockSize 4K -Threads 2 -Duration 1 -Warmup 0 -Cooldown 0 -Json
    $r.format | Should -Be 'iospd-results'
    $r.timespans.Count | Should -Be 1
    $r.timespans[0].thread_count | Should -Be 2
    $r.timespans[0].targets[0].path | Should -BeExactly $script:target
    $r.timespans[0].targets[0].file_size | Should -Be 8388608
    $tot = $r.timespans[0].total.total
    $tot.ios | Should -BeGreaterThan 0
    $tot.bytes | Should -Be ($tot.ios * 4096)
  }
  It 'kills iospd after -TimeoutSec and says so' {
    $sw = [Diagnostics.Stopwatch]::StartNew()
    $out = @(Invoke-IoSpd -Path $script:exe -Target $script:target -CreateSize 8M -Duration 30 -Warmup 0 -TimeoutSec 2 `
        -ErrorAction SilentlyContinue -ErrorVariable ev)
    $sw.Stop()
    $sw.Elapsed.TotalSeconds | Should -BeGreaterOrEqual 1.9
    $sw.Elapsed.TotalSeconds | Should -BeLessThan 5
    $out.Count | Should -Be 0
    @($ev).Count | Should -Be 1
    $ev[0].FullyQualifiedErrorId | Should -Be 'IoSpdTimeout,Invoke-IoSpd'
    $ev[0].Exception.Message | Should -Match '-TimeoutSec 2 s'
    $childPid = [int]([regex]::Match($ev[0].Exception.Message, 'PID (\d+)').Groups[1].Value)
    $childPid | Should -BeGreaterThan 0
    Get-Process -Id $childPid -ErrorAction SilentlyContinue | Should -BeNullOrEmpty
  }
}

Describe 'Stopping the pipeline stops iospd (real Linux iospd)' -Skip:($IsWindows) {
  BeforeAll {
    $script:exe = $env:IOSPD_EXE
    if (-not $script:exe) { $script:exe = Join-Path $repo 'build/linux/iospd' }
    $script:modulePath = Join-Path $repo 'scripts/IoSpd/IoSpd.psd1'
  }
  AfterEach {
    # If the test failed, do not leave its 30 s iospd behind (only the one
    # it started, by PID).
    if ($script:childPid) { Stop-Process -Id $script:childPid -Force -ErrorAction SilentlyContinue }
    if ($script:ps) { $script:ps.Dispose() }
  }
  # The old code waited in one blocking WaitForExit() with no finally: Stop()
  # itself hung for the whole -d30 and iospd ran to its end (the check below
  # found it alive after 5 s).
  # Deliberate breakage: removing Stop-IoSpdProcessTree from the finally
  # block of Invoke-IoSpdProcess fails the last assertion.
  It 'kills the running iospd when PowerShell.Stop() is called' {
    $script:childPid = $null; $script:ps = $null
    $target = Join-Path $TestDrive ("stop-" + [guid]::NewGuid().ToString('N') + '.dat')
    $script:ps = [powershell]::Create()
    $null = $script:ps.AddScript({
        param($Module, $Exe, $Target)
        Import-Module $Module
        Invoke-IoSpd -Path $Exe -Target $Target -CreateSize 8M -Duration 30 -Warmup 0
      }).AddArgument($script:modulePath).AddArgument($script:exe).AddArgument($target)
    $async = $script:ps.BeginInvoke()
    # Find the iospd of this run: a child of this process running this target.
    $deadline = [DateTime]::UtcNow.AddSeconds(10)
    while (-not $script:childPid -and [DateTime]::UtcNow -lt $deadline) {
      Start-Sleep -Milliseconds 100
      $p = Get-Process -ErrorAction SilentlyContinue | Where-Object {
        $_.Parent -and $_.Parent.Id -eq $PID -and $_.CommandLine -and $_.CommandLine.Contains($target) } | Select-Object -First 1
      if ($p) { $script:childPid = $p.Id }
    }
    $script:childPid | Should -Not -BeNullOrEmpty -Because 'iospd should have started within 10 s'
    Start-Sleep -Seconds 1
    Get-Process -Id $script:childPid -ErrorAction SilentlyContinue | Should -Not -BeNullOrEmpty -Because 'it runs for 30 s'
    $stop = $script:ps.BeginStop($null, $null)
    $gone = $false
    $deadline = [DateTime]::UtcNow.AddSeconds(5)
    while (-not $gone -and [DateTime]::UtcNow -lt $deadline) {
      Start-Sleep -Milliseconds 100
      $gone = -not (Get-Process -Id $script:childPid -ErrorAction SilentlyContinue)
    }
    $gone | Should -BeTrue -Because "iospd (PID $script:childPid) must be killed when the pipeline stops"
    $stop.AsyncWaitHandle.WaitOne(5000) | Should -BeTrue -Because 'Stop() must return promptly'
    $script:ps.EndStop($stop)
    $script:ps.InvocationStateInfo.State | Should -Be 'Stopped'
    $script:childPid = $null
  }
}

Describe 'Invoke-IoSpd -Verify / -VerifyOnly against the real Linux iospd (a failover drill)' -Skip:($IsWindows) {
  BeforeAll {
    $script:exe = $env:IOSPD_EXE
    if (-not $script:exe) { $script:exe = Join-Path $repo 'build/linux/iospd' }
    $script:vt = Join-Path $TestDrive 'verify me.dat'
  }
  It 'writes checked blocks, reads them back clean, then names a flipped bit by kind and offset' {
    $r = Invoke-IoSpd -Path $script:exe -Target $script:vt -CreateSize 256K -BlockSize 4K -WritePercent 100 `
      -OutstandingIO 4 -Duration 1 -Warmup 0 -Cooldown 0 -Verify -ErrorAction Stop
    $r.VerifyFailures | Should -Be 0
    $r.Verify[0].BlocksWritten | Should -BeGreaterThan 63
    Test-Path -LiteralPath "$($script:vt).iospd-verify" | Should -BeTrue

    $v = Invoke-IoSpd -Path $script:exe -Target $script:vt -BlockSize 4K -VerifyOnly -ErrorAction Stop
    @($v).Count | Should -Be 1
    $v.Passed | Should -BeTrue
    $v.BlocksRead | Should -Be 64
    $v.BlocksChecked | Should -Be 64
    $v.Failures | Should -Be 0

    # The "other node" finds a damaged block: results plus an IoSpdVerifyFailed error.
    $fs = [IO.File]::Open($script:vt, 'Open', 'ReadWrite')
    try { $fs.Position = 5 * 4096 + 700; $b = $fs.ReadByte(); $fs.Position = 5 * 4096 + 700; $fs.WriteByte($b -bxor 1) }
    finally { $fs.Dispose() }
    $v = Invoke-IoSpd -Path $script:exe -Target $script:vt -BlockSize 4K -VerifyOnly -ErrorAction SilentlyContinue -ErrorVariable ve
    $v.Passed | Should -BeFalse
    $v.Failures | Should -Be 1
    $v.BadChecksum | Should -Be 1
    $v.FailureLines[0] | Should -BeLike "verify FAILED: target '*verify me.dat' offset 20480 (block 5): bad checksum: *"
    $ve[0].FullyQualifiedErrorId | Should -BeLike 'IoSpdVerifyFailed*'

    # A verified read run reports it in its results and fails as well.
    $r = Invoke-IoSpd -Path $script:exe -Target $script:vt -BlockSize 4K -WritePercent 0 -Duration 1 -Warmup 0 `
      -Cooldown 0 -Verify -ErrorAction SilentlyContinue -ErrorVariable re
    $r.VerifyFailures | Should -BeGreaterThan 0
    $r.Verify[0].BadChecksum | Should -BeGreaterThan 0
    $re[0].FullyQualifiedErrorId | Should -BeLike 'IoSpdVerifyFailed*'
  }
}

# Issue #30: a --verify-only that could not check (read-only mount, state in
# use, a read error) printed "checked 0, failures 0" and Invoke-IoSpd
# returned Passed = True. Such a run is never a pass.
Describe 'Invoke-IoSpd -VerifyOnly: a check that did not get through is no pass' {
  BeforeAll {
    $script:fakeExe = Join-Path $TestDrive 'iospd'
    Set-Content -LiteralPath $script:fakeExe -Value '' # only has to exist
    $script:counts = 'failures 0 (bad checksum 0, stale generation 0, misdirected 0, zeroed 0, torn 0), ' +
      'indeterminate 0, not written by a verified run 0'
    $script:roErr = "error: --verify state file '/ro/t.dat.iospd-verify': cannot open '/ro/t.dat.iospd-verify': Read-only file system`n"
  }
  It 'reads a target marked incomplete as Complete = Passed = false, with an IoSpdVerifyIncomplete error' {
    Mock -ModuleName IoSpd Invoke-IoSpdProcess {
      [pscustomobject]@{ ExitCode = 1; TimedOut = $false; Id = 42; StdErr = $script:roErr
        StdOut = "verify-only (--verify-only): engine -`ntarget '/ro/t.dat': bytes 0 to 0, blocks read 0, checked 0, " +
          "$($script:counts), incomplete: the check stopped before the end (see the error), not a pass`n" }
    }
    $v = Invoke-IoSpd -Path $script:fakeExe -Target /ro/t.dat -BlockSize 4K -VerifyOnly -ErrorAction SilentlyContinue -ErrorVariable ve
    @($v).Count | Should -Be 1
    $v.Path | Should -BeExactly '/ro/t.dat'
    $v.Complete | Should -BeFalse
    $v.Passed | Should -BeFalse
    $ve[0].FullyQualifiedErrorId | Should -Be 'IoSpdVerifyIncomplete,Invoke-IoSpd'
    $ve[0].Exception.Message | Should -BeLike '*could not check every block (exit code 1): error: --verify state file*Read-only file system'
  }
  It 'does not pass zero failures with a non-zero exit that no line explains (an older iospd)' {
    Mock -ModuleName IoSpd Invoke-IoSpdProcess {
      [pscustomobject]@{ ExitCode = 1; TimedOut = $false; Id = 42; StdErr = $script:roErr
        StdOut = "verify-only (--verify-only): engine -`ntarget '/ro/t.dat': bytes 0 to 0, blocks read 0, checked 0, $($script:counts)`n" }
    }
    $v = Invoke-IoSpd -Path $script:fakeExe -Target /ro/t.dat -BlockSize 4K -VerifyOnly -ErrorAction SilentlyContinue -ErrorVariable ve
    $v.Passed | Should -BeFalse
    $ve[0].FullyQualifiedErrorId | Should -Be 'IoSpdVerifyIncomplete,Invoke-IoSpd'
  }
  It 'still passes a clean target, and a clean one beside a failed one' {
    $clean = "target 'a.dat': bytes 0 to 262144, blocks read 64, checked 64, $($script:counts)"
    $v = InModuleScope IoSpd -Parameters @{ Out = "$clean`n" } {
      ConvertFrom-IoSpdVerifyText -StdOut $Out -StdErr '' -ExitCode 0
    }
    $v.Passed | Should -BeTrue
    $v.Complete | Should -BeTrue
    $failed = "target 'b.dat': bytes 0 to 262144, blocks read 64, checked 63, failures 1 (bad checksum 1, stale generation 0, " +
      'misdirected 0, zeroed 0, torn 0), indeterminate 0, not written by a verified run 0'
    $v = InModuleScope IoSpd -Parameters @{ Out = "$clean`n$failed`n" } {
      ConvertFrom-IoSpdVerifyText -StdOut $Out -StdErr '' -ExitCode 1
    }
    $v[0].Passed | Should -BeTrue
    $v[1].Passed | Should -BeFalse
  }
}

Describe 'Invoke-IoSpd -VerifyOnly against the real Linux iospd: no pass without a check' -Skip:($IsWindows) {
  BeforeAll {
    $script:exe = $env:IOSPD_EXE
    if (-not $script:exe) { $script:exe = Join-Path $repo 'build/linux/iospd' }
    $script:isRoot = (& id -u) -eq '0'
  }
  It 'returns no passed target while another process holds the state' {
    $t = Join-Path $TestDrive 'held.dat'
    $null = Invoke-IoSpd -Path $script:exe -Target $t -CreateSize 64K -BlockSize 4K -WritePercent 100 `
      -Duration 1 -Warmup 0 -Cooldown 0 -Verify -ErrorAction Stop
    # A process holding the state's lock, as a running --verify does.
    # (-o: only flock itself holds the lock, so stopping it releases it.)
    $holder = Start-Process -FilePath flock -PassThru -ArgumentList @('-o', "$t.iospd-verify", 'sleep', '30') `
      -RedirectStandardOutput (Join-Path $TestDrive 'holder.out') -RedirectStandardError (Join-Path $TestDrive 'holder.err')
    try {
      for ($i = 0; $i -lt 50; $i++) {
        & flock -n "$t.iospd-verify" true 2>$null
        if ($LASTEXITCODE -ne 0) { break }   # held
        Start-Sleep -Milliseconds 100
      }
      $LASTEXITCODE | Should -Not -Be 0 -Because 'the holder must hold the state before the check'
      $v = Invoke-IoSpd -Path $script:exe -Target $t -BlockSize 4K -VerifyOnly -ErrorAction SilentlyContinue -ErrorVariable ve
      @($v | Where-Object { $_.Passed }).Count | Should -Be 0
      $ve.Count | Should -BeGreaterThan 0
    } finally { Stop-Process -Id $holder.Id -ErrorAction SilentlyContinue }
  }
  It 'returns Passed = false on a read-only mount unless every block was checked (root)' -Skip:(-not ((& id -u) -eq '0')) {
    $mnt = Join-Path ([IO.Path]::GetTempPath()) ("iospd-pester-ro-" + [guid]::NewGuid().ToString('N'))
    $null = New-Item -ItemType Directory -Path $mnt
    & mount -t tmpfs -o size=8m tmpfs $mnt
    try {
      $t = Join-Path $mnt 'r.dat'
      $null = Invoke-IoSpd -Path $script:exe -Target $t -CreateSize 256K -BlockSize 4K -WritePercent 100 `
        -Duration 1 -Warmup 0 -Cooldown 0 -Verify -ErrorAction Stop
      # The kernel drops an exited process's io_uring file references a
      # moment later (asynchronously): until then the mount is busy.
      for ($i = 0; $i -lt 100; $i++) {
        & mount -o remount,ro $mnt 2>$null
        if ($LASTEXITCODE -eq 0) { break }
        Start-Sleep -Milliseconds 100
      }
      $LASTEXITCODE | Should -Be 0 -Because 'the tmpfs must be read-only for this check'
      $v = Invoke-IoSpd -Path $script:exe -Target $t -BlockSize 4K -VerifyOnly -ErrorAction SilentlyContinue -ErrorVariable ve
      @($v).Count | Should -Be 1
      if ($v.Passed) {
        $v.BlocksChecked | Should -Be 64  # an iospd that can read a read-only mount: the whole of it
      } else {
        $v.Complete | Should -BeFalse
        $ve[0].FullyQualifiedErrorId | Should -Be 'IoSpdVerifyIncomplete,Invoke-IoSpd'
      }
    } finally {
      for ($i = 0; $i -lt 100; $i++) {
        & umount $mnt 2>$null
        if ($LASTEXITCODE -eq 0) { break }
        Start-Sleep -Milliseconds 100
      }
      Remove-Item -LiteralPath $mnt -Recurse -Force -Confirm:$false
    }
  }
}
