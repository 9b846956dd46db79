# SPDX-License-Identifier: MIT
# Invoke-IoSpdSweep -LatencyLimit/-Curve/-Expect (iospd --curve, docs/curve.md)
# and Invoke-IoSpd -Pts/-PtsCell (iospd --pts, docs/pts.md). A stand-in
# executable records its arguments and hands back hand-made documents
# (tests/pester/data/curve-small.json, pts-small.json: checked against
# schema/iospd-curve.schema.json and iospd-pts.schema.json where the
# repository has them); the expected values below are the documents' own.

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  Import-Module (Join-Path $repo 'scripts/IoSpd/IoSpd.psd1') -Force
  $script:curveDoc = Join-Path $PSScriptRoot 'data/curve-small.json'
  $script:ptsDoc = Join-Path $PSScriptRoot 'data/pts-small.json'
}

Describe 'The hand-made documents follow the schemas' {
  It '<Doc> is valid against <Schema>' -ForEach @(
    @{ Doc = 'curve-small.json'; Schema = 'iospd-curve.schema.json' }
    @{ Doc = 'pts-small.json'; Schema = 'iospd-pts.schema.json' }
  ) {
    $dir = Join-Path $repo 'schema'
    if (-not (Test-Path -LiteralPath (Join-Path $dir $Schema))) {
      Set-ItResult -Skipped -Because "schema/$Schema is not in this checkout (it comes with the --curve/--pts branches)"
      return
    }
    $out = & python3 (Join-Path $PSScriptRoot 'validate_document.py') $dir $Schema (Join-Path $PSScriptRoot "data/$Doc") 2>&1
    $LASTEXITCODE | Should -Be 0 -Because ($out -join ' ')
    @($out)[-1] | Should -Be 'ok'
  }
}

Describe 'Invoke-IoSpdSweep curve mode (stand-in executable)' -Skip:($IsWindows) {
  BeforeAll {
    # Records argv, copies STUB_DOC to the --output=json: file, prints
    # STUB_ERR on stderr and exits STUB_RC.
    $script:stub = Join-Path $TestDrive 'curve-stub.sh'
    Set-Content -LiteralPath $script:stub -Value @'
#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done > "$STUB_ARGS"
for a in "$@"; do
  case "$a" in --output=json:*) [ -n "$STUB_DOC" ] && cp "$STUB_DOC" "${a#--output=json:}" ;; esac
done
echo 'curve text report'
[ -n "$STUB_ERR" ] && printf '%s\n' "$STUB_ERR" >&2
exit "${STUB_RC:-0}"
'@
    chmod +x $script:stub
  }
  BeforeEach {
    $env:STUB_ARGS = Join-Path $TestDrive 'curve-args.txt'
    Remove-Item -LiteralPath $env:STUB_ARGS -ErrorAction SilentlyContinue
    $env:STUB_DOC = $script:curveDoc; $env:STUB_RC = '0'; Remove-Item Env:STUB_ERR -ErrorAction SilentlyContinue
  }
  AfterAll { Remove-Item Env:STUB_ARGS, Env:STUB_DOC, Env:STUB_RC, Env:STUB_ERR -ErrorAction SilentlyContinue }

  It 'runs iospd --curve with the bound, the axis and the expectation, and returns the verdict object' {
    $c = Invoke-IoSpdSweep -ExecutablePath $script:stub -Target t.dat -BlockSize 4K -Random -CacheMode NoBuffering `
      -LatencyLimit 'p99<=1ms' -Curve 'o:1..8' -Expect 'iops:5000'
    $argv = @(Get-Content -LiteralPath $env:STUB_ARGS)
    $argv.Count | Should -Be 8
    ($argv[0..5] -join ' ') | Should -BeExactly '-b4K -r -Su --curve=o:1..8 --latency-limit=p99<=1ms --expect=iops:5000'
    $argv[6] | Should -BeLike '--output=json:*iospd-curve-*.json'
    $argv[7] | Should -Be 't.dat'
    Test-Path -LiteralPath ($argv[6] -replace '^--output=json:', '') | Should -BeFalse -Because 'the temporary document is removed'

    @($c).Count | Should -Be 1
    $c.PSObject.TypeNames[0] | Should -Be 'IoSpd.CurveResult'
    $c.AxisSwitch | Should -Be 'o'
    $c.Planned | Should -Be @(1, 2, 4, 8)
    $c.LatencyLimit.Stat | Should -Be 'p99'
    $c.LatencyLimit.LimitUs | Should -Be 1000
    $c.Expect.Kind | Should -Be 'iops'
    $c.Expect.Value | Should -Be 5000
    $c.Points.Count | Should -Be 4
    $c.Points.AxisValue | Should -Be @(1, 2, 4, 3)
    $c.Points.Phase | Should -Be @('curve', 'curve', 'curve', 'bisect')
    $c.Points.WithinLimit | Should -Be @($true, $true, $false, $true)
    $c.Points[2].IOPS | Should -Be 4100
    $c.Points[2].P99Us | Should -Be 1500
    $c.Points[3].MiBps | Should -Be 15.8203125
    $c.Points[0].OutstandingIO | Should -Be 1
    $c.Points[0].PSObject.TypeNames[0] | Should -Be 'IoSpd.CurvePoint'
    $c.Stopped | Should -Be 'limit_broken'
    $c.Knee.AxisValue | Should -Be 2
    $c.Knee.P99Us | Should -Be 800
    $c.Answer.AxisValue | Should -Be 3
    $c.Answer.IOPS | Should -Be 4050
    $c.Answer.LatencyUs | Should -Be 950
    $c.Answer.GoodAxisValue | Should -Be 3
    $c.Answer.BadAxisValue | Should -Be 4
    $c.Cap.Kind | Should -Be 'iops'
    $c.Cap.Value | Should -Be 4100
    $c.Cap.Unit | Should -Be 'IOPS'
    $c.LittlesLaw[0].ExpectedLatencyUs | Should -Be 975.6
    $c.Verdict.Count | Should -Be 3
    $c.Verdict[1] | Should -BeExactly 'Within p99 <= 1 ms the deepest queue is QD 3: 4050 IOPS.'
    $c.Verdict.GetType() | Should -Be ([string[]])
    $c.Interrupted | Should -BeFalse
    $c.Warnings.Count | Should -Be 0
  }
  It 'uses the default -o axis (bare --curve) when only -LatencyLimit is given' {
    $null = Invoke-IoSpdSweep -ExecutablePath $script:stub -Target t.dat -LatencyLimit 'mean<=500us'
    Get-Content -LiteralPath $env:STUB_ARGS | Should -Be @('--curve', '--latency-limit=mean<=500us',
      (Get-Content -LiteralPath $env:STUB_ARGS)[2], 't.dat')
    (Get-Content -LiteralPath $env:STUB_ARGS)[2] | Should -BeLike '--output=json:*'
  }
  It 'refuses a grid of values with -Curve before running anything' {
    $e = $null
    try { Invoke-IoSpdSweep -ExecutablePath $script:stub -Target t.dat -OutstandingIO 1, 2 -Curve 't:1..4' } catch { $e = $_ }
    $e.FullyQualifiedErrorId | Should -Be 'IoSpdSweepInvalidGrid,Invoke-IoSpdSweep'
    $e.Exception.Message | Should -BeLike 'The curve was not started; -OutstandingIO has 2 values:*give one value.'
    Test-Path -LiteralPath $env:STUB_ARGS | Should -BeFalse
  }
  It 'returns a cut-short curve and then an IoSpdCurveFailed error for a non-zero exit' {
    $env:STUB_RC = '1'; $env:STUB_ERR = 'error: curve point 3 failed: No space left on device'
    $all = @(Invoke-IoSpdSweep -ExecutablePath $script:stub -Target t.dat -Curve o -ErrorAction Continue 2>&1)
    $res = @($all | Where-Object { $_ -isnot [Management.Automation.ErrorRecord] })
    $err = @($all | Where-Object { $_ -is [Management.Automation.ErrorRecord] })
    $res.Count | Should -Be 1
    $res[0].Points.Count | Should -Be 4
    $err.Count | Should -Be 1
    $err[0].FullyQualifiedErrorId | Should -Be 'IoSpdCurveFailed,Invoke-IoSpdSweep'
    $err[0].Exception.Message | Should -BeExactly ('iospd --curve exited with code 1 (the curve above is what it measured): ' +
      'error: curve point 3 failed: No space left on device')
    [object]::ReferenceEquals($err[0].TargetObject, $res[0]) | Should -BeTrue
  }
  It 'is an error alone when iospd refused the curve and wrote no document' {
    Remove-Item Env:STUB_DOC; $env:STUB_RC = '3'; $env:STUB_ERR = "error: --latency-limit=p99<=1: give the time's unit (500us, 1ms)"
    { Invoke-IoSpdSweep -ExecutablePath $script:stub -Target t.dat -LatencyLimit 'p99<=1' -ErrorAction Stop } |
      Should -Throw "iospd --curve exited with code 3 (it wrote no curve document): error: --latency-limit=p99<=1: give the time's unit (500us, 1ms)"
  }
  It 'passes on iospd''s warnings' {
    $env:STUB_ERR = 'warning: 8 worker threads on 2 logical CPUs: threads wait for a CPU'
    $c = Invoke-IoSpdSweep -ExecutablePath $script:stub -Target t.dat -Curve t -WarningVariable wv -WarningAction SilentlyContinue
    @($wv).Count | Should -Be 1
    $wv[0].Message | Should -BeExactly 'iospd: 8 worker threads on 2 logical CPUs: threads wait for a CPU'
    $c.Warnings | Should -Be @('warning: 8 worker threads on 2 logical CPUs: threads wait for a CPU')
  }
  It 'refuses a document that is not a curve' {
    $env:STUB_DOC = $script:ptsDoc
    { Invoke-IoSpdSweep -ExecutablePath $script:stub -Target t.dat -Curve o -ErrorAction Stop } |
      Should -Throw "*holds format 'iospd-pts', not an iospd-curve document."
  }
  It 'shows the command line and runs nothing under -WhatIf' {
    $r = Invoke-IoSpdSweep -ExecutablePath $script:stub -Target t.dat -Curve o -WhatIf
    $r | Should -BeNullOrEmpty
    Test-Path -LiteralPath $env:STUB_ARGS | Should -BeFalse
  }
}

Describe 'Invoke-IoSpd -Pts (stand-in executable)' -Skip:($IsWindows) {
  BeforeAll {
    $script:pstub = Join-Path $TestDrive 'pts-stub.sh'
    Set-Content -LiteralPath $script:pstub -Value @'
#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done > "$STUB_ARGS"
cat "$STUB_DOC"
[ -n "$STUB_ERR" ] && printf '%s\n' "$STUB_ERR" >&2
exit 0
'@
    chmod +x $script:pstub
  }
  BeforeEach {
    $env:STUB_ARGS = Join-Path $TestDrive 'pts-args.txt'
    $env:STUB_DOC = $script:ptsDoc; Remove-Item Env:STUB_ERR -ErrorAction SilentlyContinue
  }
  AfterAll { Remove-Item Env:STUB_ARGS, Env:STUB_DOC, Env:STUB_ERR -ErrorAction SilentlyContinue }

  It 'runs --pts with --pts-cell and -Rjson and returns the PTS document as objects' {
    $p = Invoke-IoSpd -ExecutablePath $script:pstub -Target /dev/loop0 -Pts iops -PtsCell 1s -Threads 1 -OutstandingIO 4 -CacheMode Both
    Get-Content -LiteralPath $env:STUB_ARGS | Should -Be @('-t1', '-o4', '-Sh', '--pts=iops', '--pts-cell=1s', '-Rjson', '/dev/loop0')
    $p.PSObject.TypeNames[0] | Should -Be 'IoSpd.PtsResult'
    $p.Test | Should -Be 'iops'
    $p.Conformant | Should -BeFalse
    $p.NonconformantReasons | Should -Be @('--pts-cell=1s: cells of 1 s, not the 60 s PTS asks for')
    $p.Target | Should -Be '/dev/loop0'
    $p.Tracked.Metric | Should -Be 'iops'
    $p.Rounds.Count | Should -Be 5
    $p.Rounds.TrackedValue | Should -Be @(10500, 10200, 10000, 10100, 10050)
    $p.Rounds[2].Cells.Count | Should -Be 4
    $p.Rounds[2].Cells[1].ReadPercent | Should -Be 100
    $p.Rounds[2].Cells[1].IOPS | Should -Be 30000
    $p.Rounds[2].Cells[2].BlockSize | Should -Be 65536
    $p.Rounds[2].Cells[0].P99_9Us | Should -Be 1500
    $p.Window.FirstRound | Should -Be 1
    $p.Window.LastRound | Should -Be 5
    $p.Window.Values | Should -Be @(10500, 10200, 10000, 10100, 10050)
    $p.Window.Mean | Should -Be 10170
    $p.Window.DataExcursion | Should -Be 500
    $p.Window.Slope | Should -Be -100
    $p.Window.SlopeExcursion | Should -Be 400
    $p.Window.DataOk | Should -BeTrue
    $p.Window.SlopeOk | Should -BeTrue
    $p.Converged | Should -BeTrue
    $p.Stopped | Should -Be 'steady'
    $p.Document.format | Should -Be 'iospd-pts'
  }
  It 'gives the document itself with -Json' {
    $d = Invoke-IoSpd -ExecutablePath $script:pstub -Target /dev/loop0 -Pts throughput -Json
    Get-Content -LiteralPath $env:STUB_ARGS | Should -Be @('--pts=throughput', '-Rjson', '/dev/loop0')
    $d.format | Should -Be 'iospd-pts'
    $d.window.mean | Should -Be 10170
  }
  It 'passes on the warning that --pts replaces switches' {
    $env:STUB_ERR = 'warning: --pts sets -b -w -r -d -W of its cells: -b4K is not used'
    $p = Invoke-IoSpd -ExecutablePath $script:pstub -Target /dev/loop0 -Pts iops -BlockSize 4K -WarningVariable wv -WarningAction SilentlyContinue
    @($wv).Count | Should -Be 1
    $p.Warnings | Should -Be @('warning: --pts sets -b -w -r -d -W of its cells: -b4K is not used')
  }
  It 'refuses -PtsCell without -Pts, and a document that is not a PTS one' {
    { Invoke-IoSpd -ExecutablePath $script:pstub -Target t -PtsCell 1s } | Should -Throw '-PtsCell needs -Pts*' -ErrorId 'IoSpdInvalidArgument,Invoke-IoSpd'
    $env:STUB_DOC = $script:curveDoc
    { Invoke-IoSpd -ExecutablePath $script:pstub -Target t -Pts iops -ErrorAction Stop } |
      Should -Throw "iospd --pts=iops: *holds format 'iospd-curve', not an iospd-pts document."
  }
}
