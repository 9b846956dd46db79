# SPDX-License-Identifier: MIT
# DISKSPD 2.3 in the PowerShell module (issue #25): -DiskSpdVersion where
# the module builds command lines, and ConvertFrom-IoSpdXml /
# ConvertTo-IoSpdRow on real DISKSPD 2.3 -Rxml output (tests/pester/data/
# diskspd23-*.xml, see data/README.md) next to 2.2's. The expected numbers
# are the documents' own: sums of the <Thread><Target> counters.

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  Import-Module (Join-Path $repo 'scripts/IoSpd/IoSpd.psd1') -Force
  $data = Join-Path $PSScriptRoot 'data'
  $script:wait = Join-Path $data 'diskspd23-04-waitstats.xml'
  $script:bufsep = Join-Path $data 'diskspd23-11-bufsep-pde-threads.xml'
  $script:pool = Join-Path $data 'diskspd23-13-threadpool.xml'
  $script:depth = Join-Path $data 'diskspd23-20-completion-depth.xml'
  $script:p02 = Join-Path $data 'diskspd23-profile-P02.xml'
  $script:v22 = Join-Path $repo 'tests/data/report-sample-mixed-random-4k-L-D.xml'
  foreach ($f in $script:wait, $script:bufsep, $script:pool, $script:depth, $script:p02, $script:v22) {
    if (-not (Test-Path -LiteralPath $f)) { throw "test data '$f' is missing from the checkout." }
  }
}

Describe 'ConvertFrom-IoSpdXml on DISKSPD 2.3 results' {
  It 'reads a real 2.3 document despite its unescaped Name="<unknown>"' {
    (Get-Content -LiteralPath $script:wait -Raw) | Should -Match 'Name="<unknown>"'
    $r = ConvertFrom-IoSpdXml -Path $script:wait -ErrorAction Stop
    $r.ToolVersion | Should -Be '2.3.0'
    $r.DiskSpdVersion | Should -Be '2.3'
    $r.ComputerName | Should -Be 'vm'
    $r.TestTimeSeconds | Should -Be 1.0
    $r.ThreadCount | Should -Be 1
    $r.TotalIOs | Should -Be 3544
    $r.ReadBytes | Should -Be 232259584
    $r.IOPS | Should -Be 3544.0
    $r.CpuUsagePercent | Should -Be 63.98
    $r.BlockSize | Should -Be 65536
    $r.OutstandingIO | Should -Be 2
    $r.BufferSeparation | Should -Be 'PDECacheLine'
    $r.IoRing | Should -BeFalse
    $r.CompletionDepth | Should -BeNullOrEmpty
    $r.PSObject.Properties.Name | Should -Contain 'CompletionDepth'
  }

  It 'reads two threads of -bsp -t2 -o4 and their rows' {
    $r = ConvertFrom-IoSpdXml -Path $script:bufsep -ErrorAction Stop
    $r.ThreadCount | Should -Be 2
    $r.TotalIOs | Should -Be 38716
    $r.ReadBytes | Should -Be 2537291776
    $r.OutstandingIO | Should -Be 4
    $r.ThreadsPerTarget | Should -Be 2
    @($r.Threads).Count | Should -Be 2
    @($r.Threads.Path | Select-Object -Unique) | Should -Be @('r11.dat')
    ($r.Threads | Measure-Object -Property IOs -Sum).Sum | Should -Be 38716
  }

  It 'reads -F2 -O4 (threads shared by the targets)' {
    $r = ConvertFrom-IoSpdXml -Path $script:pool -ErrorAction Stop
    $r.ThreadCount | Should -Be 2
    $r.TotalIOs | Should -Be 36028
    $r.OutstandingIO | Should -Be 4
    $r.ThreadsPerTarget | Should -BeNullOrEmpty
    $r.Pattern | Should -Be 'Random'
  }

  It 'reads -oc4 as CompletionDepth and the -L percentiles' {
    $r = ConvertFrom-IoSpdXml -Path $script:depth -ErrorAction Stop
    $r.CompletionDepth | Should -Be 4
    $r.OutstandingIO | Should -Be 8
    $r.TotalIOs | Should -Be 4431
    $r.ReadBytes | Should -Be 290390016
    $r.AvgLatencyMs | Should -Not -BeNullOrEmpty
    $r.TotalP50Ms | Should -Not -BeNullOrEmpty
  }

  It 'reads <IoRing> (-u8: a batch of 8, registered buffers) from the profile part' {
    # IoRing runs cannot execute under wine: the real -Rpxml profile's
    # <IoRing> put where 2.3 writes it in a result, after <RandSeed>.
    $prof = [IO.File]::ReadAllText($script:p02)
    $ring = [regex]::Match($prof, '(?s)<IoRing>.*?</IoRing>').Value
    $ring | Should -Match 'Percent="false">8<'
    $text = [IO.File]::ReadAllText($script:wait) -replace '(<RandSeed>0</RandSeed>)', ('$1' + $ring)
    $r = ConvertFrom-IoSpdXml -Xml $text -ErrorAction Stop
    $r.IoRing | Should -BeTrue
    $r.IoRingBatchSize | Should -Be 8
    $r.IoRingBatchPercent | Should -BeFalse
    $r.IoRingRegisteredBuffers | Should -BeTrue
    $row = $r | ConvertTo-IoSpdRow
    $row.IoRingBatch | Should -Be '8'
    $row.IoRing | Should -BeTrue
    $pct = $text -replace 'Percent="false">8<', 'Percent="true">25<' -replace '<UseRegBuffer>true<', '<UseRegBuffer>false<'
    $r = ConvertFrom-IoSpdXml -Xml $pct -ErrorAction Stop
    $r.IoRingBatchSize | Should -Be 25
    $r.IoRingBatchPercent | Should -BeTrue
    $r.IoRingRegisteredBuffers | Should -BeFalse
    ($r | ConvertTo-IoSpdRow).IoRingBatch | Should -Be '25%'
  }

  It 'gives 2.2 documents DiskSpdVersion 2.2 and no 2.3 settings' {
    $r = ConvertFrom-IoSpdXml -Path $script:v22 -ErrorAction Stop
    $r.DiskSpdVersion | Should -Be '2.2'
    $r.IoRing | Should -BeFalse
    foreach ($n in 'BufferSeparation', 'CompletionDepth', 'IoRingBatchSize', 'IoRingBatchPercent', 'IoRingRegisteredBuffers') {
      $r.PSObject.Properties.Name | Should -Contain $n
      $r.$n | Should -BeNullOrEmpty
    }
  }

  It 'still refuses a document that is broken in other ways' {
    # The unescaped value is repaired, the mismatched end tag is not.
    $text = [IO.File]::ReadAllText($script:wait).Replace('</TimeSpan>', '</TimeSpanX>')
    { ConvertFrom-IoSpdXml -Xml $text } | Should -Throw -ErrorId 'IoSpdResultXmlMalformed*'
    # A file gives a non-terminating error and nothing else.
    $bad = Join-Path $TestDrive 'bad.xml'
    [IO.File]::WriteAllText($bad, $text)
    $err = $null
    $r = ConvertFrom-IoSpdXml -Path $bad -ErrorAction SilentlyContinue -ErrorVariable err
    $r | Should -BeNullOrEmpty
    @($err).Count | Should -Be 1
    $err[0].FullyQualifiedErrorId | Should -BeLike 'IoSpdResultXmlMalformed*'
    $err[0].Exception.Message | Should -Match "'TimeSpan' start tag on line \d+ position \d+ does not match the end tag of 'TimeSpanX'"
  }

  It 'leaves escaped attribute values as they are' {
    $r = InModuleScope IoSpd { Repair-IoSpdXmlAttributeText -Text '<A N="&lt;x&gt; &amp; y" M="<u> & v"/>' }
    $r | Should -BeExactly '<A N="&lt;x&gt; &amp; y" M="&lt;u&gt; &amp; v"/>'
  }
}

Describe 'ConvertTo-IoSpdRow with 2.3 results' {
  It 'adds DiskSpdVersion and the 2.3 settings after the Process-DiskSpd.ps1 columns' {
    $rows = ConvertTo-IoSpdRow -Path $script:depth, $script:v22
    $rows.Count | Should -Be 2
    $names = @($rows[0].PSObject.Properties.Name)
    $names[0..3] | Should -Be @('ResultFileName', 'TimeSpan', 'System', 'Path')
    $names[-5..-1] | Should -Be @('DiskSpdVersion', 'IoRing', 'IoRingBatch', 'BufferSeparation', 'CompletionDepth')
    $rows[0].DiskSpdVersion | Should -Be '2.3'
    $rows[0].CompletionDepth | Should -Be 4
    $rows[0].BufferSeparation | Should -Be 'PDECacheLine'
    $rows[0].TotIOPS | Should -Be 4431.0
    $rows[1].DiskSpdVersion | Should -Be '2.2'
    $rows[1].BufferSeparation | Should -BeNullOrEmpty
  }

  It 'writes them to a CSV file' {
    $out = Join-Path $TestDrive 'rows.csv'
    ConvertTo-IoSpdRow -Path $script:bufsep -OutFile $out
    $lines = @(Get-Content -LiteralPath $out)
    $lines[0] | Should -BeLike '*,DiskSpdVersion,IoRing,IoRingBatch,BufferSeparation,CompletionDepth'
    $lines[1] | Should -BeLike '*,2.3,False,,PDECacheLine,'
  }
}

Describe '-DiskSpdVersion' {
  It 'puts --diskspd= first in the command line' {
    $got = InModuleScope IoSpd { ConvertTo-IoSpdArgumentList -Target t.dat -BlockSize 4K -OutstandingIO 8 -DiskSpdVersion '2.3' }
    $got | Should -Be @('--diskspd=2.3', '-b4K', '-o8', '-Rxml', 't.dat')
    $got = InModuleScope IoSpd { ConvertTo-IoSpdArgumentList -Target t.dat -DiskSpdVersion '2.2' -ResultFormat json }
    $got | Should -Be @('--diskspd=2.2', '-Rjson', 't.dat')
    $got = InModuleScope IoSpd { ConvertTo-IoSpdArgumentList -Target t.dat }
    $got | Should -Be @('-Rxml', 't.dat')
  }

  It 'accepts only 2.2 and 2.3' {
    { Invoke-IoSpd -Target t.dat -DiskSpdVersion '2.1' -WhatIf } | Should -Throw -ErrorId 'ParameterArgumentValidationError*'
  }

  It 'reaches iospd from Invoke-IoSpd and Invoke-IoSpdSweep' {
    $exe = Join-Path $TestDrive 'iospd'
    Set-Content -LiteralPath $exe -Value ''
    $xml = [IO.File]::ReadAllText($script:depth)
    Mock -ModuleName IoSpd Invoke-IoSpdProcess { [pscustomobject]@{ ExitCode = 0; StdOut = $xml; StdErr = '' } }
    Mock -ModuleName IoSpd Write-Progress { }
    $r = Invoke-IoSpd -Path $exe -Target t.dat -BlockSize 4K -DiskSpdVersion '2.3'
    $r.DiskSpdVersion | Should -Be '2.3'
    $r.TotalIOs | Should -Be 4431
    Should -Invoke -ModuleName IoSpd Invoke-IoSpdProcess -Times 1 -Exactly -ParameterFilter {
      ($ArgumentList -join ' ') -ceq '--diskspd=2.3 -b4K -Rxml t.dat'
    }
    $rows = @(Invoke-IoSpdSweep -Path $exe -Target t.dat -BlockSize 4K, 8K -DiskSpdVersion '2.2')
    $rows.Count | Should -Be 2
    foreach ($bs in '4K', '8K') {
      Should -Invoke -ModuleName IoSpd Invoke-IoSpdProcess -Times 1 -Exactly -ParameterFilter {
        ($ArgumentList -join ' ') -ceq "--diskspd=2.2 -b$bs -Rxml t.dat"
      }
    }
  }
}
