# SPDX-License-Identifier: MIT
# Invoke-IoSpdSweep: grid order, parameters passed per point, the point's
# parameters on each result and Write-Progress percentages.

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  Import-Module (Join-Path $repo 'scripts/IoSpd/IoSpd.psd1') -Force
}

Describe 'Invoke-IoSpdSweep' {
  BeforeEach {
    $script:calls = [System.Collections.Generic.List[hashtable]]::new()
    Mock -ModuleName IoSpd Invoke-IoSpd {
      $copy = @{}
      foreach ($k in $PesterBoundParameters.Keys) { $copy[$k] = $PesterBoundParameters[$k] }
      $script:calls.Add($copy)
      [pscustomobject]@{ PSTypeName = 'IoSpd.Result'; TotalIOs = 100 * $script:calls.Count; IOPS = 1.0 }
    }
    Mock -ModuleName IoSpd Write-Progress { }
  }

  It 'runs every grid point, block size outermost, write ratio innermost' {
    $r = @(Invoke-IoSpdSweep -Target t.dat -BlockSize 4K, 64K -Threads 1, 2 -OutstandingIO 8 -WritePercent 0, 100 -Duration 5)
    $r.Count | Should -Be 8
    $order = $r | ForEach-Object { '{0}/{1}/{2}/{3}' -f $_.BlockSize, $_.Threads, $_.OutstandingIO, $_.WritePercent }
    $order | Should -Be @('4K/1/8/0', '4K/1/8/100', '4K/2/8/0', '4K/2/8/100',
      '64K/1/8/0', '64K/1/8/100', '64K/2/8/0', '64K/2/8/100')
    $r.Point | Should -Be (1..8)
    $r[5].TotalIOs | Should -Be 600   # result of the 6th run, not another point's
  }

  It 'passes each point and the common parameters to Invoke-IoSpd' {
    $null = Invoke-IoSpdSweep -Target a.dat, b.dat -BlockSize 8K -Threads 4 -OutstandingIO 1, 16 -WritePercent 30 `
      -Random -Duration 10 -Warmup 2 -CacheMode Both -Latency -CreateSize 1G -ArgumentList '-Z1M' -Path /x/iospd
    Should -Invoke -ModuleName IoSpd Invoke-IoSpd -Times 2 -Exactly
    Should -Invoke -ModuleName IoSpd Invoke-IoSpd -Times 1 -Exactly -ParameterFilter {
      $OutstandingIO -eq 16 -and $BlockSize -eq '8K' -and $Threads -eq 4 -and $WritePercent -eq 30 -and
      ($Target -join ',') -eq 'a.dat,b.dat' -and $Random -and $Duration -eq 10 -and $Warmup -eq 2 -and
      $CacheMode -eq 'Both' -and $Latency -and $CreateSize -eq '1G' -and $ArgumentList -eq '-Z1M' -and $Path -eq '/x/iospd'
    }
    $script:calls[0]['Target'] | Should -Be @('a.dat', 'b.dat')
    $script:calls[0].ContainsKey('Cooldown') | Should -BeFalse
    $script:calls[0].ContainsKey('AlignCsvOwner') | Should -BeFalse
  }

  It 'does not pass a dimension that was not given' {
    $r = @(Invoke-IoSpdSweep -Target t.dat -OutstandingIO 1, 2, 4)
    $r.Count | Should -Be 3
    $script:calls[0].ContainsKey('BlockSize') | Should -BeFalse
    $script:calls[0].ContainsKey('Threads') | Should -BeFalse
    $script:calls[0].ContainsKey('WritePercent') | Should -BeFalse
    $script:calls[2]['OutstandingIO'] | Should -Be 4
    $r[0].BlockSize | Should -BeNullOrEmpty
    $r[2].OutstandingIO | Should -Be 4
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

  It 'stops with the error of a failing point' {
    Mock -ModuleName IoSpd Invoke-IoSpd { throw 'iospd exited with code 1: disk full' }
    { Invoke-IoSpdSweep -Target t.dat -BlockSize 4K, 8K } | Should -Throw '*disk full*'
    Should -Invoke -ModuleName IoSpd Invoke-IoSpd -Times 1 -Exactly
  }
}
