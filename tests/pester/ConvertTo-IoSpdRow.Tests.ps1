# SPDX-License-Identifier: MIT
# ConvertTo-IoSpdRow: one Process-DiskSpd.ps1-style row per result, checked
# against the XML text of real DISKSPD 2.2 samples (tests/data/report-sample-*)
# and of a real iospd -Rxml run (IOSPD_EXE); the -Path/-OutFile TSV/CSV mode;
# the table view of IoSpd.Format.ps1xml. Expected values are read from the
# XML here with XPath (Select-Xml), never from the function's own output.

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  Import-Module (Join-Path $repo 'scripts/IoSpd/IoSpd.psd1') -Force
  $samples = Join-Path $repo 'tests/data'
  $script:mixed = Join-Path $samples 'report-sample-mixed-random-4k-L-D.xml'
  $script:seq = Join-Path $samples 'report-sample-seq-write-64k-si-L.xml'
  $script:rs30 = Join-Path $samples 'report-sample-mixed-rs30-D500.xml'
  $script:noL = Join-Path $PSScriptRoot 'data/diskspd-mixed-random-4k-D-noL.xml'
  $script:inv = [Globalization.CultureInfo]::InvariantCulture

  # Numbers straight from the XML text (XPath over the file).
  function script:Get-XmlNumbers([string] $File, [string] $XPath) {
    @(Select-Xml -LiteralPath $File -XPath $XPath | ForEach-Object {
        $n = $_.Node
        $t = if ($n -is [Xml.XmlAttribute]) { $n.Value } else { $n.InnerText }
        [double]::Parse($t, $script:inv)
      })
  }
  function script:Get-XmlSum([string] $File, [string] $XPath) {
    $s = [double]0; foreach ($v in Get-XmlNumbers $File $XPath) { $s += $v }; $s
  }
  # Expected row values of a one-time-span result file, from its XML.
  function script:Get-ExpectedRow([string] $File) {
    $secs = (Get-XmlNumbers $File '/Results/TimeSpan/TestTimeSeconds')[0]
    $rc = Get-XmlSum $File '/Results/TimeSpan/Thread/Target/ReadCount'
    $wc = Get-XmlSum $File '/Results/TimeSpan/Thread/Target/WriteCount'
    $rb = Get-XmlSum $File '/Results/TimeSpan/Thread/Target/ReadBytes'
    $wb = Get-XmlSum $File '/Results/TimeSpan/Thread/Target/WriteBytes'
    $e = [ordered]@{
      TestTime = $secs
      Block = (Get-XmlNumbers $File '/Results/Profile/TimeSpans/TimeSpan/Targets/Target/BlockSize')[0]
      Outstanding = (Get-XmlNumbers $File '/Results/Profile/TimeSpans/TimeSpan/Targets/Target/RequestCount')[0]
      WriteRatio = (Get-XmlNumbers $File '/Results/Profile/TimeSpans/TimeSpan/Targets/Target/WriteRatio')[0]
      Threads = (Get-XmlNumbers $File '/Results/TimeSpan/ThreadCount')[0]
      ReadIOPS = $rc / $secs; WriteIOPS = $wc / $secs; TotIOPS = ($rc + $wc) / $secs
      ReadBW = $rb / $secs; WriteBW = $wb / $secs; TotBW = ($rb + $wb) / $secs
      ReadMiBps = $rb / $secs / 1048576; WriteMiBps = $wb / $secs / 1048576; TotMiBps = ($rb + $wb) / $secs / 1048576
      CPU = (Get-XmlNumbers $File '/Results/TimeSpan/CpuUtilization/Average/UsagePercent')[0]
      CPUKern = (Get-XmlNumbers $File '/Results/TimeSpan/CpuUtilization/Average/KernelPercent')[0]
      CPUHotCore = (Get-XmlNumbers $File '/Results/TimeSpan/CpuUtilization/CPU/UsagePercent' | Measure-Object -Maximum).Maximum
      CPUHotCoreKern = (Get-XmlNumbers $File '/Results/TimeSpan/CpuUtilization/CPU/KernelPercent' | Measure-Object -Maximum).Maximum
    }
    foreach ($kind in 'Read', 'Write') {
      foreach ($p in '25', '50', '75', '90', '95', '99', '99.9', '99.99', '99.999', '99.9999', '99.99999', '99.999999', '100') {
        $v = @(Get-XmlNumbers $File "/Results/TimeSpan/Latency/Bucket[Percentile='$p']/$($kind)Milliseconds")
        $e["Lat$kind$p"] = $(if ($v.Count) { $v[0] } else { $null })
      }
    }
    # Coefficient of variation of the -D buckets (I/O per second each).
    foreach ($kind in @(@('Total', 'IOPSCoV'), @('Read', 'ReadIOPSCoV'), @('Write', 'WriteIOPSCoV'))) {
      $b = @(Get-XmlNumbers $File "/Results/TimeSpan/Iops/Bucket/@$($kind[0])")
      $e[$kind[1]] = $null
      if ($b.Count) {
        $mean = ($b | Measure-Object -Average).Average
        $var = ($b | ForEach-Object { ($_ - $mean) * ($_ - $mean) } | Measure-Object -Sum).Sum / $b.Count
        if ($mean -gt 0) { $e[$kind[1]] = [Math]::Sqrt($var) / $mean }
      }
    }
    $e
  }
  function script:Assert-Row([psobject] $Row, [System.Collections.IDictionary] $Expected) {
    foreach ($k in $Expected.Keys) {
      $Row.PSObject.Properties.Name | Should -Contain $k
      $want = $Expected[$k]
      $got = $Row.$k
      if ($null -eq $want) {
        ($null -eq $got) | Should -BeTrue -Because "$k was not measured, so the row must hold `$null, not '$got'"
      } else {
        $got | Should -Not -BeNullOrEmpty -Because "$k is in the XML"
        [Math]::Abs([double]$got - $want) | Should -BeLessOrEqual (1e-9 * [Math]::Max([double]1, [Math]::Abs([double]$want))) -Because "$k should be $want, got $got"
      }
    }
  }
  function script:Get-IoSpdExe {
    $exe = $env:IOSPD_EXE
    if (-not $exe -or -not (Test-Path -LiteralPath $exe)) {
      throw "IOSPD_EXE ('$exe') does not name an iospd executable; run the tests with scripts/run-pester.sh or set IOSPD_EXE."
    }
    $exe
  }
}

Describe 'ConvertTo-IoSpdRow on real DISKSPD 2.2 XML' {
  It '<Name>: every numeric column equals the value computed from the XML text' -ForEach @(
    @{ Name = 'mixed-random-4k-L-D'; Var = 'mixed' }
    @{ Name = 'seq-write-64k-si-L'; Var = 'seq' }
    @{ Name = 'mixed-rs30-D500'; Var = 'rs30' }
    @{ Name = 'mixed-random-4k-D without -L'; Var = 'noL' }
  ) {
    $file = Get-Variable -Scope Script -Name $Var -ValueOnly
    $row = ConvertTo-IoSpdRow -Path $file
    @($row).Count | Should -Be 1
    $row.PSObject.TypeNames[0] | Should -Be 'IoSpd.Row'
    $row.ResultFileName | Should -Be ([IO.Path]::GetFileNameWithoutExtension($file))
    Assert-Row $row (Get-ExpectedRow $file)
  }
  It 'mixed-random-4k-L-D: the hand-checked values (-b4K -r -o8 -t2 -w25, 3 s)' {
    $row = ConvertTo-IoSpdRow -Path $script:mixed
    $row.System | Should -Be 'vm'
    $row.Path | Should -Be 'testfile.dat'
    $row.Block | Should -Be 4096
    $row.Outstanding | Should -Be 8
    $row.Threads | Should -Be 2
    $row.WriteRatio | Should -Be 25
    $row.Pattern | Should -BeExactly 'Random'
    $row.TotIOPS | Should -Be 38881            # 116643 I/Os / 3.00 s
    $row.TotBW | Should -Be 159256576          # 477769728 bytes / 3.00 s
    $row.CPUHotCore | Should -Be 88.01         # CPU 0 of 88.01 and 42.26
    $row.CPUHotCoreKern | Should -Be 77.05
    $row.'LatRead99.9' | Should -Be 0.164
    $row.'LatWrite99.99' | Should -Be 0.983
    $row.LatRead100 | Should -Be 2.129
    # <IopsStdDev>668.292</IopsStdDev> over the mean of the three buckets
    # (39825 + 38383 + 38433) / 3: the CoV agrees with DISKSPD's own std dev.
    [Math]::Round($row.IOPSCoV, 6) | Should -Be ([Math]::Round(668.292 / ((39825 + 38383 + 38433) / 3), 6))
  }
  It 'seq-write-64k-si-L: no reads and no -D leave the read latencies and every CoV $null' {
    $row = ConvertTo-IoSpdRow -Path $script:seq
    $row.Pattern | Should -BeExactly 'Sequential'
    foreach ($n in 'LatRead50', 'LatRead99.9', 'LatReadAV', 'IOPSCoV', 'ReadIOPSCoV', 'WriteIOPSCoV') {
      $row.PSObject.Properties.Name | Should -Contain $n
      ($null -eq $row.$n) | Should -BeTrue -Because "$n was not measured"
    }
    $row.LatWrite50 | Should -Be 0.125
  }
  # Process-DiskSpd.ps1's Affinity (<DisableAffinity> not 'true') and
  # Add1..Add3 (from VM Fleet's file names) columns.
  It 'keeps Process-DiskSpd''s Affinity and Add1..Add3 columns (<File>)' -ForEach @(
    @{ File = 'result-b4t1o8w0pr-wc2wicpw75vm24.xml'; Aff = 'false'; Want = @('2', '75', '24'); Affinity = $true }
    @{ File = 'result-b4t1o8w0pr-basevm12.xml'; Aff = 'true'; Want = @('base', 'base', '12'); Affinity = $false }
    @{ File = 'plain.xml'; Aff = 'false'; Want = @('na', 'na', 'na'); Affinity = $true }
  ) {
    $text = (Get-Content -Raw -LiteralPath $script:mixed) -replace '<DisableAffinity>false</DisableAffinity>', "<DisableAffinity>$Aff</DisableAffinity>"
    $text | Should -Match "<DisableAffinity>$Aff</DisableAffinity>"
    $f = Join-Path $TestDrive $File
    Set-Content -LiteralPath $f -Value $text -NoNewline
    $row = ConvertTo-IoSpdRow -Path $f
    $row.Affinity | Should -Be $Affinity
    @($row.Add1, $row.Add2, $row.Add3) | Should -Be $Want
    $tsv = Join-Path $TestDrive "$File.tsv"
    ConvertTo-IoSpdRow -Path $f -OutFile $tsv
    $lines = Get-Content -LiteralPath $tsv
    $h = $lines[0] -split "`t"; $v = $lines[1] -split "`t"
    $v[[array]::IndexOf($h, 'Affinity')] | Should -Be ([string]$Affinity)
    $v[[array]::IndexOf($h, 'Add3')] | Should -Be $Want[2]
  }
  It 'leaves Add1..Add3 $null for a result that has no file' {
    $row = ConvertFrom-IoSpdXml -Xml (Get-Content -Raw -LiteralPath $script:mixed) | ConvertTo-IoSpdRow
    $row.Affinity | Should -BeTrue
    $null -eq $row.Add1 -and $null -eq $row.Add3 | Should -BeTrue
  }
  It 'takes results from the pipeline and refuses other objects with an error' {
    $rows = @(ConvertFrom-IoSpdXml -Path $script:mixed, $script:rs30 | ConvertTo-IoSpdRow)
    @($rows.TotIOPS) | Should -Be @(38881, 36031.5)
    $ev = $null
    $r = @([pscustomobject]@{ IOPS = 1 } | ConvertTo-IoSpdRow -ErrorVariable ev -ErrorAction SilentlyContinue)
    $r.Count | Should -Be 0
    $ev[0].FullyQualifiedErrorId | Should -Be 'IoSpdRowNotAResult,ConvertTo-IoSpdRow'
    $ev[0].CategoryInfo.Category | Should -Be 'InvalidArgument'
  }
}

Describe 'ConvertTo-IoSpdRow on iospd''s own -Rxml (a real run)' {
  BeforeAll {
    $exe = Get-IoSpdExe
    $script:own = Join-Path $TestDrive 'own-b8K-o4.xml'
    $text = (& $exe -c2M -d1 -W0 -b8K -r -o4 -t2 -w40 -L -D250 -Rxml (Join-Path $TestDrive 'own.dat') | Out-String)
    if ($LASTEXITCODE -ne 0) { throw "iospd failed ($LASTEXITCODE): $text" }
    [IO.File]::WriteAllText($script:own, $text)
  }
  It 'every numeric column equals the value computed from the XML text' {
    $row = ConvertTo-IoSpdRow -Path $script:own
    $e = Get-ExpectedRow $script:own
    Assert-Row $row $e
    $row.Block | Should -Be 8192
    $row.Outstanding | Should -Be 4
    $row.Threads | Should -Be 2
    $row.WriteRatio | Should -Be 40
    $row.Pattern | Should -BeExactly 'Random'
    $row.TotIOPS | Should -BeGreaterThan 0
    foreach ($n in 'LatRead50', 'LatWrite99', 'LatRead100', 'IOPSCoV') { $row.$n | Should -Not -BeNullOrEmpty -Because "-L -D measured $n" }
    $row.LatRead50 | Should -BeLessOrEqual $row.LatRead99
  }
}

Describe 'ConvertTo-IoSpdRow -Path ... -OutFile (TSV/CSV of every result file)' {
  BeforeAll {
    $script:dir = Join-Path $TestDrive 'results'
    $null = New-Item -ItemType Directory -Path $script:dir
    Copy-Item $script:mixed, $script:seq, $script:rs30 -Destination $script:dir
    Set-Content -LiteralPath (Join-Path $script:dir 'broken.xml') -Value '<Results><TimeSpan>'
    Push-Location $TestDrive
  }
  AfterAll { Pop-Location }

  It 'writes a TSV of all readable files in a folder (relative paths), with an error for the bad one' {
    $saved = [Globalization.CultureInfo]::CurrentCulture
    try {
      # A comma-decimal culture must not leak into the file.
      [Globalization.CultureInfo]::CurrentCulture = [Globalization.CultureInfo]::GetCultureInfo('de-DE')
      $ev = $null
      $out = ConvertTo-IoSpdRow -Path 'results' -OutFile 'all.tsv' -ErrorVariable ev -ErrorAction SilentlyContinue
    } finally { [Globalization.CultureInfo]::CurrentCulture = $saved }
    $out | Should -BeNullOrEmpty
    @($ev).Count | Should -Be 1
    $ev[0].FullyQualifiedErrorId | Should -Be 'IoSpdResultXmlMalformed,ConvertTo-IoSpdRow'
    $ev[0].TargetObject | Should -Be (Join-Path $script:dir 'broken.xml')
    $lines = @(Get-Content -LiteralPath (Join-Path $TestDrive 'all.tsv'))
    $lines.Count | Should -Be 4
    $head = $lines[0] -split "`t"
    $head[0..5] | Should -Be @('ResultFileName', 'TimeSpan', 'System', 'Path', 'TestTime', 'Block')
    $head | Should -Contain 'LatRead99.9'
    $head | Should -Contain 'LatWrite100'
    $rows = @(Import-Csv -LiteralPath (Join-Path $TestDrive 'all.tsv') -Delimiter "`t")
    @($rows.ResultFileName) | Should -Be @('report-sample-mixed-random-4k-L-D', 'report-sample-mixed-rs30-D500', 'report-sample-seq-write-64k-si-L')
    # Text values straight from the XML (or count / TestTimeSeconds from it).
    $rows[0].TotIOPS | Should -BeExactly '38881'
    $rows[0].ReadIOPS | Should -BeExactly (87724 / 3).ToString('R', $script:inv)
    $rows[0].'LatRead99.9' | Should -BeExactly '0.164'
    $rows[0].CPU | Should -BeExactly '65.14'
    $rows[1].Pattern | Should -BeExactly 'Mixed'
    $rows[1].TotIOPS | Should -BeExactly '36031.5'
    $rows[2].LatRead50 | Should -BeExactly '' -Because 'a write-only run has no read latency: an empty field, not 0'
    $rows[2].LatWrite50 | Should -BeExactly '0.125'
    $rows[2].IOPSCoV | Should -BeExactly ''
  }
  It 'writes CSV for .csv, honours -Delimiter, and takes wildcards' {
    ConvertTo-IoSpdRow -Path 'results/*rs30*.xml' -OutFile 'one.csv'
    $csv = Get-Content -LiteralPath (Join-Path $TestDrive 'one.csv')
    $csv.Count | Should -Be 2
    $csv[0] | Should -BeLike 'ResultFileName,TimeSpan,System,Path,*'
    (Import-Csv -LiteralPath (Join-Path $TestDrive 'one.csv'))[0].WriteRatio | Should -Be '50'
    ConvertTo-IoSpdRow -Path 'results/*seq*.xml' -OutFile 'semi.txt' -Delimiter ';'
    (Get-Content -LiteralPath (Join-Path $TestDrive 'semi.txt'))[0] | Should -BeLike 'ResultFileName;TimeSpan;*'
  }
  It 'returns the rows too with -PassThru, and writes nothing with -WhatIf' {
    $rows = @(ConvertTo-IoSpdRow -Path 'results/*seq*.xml' -OutFile 'pt.tsv' -PassThru)
    $rows.Count | Should -Be 1
    Test-Path (Join-Path $TestDrive 'pt.tsv') | Should -BeTrue
    ConvertTo-IoSpdRow -Path 'results/*seq*.xml' -OutFile 'whatif.tsv' -WhatIf
    Test-Path (Join-Path $TestDrive 'whatif.tsv') | Should -BeFalse
  }
  It 'refuses an extension it cannot map, and writes no file when nothing was read' {
    $caught = $null
    try { ConvertTo-IoSpdRow -Path 'results' -OutFile 'all.dat' } catch { $caught = $_ }
    $caught.FullyQualifiedErrorId | Should -Be 'IoSpdRowUnknownFormat,ConvertTo-IoSpdRow'
    $caught.Exception.Message | Should -BeLike "*all.dat*.tsv or .csv*-Delimiter*"
    $ev = $null
    ConvertTo-IoSpdRow -Path 'results/broken.xml' -OutFile 'none.tsv' -ErrorVariable ev -ErrorAction SilentlyContinue
    @($ev.FullyQualifiedErrorId) | Should -Be @('IoSpdResultXmlMalformed,ConvertTo-IoSpdRow', 'IoSpdRowNoResults,ConvertTo-IoSpdRow')
    Test-Path (Join-Path $TestDrive 'none.tsv') | Should -BeFalse
  }
}

Describe 'IoSpd.Format.ps1xml: latencies in ms with 3 decimals' {
  BeforeAll {
    # Values with a 4th decimal, so a table that shows them unrounded (no
    # view loaded) contains '0.1234' and fails the test.
    $script:x = @'
<Results><Profile><TimeSpans><TimeSpan><ThreadCount>0</ThreadCount><Targets><Target><Path>f.dat</Path>
  <BlockSize>4096</BlockSize><Random>4096</Random><RequestCount>32</RequestCount><WriteRatio>30</WriteRatio><ThreadsPerFile>4</ThreadsPerFile></Target></Targets></TimeSpan></TimeSpans></Profile>
<TimeSpan><TestTimeSeconds>2.00</TestTimeSeconds><ThreadCount>4</ThreadCount>
  <Latency><AverageReadMilliseconds>0.1111</AverageReadMilliseconds><AverageWriteMilliseconds>0.2222</AverageWriteMilliseconds><AverageTotalMilliseconds>0.1234</AverageTotalMilliseconds>
    <Bucket><Percentile>50</Percentile><ReadMilliseconds>0.4567</ReadMilliseconds><WriteMilliseconds>0.5678</WriteMilliseconds><TotalMilliseconds>0.4999</TotalMilliseconds></Bucket>
    <Bucket><Percentile>99</Percentile><ReadMilliseconds>1.98765</ReadMilliseconds><WriteMilliseconds>2.34567</WriteMilliseconds><TotalMilliseconds>2.0001</TotalMilliseconds></Bucket></Latency>
  <Thread><Id>0</Id><Target><Path>f.dat</Path><BytesCount>8192</BytesCount><IOCount>2</IOCount><ReadBytes>4096</ReadBytes><ReadCount>1</ReadCount><WriteBytes>4096</WriteBytes><WriteCount>1</WriteCount>
    <AverageReadLatencyMilliseconds>0.1111</AverageReadLatencyMilliseconds><AverageWriteLatencyMilliseconds>0.2222</AverageWriteLatencyMilliseconds></Target></Thread>
</TimeSpan></Results>
'@
    $script:savedCulture = [Globalization.CultureInfo]::CurrentCulture
    [Globalization.CultureInfo]::CurrentCulture = [Globalization.CultureInfo]::GetCultureInfo('en-US')
  }
  AfterAll { [Globalization.CultureInfo]::CurrentCulture = $script:savedCulture }

  It 'shows a result''s latencies rounded to 3 decimals' {
    $text = ConvertFrom-IoSpdXml -Xml $script:x | Format-Table | Out-String -Width 300
    $text | Should -Match 'Avg ms'
    $text | Should -Match '\b0\.123\b'       # AvgLatencyMs 0.1234
    $text | Should -Match '\b2\.000\b'       # TotalP99Ms 2.0001
    $text | Should -Not -Match '0\.1234|2\.0001'
  }
  It 'shows a row''s latency percentiles rounded to 3 decimals' {
    $text = ConvertFrom-IoSpdXml -Xml $script:x | ConvertTo-IoSpdRow | Format-Table | Out-String -Width 300
    $text | Should -Match 'Rd p99 ms'
    $text | Should -Match '\b1\.988\b'       # LatRead99 1.98765
    $text | Should -Match '\b2\.346\b'       # LatWrite99 2.34567
    $text | Should -Match '\b0\.457\b'       # LatRead50 0.4567
    $text | Should -Not -Match '1\.98765|0\.4567'
  }
  It 'shows thread rows'' latencies rounded to 3 decimals' {
    $text = ConvertFrom-IoSpdXml -Xml $script:x -ThreadDetail | Format-Table | Out-String -Width 300
    $text | Should -Match '\b0\.111\b'
    $text | Should -Not -Match '0\.1111'
  }
  It 'is listed in FormatsToProcess and keeps the full value on the object' {
    (Test-ModuleManifest (Join-Path $PSScriptRoot '../../scripts/IoSpd/IoSpd.psd1')).ExportedFormatFiles |
      ForEach-Object { Split-Path $_ -Leaf } | Should -Contain 'IoSpd.Format.ps1xml'
    (ConvertFrom-IoSpdXml -Xml $script:x).AvgLatencyMs | Should -Be 0.1234
  }
}

Describe 'Comment-based help of <_> matches its parameters' -ForEach 'ConvertFrom-IoSpdXml', 'ConvertTo-IoSpdRow' {
  # Module.Tests.ps1 checks help through Get-Help, which cannot fail there:
  # Get-Help lists only parameters the function has (a .PARAMETER for a
  # removed or misspelt one is dropped silently) and invents a synopsis
  # when there is none. This reads the help block itself from the file.
  # Deliberate breakage: renaming ".PARAMETER PassThru" to ".PARAMETER
  # PassThrough" in ConvertTo-IoSpdRow.ps1 keeps Module.Tests.ps1 green and
  # fails here ("Expected 'PASSTHRU' to be found in collection ...
  # 'PASSTHROUGH'"); the second loop catches a .PARAMETER left behind.
  BeforeAll {
    $script:fn = $_
    $file = Join-Path $PSScriptRoot "../../scripts/IoSpd/Public/$_.ps1"
    $ast = [Management.Automation.Language.Parser]::ParseFile($file, [ref]$null, [ref]$null)
    $def = $ast.Find({ param($n) $n -is [Management.Automation.Language.FunctionDefinitionAst] -and $n.Name -eq $script:fn }, $true)
    $script:helpInfo = $def.GetHelpContent()
    $script:declared = @($def.Body.ParamBlock.Parameters | ForEach-Object { $_.Name.VariablePath.UserPath })
  }
  It 'has a written synopsis and description' {
    $helpInfo | Should -Not -BeNullOrEmpty -Because 'the function needs a comment-based help block'
    $helpInfo.Synopsis.Trim().Length | Should -BeGreaterThan 20
    $helpInfo.Description.Trim().Length | Should -BeGreaterThan 100
  }
  It 'documents every declared parameter, and only those' {
    $declared.Count | Should -BeGreaterThan 2
    $documented = @($helpInfo.Parameters.Keys)
    foreach ($p in $declared) {
      $documented | Should -Contain $p.ToUpperInvariant() -Because "-$p needs a .PARAMETER entry"
      $helpInfo.Parameters[$p.ToUpperInvariant()].Trim() | Should -Not -BeNullOrEmpty
    }
    foreach ($d in $documented) {
      @($declared | ForEach-Object { $_.ToUpperInvariant() }) | Should -Contain $d -Because ".PARAMETER $d names no parameter"
    }
  }
  It 'has examples that call it' {
    $helpInfo.Examples.Count | Should -BeGreaterOrEqual 2
    foreach ($e in $helpInfo.Examples) { $e | Should -Match ([regex]::Escape($fn)) }
  }
}
