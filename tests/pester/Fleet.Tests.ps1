# SPDX-License-Identifier: MIT
# Invoke-IoSpdFleet: the pure helpers; the WinRM paths with mocked sessions
# (untested on real Windows); and for real, three "nodes" over SSH remoting
# to a private sshd on 127.0.0.1 (FleetSshBed.ps1), each running the real
# iospd (IOSPD_EXE) for a second in its own folder. Without sshd the SSH
# tests are skipped with the reason.

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  Import-Module (Join-Path $repo 'scripts/IoSpd/IoSpd.psd1') -Force
  . (Join-Path $PSScriptRoot 'FleetSshBed.ps1')
  $script:exe = if ($env:IOSPD_EXE) { $env:IOSPD_EXE } else { Join-Path $repo 'build/linux/iospd' }

  # Percentiles of one histogram made of every node's buckets, the way
  # src/stats/hist.c computes them (iospd_hist_percentile_ns): DISKSPD's rank
  # N x p, the first bucket whose running count reaches it, the bucket's
  # value (the microsecond below 10.0005 ms, else the midpoint) clamped to
  # [min, max]; p = 0 and 100 are the exact min and max.
  function Get-TestHistPercentileMs {
    param([object[]] $Histogram, [string[]] $Label)
    $counts = @{}; $hi = @{}; $n = [long]0; $min = [long]::MaxValue; $max = [long]0
    foreach ($h in $Histogram) {
      $n += [long]$h.count
      $min = [Math]::Min($min, [long]$h.min_ns); $max = [Math]::Max($max, [long]$h.max_ns)
      foreach ($b in $h.buckets) {
        $lo = [long]$b[0]
        $counts[$lo] = [long]$counts[$lo] + [long]$b[2]
        $hi[$lo] = $b[1]
      }
    }
    $los = @($counts.Keys | Sort-Object)
    foreach ($l in $Label) {
      $p = [double]$l
      if ($p -le 0) { $min / 1e6; continue }
      if ($p -ge 100) { $max / 1e6; continue }
      $target = ([Math]::Round($p * 1e7) / 1e9) * $n
      $cum = [long]0; $v = [double]$max
      foreach ($lo in $los) {
        $cum += $counts[$lo]
        if ($cum -ge $target) {
          if ($null -eq $hi[$lo]) { $v = $max }
          elseif ($lo -lt 10000500) { $v = [Math]::Floor(($lo + 500) / 1000) * 1000 }
          else { $v = $lo + ([long]$hi[$lo] - $lo) / 2 }
          break
        }
      }
      $v = [Math]::Min([Math]::Max($v, $min), $max)
      $v / 1e6
    }
  }
}

Describe 'fleet helpers (private)' {
  It 'expands {node} in <T>' -ForEach @(
    @{ T = 'C:\ClusterStorage\{node}\io.dat'; Want = 'C:\ClusterStorage\n1\io.dat' }
    @{ T = '/tmp/{NODE}/io.dat'; Want = '/tmp/n1/io.dat' }
    @{ T = '/mnt/{node}/{node}.dat'; Want = '/mnt/n1/n1.dat' }
    @{ T = '/tmp/x$1.dat'; Want = '/tmp/x$1.dat' }
    @{ T = '/tmp/{node}.dat'; Node = 'a$1$$b'; Want = '/tmp/a$1$$b.dat' }
  ) {
    $n = if ($Node) { $Node } else { 'n1' }
    InModuleScope IoSpd -Parameters @{ T = $T; N = $n } { param($T, $N) Expand-IoSpdFleetTemplate -Template $T -Node $N } | Should -BeExactly $Want
  }

  It 'quotes a command line that a process splits back into the same arguments' {
    # Round trip through a real process: printf prints each argument it got.
    $argv = @('-b4K', 'C:\My Dir\', 'a b', 'say "hi"', 'back\\slash', 'tail\"q', '')
    $line = InModuleScope IoSpd -Parameters @{ A = $argv } { param($A) ConvertTo-IoSpdFleetCommandLine -Argument $A }
    $line | Should -BeExactly '-b4K "C:\My Dir\\" "a b" "say \"hi\"" back\\slash "tail\\\"q" ""'
    if (-not $IsWindows) {
      $printf = (Get-Command printf -CommandType Application | Select-Object -First 1).Source
      $psi = [Diagnostics.ProcessStartInfo]::new($printf, '"[%s]\n" ' + $line)
      $psi.RedirectStandardOutput = $true; $psi.UseShellExecute = $false
      $p = [Diagnostics.Process]::Start($psi); $out = $p.StandardOutput.ReadToEnd(); $p.WaitForExit()
      @($out.TrimEnd("`n") -split "`n") | Should -Be @($argv | ForEach-Object { "[$_]" })
    }
  }

  It 'refuses <Raw> in -ArgumentList with an ErrorRecord' -ForEach @(
    @{ Raw = '-Rjson' }, @{ Raw = '/Rxml' }, @{ Raw = '--output=json:x' }, @{ Raw = '-yrgo' }, @{ Raw = '-yego' }, @{ Raw = '-Xp.xml' }
  ) {
    $e = $null
    try { InModuleScope IoSpd -Parameters @{ R = $Raw } { param($R) Test-IoSpdFleetRawArgument -ArgumentList '-d1', $R } }
    catch { $e = $_ }
    $e.FullyQualifiedErrorId | Should -Be 'IoSpdFleetBadArgument'
    $e.Exception.Message | Should -BeLike "*'$Raw'*"
  }

  It 'builds a node''s arguments: -L and -v once, its event, its JSON file, its targets last' {
    $a = InModuleScope IoSpd { Get-IoSpdFleetNodeArgument -ArgumentList '-d1', '-L' -EventName 'ev1' -JsonPath '/w/n1.json' -Target '/t/n1.dat' }
    $a | Should -Be @('-d1', '-L', '-v', '-yrev1', '--output=json:/w/n1.json', '/t/n1.dat')
  }

  It 'reads the version from iospd -? output' {
    InModuleScope IoSpd { Get-IoSpdFleetVersionText -HelpText 'Usage: iospd [switches] target1', 'iospd 0.1.0, compatible with the DISKSPD 2.2.0 command line' } | Should -BeExactly '0.1.0'
    InModuleScope IoSpd { Get-IoSpdFleetVersionText -HelpText 'bash: iospd: not found' } | Should -BeNullOrEmpty
  }

  It 'computes the start skew as the spread of the nodes'' event times' {
    $t = [datetime]::new(2026, 12, 1, 0, 0, 0, [DateTimeKind]::Utc)
    $sig = @(
      [pscustomobject]@{ BeforeUtc = $t; SetUtc = $t.AddTicks(20000) }          # 2 ms
      [pscustomobject]@{ BeforeUtc = $t.AddTicks(10000); SetUtc = $t.AddTicks(65000) }  # 6.5 ms, took 5.5
      [pscustomobject]@{ BeforeUtc = $t; SetUtc = $t.AddTicks(30000) }
    )
    $s = InModuleScope IoSpd -Parameters @{ S = $sig } { param($S) Get-IoSpdFleetSkew -Signal $S }
    $s.SkewMs | Should -Be 4.5
    $s.UncertaintyMs | Should -Be 5.5
  }

  It 'names a killed node''s signal and keeps the error line' {
    InModuleScope IoSpd { Get-IoSpdFleetExitText -ExitCode 137 -StdErr "NOTE: x`n" } | Should -BeExactly 'iospd exited with code 137 (killed by signal 9): NOTE: x'
    InModuleScope IoSpd { Get-IoSpdFleetExitText -ExitCode 3 -StdErr "NOTE: a`nerror: bad -b`nmore" } | Should -BeExactly 'iospd exited with code 3: error: bad -b'
    # iospd's own prefix ("iospd: error: ", src/base/message.c).
    InModuleScope IoSpd { Get-IoSpdFleetExitText -ExitCode 3 -StdErr "NOTE: a`niospd: error: bad -b`nmore" } | Should -BeExactly 'iospd exited with code 3: iospd: error: bad -b'
    # 137 from a Windows node is an exit code, not a signal.
    InModuleScope IoSpd { Get-IoSpdFleetExitText -ExitCode 137 -StdErr '' -NodeIsWindows } | Should -BeExactly 'iospd exited with code 137'
  }
}

Describe 'Invoke-IoSpdFleet over WinRM (mocked sessions; untested on real Windows)' {
  BeforeAll {
    # Real JSON of a 1 s local run stands in for what each Windows node sends back.
    $script:wdir = Join-Path ([IO.Path]::GetTempPath()) ("iospd-fleet-mock-" + [guid]::NewGuid().ToString('N').Substring(0, 8))
    $null = New-Item -ItemType Directory -Path $script:wdir
    & $script:exe -c1M -d1 -W0 -L -b4K "--output=json:$script:wdir/one.json" "$script:wdir/t.dat" | Out-Null
    $script:oneJson = Get-Content -Raw "$script:wdir/one.json"
  }
  AfterAll { Remove-Item -Recurse -Force $script:wdir -ErrorAction SilentlyContinue }

  BeforeEach {
    $script:started = [Collections.Generic.List[object]]::new()
    $script:cleaned = [Collections.Generic.List[object]]::new()
    Mock -ModuleName IoSpd New-PSSession {
      if ($ComputerName -eq 'down') { throw 'WinRM cannot complete the operation (down)' }
      [pscustomobject]@{ ComputerName = [string]$ComputerName; Fake = $true }
    }
    Mock -ModuleName IoSpd Remove-IoSpdFleetSession { }
    $script:signalled = $false
    Mock -ModuleName IoSpd Invoke-IoSpdFleetSignal {
      $script:signalled = $true
      $now = [datetime]::UtcNow
      [pscustomobject]@{ Errors = @(); Results = @($Session | ForEach-Object {
            [pscustomobject]@{ Node = $_.ComputerName; BeforeUtc = $now; SetUtc = $now.AddTicks(10000); Error = $null } }) }
    }
    Mock -ModuleName IoSpd Invoke-IoSpdFleetRemote {
      # The module's remote blocks, told apart by what they do.
      $sb = [string]$ScriptBlock
      $node = $Session.ComputerName
      if ($sb -match 'stage-') { return [pscustomobject]@{ Stage = "C:\Temp\iospd-fleet\stage-$($ArgumentList[0])"; Destination = 'C:\Temp\iospd-fleet\iospd' } }
      if ($sb -match 'Install-IoSpd -Source') {
        if ($node -eq 'n2') { throw 'the package has no amd64 folder' }
        return 'C:\Temp\iospd-fleet\iospd\amd64\iospd.exe'
      }
      if ($sb -match "'-\?'") {   # the version block
        $v = if ($node -eq 'old') { '0.0.9' } else { '0.1.0' }
        return @('Usage: iospd.exe [switches] target1 [target2 ...]', "iospd $v, compatible with the DISKSPD 2.2.0 command line")
      }
      if ($sb -match 'GetTempPath') { return "C:\Temp\iospd-fleet\$($ArgumentList[0])" }
      if ($sb -match 'Start-Process') { $script:started.Add($ArgumentList); return 1234 }
      # Ready and waiting until the start event is set, then finished.
      if ($sb -match 'Ready = ') { return [pscustomobject]@{ Node = $node; Ready = $true; Exited = $script:signalled; ExitCode = 0 } }
      if ($sb -match 'WaitForExit\(\)') {
        return [pscustomobject]@{ Node = $node; ExitCode = 0; StdErr = ''; Json = $script:oneJson }
      }
      if ($sb -match 'f\.Created') { $script:cleaned.Add($node); return [pscustomobject]@{ Node = $node; Left = $false } }
      if ($sb -match 'Kill\(\)') { return }
      throw "unexpected remote call: $sb"
    }
  }

  It 'opens a WinRM session per -ComputerName, expands Windows templates and merges' {
    $out = Join-Path $script:wdir 'out1'
    $r = Invoke-IoSpdFleet -ComputerName n1, n2 -Target 'C:\ClusterStorage\{node}\io.dat' -WorkingDirectory 'C:\fleet\{node}' `
      -IoSpdPath 'C:\iospd\iospd.exe' -ArgumentList '-d1', '-b4K' -OutputDirectory $out -Path $script:exe
    Should -Invoke -ModuleName IoSpd New-PSSession -Times 1 -Exactly -ParameterFilter { $ComputerName -eq 'n1' }
    Should -Invoke -ModuleName IoSpd New-PSSession -Times 1 -Exactly -ParameterFilter { $ComputerName -eq 'n2' }
    Should -Invoke -ModuleName IoSpd Remove-IoSpdFleetSession -Times 2 -Exactly
    $script:started.Count | Should -Be 2
    # -ArgumentList of the start block: node, exe, command line, folder, JSON path, event.
    $script:started[0][0] | Should -Be 'n1'
    $script:started[0][1] | Should -Be 'C:\iospd\iospd.exe'
    $script:started[0][2] | Should -BeLike '-d1 -b4K -L -v -yriospd-fleet-*-n1 --output=json:C:\fleet\n1\n1.json C:\ClusterStorage\n1\io.dat'
    $script:started[1][4] | Should -Be 'C:\fleet\n2\n2.json'
    $one = $script:oneJson | ConvertFrom-Json
    $r.Partial | Should -BeFalse
    $r.Ios | Should -Be (2 * $one.timespans[0].total.total.ios)
    $r.Nodes.Node | Should -Be @('n1', 'n2')
    $r.StartSkewMs | Should -Be 0
  }

  It 'turns Invoke-IoSpd''s parameters into the same switches, before the raw ones' {
    $null = Invoke-IoSpdFleet -ComputerName n1 -Target 'C:\t.dat' -Path $script:exe -OutputDirectory (Join-Path $script:wdir 'out5') `
      -BlockSize 4K -Threads 2 -OutstandingIO 8 -WritePercent 30 -Random -Duration 1 -Warmup 0 -CacheMode Both -CreateSize 1M -ArgumentList '-Z1M'
    $script:started[0][2] | Should -BeLike '-b4K -t2 -o8 -w30 -r -d1 -W0 -Sh -c1M -Z1M -L -v -yriospd-fleet-*-n1 --output=json:C:\Temp\iospd-fleet\n1\n1.json C:\t.dat'
  }

  It 'installs the release zip on each node first with -InstallFrom, and names a node where that fails' {
    $zip = Join-Path $script:wdir 'iospd-9.9.9.zip'
    Set-Content -Path $zip -Value 'zip'; Set-Content -Path "$zip.sha256" -Value ('0' * 64)
    $script:copies = [Collections.Generic.List[object]]::new()
    Mock -ModuleName IoSpd Copy-IoSpdFleetItem { $script:copies.Add(@{ Node = $Session.ComputerName; Path = @($Path); Destination = $Destination }) }
    $r = Invoke-IoSpdFleet -ComputerName n1, n2 -Target 'C:\t.dat' -Path $script:exe -InstallFrom $zip `
      -OutputDirectory (Join-Path $script:wdir 'out6') -WarningAction SilentlyContinue -ErrorAction SilentlyContinue
    $n1 = @($script:copies | Where-Object Node -eq 'n1')
    $n1.Count | Should -Be 2
    $n1[0].Path | Should -Be @((Resolve-Path (Join-Path $repo 'scripts/IoSpd')).Path)
    $n1[0].Destination | Should -BeLike 'C:\Temp\iospd-fleet\stage-*\IoSpd'
    $n1[1].Path | Should -Be @($zip, "$zip.sha256")
    $script:started.Count | Should -Be 1
    $script:started[0][1] | Should -Be 'C:\Temp\iospd-fleet\iospd\amd64\iospd.exe'
    $r.FailedNodes | Should -Be @('n2')
    ($r.Nodes | Where-Object Node -eq 'n2').Error | Should -BeLike "could not install iospd from '$zip' (-InstallFrom): the package has no amd64 folder"
  }

  It 'refuses -InstallFrom without the .sha256 beside the zip' {
    $zip = Join-Path $script:wdir 'nohash.zip'; Set-Content -Path $zip -Value 'zip'
    $e = $null
    try { Invoke-IoSpdFleet -ComputerName n1 -Target 'C:\t.dat' -Path $script:exe -InstallFrom $zip } catch { $e = $_ }
    $e.FullyQualifiedErrorId | Should -Be 'IoSpdFleetNoPackage,Invoke-IoSpdFleet'
    Should -Invoke -ModuleName IoSpd New-PSSession -Times 0 -Exactly
  }

  It 'names an unreachable node and returns the others as partial' {
    $r = Invoke-IoSpdFleet -ComputerName n1, down -Target 'C:\t\{node}.dat' -ArgumentList '-d1' -Path $script:exe `
      -OutputDirectory (Join-Path $script:wdir 'out2') -ErrorAction Continue 2>&1
    # What reached the error stream (2>&1), not the errors handled inside.
    $ev = @($r | Where-Object { $_ -is [Management.Automation.ErrorRecord] })
    $r = @($r | Where-Object { $_ -isnot [Management.Automation.ErrorRecord] })
    $r.Count | Should -Be 1
    $r = $r[0]
    $r.Partial | Should -BeTrue
    $r.FailedNodes | Should -Be @('down')
    ($r.Nodes | Where-Object Node -eq 'down').Error | Should -BeLike 'unreachable: *WinRM cannot complete*'
    $r.NodeCount | Should -Be 1
    # One ErrorRecord per failed node, carrying the partial result.
    @($ev).Count | Should -Be 1
    $ev[0].FullyQualifiedErrorId | Should -Be 'IoSpdFleetNodeFailed,Invoke-IoSpdFleet'
    $ev[0].Exception.Message | Should -BeLike 'Invoke-IoSpdFleet: node down has no results: unreachable: *WinRM cannot complete*'
    $ev[0].CategoryInfo.Category | Should -Be 'OperationStopped'
    [object]::ReferenceEquals($ev[0].TargetObject, $r) | Should -BeTrue
  }

  It 'lets -ErrorAction Stop catch a failed node, with the partial result in the error' {
    $e = $null; $got = $null
    try {
      $got = Invoke-IoSpdFleet -ComputerName down, n1, down2 -Target 'C:\t.dat' -ArgumentList '-d1' -Path $script:exe `
        -OutputDirectory (Join-Path $script:wdir 'out2s') -ErrorAction Stop
    } catch { $e = $_ }
    $got | Should -BeNullOrEmpty
    $e.FullyQualifiedErrorId | Should -Be 'IoSpdFleetNodeFailed,Invoke-IoSpdFleet'
    $e.Exception.Message | Should -BeLike '*node down has no results*'
    $one = $script:oneJson | ConvertFrom-Json
    $e.TargetObject.NodeCount | Should -Be 2
    $e.TargetObject.Ios | Should -Be (2 * $one.timespans[0].total.total.ios)
    $e.TargetObject.FailedNodes | Should -Be @('down')
  }

  It 'shows one row per node and a (cluster) row' {
    $r = Invoke-IoSpdFleet -ComputerName n1, n2, down -Target 'C:\t.dat' -ArgumentList '-d1' -Path $script:exe `
      -OutputDirectory (Join-Path $script:wdir 'outv') -ErrorAction SilentlyContinue -WarningAction SilentlyContinue
    $one = $script:oneJson | ConvertFrom-Json
    $r.NodeCount | Should -Be 2
    $text = @(($r | Out-String -Width 250) -split '\r?\n' | Where-Object { $_.Trim() })
    $text[0] | Should -BeLike 'iospd fleet: 2 of 3 nodes (partial; failed: down), start skew 0.000 ms*'
    $hdr = @($text | Where-Object { $_ -match '^Node\s+IOPS\s+MiB/s\s+Mean ms\s+P99 ms\s+CPU %\s+Start ms\s+Warn\s+Error' })
    $hdr.Count | Should -Be 1
    $iops = '{0:N0}' -f $one.timespans[0].total.total.iops
    $warn = @($one.warnings).Count
    foreach ($n in 'n1', 'n2') {
      $row = @($text | Where-Object { $_ -match "^$n\s" })
      $row.Count | Should -Be 1
      ($row[0] -split '\s{2,}|\s(?=\S)' | Where-Object { $_ })[1] | Should -Be $iops
      $row[0] | Should -Match ("\s$warn\s*$")
    }
    @($text | Where-Object { $_ -match '^down\s.*unreachable: ' }).Count | Should -Be 1
    $cl = @($text | Where-Object { $_ -match '^\(cluster\)\s' })
    $cl.Count | Should -Be 1
    $cl[0] | Should -Match ([regex]::Escape(('{0:N0}' -f $r.Iops)))
    $cl[0] | Should -Match 'partial: 1 of 3 nodes failed'
    $r.Table.Count | Should -Be 4
    $r.Table[3].Node | Should -Be '(cluster)'
    $r.Table[3].Ios | Should -Be $r.Ios
  }

  It 'removes each started node''s work folder at the end unless -KeepNodeFiles' {
    $null = Invoke-IoSpdFleet -ComputerName n1, n2 -Target 'C:\t.dat' -ArgumentList '-d1' -Path $script:exe `
      -OutputDirectory (Join-Path $script:wdir 'outc') -WarningAction SilentlyContinue
    $script:cleaned | Should -Be @('n1', 'n2')
    $script:cleaned.Clear(); $script:signalled = $false
    $null = Invoke-IoSpdFleet -ComputerName n1, n2 -Target 'C:\t.dat' -ArgumentList '-d1' -Path $script:exe `
      -OutputDirectory (Join-Path $script:wdir 'outk') -WarningAction SilentlyContinue -KeepNodeFiles
    $script:cleaned.Count | Should -Be 0
  }

  It 'refuses nodes with different iospd versions, naming them, unless -Force' {
    $e = $null
    try { Invoke-IoSpdFleet -ComputerName n1, old -Target 'C:\t.dat' -Path $script:exe } catch { $e = $_ }
    $e.FullyQualifiedErrorId | Should -Be 'IoSpdFleetVersionMismatch,Invoke-IoSpdFleet'
    $e.Exception.Message | Should -BeLike '*n1: 0.1.0, old: 0.0.9*-Force*'
    $script:started.Count | Should -Be 0
    $r = Invoke-IoSpdFleet -ComputerName n1, old -Target 'C:\t.dat' -Path $script:exe -Force -OutputDirectory (Join-Path $script:wdir 'out3')
    $r.Partial | Should -BeFalse
    ($r.Nodes | Where-Object Node -eq 'old').Version | Should -Be '0.0.9'
  }
  It 'moves each node''s CSV to that node first with -AlignCsvOwner, and leaves out a node whose CSV cannot move' {
    Mock -ModuleName IoSpd Move-IoSpdCsvOwner { if ($Node -eq 'n2') { throw 'the cluster refused the move' } }
    $r = Invoke-IoSpdFleet -ComputerName n1, n2 -Target 'C:\ClusterStorage\{node}\io.dat' -ArgumentList '-d1' -Path $script:exe `
      -AlignCsvOwner -OutputDirectory (Join-Path $script:wdir 'out4') -WarningAction SilentlyContinue -ErrorAction SilentlyContinue
    Should -Invoke -ModuleName IoSpd Move-IoSpdCsvOwner -Times 1 -Exactly -ParameterFilter { $Path -eq 'C:\ClusterStorage\n1\io.dat' -and $Node -eq 'n1' }
    Should -Invoke -ModuleName IoSpd Move-IoSpdCsvOwner -Times 1 -Exactly -ParameterFilter { $Path -eq 'C:\ClusterStorage\n2\io.dat' -and $Node -eq 'n2' }
    $r.FailedNodes | Should -Be @('n2')
    ($r.Nodes | Where-Object Node -eq 'n2').Error | Should -BeLike "could not move the CSV of 'C:\ClusterStorage\n2\io.dat' to it (-AlignCsvOwner): the cluster refused the move"
    $script:started.Count | Should -Be 1
  }

  It 'neither moves a CSV nor starts a node under -WhatIf' {
    Mock -ModuleName IoSpd Move-IoSpdCsvOwner { }
    $r = Invoke-IoSpdFleet -ComputerName n1, n2 -Target 'C:\ClusterStorage\{node}\io.dat' -ArgumentList '-d1' -Path $script:exe -AlignCsvOwner -WhatIf
    $r | Should -BeNullOrEmpty
    Should -Invoke -ModuleName IoSpd Move-IoSpdCsvOwner -Times 0 -Exactly
    $script:started.Count | Should -Be 0
    Should -Invoke -ModuleName IoSpd Remove-IoSpdFleetSession -Times 2 -Exactly
  }

  # Each node's JSON "warnings" array (the stand-in JSON is a real buffered
  # run on a 1 MiB file, which iospd warns measures the page cache).
  It 'writes every node''s warnings with Write-Warning and keeps them per node' {
    $one = $script:oneJson | ConvertFrom-Json
    $lines = @($one.warnings)
    $lines.Count | Should -BeGreaterThan 0 -Because 'a buffered run on a 1 MiB file gets the page-cache warning'
    $r = Invoke-IoSpdFleet -ComputerName n1, n2 -Target 'C:	.dat' -ArgumentList '-d1' -Path $script:exe `
      -OutputDirectory (Join-Path $script:wdir 'outw') -WarningVariable wv -WarningAction SilentlyContinue
    $r.Nodes[0].Warnings | Should -Be $lines
    $r.Nodes[1].Warnings | Should -Be $lines
    $r.Warnings | Should -Be (@($lines | ForEach-Object { "n1: $_" }) + @($lines | ForEach-Object { "n2: $_" }))
    $msgs = @(InModuleScope IoSpd -Parameters @{ L = $lines } { param($L) (ConvertFrom-IoSpdWarningLine -Line $L).Messages })
    @($wv).Count | Should -Be (2 * $msgs.Count)
    $wv[0].Message | Should -BeExactly "node n1: iospd: $($msgs[0])"
    $wv[$msgs.Count].Message | Should -BeExactly "node n2: iospd: $($msgs[0])"
    $page = @($wv | Where-Object { $_.Message -like 'node n2: iospd: target *buffered reads*page cache*' })
    $page.Count | Should -Be 1
  }
}

Describe 'Invoke-IoSpdFleetSweep (fleet runs mocked)' {
  BeforeAll {
    $script:swdir = Join-Path ([IO.Path]::GetTempPath()) ("iospd-fleet-sweep-" + [guid]::NewGuid().ToString('N').Substring(0, 8))
    $null = New-Item -ItemType Directory -Path $script:swdir
  }
  AfterAll { Remove-Item -Recurse -Force $script:swdir -ErrorAction SilentlyContinue }
  BeforeEach {
    $script:calls = [Collections.Generic.List[string]]::new()
    $script:failAt = ''
    # p99 = queue depth in ms, mean = half of it, CPU = 10 % per queue depth.
    Mock -ModuleName IoSpd Invoke-IoSpdFleet {
      $line = $ArgumentList -join ' '
      $script:calls.Add($line)
      if ($script:failAt -and $line -like "*$script:failAt*") { throw 'No node returned results. n1: unreachable: gone' }
      $o = [int](($ArgumentList | Where-Object { $_ -match '^-o\d+$' }) -replace '-o', '')
      [pscustomobject]@{ Iops = 1000.0 * $o; MiBps = 4.0 * $o; MeanMs = $o / 2.0; P99Ms = [double]$o; MaxCpuPercent = 10.0 * $o
        StartSkewMs = 0.5; Partial = $false; FailedNodes = @() }
    }
  }

  It 'runs the grid in order, -OutstandingIO innermost, and saves each point' {
    $rows = @(Invoke-IoSpdFleetSweep -Session 'fake' -Target 't' -Label grid -OutputDirectory $script:swdir -ArgumentList '-d1' `
        -BlockSize 4K, 64k -OutstandingIO 1, 2 -WritePercent 0, 30 -AlignCsvOwner)
    Should -Invoke -ModuleName IoSpd Invoke-IoSpdFleet -Times 8 -Exactly -ParameterFilter { $AlignCsvOwner -and $Session -eq 'fake' -and $Target -eq 't' }
    $script:calls | Should -Be @('-d1 -b4K -t1 -o1 -w0', '-d1 -b4K -t1 -o2 -w0', '-d1 -b64K -t1 -o1 -w0', '-d1 -b64K -t1 -o2 -w0',
      '-d1 -b4K -t1 -o1 -w30', '-d1 -b4K -t1 -o2 -w30', '-d1 -b64K -t1 -o1 -w30', '-d1 -b64K -t1 -o2 -w30')
    $rows.Point | Should -Be @('w0-b4K-t1-o1', 'w0-b4K-t1-o2', 'w0-b64K-t1-o1', 'w0-b64K-t1-o2', 'w30-b4K-t1-o1', 'w30-b4K-t1-o2', 'w30-b64K-t1-o1', 'w30-b64K-t1-o2')
    $rows[1].Iops | Should -Be 2000
    (Get-Content -Raw (Join-Path $script:swdir 'grid/w30-b64K-t1-o2/point.json') | ConvertFrom-Json).P99Ms | Should -Be 2
  }

  It 'stops a queue-depth series at the first point over <Limit>' -ForEach @(
    @{ Limit = '-MaxP99LatencyMs'; P = @{ MaxP99LatencyMs = 1.5 } }
    @{ Limit = '-MaxAvgLatencyMs'; P = @{ MaxAvgLatencyMs = 0.75 } }
    @{ Limit = '-MaxCpuPercent'; P = @{ MaxCpuPercent = 15 } }
  ) {
    $p = $P
    $rows = @(Invoke-IoSpdFleetSweep -Session 'fake' -Target 't' -Label "stop$($Limit.TrimStart('-'))" -OutputDirectory $script:swdir `
        -OutstandingIO 1, 2, 4, 8 -Threads 1, 2 @p)
    # Per thread count: o1 and o2 run (o2 passes the limit), o4 and o8 are skipped.
    $script:calls.Count | Should -Be 4
    @($rows | Where-Object Skipped).Point | Should -Be @('w0-b4K-t1-o4', 'w0-b4K-t1-o8', 'w0-b4K-t2-o4', 'w0-b4K-t2-o8')
    $rows[2].Skipped | Should -BeLike "point w0-b4K-t1-o2: *($Limit)"
  }

  It 'stops at a failed point with the earlier ones saved, and -Resume goes on from there' {
    $script:failAt = '-o4'
    $rows = [Collections.Generic.List[object]]::new(); $e = $null
    try { Invoke-IoSpdFleetSweep -Session 'fake' -Target 't' -Label resume -OutputDirectory $script:swdir -OutstandingIO 1, 2, 4, 8 | ForEach-Object { $rows.Add($_) } }
    catch { $e = $_ }
    $e.FullyQualifiedErrorId | Should -Be 'IoSpdFleetSweepPointFailed,Invoke-IoSpdFleetSweep'
    $e.Exception.Message | Should -BeLike "*point w0-b4K-t1-o4 failed: No node returned results. n1: unreachable: gone*-Resume*"
    $rows.Point | Should -Be @('w0-b4K-t1-o1', 'w0-b4K-t1-o2', 'w0-b4K-t1-o4')
    $rows[2].Error | Should -BeLike 'No node returned results*'
    $script:calls.Clear(); $script:failAt = ''
    $again = @(Invoke-IoSpdFleetSweep -Session 'fake' -Target 't' -Label resume -OutputDirectory $script:swdir -OutstandingIO 1, 2, 4, 8 -Resume)
    $script:calls | Should -Be @('-b4K -t1 -o4 -w0', '-b4K -t1 -o8 -w0')
    $again.Resumed | Should -Be @($true, $true, $false, $false)
    $again[1].Iops | Should -Be 2000
  }

  It 'records a failed point and goes on with -ContinueOnError' {
    $script:failAt = '-o2'
    $rows = @(Invoke-IoSpdFleetSweep -Session 'fake' -Target 't' -Label cont -OutputDirectory $script:swdir -OutstandingIO 1, 2, 4 -ContinueOnError -WarningAction SilentlyContinue)
    $rows.Point | Should -Be @('w0-b4K-t1-o1', 'w0-b4K-t1-o2', 'w0-b4K-t1-o4')
    $rows[1].Error | Should -BeLike '*unreachable: gone'
    $rows[2].Iops | Should -Be 4000
    Test-Path (Join-Path $script:swdir 'cont/w0-b4K-t1-o2/point.json') | Should -BeFalse -Because 'a failed point is not measured: -Resume runs it again'
  }

  It 'refuses <Why> before any run' -ForEach @(
    @{ Why = 'a bad block size'; P = @{ BlockSize = '4K', '4X' }; Id = 'IoSpdFleetSweepBadGrid'; Msg = "*-BlockSize '4X'*" }
    @{ Why = 'a write ratio over 100'; P = @{ WritePercent = 0, 101 }; Id = 'IoSpdFleetSweepBadGrid'; Msg = '*-WritePercent 101*' }
    @{ Why = '-b in -ArgumentList'; P = @{ ArgumentList = '-b8K' }; Id = 'IoSpdFleetSweepBadGrid'; Msg = "*'-b8K'*" }
    @{ Why = '-Rjson in -ArgumentList'; P = @{ ArgumentList = '-Rjson' }; Id = 'IoSpdFleetBadArgument'; Msg = "*'-Rjson'*" }
  ) {
    $p = $P; $e = $null
    try { Invoke-IoSpdFleetSweep -Session 'fake' -Target 't' -Label bad -OutputDirectory $script:swdir @p } catch { $e = $_ }
    $e.FullyQualifiedErrorId | Should -Be "$Id,Invoke-IoSpdFleetSweep"
    $e.Exception.Message | Should -BeLike $Msg
    $script:calls.Count | Should -Be 0
  }
}

Describe 'Invoke-IoSpdFleet over real SSH remoting (three nodes on 127.0.0.1)' {
  BeforeAll {
    $script:bed = Start-IoSpdTestSshd
    if ($script:bed.Skip) { Write-Warning "SSH fleet tests skipped: $($script:bed.Skip)"; return }
    $script:root = Join-Path ([IO.Path]::GetTempPath()) ("iospd-fleet-ssh-" + [guid]::NewGuid().ToString('N').Substring(0, 8))
    $real = (Resolve-Path $script:exe).Path
    foreach ($n in 'n1', 'n2', 'n3', 'bad') {
      $null = New-Item -ItemType Directory -Path "$script:root/$n/bin"
      # Each node runs iospd through its own bin/iospd; 'bad' claims another version.
      $body = if ($n -eq 'bad') {
        "#!/bin/sh`nif [ `"`$1`" = '-?' ]; then echo 'Usage: iospd [switches] target1'; echo 'iospd 9.9.9, compatible with the DISKSPD 2.2.0 command line'; exit 1; fi`nexec '$real' `"`$@`"`n"
      } else { "#!/bin/sh`nexec '$real' `"`$@`"`n" }
      Set-Content -Path "$script:root/$n/bin/iospd" -Value $body -NoNewline
      chmod 755 "$script:root/$n/bin/iospd"
    }
    $script:sessions = @('n1', 'n2', 'n3') | ForEach-Object { New-IoSpdTestSession -Bed $script:bed -Name $_ }
    $script:common = @{
      NodeName = 'n1', 'n2', 'n3'; Target = "$script:root/{node}/io.dat"; WorkingDirectory = "$script:root/{node}"
      IoSpdPath = "$script:root/{node}/bin/iospd"; Path = $real
    }
  }
  AfterAll {
    if ($script:sessions) { $script:sessions | Remove-PSSession -ErrorAction SilentlyContinue }
    Stop-IoSpdTestSshd $script:bed
    if ($script:root) { Remove-Item -Recurse -Force $script:root -ErrorAction SilentlyContinue }
  }
  BeforeEach { if ($script:bed.Skip) { Set-ItResult -Skipped -Because $script:bed.Skip } }

  It 'runs three nodes together and merges them exactly' {
    if ($script:bed.Skip) { return }
    $r = Invoke-IoSpdFleet -Session $script:sessions @script:common -ArgumentList '-c1M', '-d1', '-W0', '-b4K', '-t1', '-o2', '-r' `
      -TimeoutSec 60 -OutputDirectory "$script:root/out-ok"
    $r.Partial | Should -BeFalse
    $r.NodeCount | Should -Be 3
    $r.Nodes.Node | Should -Be @('n1', 'n2', 'n3')
    # The nodes' work files are gone (their folders held bin/ and io.dat
    # before the run, so the folders and the targets stay).
    foreach ($n in 'n1', 'n2', 'n3') {
      foreach ($f in 'iospd-fleet.out', 'iospd-fleet.err', "$n.json") { Test-Path -LiteralPath "$script:root/$n/$f" | Should -BeFalse }
      Test-Path -LiteralPath "$script:root/$n/io.dat" | Should -BeTrue
    }
    $nodes = @('n1', 'n2', 'n3' | ForEach-Object { Get-Content -Raw "$script:root/out-ok/$_.json" | ConvertFrom-Json })
    $merged = Get-Content -Raw $r.MergedPath | ConvertFrom-Json
    $tot = { param($j) $j.timespans[0].total.total }
    # Every node ran on its own file, in its own folder.
    $nodes | ForEach-Object { $_.timespans[0].targets[0].path } | Should -Be @('n1', 'n2', 'n3' | ForEach-Object { "$script:root/$_/io.dat" })
    $sumIos = [long]0; $sumIops = [double]0
    foreach ($j in $nodes) { $sumIos += (& $tot $j).ios; $sumIops += (& $tot $j).iops }
    $sumIos | Should -BeGreaterThan 0
    (& $tot $merged).ios | Should -Be $sumIos
    (& $tot $merged).iops | Should -Be $sumIops
    $r.Iops | Should -Be $sumIops
    $r.Ios | Should -Be $sumIos
    ($r.Nodes | ForEach-Object Ios) | Should -Be @($nodes | ForEach-Object { (& $tot $_).ios })
    # Percentiles: those of one histogram made of all the nodes' buckets.
    $lat = (& $tot $merged).latency
    $lat.count | Should -Be $sumIos
    $labels = @($lat.percentiles | ForEach-Object percentile)
    $want = @(Get-TestHistPercentileMs -Histogram @($nodes | ForEach-Object { (& $tot $_).latency.histogram }) -Label $labels)
    $got = @($lat.percentiles | ForEach-Object { [double]$_.ms })
    $got.Count | Should -Be $want.Count
    for ($i = 0; $i -lt $got.Count; $i++) { $got[$i] | Should -BeLessOrEqual ($want[$i] + 1e-9) -Because "p$($labels[$i])"; $got[$i] | Should -BeGreaterOrEqual ($want[$i] - 1e-9) -Because "p$($labels[$i])" }
    $r.P99Ms | Should -Be ([double]($lat.percentiles | Where-Object percentile -eq '99').ms)
    # The skew is measured: a number, not negative, and small on one host.
    $r.StartSkewMs | Should -BeOfType [double]
    $r.StartSkewMs | Should -BeGreaterOrEqual 0
    $r.StartSkewMs | Should -BeLessThan 2000
    $r.StartSkewUncertaintyMs | Should -BeGreaterOrEqual 0
    Write-Host ("fleet: {0} I/Os, {1:N0} IOPS, p99 {2} ms, start skew {3:N1} ms (+/- {4:N1} ms)" -f $r.Ios, $r.Iops, $r.P99Ms, $r.StartSkewMs, $r.StartSkewUncertaintyMs)
  }

  It 'returns a partial result naming a node killed mid-run' {
    if ($script:bed.Skip) { return }
    # A fourth session to the node, as a background job, kills n2's iospd
    # by PID once it measures (-v printed "starting warm up").
    $killer = New-IoSpdTestSession -Bed $script:bed -Name killer
    $job = Invoke-Command -Session $killer -AsJob -ArgumentList "$script:root/n2/n2.json" -ScriptBlock {
      param($Json)
      $out = Join-Path (Split-Path $Json) 'iospd-fleet.out'
      $deadline = [datetime]::UtcNow.AddSeconds(60)
      while ([datetime]::UtcNow -lt $deadline) {
        $p = Get-Process -Name iospd -ErrorAction SilentlyContinue | Where-Object { $_.CommandLine -like "*$Json*" } | Select-Object -First 1
        if ($p -and ((Get-Content -Raw $out -ErrorAction SilentlyContinue) -match 'starting warm up')) {
          Start-Sleep -Milliseconds 500
          Stop-Process -Id $p.Id -Force
          return $p.Id
        }
        Start-Sleep -Milliseconds 50
      }
      "no iospd for $Json within 60 s"
    }
    $r = Invoke-IoSpdFleet -Session $script:sessions @script:common -ArgumentList '-c1M', '-d4', '-W0', '-b4K', '-t1', '-o2' `
      -TimeoutSec 60 -OutputDirectory "$script:root/out-kill" -WarningAction SilentlyContinue -ErrorAction SilentlyContinue
    $killed = $job | Wait-Job -Timeout 60 | Receive-Job
    $job | Remove-Job -Force
    Remove-PSSession $killer
    $killed | Should -BeOfType [int]
    $r.Partial | Should -BeTrue
    $r.FailedNodes | Should -Be @('n2')
    ($r.Nodes | Where-Object Node -eq 'n2').Error | Should -BeLike 'iospd exited with code 137 (killed by signal 9)*'
    $r.NodeCount | Should -Be 2
    $ok = @('n1', 'n3' | ForEach-Object { Get-Content -Raw "$script:root/out-kill/$_.json" | ConvertFrom-Json })
    $r.Ios | Should -Be (($ok | ForEach-Object { [long]$_.timespans[0].total.total.ios } | Measure-Object -Sum).Sum)
    @($r.Merged.merged_from).Count | Should -Be 2
  }

  It 'stops nodes that pass -TimeoutSec and names each' {
    if ($script:bed.Skip) { return }
    $e = $null
    try {
      $t0 = [datetime]::UtcNow
      Invoke-IoSpdFleet -Session $script:sessions[0, 1] -NodeName n1, n2 -Target "$script:root/{node}/io.dat" -WorkingDirectory "$script:root/{node}" `
        -IoSpdPath "$script:root/{node}/bin/iospd" -Path $script:common.Path -ArgumentList '-c1M', '-d60', '-W0' -TimeoutSec 2
    } catch { $e = $_ }
    $e.FullyQualifiedErrorId | Should -Be 'IoSpdFleetNoResults,Invoke-IoSpdFleet'
    $e.Exception.Message | Should -BeLike '*n1: did not finish within 2 s (-TimeoutSec); stopped*n2: did not finish within 2 s*'
    # No iospd of this run is left on the nodes.
    $left = Invoke-Command -Session $script:sessions[0] -ArgumentList $script:root -ScriptBlock {
      param($Root) @(Get-Process -Name iospd -ErrorAction SilentlyContinue | Where-Object { $_.CommandLine -like "*$Root*" }).Count }
    $left | Should -Be 0
    # Its own empty results folder (no -OutputDirectory) is not left behind.
    Get-ChildItem ([IO.Path]::GetTempPath()) -Filter 'iospd-fleet-*' -Directory | Where-Object { $_.LastWriteTimeUtc -gt $t0 -and -not (Get-ChildItem $_.FullName -Force) } |
      Should -BeNullOrEmpty
  }

  It 'stops every node''s iospd when the pipeline is stopped (Ctrl-C, PowerShell.Stop())' {
    if ($script:bed.Skip) { return }
    # Its own runspace with its own sessions (-HostName), stopped mid-run.
    $ps = [powershell]::Create()
    $null = $ps.AddScript({
        param($Psd1, $Bed, $Root, $Exe)
        Import-Module $Psd1
        Invoke-IoSpdFleet -HostName 127.0.0.1 -NodeName n1 -Port $Bed.Port -UserName $Bed.User -KeyFilePath $Bed.KeyFile `
          -SshOption $Bed.Options -Target "$Root/{node}/stop.dat" -WorkingDirectory "$Root/{node}" -IoSpdPath "$Root/{node}/bin/iospd" `
          -Path $Exe -ArgumentList '-c1M', '-d60', '-W0' -OutputDirectory "$Root/out-stop"
      }).AddArgument((Join-Path $repo 'scripts/IoSpd/IoSpd.psd1')).AddArgument($script:bed).AddArgument($script:root).AddArgument($script:common.Path)
    $h = $ps.BeginInvoke()
    $mine = { @(Get-Process -Name iospd -ErrorAction SilentlyContinue | Where-Object { $_.CommandLine -like "*$script:root/n1/stop.dat*" }) }
    $deadline = [datetime]::UtcNow.AddSeconds(60)
    while (-not (& $mine).Count -and [datetime]::UtcNow -lt $deadline -and -not $h.IsCompleted) { Start-Sleep -Milliseconds 100 }
    (& $mine).Count | Should -Be 1 -Because 'the node''s iospd runs before the stop'
    Start-Sleep -Milliseconds 1500   # started and measuring
    $ps.Stop()
    $ps.Dispose()
    $deadline = [datetime]::UtcNow.AddSeconds(15)
    while ((& $mine).Count -and [datetime]::UtcNow -lt $deadline) { Start-Sleep -Milliseconds 100 }
    (& $mine).Count | Should -Be 0 -Because 'stopping the fleet run stops the node''s iospd'
  }

  It 'names an unreachable -HostName node and runs the reachable one' {
    if ($script:bed.Skip) { return }
    # sshd listens on 127.0.0.1 only: 127.0.0.2 refuses the connection.
    $r = Invoke-IoSpdFleet -HostName 127.0.0.1, 127.0.0.2 -NodeName n1, n3 -Port $script:bed.Port -UserName $script:bed.User `
      -KeyFilePath $script:bed.KeyFile -SshOption $script:bed.Options -Target "$script:root/{node}/io.dat" `
      -WorkingDirectory "$script:root/{node}" -IoSpdPath "$script:root/{node}/bin/iospd" -Path $script:common.Path `
      -ArgumentList '-c1M', '-d1', '-W0' -TimeoutSec 60 -OutputDirectory "$script:root/out-host" -WarningAction SilentlyContinue -ErrorAction SilentlyContinue
    $r.Partial | Should -BeTrue
    $r.FailedNodes | Should -Be @('n3')
    ($r.Nodes | Where-Object Node -eq 'n3').Error | Should -BeLike 'unreachable: *'
    ($r.Nodes | Where-Object Node -eq 'n1').Ios | Should -BeGreaterThan 0
  }

  It 'refuses a node whose iospd has another version, naming nodes and versions' {
    if ($script:bed.Skip) { return }
    $c = $script:common.Clone(); $c.NodeName = 'n1', 'n2', 'bad'
    $v = ((& $c.Path '-?' 2>&1 | ForEach-Object { [string]$_ }) -match '^iospd ' | Select-Object -First 1) -replace '^iospd ([^ ,]+).*', '$1'
    $v | Should -Match '^\d'
    Remove-Item "$script:root/n1/n1.json" -ErrorAction SilentlyContinue
    $e = $null
    try { Invoke-IoSpdFleet -Session $script:sessions @c -ArgumentList '-d1' } catch { $e = $_ }
    $e.FullyQualifiedErrorId | Should -Be 'IoSpdFleetVersionMismatch,Invoke-IoSpdFleet'
    $e.Exception.Message | Should -BeLike "*n1: $v, n2: $v, bad: 9.9.9*"
    Test-Path "$script:root/n1/n1.json" | Should -BeFalse -Because 'nothing runs after a refusal'
  }

  It 'sweeps two points fleet-wide and -Resume reads them back without running' {
    if ($script:bed.Skip) { return }
    $p = @{ Session = $script:sessions[0, 1]; NodeName = 'n1', 'n2'; Target = "$script:root/{node}/io.dat"; WorkingDirectory = "$script:root/{node}"
      IoSpdPath = "$script:root/{node}/bin/iospd"; Path = $script:common.Path; Label = 'real'; OutputDirectory = "$script:root/sweep"
      ArgumentList = '-c1M', '-d1', '-W0'; OutstandingIO = 1, 2; TimeoutSec = 60 }
    $rows = @(Invoke-IoSpdFleetSweep @p)
    $rows.Point | Should -Be @('w0-b4K-t1-o1', 'w0-b4K-t1-o2')
    foreach ($r in $rows) {
      $r.Iops | Should -BeGreaterThan 0
      $m = Get-Content -Raw "$($r.Path)/fleet.json" | ConvertFrom-Json
      $m.timespans[0].total.total.iops | Should -Be $r.Iops
      @($m.merged_from).Count | Should -Be 2
      $m.profile.timespans[0].targets[0].request_count | Should -Be $r.OutstandingIO
    }
    $stamp = (Get-Item "$($rows[1].Path)/fleet.json").LastWriteTimeUtc
    $again = @(Invoke-IoSpdFleetSweep @p -Resume)
    $again.Resumed | Should -Be @($true, $true)
    $again.Iops | Should -Be $rows.Iops
    (Get-Item "$($rows[1].Path)/fleet.json").LastWriteTimeUtc | Should -Be $stamp
  }
}
