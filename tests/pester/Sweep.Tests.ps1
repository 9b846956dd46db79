# SPDX-License-Identifier: MIT
# Invoke-IoSpdSweep: grid order, parameters passed per point, the point's
# settings in Sweep* columns next to the untouched result, results streamed
# as each point completes, the grid checked before the first run, failures
# (stop, or -ContinueOnError), Write-Progress percentages and -WhatIf.

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  Import-Module (Join-Path $repo 'scripts/IoSpd/IoSpd.psd1') -Force
}

Describe 'Invoke-IoSpdSweep' {
  BeforeEach {
    $script:calls = [System.Collections.Generic.List[hashtable]]::new()
    # A result shaped like ConvertFrom-IoSpdXml's: per-thread rows in
    # Threads, and settings of its own (BlockSize) that the sweep must not
    # overwrite.
    Mock -ModuleName IoSpd Invoke-IoSpd {
      $copy = @{}
      foreach ($k in $PesterBoundParameters.Keys) { $copy[$k] = $PesterBoundParameters[$k] }
      $script:calls.Add($copy)
      $n = $script:calls.Count
      [pscustomobject]@{
        PSTypeName = 'IoSpd.Result'; TotalIOs = 100 * $n; IOPS = 1.0; ThreadCount = 2; BlockSize = 4096
        Threads = @([pscustomobject]@{ Thread = 0; IOs = 60 * $n }, [pscustomobject]@{ Thread = 1; IOs = 40 * $n })
      }
    }
    Mock -ModuleName IoSpd Write-Progress { }
    # The sweep resolves the executable once before the first run.
    Mock -ModuleName IoSpd Resolve-IoSpdExecutable { if ($Path) { $Path } else { '/usr/bin/iospd' } }
  }

  It 'runs every grid point, block size outermost, write ratio innermost' {
    $r = @(Invoke-IoSpdSweep -Target t.dat -BlockSize 4K, 64K -Threads 1, 2 -OutstandingIO 8 -WritePercent 0, 100 -Duration 5)
    $r.Count | Should -Be 8
    $order = $r | ForEach-Object { '{0}/{1}/{2}/{3}' -f $_.SweepBlockSize, $_.SweepThreads, $_.SweepOutstandingIO, $_.SweepWritePercent }
    $order | Should -Be @('4K/1/8/0', '4K/1/8/100', '4K/2/8/0', '4K/2/8/100',
      '64K/1/8/0', '64K/1/8/100', '64K/2/8/0', '64K/2/8/100')
    $r.SweepPoint | Should -Be (1..8)
    $r[5].TotalIOs | Should -Be 600   # result of the 6th run, not another point's
  }

  # The old sweep wrote the thread count over Threads (and its own
  # BlockSize over the result's).
  # Deliberate breakage: naming a column 'Threads' again (Add-Member
  # -Force) fails the row checks below.
  It 'keeps the result''s per-thread rows and own columns, and adds Sweep* columns' {
    $r = @(Invoke-IoSpdSweep -Target t.dat -BlockSize 8K -Threads 2, 4)
    $r.Count | Should -Be 2
    $r[1].Threads.Count | Should -Be 2
    $r[1].Threads[0].IOs | Should -Be 120
    $r[1].Threads[1].IOs | Should -Be 80
    $r[1].ThreadCount | Should -Be 2
    $r[1].BlockSize | Should -Be 4096
    $r[1].SweepThreads | Should -Be 4
    $r[1].SweepBlockSize | Should -Be '8K'
    $r[1].SweepPoint | Should -Be 2
    $r[1].PSObject.Properties['SweepError'] | Should -Not -BeNullOrEmpty
    $r[1].SweepError | Should -BeNullOrEmpty
  }

  It 'passes each point and the common parameters to Invoke-IoSpd' {
    $null = Invoke-IoSpdSweep -Target a.dat, b.dat -BlockSize 8K -Threads 4 -OutstandingIO 1, 16 -WritePercent 30 `
      -Random -Duration 10 -Warmup 2 -CacheMode Both -Latency -CreateSize 1G -ArgumentList '-Z1M' -ExecutablePath /x/iospd -TimeoutSec 60
    Should -Invoke -ModuleName IoSpd Invoke-IoSpd -Times 2 -Exactly
    Should -Invoke -ModuleName IoSpd Invoke-IoSpd -Times 1 -Exactly -ParameterFilter {
      $OutstandingIO -eq 16 -and $BlockSize -eq '8K' -and $Threads -eq 4 -and $WritePercent -eq 30 -and
      ($Target -join ',') -eq 'a.dat,b.dat' -and $Random -and $Duration -eq 10 -and $Warmup -eq 2 -and
      $CacheMode -eq 'Both' -and $Latency -and $CreateSize -eq '1G' -and ($ArgumentList -join ',') -eq '-Z1M' -and
      $ExecutablePath -eq '/x/iospd' -and $TimeoutSec -eq 60
    }
    $script:calls[0]['Target'] | Should -Be @('a.dat', 'b.dat')
    $script:calls[0].ContainsKey('Cooldown') | Should -BeFalse
    $script:calls[0].ContainsKey('AlignCsvOwner') | Should -BeFalse
  }

  # Deliberate breakage: passing every dimension (even $null) makes the
  # ContainsKey checks fail; not adding the Sweep* column when its
  # dimension was not given fails the Properties check.
  It 'does not pass a dimension that was not given' {
    $r = @(Invoke-IoSpdSweep -Target t.dat -OutstandingIO 1, 2, 4)
    $r.Count | Should -Be 3
    $script:calls[0].ContainsKey('BlockSize') | Should -BeFalse
    $script:calls[0].ContainsKey('Threads') | Should -BeFalse
    $script:calls[0].ContainsKey('WritePercent') | Should -BeFalse
    $script:calls[2]['OutstandingIO'] | Should -Be 4
    $r[0].PSObject.Properties['SweepBlockSize'] | Should -Not -BeNullOrEmpty   # the column is there, empty
    $r[0].SweepBlockSize | Should -BeNullOrEmpty
    $r[0].BlockSize | Should -Be 4096                                          # the result's own value
    $r[2].SweepOutstandingIO | Should -Be 4
  }

  It 'reports progress with percentages and completes it' {
    $null = Invoke-IoSpdSweep -Target t.dat -BlockSize 4K, 8K -OutstandingIO 1, 2
    foreach ($pct in 0, 25, 50, 75) {
      Should -Invoke -ModuleName IoSpd Write-Progress -Times 1 -Exactly -ParameterFilter { $PercentComplete -eq $pct }
    }
    Should -Invoke -ModuleName IoSpd Write-Progress -Times 1 -Exactly -ParameterFilter {
      $Status -eq 'Point 4 of 4 -b8K -o2' }
    Should -Invoke -ModuleName IoSpd Write-Progress -Times 1 -Exactly -ParameterFilter { $Completed }
  }

  # Each point's results reach the next command before the next point runs.
  # Deliberate breakage: collecting all results and emitting them at the
  # end gives 3, 3, 3 here.
  It 'emits each point''s result as soon as the point is done' {
    $seen = [System.Collections.Generic.List[int]]::new()
    Invoke-IoSpdSweep -Target t.dat -OutstandingIO 1, 2, 3 | ForEach-Object { $seen.Add($script:calls.Count) }
    @($seen) | Should -Be @(1, 2, 3)
  }

  # With -ContinueOnError too: the downstream stop is not a failed point.
  # Deliberate breakage: running all points before emitting any result
  # (collecting them in a list) makes this 3 calls.
  It 'runs no further point after a downstream Select-Object -First 1' {
    $r = @(Invoke-IoSpdSweep -Target t.dat -OutstandingIO 1, 2, 3 -ContinueOnError -WarningVariable wv | Select-Object -First 1)
    $r.Count | Should -Be 1
    $r[0].SweepOutstandingIO | Should -Be 1
    @($wv).Count | Should -Be 0
    Should -Invoke -ModuleName IoSpd Invoke-IoSpd -Times 1 -Exactly
  }

  # The old sweep threw at the failing point: $r = ... got nothing, not even
  # the points measured before it.
  It 'keeps the results before a failing point, names the point in a non-terminating error and skips the rest' {
    Mock -ModuleName IoSpd Invoke-IoSpd {
      $script:calls.Add(@{})
      if ($OutstandingIO -eq 2) { throw 'iospd exited with code 1: disk full' }
      [pscustomobject]@{ PSTypeName = 'IoSpd.Result'; TotalIOs = 100 * $script:calls.Count }
    }
    $r = @(Invoke-IoSpdSweep -Target t.dat -BlockSize 4K -OutstandingIO 1, 2, 4 -ErrorAction SilentlyContinue -ErrorVariable ev)
    $r.Count | Should -Be 1
    $r[0].TotalIOs | Should -Be 100
    $script:calls.Count | Should -Be 2
    # -ErrorVariable also collects the point's own error that the sweep
    # caught (PowerShell records caught errors there too): look for ours.
    $mine = @($ev | Where-Object { $_ -is [Management.Automation.ErrorRecord] -and $_.FullyQualifiedErrorId -like 'IoSpdSweep*' })
    $mine.Count | Should -Be 1
    $mine[0].FullyQualifiedErrorId | Should -Be 'IoSpdSweepPointFailed,Invoke-IoSpdSweep'
    $mine[0].Exception.Message | Should -BeLike 'Sweep point 2 of 3 (-b4K -o2) failed: iospd exited with code 1: disk full*-ContinueOnError*'
  }
  It 'stops with the error under -ErrorAction Stop, after passing on the earlier results' {
    Mock -ModuleName IoSpd Invoke-IoSpd {
      $script:calls.Add(@{})
      if ($OutstandingIO -eq 2) { throw 'disk full' }
      [pscustomobject]@{ PSTypeName = 'IoSpd.Result'; TotalIOs = 1 }
    }
    $got = [System.Collections.Generic.List[object]]::new()
    { Invoke-IoSpdSweep -Target t.dat -OutstandingIO 1, 2, 4 -ErrorAction Stop | ForEach-Object { $got.Add($_) } } |
      Should -Throw '*point 2 of 3*disk full*'
    $got.Count | Should -Be 1
    $script:calls.Count | Should -Be 2
  }
  # The old sweep put an IoSpd.SweepFailure object among the results, so a
  # Format-Table of IOPS lost its columns (the first row decides them).
  It 'writes a failed point to the error stream with the point attached and goes on with -ContinueOnError' {
    Mock -ModuleName IoSpd Invoke-IoSpd {
      $script:calls.Add(@{})
      if ($OutstandingIO -eq 2) { throw [InvalidOperationException]::new('disk full') }
      [pscustomobject]@{ PSTypeName = 'IoSpd.Result'; TotalIOs = 100 * $script:calls.Count }
    }
    $all = @(Invoke-IoSpdSweep -Target t.dat -BlockSize 4K -OutstandingIO 1, 2, 4 -ContinueOnError -WarningVariable wv -ErrorAction Continue 2>&1)
    $script:calls.Count | Should -Be 3
    $r = @($all | Where-Object { $_ -isnot [Management.Automation.ErrorRecord] })
    $errs = @($all | Where-Object { $_ -is [Management.Automation.ErrorRecord] })
    $r.Count | Should -Be 2
    $r.TotalIOs | Should -Be @(100, 300)
    @($r | Where-Object { $_.PSObject.TypeNames[0] -ne 'IoSpd.Result' }).Count | Should -Be 0
    $errs.Count | Should -Be 1
    $errs[0].FullyQualifiedErrorId | Should -Be 'IoSpdSweepPointFailed,Invoke-IoSpdSweep'
    $errs[0].Exception.Message | Should -BeExactly 'Sweep point 2 of 3 (-b4K -o2) failed: disk full Going on (-ContinueOnError).'
    $pt = $errs[0].TargetObject
    $pt.PSObject.TypeNames[0] | Should -Be 'IoSpd.SweepPoint'
    $pt.SweepPoint | Should -Be 2
    $pt.SweepBlockSize | Should -Be '4K'
    $pt.SweepOutstandingIO | Should -Be 2
    $pt.SweepError.Exception.Message | Should -Be 'disk full'
    @($wv).Count | Should -Be 0
  }
  It 'keeps the table of a -ContinueOnError sweep a table of results' {
    Mock -ModuleName IoSpd Invoke-IoSpd {
      $script:calls.Add(@{})
      if ($OutstandingIO -eq 1) { throw 'disk full' }
      [pscustomobject]@{ PSTypeName = 'IoSpd.Result'; TotalIOs = 7; IOPS = 1234.0 }
    }
    # The IoSpd.Result table view, its IOPS column ({0:N0}) and one row.
    $text = Invoke-IoSpdSweep -Target t.dat -OutstandingIO 1, 2 -ContinueOnError -ErrorAction SilentlyContinue | Out-String -Width 200
    $lines = @($text -split '\r?\n' | Where-Object { $_.Trim() })
    $lines[0] | Should -Match '^\s*TimeSpan\s+Block\s+QD\s+Threads\s+Write%\s+Pattern\s+IOPS\s'
    $lines.Count | Should -Be 3
    $lines[2] | Should -Match ('\s' + [regex]::Escape((1234).ToString('N0')) + '\s')
    $text | Should -Not -Match 'disk full|SweepError'
  }

  # The old sweep checked nothing up front: '4x' failed at the 2nd point
  # after the 1st had run.
  # Deliberate breakage: dropping the Get-IoSpdGridProblem call runs point 1.
  It 'checks the whole grid before the first run and names every bad value' {
    $err = { Invoke-IoSpdSweep -Target t.dat -BlockSize 4K, '4x' -Threads 1, 0 -OutstandingIO 2000000 -WritePercent 50, 101 } |
      Should -Throw -PassThru
    $err.FullyQualifiedErrorId | Should -Be 'IoSpdSweepInvalidGrid,Invoke-IoSpdSweep'
    $err.CategoryInfo.Category | Should -Be 'InvalidArgument'
    $m = $err.Exception.Message
    $m | Should -BeLike "The sweep was not started*"
    $m | Should -BeLike "*-BlockSize value 2 ('4x'): '4x' is not a size*"
    $m | Should -BeLike '*-Threads value 2 (0) is outside 1..65535*'
    $m | Should -BeLike '*-OutstandingIO value 1 (2000000) is outside 1..1048576*'
    $m | Should -BeLike '*-WritePercent value 2 (101) is outside 0..100*'
    $m | Should -Not -BeLike '*value 1 (1)*'
    Should -Invoke -ModuleName IoSpd Invoke-IoSpd -Times 0 -Exactly
  }
  It 'checks the common parameters before the first run' {
    { Invoke-IoSpdSweep -Target t.dat -OutstandingIO 1, 2 -CreateSize '1X' } | Should -Throw "*-CreateSize: '1X' is not a size*"
    Should -Invoke -ModuleName IoSpd Invoke-IoSpd -Times 0 -Exactly
  }
  It 'takes PowerShell''s size literals in the grid' {
    $null = Invoke-IoSpdSweep -Target t.dat -BlockSize 4KB, 64KB
    $script:calls.Count | Should -Be 2
    Should -Invoke -ModuleName IoSpd Invoke-IoSpd -Times 1 -Exactly -ParameterFilter { $BlockSize -eq 65536 }
  }
}

Describe 'Invoke-IoSpdSweep -WhatIf (the real Invoke-IoSpd, process mocked)' {
  It 'runs nothing and returns nothing' {
    $exe = Join-Path $TestDrive 'iospd'
    Set-Content -LiteralPath $exe -Value ''
    Mock -ModuleName IoSpd Invoke-IoSpdProcess { throw 'must not run' }
    Mock -ModuleName IoSpd Write-Progress { }
    $r = @(Invoke-IoSpdSweep -Path $exe -Target t.dat -OutstandingIO 1, 2 -WhatIf)
    $r.Count | Should -Be 0
    Should -Invoke -ModuleName IoSpd Invoke-IoSpdProcess -Times 0 -Exactly
  }
}
