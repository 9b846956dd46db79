# SPDX-License-Identifier: MIT
# iospd's warnings reach PowerShell: every "warning:" / "WARNING:" line (with
# the "note:" that explains it) becomes a Write-Warning, -WarningAction and
# $WarningPreference work, "NOTE:" lines are information, and every result
# has a Warnings property with the lines as printed. A stand-in executable
# prints iospd's real warning lines (copied from a run of iospd -t8 -Sb on a
# 1 MiB file); one real run checks the page-cache warning end to end.

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  Import-Module (Join-Path $repo 'scripts/IoSpd/IoSpd.psd1') -Force
  $script:sampleXml = Join-Path $PSScriptRoot 'data/result-small.xml'
  $script:lines = @(
    'WARNING: target access pattern will not be sequential, consider -si'
    'note: t.dat: the threads of this target all start at the same offset; -si makes them share one sequence, -T<size> gives each its own start'
    "warning: target 't.dat': buffered reads of 1048576 bytes, which fit in the 24276344832 bytes of free memory: after the first pass the run measures the page cache, not the storage. Use -Su (unbuffered) or a target larger than memory"
    'warning: 8 worker threads on 2 logical CPUs: threads wait for a CPU, which adds to the latency and may cap the IOPS; use at most 2 threads (-t, -F) and more outstanding I/Os each (-o)'
  )
}

Describe 'ConvertFrom-IoSpdWarningLine (private)' {
  It 'keeps the warning lines as printed and joins each note to its warning' {
    $text = "iospd: something else`n" + ($script:lines -join "`n") + "`nNOTE: the run was short`nerror-free line`n"
    $w = InModuleScope IoSpd -Parameters @{ T = $text } { param($T) ConvertFrom-IoSpdWarningLine -Line $T }
    $w.Lines | Should -Be $script:lines
    $w.Messages.Count | Should -Be 3
    $w.Messages[0] | Should -BeExactly ('target access pattern will not be sequential, consider -si (t.dat: the threads of this ' +
      'target all start at the same offset; -si makes them share one sequence, -T<size> gives each its own start)')
    $w.Messages[2] | Should -BeLike '8 worker threads on 2 logical CPUs: *'
    $w.Notes | Should -Be @('the run was short')
  }
  It 'finds nothing in a quiet run' {
    $w = InModuleScope IoSpd { ConvertFrom-IoSpdWarningLine -Line '' }
    $w.Lines.Count | Should -Be 0
    $w.Messages.Count | Should -Be 0
  }
}

Describe 'Invoke-IoSpd warnings (stand-in executable)' -Skip:($IsWindows) {
  BeforeAll {
    $script:stub = Join-Path $TestDrive 'stub.sh'
    Set-Content -LiteralPath $script:stub -Value @'
#!/bin/sh
[ -n "$STUB_OUT" ] && cat "$STUB_OUT"
[ -n "$STUB_ERR" ] && cat "$STUB_ERR" >&2
exit "${STUB_RC:-0}"
'@
    chmod +x $script:stub
    $script:err = Join-Path $TestDrive 'stderr.txt'
    Set-Content -LiteralPath $script:err -Value (@($script:lines) + 'NOTE: a DISKSPD note')
    $doc = [ordered]@{ format = 'iospd-results'; format_version = 1; warnings = $script:lines; timespans = @() }
    $script:json = Join-Path $TestDrive 'doc.json'
    Set-Content -LiteralPath $script:json -Value ($doc | ConvertTo-Json -Depth 5)
  }
  BeforeEach { $env:STUB_OUT = $script:sampleXml; $env:STUB_ERR = $script:err; $env:STUB_RC = '0' }
  AfterAll { Remove-Item Env:STUB_OUT, Env:STUB_ERR, Env:STUB_RC -ErrorAction SilentlyContinue }

  It 'writes one Write-Warning per warning and puts the lines on the result' {
    $r = Invoke-IoSpd -ExecutablePath $script:stub -Target t.dat -WarningVariable wv -WarningAction SilentlyContinue `
      -InformationVariable iv
    $r.TotalIOs | Should -Be 1600
    $r.Warnings | Should -Be $script:lines
    @($wv).Count | Should -Be 3
    $wv[0].Message | Should -BeLike 'iospd: target access pattern will not be sequential, consider -si (t.dat: the threads*'
    $wv[1].Message | Should -BeLike "iospd: target 't.dat': buffered reads of 1048576 bytes*page cache, not the storage*"
    $wv[2].Message | Should -BeLike 'iospd: 8 worker threads on 2 logical CPUs*'
    @($iv).Count | Should -Be 1
    $iv[0].MessageData | Should -Be 'iospd: a DISKSPD note'
    $iv[0].Tags | Should -Contain 'Note'
  }
  It 'reaches the warning stream so that 3>&1 and $WarningPreference see it' {
    $all = @(Invoke-IoSpd -ExecutablePath $script:stub -Target t.dat 3>&1)
    @($all | Where-Object { $_ -is [Management.Automation.WarningRecord] }).Count | Should -Be 3
    # A session's preference ($global:, as a user sets it at the prompt or
    # in a profile; a module does not see a caller's local variable).
    $saved = $global:WarningPreference
    try {
      $global:WarningPreference = 'Stop'
      { Invoke-IoSpd -ExecutablePath $script:stub -Target t.dat } | Should -Throw '*target access pattern will not be sequential*'
      $global:WarningPreference = 'SilentlyContinue'
      $r = Invoke-IoSpd -ExecutablePath $script:stub -Target t.dat -WarningVariable wv
      @($wv).Count | Should -Be 3
      $r.Warnings.Count | Should -Be 4
    } finally { $global:WarningPreference = $saved }
  }
  It 'is silent with -WarningAction Ignore and still keeps the Warnings property' {
    $all = @(Invoke-IoSpd -ExecutablePath $script:stub -Target t.dat -WarningAction Ignore 3>&1)
    $all.Count | Should -Be 1
    $all[0].Warnings.Count | Should -Be 4
  }
  It 'has an empty Warnings property when iospd warned of nothing' {
    Remove-Item Env:STUB_ERR
    $r = Invoke-IoSpd -ExecutablePath $script:stub -Target t.dat -WarningVariable wv
    @($wv).Count | Should -Be 0
    $r.PSObject.Properties['Warnings'] | Should -Not -BeNullOrEmpty
    $r.Warnings.Count | Should -Be 0
  }
  It 'keeps the JSON document''s own warnings array with -Json and warns the same' {
    $env:STUB_OUT = $script:json
    $r = Invoke-IoSpd -ExecutablePath $script:stub -Target t.dat -Json -WarningVariable wv -WarningAction SilentlyContinue
    $r.format | Should -Be 'iospd-results'
    $r.warnings | Should -Be $script:lines
    @($wv).Count | Should -Be 3
  }
}

Describe 'Invoke-IoSpd warnings (real Linux iospd)' -Skip:($IsWindows) {
  BeforeAll {
    $script:exe = $env:IOSPD_EXE
    if (-not $script:exe) { $script:exe = Join-Path $repo 'build/linux/iospd' }
    if (-not (Test-Path -LiteralPath $script:exe -PathType Leaf)) { throw "iospd not found at '$script:exe': build it or set IOSPD_EXE." }
  }
  It 'passes on the page-cache warning of a buffered run on a small file' {
    $t = Join-Path $TestDrive 'cached.dat'
    $r = Invoke-IoSpd -ExecutablePath $script:exe -Target $t -CreateSize 1M -BlockSize 4K -Duration 1 -Warmup 0 -CacheMode Cached `
      -WarningVariable wv -WarningAction SilentlyContinue
    $r.TotalIOs | Should -BeGreaterThan 0
    $pc = @($r.Warnings | Where-Object { $_ -like "warning: target '$t': buffered reads of 1048576 bytes*page cache*" })
    $pc.Count | Should -Be 1
    @($wv | Where-Object { $_.Message -like "iospd: target '$t': buffered reads*" }).Count | Should -Be 1
  }
}
