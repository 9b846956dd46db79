# SPDX-License-Identifier: MIT
# The module's PowerShell conventions: files piped to Invoke-IoSpd bind to
# -Target by FullName; one meaning per parameter name (-ExecutablePath is
# the executable, -Path stays only as its alias; -Path elsewhere is files);
# help names iospd's own default instead of "0"; sizes in the KiB form
# iospd prints. A stand-in executable records the arguments it was given.

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  Import-Module (Join-Path $repo 'scripts/IoSpd/IoSpd.psd1') -Force
  $script:sampleXml = Join-Path $PSScriptRoot 'data/result-small.xml'
}

Describe 'Pipeline input to Invoke-IoSpd' -Skip:($IsWindows) {
  BeforeAll {
    $script:stub = Join-Path $TestDrive 'stub.sh'
    Set-Content -LiteralPath $script:stub -Value @'
#!/bin/sh
for a in "$@"; do printf '%s\n' "$a"; done >> "$STUB_ARGS"
echo '--end of run--' >> "$STUB_ARGS"
cat "$STUB_OUT"
'@
    chmod +x $script:stub
    $script:dir = Join-Path $TestDrive 'files'
    $null = New-Item -ItemType Directory -Path $script:dir
    foreach ($n in 'a.dat', 'b c.dat', 'other.txt') { Set-Content -LiteralPath (Join-Path $script:dir $n) -Value 'x' }
  }
  BeforeEach {
    $env:STUB_ARGS = Join-Path $TestDrive ("args-" + [guid]::NewGuid().ToString('N') + '.txt')
    $env:STUB_OUT = $script:sampleXml
  }
  AfterAll { Remove-Item Env:STUB_ARGS, Env:STUB_OUT -ErrorAction SilentlyContinue }

  It 'binds Get-ChildItem *.dat to -Target by FullName, all files in one run' {
    Push-Location $script:dir
    try { $r = @(Get-ChildItem *.dat | Invoke-IoSpd -ExecutablePath $script:stub -BlockSize 4K) } finally { Pop-Location }
    $r.Count | Should -Be 1
    $r[0].TotalIOs | Should -Be 1600
    Get-Content -LiteralPath $env:STUB_ARGS | Should -Be @('-b4K', '-Rxml', (Join-Path $script:dir 'a.dat'),
      (Join-Path $script:dir 'b c.dat'), '--end of run--')
  }
  It 'takes strings from the pipeline as targets' {
    $null = 'x.dat', 'y.dat' | Invoke-IoSpd -ExecutablePath $script:stub
    Get-Content -LiteralPath $env:STUB_ARGS | Should -Be @('-Rxml', 'x.dat', 'y.dat', '--end of run--')
  }
  It 'still runs with the old -Path name of the executable' {
    $r = Invoke-IoSpd -Path $script:stub -Target t.dat
    $r.TotalIOs | Should -Be 1600
  }
}

Describe 'One meaning per parameter name' {
  It '<_> names its executable -ExecutablePath with the alias -Path' -ForEach 'Invoke-IoSpd', 'Invoke-IoSpdSweep', 'Invoke-IoSpdFleet', 'Invoke-IoSpdFleetSweep' {
    $p = (Get-Command $_).Parameters
    $p.ContainsKey('ExecutablePath') | Should -BeTrue
    $p['ExecutablePath'].Aliases | Should -Be @('Path')
    $p['ExecutablePath'].ParameterType | Should -Be ([string])
  }
  It 'uses -Path for files everywhere else' {
    $cmds = Get-Command -Module IoSpd -CommandType Function
    $withPath = @($cmds | Where-Object { $_.Parameters.ContainsKey('Path') } | ForEach-Object Name | Sort-Object)
    $withPath | Should -Be @('ConvertFrom-IoSpdXml', 'ConvertTo-IoSpdRow', 'Get-IoSpdCsvOwner', 'Move-IoSpdCsvOwner')
    foreach ($n in $withPath) {
      $h = (Get-Help $n -Parameter Path).Description.Text -join ' '
      $h | Should -Not -Match 'executable' -Because "-Path of $n is files, not the program"
    }
  }
}

Describe 'Help names iospd''s own defaults' {
  It '<Cmd> -<Param> says <Want>' -ForEach @(
    @{ Cmd = 'Invoke-IoSpd'; Param = 'Threads'; Want = "iospd's: 1 thread per target (-t)" }
    @{ Cmd = 'Invoke-IoSpd'; Param = 'OutstandingIO'; Want = "iospd's: 2 per thread and target (-o)" }
    @{ Cmd = 'Invoke-IoSpd'; Param = 'BlockSize'; Want = "iospd's: 64K (-b)" }
    @{ Cmd = 'Invoke-IoSpd'; Param = 'Duration'; Want = "iospd's: 10 s (-d)" }
    @{ Cmd = 'Invoke-IoSpd'; Param = 'Warmup'; Want = "iospd's: 5 s (-W)" }
    @{ Cmd = 'Invoke-IoSpd'; Param = 'WritePercent'; Want = "iospd's: 0, reads only (-w)" }
    @{ Cmd = 'Invoke-IoSpdSweep'; Param = 'OutstandingIO'; Want = "iospd's: 2 per thread and target (-o)" }
    @{ Cmd = 'Invoke-IoSpdFleet'; Param = 'Threads'; Want = "iospd's: 1 thread per target (-t)" }
  ) {
    (Get-Help $Cmd -Parameter $Param).defaultValue | Should -BeExactly $Want
  }
  # iospd's defaults are not 0 (-o2, -t1, -d10, -W5): a help that shows 0
  # for a parameter left to iospd misleads.
  It 'shows no "0" default for a parameter <_> leaves to iospd' -ForEach 'Invoke-IoSpd', 'Invoke-IoSpdSweep', 'Invoke-IoSpdFleet' {
    $cmd = $_
    foreach ($p in (Get-Help $cmd -Full).parameters.parameter) {
      if ($p.name -eq 'TimeoutSec' -and $cmd -eq 'Invoke-IoSpdFleet') { continue }   # declared = 0: "0: no limit"
      [string]$p.defaultValue | Should -Not -Be '0' -Because "-$($p.name) of $cmd is left to iospd when not given"
    }
  }
}

Describe 'Sizes in the KiB form iospd prints' {
  It 'reads <In> as <Want>' -ForEach @(
    @{ In = '64KiB'; Want = '64K' }
    @{ In = '4kib'; Want = '4K' }
    @{ In = '1GiB'; Want = '1G' }
    @{ In = '2MiB'; Want = '2M' }
    @{ In = '1TiB'; Want = '1T' }
    @{ In = '64KB'; Want = '64K' }
  ) {
    $got = InModuleScope IoSpd -Parameters @{ V = $In } { param($V) ConvertTo-IoSpdSizeArgument -Value $V -Parameter BlockSize }
    $got | Should -BeExactly $Want
  }
  It 'refuses <In>' -ForEach @(@{ In = '64Ki' }, @{ In = '64KiBB' }, @{ In = '64iB' }) {
    { InModuleScope IoSpd -Parameters @{ V = $In } { param($V) ConvertTo-IoSpdSizeArgument -Value $V -Parameter BlockSize } } |
      Should -Throw -ErrorId 'IoSpdInvalidSize'
  }
  It 'builds -b and -c from KiB/GiB and checks a sweep grid of them' {
    $a = InModuleScope IoSpd { ConvertTo-IoSpdArgumentList -Target t -BlockSize '64KiB' -CreateSize '1GiB' }
    ($a -join ' ') | Should -BeExactly '-b64K -c1G -Rxml t'
    $bad = @(InModuleScope IoSpd { Get-IoSpdGridProblem -Dimension ([ordered]@{ BlockSize = @('4KiB', '64KiB', '8Kx') }) })
    $bad.Count | Should -Be 1
    $bad[0] | Should -BeLike "-BlockSize value 3 ('8Kx')*"
  }
}
