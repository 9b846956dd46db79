# SPDX-License-Identifier: MIT
# ConvertFrom-IoSpdXml on real DISKSPD 2.2 -Rxml output (tests/data/
# report-sample-*.xml, see tests/data/README.md) and on small inline documents.
#
# Note: each sample's .txt and .xml come from two separate DISKSPD runs (the
# .xml was re-run with -Rxml), so their numbers differ (for
# mixed-random-4k-L-D the .txt says 109612 I/Os, the .xml holds 116643).
# The expected values below are the XML's own numbers: sums of the
# <Thread><Target> counters and those counts divided by <TestTimeSeconds>.

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  Import-Module (Join-Path $repo 'scripts/IoSpd/IoSpd.psd1') -Force
  $samples = Join-Path $repo 'tests/data'
  foreach ($name in 'mixed-random-4k-L-D.xml', 'seq-write-64k-si-L.xml', 'mixed-rs30-D500.xml') {
    if (-not (Test-Path (Join-Path $samples "report-sample-$name"))) {
      throw "DISKSPD sample '$samples/report-sample-$name' is missing from the checkout."
    }
  }
  $script:mixed = Join-Path $samples 'report-sample-mixed-random-4k-L-D.xml'
  $script:seq = Join-Path $samples 'report-sample-seq-write-64k-si-L.xml'
  $script:rs30 = Join-Path $samples 'report-sample-mixed-rs30-D500.xml'
  $script:noL = Join-Path $PSScriptRoot 'data/diskspd-mixed-random-4k-D-noL.xml'

  # A property that must exist and hold $null ("not measured"). Reading a
  # missing property also gives $null, so "Should -BeNullOrEmpty" alone
  # passes for a misspelt or removed property: check the name first.
  function script:Assert-NotMeasured([psobject] $Object, [string[]] $Name) {
    foreach ($n in $Name) {
      $Object.PSObject.Properties.Name | Should -Contain $n
      $v = $Object.$n
      ($null -eq $v) | Should -BeTrue -Because "$n was not measured, so it must be `$null, not '$v'"
    }
  }
  # The real iospd (run-pester.sh sets IOSPD_EXE); a missing one is an error, not a skip.
  function script:Get-IoSpdExe {
    $exe = $env:IOSPD_EXE
    if (-not $exe -or -not (Test-Path -LiteralPath $exe)) {
      throw "IOSPD_EXE ('$exe') does not name an iospd executable; run the tests with scripts/run-pester.sh or set IOSPD_EXE."
    }
    $exe
  }
}

Describe 'ConvertFrom-IoSpdXml on DISKSPD samples' {
  Context 'mixed-random-4k-L-D.xml (-b4K -r -o8 -t2 -w25 -Sh -L -D, 3 s)' {
    BeforeAll { $script:r = ConvertFrom-IoSpdXml -Path $script:mixed }

    It 'returns one result for the one time span' {
      @($r).Count | Should -Be 1
      $r.TimeSpan | Should -Be 1
      $r.PSObject.TypeNames[0] | Should -Be 'IoSpd.Result'
    }
    It 'reads the run header' {
      $r.TestTimeSeconds | Should -Be 3.0
      $r.ThreadCount | Should -Be 2
      $r.ProcCount | Should -Be 2
      $r.ComputerName | Should -Be 'vm'
      $r.ToolVersion | Should -Be '2.2.0'
    }
    It 'sums the counters over threads' {
      $r.TotalIOs | Should -Be 116643
      $r.ReadIOs | Should -Be 87724
      $r.WriteIOs | Should -Be 28919
      $r.TotalBytes | Should -Be 477769728
      $r.ReadBytes | Should -Be 359317504
      $r.WriteBytes | Should -Be 118452224
      $r.TotalBytes | Should -Be ($r.TotalIOs * 4096)
    }
    It 'computes rates as counts / TestTimeSeconds' {
      [Math]::Round($r.IOPS, 2) | Should -Be 38881.00
      [Math]::Round($r.ReadIOPS, 2) | Should -Be 29241.33
      [Math]::Round($r.WriteIOPS, 2) | Should -Be 9639.67
      [Math]::Round($r.MiBps, 2) | Should -Be 151.88
      [Math]::Round($r.ReadMiBps + $r.WriteMiBps, 6) | Should -Be ([Math]::Round($r.MiBps, 6))
    }
    It 'reads average latencies, standard deviations and CPU' {
      $r.AvgLatencyMs | Should -Be 0.051
      $r.AvgReadLatencyMs | Should -Be 0.051
      $r.AvgWriteLatencyMs | Should -Be 0.052
      $r.LatencyStdDevMs | Should -Be 0.028
      $r.WriteLatencyStdDevMs | Should -Be 0.030
      $r.IopsStdDev | Should -Be 668.292
      $r.ReadIopsStdDev | Should -Be 430.677
      $r.WriteIopsStdDev | Should -Be 277.466
      $r.CpuUsagePercent | Should -Be 65.14
      $r.CpuUserPercent | Should -Be 8.50
      $r.CpuKernelPercent | Should -Be 56.64
      $r.CpuIdlePercent | Should -Be 34.86
    }
    It 'exposes latency percentiles as properties' {
      $r.TotalMinMs | Should -Be 0.023
      $r.ReadP50Ms | Should -Be 0.039
      $r.WriteP50Ms | Should -Be 0.041
      $r.TotalP50Ms | Should -Be 0.040
      $r.TotalP90Ms | Should -Be 0.087
      $r.TotalP99Ms | Should -Be 0.123
      $r.ReadP99_9Ms | Should -Be 0.164
      $r.WriteP99_9Ms | Should -Be 0.168
      $r.TotalP99_9Ms | Should -Be 0.166
      $r.ReadP99_99Ms | Should -Be 0.750
      $r.WriteP99_99Ms | Should -Be 0.983
      $r.ReadMaxMs | Should -Be 2.129
      $r.TotalMaxMs | Should -Be 2.207
    }
    It 'keeps every Latency/Bucket row' {
      $r.Percentiles.Count | Should -Be 108   # 0..99, seven 99.9.. rows, 100
      ($r.Percentiles | Where-Object PercentileText -eq '99.999').TotalMs | Should -Be 2.129
    }
    It 'gives one row per thread and target' {
      $r.Threads.Count | Should -Be 2
      $t0 = $r.Threads[0]
      $t0.Thread | Should -Be 0
      $t0.Path | Should -Be 'testfile.dat'
      $t0.FileSize | Should -Be 67108864
      $t0.Bytes | Should -Be 301293568
      $t0.IOs | Should -Be 73558
      $t0.ReadIOs | Should -Be 55273
      $t0.WriteIOs | Should -Be 18285
      [Math]::Round($t0.IOPS, 2) | Should -Be 24519.33
      [Math]::Round($t0.MiBps, 2) | Should -Be 95.78
      $t0.AvgReadLatencyMs | Should -Be 0.040
      $t0.AvgWriteLatencyMs | Should -Be 0.042
      [Math]::Round($t0.AvgLatencyMs, 5) | Should -Be 0.04050
      $t0.IopsStdDev | Should -Be 1668.806
      $r.Threads[1].Thread | Should -Be 1
      $r.Threads[1].IOs | Should -Be 43085
      ($r.Threads | Measure-Object IOs -Sum).Sum | Should -Be $r.TotalIOs
    }
    It 'returns the thread rows with -ThreadDetail, ready for Export-Csv' {
      $rows = ConvertFrom-IoSpdXml -Path $script:mixed -ThreadDetail
      $rows.Count | Should -Be 2
      $csv = Join-Path $TestDrive 'threads.csv'
      $rows | Export-Csv -Path $csv -NoTypeInformation
      $back = Import-Csv $csv
      $back.Count | Should -Be 2
      $back[1].Bytes | Should -Be '176476160'
      $back[1].Path | Should -Be 'testfile.dat'
      (Get-Content $csv -First 1) | Should -Match '^"TimeSpan","Thread","Path","FileSize","Bytes","IOs"'
    }
  }

  Context 'seq-write-64k-si-L.xml (write only, no -D)' {
    BeforeAll { $script:s = ConvertFrom-IoSpdXml -Path $script:seq }
    It 'parses the write-only run' {
      $s.TestTimeSeconds | Should -Be 2.0
      $s.ThreadCount | Should -Be 1
      $s.TotalIOs | Should -Be 15128
      $s.WriteIOs | Should -Be 15128
      $s.ReadIOs | Should -Be 0
      $s.TotalBytes | Should -Be 991428608
      $s.TotalBytes | Should -Be (15128 * 65536)
      $s.IOPS | Should -Be 7564
      $s.ReadIOPS | Should -Be 0
      $s.MiBps | Should -Be 472.75
      $s.AvgWriteLatencyMs | Should -Be 0.131
      $s.CpuUsagePercent | Should -Be 29.09
    }
    It 'leaves what was not measured empty' {
      # This used "$s.AvgReadLatencyMs | Should -BeNullOrEmpty", which could
      # not fail: a property that does not exist reads as $null too.
      # Deliberate breakage: renaming AvgReadLatencyMs to AvgReadLatMs in
      # ResultXml.ps1 left the old check green; Assert-NotMeasured fails with
      # "Expected collection ... to contain 'AvgReadLatencyMs'". So does a 0
      # in place of $null ("must be $null, not '0'").
      Assert-NotMeasured $s 'AvgReadLatencyMs', 'ReadP50Ms', 'IopsStdDev', 'ReadLatencyStdDevMs'
      $s.WriteP50Ms | Should -Be 0.125
      $s.TotalP99_9Ms | Should -Be 0.274
      $s.TotalMaxMs | Should -Be 3.727
    }
  }

  Context 'mixed-rs30-D500.xml (-rs30 -t2 -w50 -D500)' {
    It 'parses totals and percentiles' {
      $m = ConvertFrom-IoSpdXml -Path $script:rs30
      $m.TotalIOs | Should -Be 72063
      $m.ReadIOs | Should -Be 36172
      $m.WriteIOs | Should -Be 35891
      $m.IOPS | Should -Be 36031.5
      $m.ReadIOPS | Should -Be 18086
      [Math]::Round($m.MiBps, 2) | Should -Be 140.75
      $m.TotalBytes | Should -Be ($m.TotalIOs * 4096)
      $m.IopsStdDev | Should -Be 834.271
      $m.TotalP99Ms | Should -Be 0.130
      $m.WriteP99_99Ms | Should -Be 1.425
      $m.CpuUsagePercent | Should -Be 66.83
    }
  }
}

Describe 'Results without -L report no latency' {
  # Before the fix AvgLatencyMs was 0 (result and per thread): the weighted
  # average of two missing averages came out as 0 instead of $null.
  It 'DISKSPD XML without -L: every latency field is $null, counters and -D fields are kept' {
    $r = ConvertFrom-IoSpdXml -Path $script:noL
    $r.TotalIOs | Should -Be 116643
    $r.IopsStdDev | Should -Be 668.292
    Assert-NotMeasured $r 'AvgLatencyMs', 'AvgReadLatencyMs', 'AvgWriteLatencyMs', 'LatencyStdDevMs',
      'ReadLatencyStdDevMs', 'WriteLatencyStdDevMs', 'TotalP50Ms', 'ReadP99Ms', 'WriteMaxMs', 'TotalMinMs'
    $r.Percentiles.Count | Should -Be 0
    $r.Threads.Count | Should -Be 2
    foreach ($t in $r.Threads) {
      $t.IOs | Should -BeGreaterThan 0
      Assert-NotMeasured $t 'AvgLatencyMs', 'AvgReadLatencyMs', 'AvgWriteLatencyMs', 'ReadLatencyStdDevMs', 'WriteLatencyStdDevMs'
    }
  }
  It 'iospd''s own -Rxml without -L (a real run): every latency field is $null, -D fields too' {
    $exe = Get-IoSpdExe
    $target = Join-Path $TestDrive 'nol.dat'
    $text = (& $exe -c1M -d1 -W0 -b4K -r -o2 -t2 -w30 -Rxml $target 2>&1 | Out-String)
    $LASTEXITCODE | Should -Be 0 -Because $text
    $text | Should -Not -Match '<Latency'
    $r = ConvertFrom-IoSpdXml -Xml $text
    $r.TotalIOs | Should -BeGreaterThan 0
    $r.WriteIOs | Should -BeGreaterThan 0
    Assert-NotMeasured $r 'AvgLatencyMs', 'AvgReadLatencyMs', 'AvgWriteLatencyMs', 'LatencyStdDevMs', 'TotalP99Ms',
      'IopsStdDev', 'ReadIopsStdDev', 'WriteIopsStdDev'
    foreach ($t in $r.Threads) { Assert-NotMeasured $t 'AvgLatencyMs', 'AvgReadLatencyMs', 'AvgWriteLatencyMs', 'IopsStdDev' }
  }
  It 'a time span without TestTimeSeconds, ThreadCount or ProcCount leaves those and every rate $null' {
    $x = '<Results><TimeSpan><Thread><Id>0</Id><Target><Path>a</Path><BytesCount>4096</BytesCount><IOCount>1</IOCount>' +
      '<ReadBytes>4096</ReadBytes><ReadCount>1</ReadCount><WriteBytes>0</WriteBytes><WriteCount>0</WriteCount></Target></Thread></TimeSpan></Results>'
    $r = ConvertFrom-IoSpdXml -Xml $x
    $r.TotalIOs | Should -Be 1
    Assert-NotMeasured $r 'TestTimeSeconds', 'ThreadCount', 'ProcCount', 'IOPS', 'ReadIOPS', 'WriteIOPS', 'MiBps', 'ReadMiBps',
      'WriteMiBps', 'AvgLatencyMs', 'CpuUsagePercent'
    Assert-NotMeasured $r.Threads[0] 'IOPS', 'MiBps', 'FileSize', 'AvgLatencyMs'
  }
}

Describe 'ConvertFrom-IoSpdXml input forms and errors' {
  BeforeAll {
    $script:two = @'
<Results>
  <System><ComputerName>n1</ComputerName><Tool><Version>0.1.0</Version></Tool></System>
  <TimeSpan>
    <TestTimeSeconds>2.00</TestTimeSeconds><ThreadCount>1</ThreadCount><ProcCount>1</ProcCount>
    <Thread><Id>0</Id>
      <Target><Path>a.dat</Path><BytesCount>8192</BytesCount><FileSize>1048576</FileSize><IOCount>2</IOCount>
        <ReadBytes>8192</ReadBytes><ReadCount>2</ReadCount><WriteBytes>0</WriteBytes><WriteCount>0</WriteCount></Target>
      <Target><Path>b.dat</Path><BytesCount>4096</BytesCount><FileSize>1048576</FileSize><IOCount>1</IOCount>
        <ReadBytes>0</ReadBytes><ReadCount>0</ReadCount><WriteBytes>4096</WriteBytes><WriteCount>1</WriteCount></Target>
    </Thread>
  </TimeSpan>
  <TimeSpan>
    <TestTimeSeconds>4.00</TestTimeSeconds><ThreadCount>1</ThreadCount>
    <Thread><Id>0</Id>
      <Target><Path>a.dat</Path><BytesCount>40960</BytesCount><IOCount>10</IOCount>
        <ReadBytes>40960</ReadBytes><ReadCount>10</ReadCount><WriteBytes>0</WriteBytes><WriteCount>0</WriteCount></Target>
    </Thread>
  </TimeSpan>
</Results>
'@
  }
  It 'returns one result per time span' {
    $r = ConvertFrom-IoSpdXml -Xml $script:two
    $r.Count | Should -Be 2
    $r[0].TimeSpan | Should -Be 1
    $r[0].TotalIOs | Should -Be 3
    $r[0].IOPS | Should -Be 1.5
    $r[0].Threads.Count | Should -Be 2
    $r[0].Threads[1].Path | Should -Be 'b.dat'
    Assert-NotMeasured $r[0] 'TotalP50Ms', 'AvgLatencyMs'
    $r[1].TimeSpan | Should -Be 2
    $r[1].IOPS | Should -Be 2.5
    $r[1].ComputerName | Should -Be 'n1'
  }
  It 'accepts an [xml] document and pipeline input' {
    ([xml]$script:two | ConvertFrom-IoSpdXml)[1].TotalBytes | Should -Be 40960
    ($script:two | ConvertFrom-IoSpdXml)[0].TotalBytes | Should -Be 12288
  }
  It 'takes text line by line from the pipeline, as a native command writes it' {
    # Before: each line was parsed alone and the first one ('<Results>') failed.
    $r = @(($script:two -split "`r?`n") | ConvertFrom-IoSpdXml)
    $r.Count | Should -Be 2
    $r[0].TotalIOs | Should -Be 3
    $r = @(Get-Content -LiteralPath $script:mixed | ConvertFrom-IoSpdXml)
    $r.Count | Should -Be 1
    $r[0].TotalIOs | Should -Be 116643
  }
  It 'reads a real iospd run piped straight in (IOSPD_EXE ... -Rxml | ConvertFrom-IoSpdXml)' {
    $exe = Get-IoSpdExe
    $r = @(& $exe -c1M -d1 -W0 -b4K -o1 -t1 -Rxml (Join-Path $TestDrive 'pipe.dat') | ConvertFrom-IoSpdXml)
    $LASTEXITCODE | Should -Be 0
    $r.Count | Should -Be 1
    $r[0].TotalIOs | Should -BeGreaterThan 0
    $r[0].BlockSize | Should -Be 4096
  }
  It 'returns the results of every document in one text (two runs appended to one file)' {
    $r = @(ConvertFrom-IoSpdXml -Xml ($script:two + "`n" + (Get-Content -LiteralPath $script:seq -Raw)))
    $r.Count | Should -Be 3
    $r[2].TotalIOs | Should -Be 15128
  }
  It 'ignores text before <Results>' {
    $r = ConvertFrom-IoSpdXml -Xml ("WARNING: something`r`n" + $script:two)
    $r[0].TotalIOs | Should -Be 3
  }
  It 'accepts a file through the pipeline by FullName' {
    (Get-Item $script:mixed | ConvertFrom-IoSpdXml).TotalIOs | Should -Be 116643
  }
  It 'fails clearly without a <Results> element' {
    { ConvertFrom-IoSpdXml -Xml 'iospd: bad switch -Q' } | Should -Throw '*No <Results> element*-Rxml*'
  }
  It 'fails clearly on broken XML' {
    { ConvertFrom-IoSpdXml -Xml '<Results><TimeSpan>' } | Should -Throw '*not well formed*'
  }
  It 'fails clearly without a time span' {
    { ConvertFrom-IoSpdXml -Xml '<Results><System/></Results>' } | Should -Throw '*no <TimeSpan>*'
  }
  It 'fails clearly on a missing file' {
    { ConvertFrom-IoSpdXml -Path (Join-Path $TestDrive 'nope.xml') } | Should -Throw "*nope.xml' matches no file*"
  }
}

Describe 'ConvertFrom-IoSpdXml files: wildcards, PowerShell location, a bad file among good ones' {
  BeforeAll {
    $script:dir = Join-Path $TestDrive 'runs'
    $null = New-Item -ItemType Directory -Path (Join-Path $script:dir 'sub')
    Copy-Item (Join-Path $PSScriptRoot 'data/result-small.xml') (Join-Path $script:dir 'a.xml')
    Copy-Item $script:mixed (Join-Path $script:dir 'b.xml')
    Set-Content -LiteralPath (Join-Path $script:dir 'bad.xml') -Value '<Results><TimeSpan>'
    Set-Content -LiteralPath (Join-Path $script:dir 'notes.txt') -Value 'not a result'
    Copy-Item $script:seq (Join-Path $script:dir 'sub/c[1].xml')
    # The process directory is elsewhere, so a relative path resolved with
    # .NET (the bug) cannot find the files; PowerShell's location can.
    $script:savedCwd = [Environment]::CurrentDirectory
    [Environment]::CurrentDirectory = [IO.Path]::GetTempPath()
    Push-Location $script:dir
    function script:Get-Errors([scriptblock] $Run) {
      $ev = $null
      $out = & $Run -ErrorVariable ev -ErrorAction SilentlyContinue
      [pscustomobject]@{ Results = @($out); Errors = @($ev) }
    }
  }
  AfterAll {
    Pop-Location
    [Environment]::CurrentDirectory = $script:savedCwd
  }

  It 'expands a relative wildcard against the PowerShell location; the bad file gets one InvalidData error, the others results' {
    $ev = $null
    $r = @(ConvertFrom-IoSpdXml -Path '*.xml' -ErrorVariable ev -ErrorAction SilentlyContinue)
    $r.Count | Should -Be 2
    @($r.ResultFile) | Should -Be @((Join-Path $script:dir 'a.xml'), (Join-Path $script:dir 'b.xml'))
    $r[0].TotalIOs | Should -Be 1600
    $r[1].TotalIOs | Should -Be 116643
    @($ev).Count | Should -Be 1 -Because 'one error for the one bad file, and no caught-exception noise'
    $ev[0].CategoryInfo.Category | Should -Be 'InvalidData'
    $ev[0].FullyQualifiedErrorId | Should -Be 'IoSpdResultXmlMalformed,ConvertFrom-IoSpdXml'
    $ev[0].TargetObject | Should -Be (Join-Path $script:dir 'bad.xml')
    $ev[0].Exception.Message | Should -BeLike "*bad.xml*not well formed*"
  }
  It 'resolves a relative path against the PowerShell location, not the process directory' {
    $r = ConvertFrom-IoSpdXml -Path 'a.xml'
    $r.TotalIOs | Should -Be 1600
    $r.ResultFile | Should -Be (Join-Path $script:dir 'a.xml')
  }
  It 'keeps going past a missing file (ObjectNotFound) and a wildcard that matches nothing' {
    $ev = $null
    $r = @(ConvertFrom-IoSpdXml -Path 'a.xml', 'nope.xml', 'zz*.xml', 'b.xml' -ErrorVariable ev -ErrorAction SilentlyContinue)
    $r.Count | Should -Be 2
    @($ev).Count | Should -Be 2
    $ev[0].CategoryInfo.Category | Should -Be 'ObjectNotFound'
    $ev[0].FullyQualifiedErrorId | Should -Be 'IoSpdResultFileNotFound,ConvertFrom-IoSpdXml'
    $ev[0].TargetObject | Should -Be 'nope.xml'
    $ev[1].TargetObject | Should -Be 'zz*.xml'
    $ev[1].Exception.Message | Should -BeLike "*zz`*.xml*"
  }
  It 'reads the *.xml files of a folder' {
    $ev = $null
    $r = @(ConvertFrom-IoSpdXml -Path . -ErrorVariable ev -ErrorAction SilentlyContinue)
    $r.Count | Should -Be 2
    @($ev).Count | Should -Be 1
  }
  It 'takes FileInfo objects and path strings from the pipeline' {
    $ev = $null
    $r = @(Get-ChildItem -Filter *.xml | ConvertFrom-IoSpdXml -ErrorVariable ev -ErrorAction SilentlyContinue)
    $r.Count | Should -Be 2
    @($ev).Count | Should -Be 1
    $ev = $null
    $r = @('a.xml', 'bad.xml', 'b.xml' | ConvertFrom-IoSpdXml -ErrorVariable ev -ErrorAction SilentlyContinue)
    @($r.TotalIOs) | Should -Be @(1600, 116643)
    $ev[0].TargetObject | Should -Be (Join-Path $script:dir 'bad.xml')
  }
  It 'takes -LiteralPath for names with wildcard characters' {
    (ConvertFrom-IoSpdXml -LiteralPath 'sub/c[1].xml').TotalIOs | Should -Be 15128
  }
  It 'makes the error terminating with -ErrorAction Stop (no result after it)' {
    $got = New-Object System.Collections.Generic.List[object]
    $caught = $null
    try { ConvertFrom-IoSpdXml -Path 'a.xml', 'bad.xml', 'b.xml' -ErrorAction Stop | ForEach-Object { $got.Add($_) } }
    catch { $caught = $_ }
    $caught | Should -Not -BeNullOrEmpty
    $caught.FullyQualifiedErrorId | Should -BeLike 'IoSpdResultXmlMalformed,*'
    $caught.TargetObject | Should -Be (Join-Path $script:dir 'bad.xml')
    $got.Count | Should -Be 1
  }
  It 'names each kind of bad file with its own id' {
    Set-Content -LiteralPath 'prof.xml' -Value '<Profile><TimeSpans/></Profile>'
    Set-Content -LiteralPath 'nots.xml' -Value '<Results><System/></Results>'
    Set-Content -LiteralPath 'nan.xml' -Value '<Results><TimeSpan><TestTimeSeconds>abc</TestTimeSeconds></TimeSpan></Results>'
    try {
      $ev = $null
      $null = ConvertFrom-IoSpdXml -Path 'prof.xml', 'nots.xml', 'nan.xml' -ErrorVariable ev -ErrorAction SilentlyContinue
      @($ev.FullyQualifiedErrorId) | Should -Be @('IoSpdResultXmlNoResults,ConvertFrom-IoSpdXml',
        'IoSpdResultXmlNoTimeSpan,ConvertFrom-IoSpdXml', 'IoSpdResultXmlBadNumber,ConvertFrom-IoSpdXml')
      @($ev | ForEach-Object { "$($_.CategoryInfo.Category)" } | Sort-Object -Unique) | Should -Be 'InvalidData'
      $ev[2].Exception.Message | Should -BeLike "*nan.xml*TestTimeSeconds*'abc'*"
    } finally { Remove-Item 'prof.xml', 'nots.xml', 'nan.xml' }
  }
  It 'keeps -Xml text errors terminating, with an id and InvalidData' {
    $caught = $null
    try { ConvertFrom-IoSpdXml -Xml 'iospd: bad switch -Q' } catch { $caught = $_ }
    $caught.FullyQualifiedErrorId | Should -Be 'IoSpdResultXmlNoResults,ConvertFrom-IoSpdXml'
    $caught.CategoryInfo.Category | Should -Be 'InvalidData'
  }
  It 'has no throw statement in the result-reading files: every error is an ErrorRecord with an id' {
    # Deliberate breakage: adding 'throw "bad file"' (or throw ("x"), or
    # throw $msg) to any of these files makes this fail and names the line.
    $root = Join-Path $PSScriptRoot '../../scripts/IoSpd'
    $files = 'Private/ResultXml.ps1', 'Private/ResultRow.ps1', 'Public/ConvertFrom-IoSpdXml.ps1', 'Public/ConvertTo-IoSpdRow.ps1'
    foreach ($f in $files) {
      $tokens = $null; $errors = $null
      $ast = [Management.Automation.Language.Parser]::ParseFile((Join-Path $root $f), [ref]$tokens, [ref]$errors)
      $errors | Should -BeNullOrEmpty
      $ast.EndBlock.Statements.Count | Should -BeGreaterThan 0 -Because "$f must hold code (an empty or missing file would pass)"
      $throws = $ast.FindAll({ param($n) $n -is [Management.Automation.Language.ThrowStatementAst] }, $true)
      @($throws | ForEach-Object { "$f line $($_.Extent.StartLineNumber): $($_.Extent.Text)" }) | Should -BeNullOrEmpty
    }
  }
}

Describe 'Results keep the profile''s settings of their time span' {
  # Values from each sample's <Profile><TimeSpans><TimeSpan><Targets><Target>:
  # BlockSize, RequestCount, WriteRatio, Random/RandomRatio or StrideSize,
  # ThreadsPerFile (see the command lines in tests/data/README.md).
  It 'mixed-random-4k-L-D: -b4K -r -o8 -t2 -w25' {
    $r = ConvertFrom-IoSpdXml -Path $script:mixed
    $r.BlockSize | Should -Be 4096
    $r.OutstandingIO | Should -Be 8
    $r.WriteRatio | Should -Be 25
    $r.Pattern | Should -BeExactly 'Random'
    $r.RandomPercent | Should -Be 100
    $r.Alignment | Should -Be 4096
    $r.ThreadsPerTarget | Should -Be 2
    $r.ProfileTargets.Count | Should -Be 1
    $r.ProfileTargets[0].Path | Should -Be 'testfile.dat'
  }
  It 'seq-write-64k-si-L: -b64K -si -o4 -t1 -w100 is sequential with a 64 KiB stride' {
    $r = ConvertFrom-IoSpdXml -Path $script:seq
    $r.BlockSize | Should -Be 65536
    $r.OutstandingIO | Should -Be 4
    $r.WriteRatio | Should -Be 100
    $r.Pattern | Should -BeExactly 'Sequential'
    $r.RandomPercent | Should -Be 0
    $r.Alignment | Should -Be 65536
    $r.ThreadsPerTarget | Should -Be 1
  }
  It 'mixed-rs30-D500: -rs30 is Mixed with 30 % random' {
    $r = ConvertFrom-IoSpdXml -Path $script:rs30
    $r.Pattern | Should -BeExactly 'Mixed'
    $r.RandomPercent | Should -Be 30
    $r.WriteRatio | Should -Be 50
    $r.OutstandingIO | Should -Be 2
    $r.ThreadsPerTarget | Should -Be 2
  }
  It 'each time span gets its own profile time span; settings the targets do not share are $null; -F/-O' {
    $x = @'
<Results>
  <Profile><TimeSpans>
    <TimeSpan><ThreadCount>0</ThreadCount><RequestCount>0</RequestCount><Targets>
      <Target><Path>a</Path><BlockSize>4096</BlockSize><Random>4096</Random><RequestCount>8</RequestCount><WriteRatio>0</WriteRatio><ThreadsPerFile>4</ThreadsPerFile></Target>
      <Target><Path>b</Path><BlockSize>8192</BlockSize><Random>4096</Random><RequestCount>8</RequestCount><WriteRatio>0</WriteRatio><ThreadsPerFile>4</ThreadsPerFile></Target>
    </Targets></TimeSpan>
    <TimeSpan><ThreadCount>3</ThreadCount><RequestCount>16</RequestCount><Targets>
      <Target><Path>a</Path><BlockSize>65536</BlockSize><StrideSize>65536</StrideSize><RequestCount>2</RequestCount><WriteRatio>100</WriteRatio><ThreadsPerFile>1</ThreadsPerFile></Target>
    </Targets></TimeSpan>
  </TimeSpans></Profile>
  <TimeSpan><TestTimeSeconds>1</TestTimeSeconds><Thread><Id>0</Id><Target><Path>a</Path><IOCount>1</IOCount><ReadCount>1</ReadCount></Target></Thread></TimeSpan>
  <TimeSpan><TestTimeSeconds>1</TestTimeSeconds><Thread><Id>0</Id><Target><Path>a</Path><IOCount>1</IOCount><WriteCount>1</WriteCount></Target></Thread></TimeSpan>
</Results>
'@
    $r = ConvertFrom-IoSpdXml -Xml $x
    Assert-NotMeasured $r[0] 'BlockSize'
    @($r[0].ProfileTargets.BlockSize) | Should -Be @(4096, 8192)
    $r[0].OutstandingIO | Should -Be 8
    $r[0].ThreadsPerTarget | Should -Be 4
    $r[0].Pattern | Should -Be 'Random'
    $r[1].BlockSize | Should -Be 65536
    $r[1].WriteRatio | Should -Be 100
    $r[1].Pattern | Should -Be 'Sequential'
    $r[1].OutstandingIO | Should -Be 16 -Because '-O (the time span''s RequestCount) wins over the target''s default'
    Assert-NotMeasured $r[1] 'ThreadsPerTarget'
  }
  It 'a document without a Profile element has the settings $null' {
    $r = ConvertFrom-IoSpdXml -Path (Join-Path $PSScriptRoot 'data/result-small.xml')
    Assert-NotMeasured $r 'BlockSize', 'OutstandingIO', 'WriteRatio', 'Pattern', 'ThreadsPerTarget'
  }
}
