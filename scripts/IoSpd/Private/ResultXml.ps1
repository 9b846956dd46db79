# SPDX-License-Identifier: MIT
# The parsing behind ConvertFrom-IoSpdXml: XML text -> document -> result
# objects. Numbers are read with the invariant culture (the files use '.').

$script:IoSpdPercentiles = [ordered]@{
  'Min' = '0'; 'P25' = '25'; 'P50' = '50'; 'P75' = '75'; 'P90' = '90'; 'P95' = '95'
  'P99' = '99'; 'P99_9' = '99.9'; 'P99_99' = '99.99'; 'P99_999' = '99.999'
  'P99_9999' = '99.9999'; 'P99_99999' = '99.99999'; 'P99_999999' = '99.999999'
  'P99_9999999' = '99.9999999'; 'Max' = '100'
}

function New-IoSpdResultError {
  # The ErrorRecord of a result file or text that cannot be read: a stable
  # id (IoSpdResult...), a category, and the file (or the text's origin) as
  # the target object, so -ErrorAction and $_.TargetObject work.
  param(
    [Parameter(Mandatory)] [string] $Id,
    [Parameter(Mandatory)] [string] $Message,
    [Management.Automation.ErrorCategory] $Category = 'InvalidData',
    [object] $Target,
    [Exception] $Inner
  )
  $ex = if ($Category -eq 'ObjectNotFound') { [IO.FileNotFoundException]::new($Message, $Inner) }
  elseif ($Category -eq 'InvalidData') { [IO.InvalidDataException]::new($Message, $Inner) }
  else { [InvalidOperationException]::new($Message, $Inner) }
  [Management.Automation.ErrorRecord]::new($ex, $Id, $Category, $Target)
}

# XmlDocument.LoadXml wrapped in a compiled try/catch (an expression tree):
# an XmlException caught by a PowerShell try/catch still lands in $Error
# and in the caller's -ErrorVariable, so a bad file would show two errors.
# Returns $null when the text loaded, else the XmlException.
$script:IoSpdTryLoadXml = & {
  $E = [Linq.Expressions.Expression]
  $doc = $E::Parameter([xml], 'doc')
  $text = $E::Parameter([string], 'text')
  $err = $E::Parameter([Xml.XmlException], 'e')
  $load = $E::Block([object], [Linq.Expressions.Expression[]]@(
      $E::Call($doc, [xml].GetMethod('LoadXml', [type[]]@([string])), $text),
      $E::Constant($null, [object])))
  $body = $E::TryCatch($load, $E::Catch($err, $E::Convert($err, [object])))
  $E::Lambda([Func[xml, string, object]], $body, $doc, $text).Compile()
}

function Repair-IoSpdXmlAttributeText {
  # DISKSPD (seen with 2.3) writes a power scheme it cannot name as
  # <PowerScheme Name="<unknown>" .../>, a '<' inside an attribute value,
  # which no XML parser takes. Escapes '<', '>' and bare '&' inside
  # attribute values (an '&' that starts an entity stays); the text is
  # otherwise unchanged. Only used when the document did not load as is.
  param([string] $Text)
  $evaluator = [Text.RegularExpressions.MatchEvaluator] {
    param($m)
    $v = $m.Value
    if ($v.IndexOfAny([char[]]'<>&') -lt 0) { return $v }
    $v = [regex]::Replace($v, '&(?!(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);)', '&amp;')
    $v.Replace('<', '&lt;').Replace('>', '&gt;')
  }
  [regex]::Replace($Text, '(?<=\s[A-Za-z_][\w.:-]*=")[^"]*(?=")', $evaluator)
}

function ConvertTo-IoSpdXmlDocument {
  # Text -> one [xml] per <Results>...</Results> in it (a file written by
  # several runs, or several documents piped in), or an ErrorRecord
  # (returned, not thrown) naming $Origin. Text around the documents
  # (warnings, "Error generating I/O requests") is ignored.
  param([AllowEmptyString()] [string] $Text, [string] $Origin = 'the input', [object] $Target)
  if ($null -eq $Text) { $Text = '' }
  $start = $Text.IndexOf('<Results')
  if ($start -lt 0) {
    return New-IoSpdResultError -Id 'IoSpdResultXmlNoResults' -Target $Target -Message (
      "No <Results> element in $Origin; expected the XML that iospd or DISKSPD writes with -Rxml.")
  }
  $close = '</Results>'
  while ($start -ge 0) {
    $end = $Text.IndexOf($close, $start)
    $body = if ($end -ge 0) { $Text.Substring($start, $end + $close.Length - $start) } else { $Text.Substring($start) }
    $doc = [xml]::new()
    $bad = $script:IoSpdTryLoadXml.Invoke($doc, $body)
    if ($null -ne $bad) {
      # A real DISKSPD document with an unescaped attribute value: read it
      # as DISKSPD meant it; anything else stays an error.
      $fixed = Repair-IoSpdXmlAttributeText -Text $body
      if ($fixed -ne $body) {
        $again = [xml]::new()
        # Still broken: its other fault is the one to name.
        $bad = $script:IoSpdTryLoadXml.Invoke($again, $fixed)
        if ($null -eq $bad) { $doc = $again }
      }
    }
    if ($null -ne $bad) {
      New-IoSpdResultError -Id 'IoSpdResultXmlMalformed' -Target $Target -Inner $bad -Message (
        "The results XML in $Origin is not well formed: $($bad.Message)")
    } else { , $doc }
    if ($end -lt 0) { break }
    $start = $Text.IndexOf('<Results', $end + $close.Length)
  }
}

function Get-IoSpdNumber {
  # Inner text of a child element as a double, or $null when absent/empty.
  # Text that is not a number is recorded in $script:IoSpdBadNumber (the
  # document is then reported as bad) instead of throwing.
  param([Xml.XmlNode] $Node, [string] $Name)
  if ($null -eq $Node) { return $null }
  $child = $Node.SelectSingleNode($Name)
  if ($null -eq $child -or [string]::IsNullOrWhiteSpace($child.InnerText)) { return $null }
  $text = $child.InnerText.Trim()
  $v = [double]0
  if (-not [double]::TryParse($text, [Globalization.NumberStyles]::Float, [Globalization.CultureInfo]::InvariantCulture, [ref]$v)) {
    if ($null -eq $script:IoSpdBadNumber) { $script:IoSpdBadNumber = "<$($child.Name)> holds '$text'" }
    return $null
  }
  return $v
}

function Get-IoSpdInt {
  # A counter (I/O and byte counts): absent counts as 0.
  param([Xml.XmlNode] $Node, [string] $Name)
  $v = Get-IoSpdNumber -Node $Node -Name $Name
  if ($null -eq $v) { return [int64]0 }
  return [int64]$v
}

function Get-IoSpdOptionalInt {
  # A setting or size that may be absent: $null then, never an invented 0.
  param([Xml.XmlNode] $Node, [string] $Name)
  $v = Get-IoSpdNumber -Node $Node -Name $Name
  if ($null -eq $v) { return $null }
  return [int64]$v
}

function Get-IoSpdRate {
  # Count per second; $null when the duration is unknown (not measured).
  param($Count, $Seconds, [double] $Unit = 1)
  if ($null -eq $Seconds -or $Seconds -le 0 -or $null -eq $Count) { return $null }
  return [double]$Count / $Seconds / $Unit
}

function Get-IoSpdWeightedLatency {
  # Average over reads and writes weighted by their counts; $null when a
  # kind that did I/O has no average (latency was not measured, no -L).
  param([int64] $Reads, $ReadMs, [int64] $Writes, $WriteMs)
  $n = $Reads + $Writes
  if ($n -eq 0) { return $null }
  if (($Reads -gt 0 -and $null -eq $ReadMs) -or ($Writes -gt 0 -and $null -eq $WriteMs)) { return $null }
  $sum = [double]0
  if ($Reads -gt 0) { $sum += $Reads * $ReadMs }
  if ($Writes -gt 0) { $sum += $Writes * $WriteMs }
  return $sum / $n
}

function Get-IoSpdSame {
  # The one value all items share, or $null when they differ or there are none.
  param([object[]] $Values)
  $v = @($Values | Select-Object -Unique)
  if ($v.Count -eq 1) { return $v[0] }
  return $null
}

function Get-IoSpdIopsVariation {
  # Coefficients of variation (population standard deviation / mean) of the
  # -D interval buckets of an <Iops> node (their Read/Write/Total attributes
  # are in I/O per second): ReadIopsCoV, WriteIopsCoV, IopsCoV. $null
  # without -D (no buckets) or when that kind's mean is 0.
  param([Xml.XmlNode] $Iops)
  $cov = [ordered]@{ IopsCoV = $null; ReadIopsCoV = $null; WriteIopsCoV = $null }
  if ($null -eq $Iops) { return $cov }
  $buckets = @($Iops.SelectNodes('Bucket'))
  if ($buckets.Count -eq 0) { return $cov }
  $inv = [Globalization.CultureInfo]::InvariantCulture
  foreach ($kind in @(@('Total', 'IopsCoV'), @('Read', 'ReadIopsCoV'), @('Write', 'WriteIopsCoV'))) {
    $values = New-Object System.Collections.Generic.List[double]
    foreach ($b in $buckets) {
      $v = [double]0
      if ([double]::TryParse($b.GetAttribute($kind[0]), [Globalization.NumberStyles]::Float, $inv, [ref]$v)) { $values.Add($v) }
    }
    if ($values.Count -eq 0) { continue }
    $mean = ($values | Measure-Object -Average).Average
    if ($mean -le 0) { continue }
    $sq = [double]0
    foreach ($v in $values) { $sq += ($v - $mean) * ($v - $mean) }
    $cov[$kind[1]] = [Math]::Sqrt($sq / $values.Count) / $mean
  }
  return $cov
}

function Get-IoSpdCpuHotCore {
  # Highest per-CPU UsagePercent and KernelPercent (Process-DiskSpd.ps1's
  # CPUHotCore and CPUHotCoreKern; each is the maximum over all CPUs).
  param([Xml.XmlNode] $Span)
  $hot = [ordered]@{ CpuHotCorePercent = $null; CpuHotCoreKernelPercent = $null }
  foreach ($cpu in $Span.SelectNodes('CpuUtilization/CPU')) {
    $u = Get-IoSpdNumber $cpu 'UsagePercent'
    $k = Get-IoSpdNumber $cpu 'KernelPercent'
    if ($null -ne $u -and ($null -eq $hot.CpuHotCorePercent -or $u -gt $hot.CpuHotCorePercent)) { $hot.CpuHotCorePercent = $u }
    if ($null -ne $k -and ($null -eq $hot.CpuHotCoreKernelPercent -or $k -gt $hot.CpuHotCoreKernelPercent)) { $hot.CpuHotCoreKernelPercent = $k }
  }
  return $hot
}

function Get-IoSpdProfileSetting {
  # The settings of one <Profile><TimeSpans><TimeSpan> (null: no profile)
  # as the result's properties: BlockSize, OutstandingIO, WriteRatio,
  # Pattern (Random, Sequential or Mixed for -rs), RandomPercent, Alignment
  # (random alignment or sequential stride), ThreadsPerTarget ($null with
  # -F, where threads are shared), and ProfileTargets with each target's own
  # values. A setting the targets do not share is $null in the summary.
  param([Xml.XmlNode] $Span)
  $targets = New-Object System.Collections.Generic.List[object]
  if ($null -ne $Span) {
    foreach ($tg in $Span.SelectNodes('Targets/Target')) {
      $random = Get-IoSpdOptionalInt $tg 'Random'
      $ratio = Get-IoSpdOptionalInt $tg 'RandomRatio'
      $pct = if ($null -eq $random) { [int64]0 } elseif ($null -ne $ratio) { $ratio } else { [int64]100 }
      $pattern = if ($pct -eq 100) { 'Random' } elseif ($pct -eq 0) { 'Sequential' } else { 'Mixed' }
      $pathNode = $tg.SelectSingleNode('Path')
      $targets.Add([pscustomobject]@{
          PSTypeName     = 'IoSpd.ProfileTarget'
          Path           = $(if ($pathNode) { $pathNode.InnerText } else { $null })
          BlockSize      = Get-IoSpdOptionalInt $tg 'BlockSize'
          OutstandingIO  = Get-IoSpdOptionalInt $tg 'RequestCount'
          WriteRatio     = Get-IoSpdOptionalInt $tg 'WriteRatio'
          Pattern        = $pattern
          RandomPercent  = $pct
          Alignment      = $(if ($null -ne $random) { $random } else { Get-IoSpdOptionalInt $tg 'StrideSize' })
          ThreadsPerFile = Get-IoSpdOptionalInt $tg 'ThreadsPerFile'
        })
    }
  }
  $all = $targets.ToArray()
  # DISKSPD 2.3's timespan settings: -u (<IoRing>), -bs, -oc; $null where
  # the profile does not say (2.2 documents, or no -oc).
  $ring = if ($null -ne $Span) { $Span.SelectSingleNode('IoRing') } else { $null }
  $batch = if ($null -ne $ring) { $ring.SelectSingleNode('IoRingBatchSize') } else { $null }
  $regBuf = if ($null -ne $ring) { $ring.SelectSingleNode('UseRegBuffer') } else { $null }
  $sep = if ($null -ne $Span) { $Span.SelectSingleNode('BufferSeparation') } else { $null }
  $fixedThreads = Get-IoSpdOptionalInt $Span 'ThreadCount'      # -F n
  $spanRequests = Get-IoSpdOptionalInt $Span 'RequestCount'     # -O n (with -F)
  $qd = if ($spanRequests -gt 0) { $spanRequests } else { Get-IoSpdSame @($all | ForEach-Object { $_.OutstandingIO }) }
  [ordered]@{
    BlockSize        = Get-IoSpdSame @($all | ForEach-Object { $_.BlockSize })
    OutstandingIO    = $qd
    WriteRatio       = Get-IoSpdSame @($all | ForEach-Object { $_.WriteRatio })
    Pattern          = Get-IoSpdSame @($all | ForEach-Object { $_.Pattern })
    RandomPercent    = Get-IoSpdSame @($all | ForEach-Object { $_.RandomPercent })
    Alignment        = Get-IoSpdSame @($all | ForEach-Object { $_.Alignment })
    ThreadsPerTarget = $(if ($fixedThreads -gt 0) { $null } else { Get-IoSpdSame @($all | ForEach-Object { $_.ThreadsPerFile }) })
    IoRing           = $(if ($null -eq $Span) { $null } else { $null -ne $ring })
    IoRingBatchSize  = $(if ($null -ne $batch) { Get-IoSpdOptionalInt $ring 'IoRingBatchSize' } else { $null })
    IoRingBatchPercent = $(if ($null -ne $batch) { $batch.GetAttribute('Percent') -eq 'true' } else { $null })
    IoRingRegisteredBuffers = $(if ($null -ne $regBuf) { $regBuf.InnerText.Trim() -eq 'true' } else { $null })
    BufferSeparation = $(if ($null -ne $sep) { $sep.InnerText.Trim() } else { $null })
    CompletionDepth  = $(if ($null -ne $Span) { Get-IoSpdOptionalInt $Span 'CompletionDepth' } else { $null })
    # Threads tied to CPUs (no -n): <DisableAffinity> is not 'true'; $null
    # when the profile does not say.
    Affinity         = $(if ($null -ne $Span -and $null -ne $Span.SelectSingleNode('DisableAffinity')) {
        $Span.SelectSingleNode('DisableAffinity').InnerText.Trim() -ne 'true' } else { $null })
    ProfileTargets   = $all
  }
}

function ConvertFrom-IoSpdXmlDocument {
  # [xml] -> one IoSpd.Result per <TimeSpan>, or ErrorRecords (returned, not
  # thrown) for a document that is not a result or holds a bad number, and
  # for a time span that was interrupted before it measured.
  param([Parameter(Mandatory)] [xml] $Document, [string] $Origin = 'the input', [string] $SourcePath)
  $inv = [Globalization.CultureInfo]::InvariantCulture
  $target = $(if ($SourcePath) { $SourcePath } else { $Origin })
  $root = $Document.DocumentElement
  if ($null -eq $root -or $root.Name -ne 'Results') {
    return New-IoSpdResultError -Id 'IoSpdResultXmlNoResults' -Target $target -Message (
      "The document element in $Origin is not <Results>; expected -Rxml output of iospd or DISKSPD.")
  }
  $computer = $root.SelectSingleNode('System/ComputerName')
  $version = $root.SelectSingleNode('System/Tool/Version')
  $runTime = $root.SelectSingleNode('System/RunTime')
  $spans = @($root.SelectNodes('TimeSpan'))
  # Profile/TimeSpans/TimeSpan i describes the i-th measured TimeSpan.
  $profileSpans = @($root.SelectNodes('Profile/TimeSpans/TimeSpan'))
  if ($spans.Count -eq 0) {
    return New-IoSpdResultError -Id 'IoSpdResultXmlNoTimeSpan' -Target $target -Message (
      "The results XML in $Origin has no <TimeSpan> element (was the run stopped before it measured?).")
  }
  $script:IoSpdBadNumber = $null
  $out = New-Object System.Collections.Generic.List[object]
  $index = 0
  foreach ($ts in $spans) {
    $index++
    $interrupted = $ts.SelectSingleNode('Error')
    if ($null -ne $interrupted -and $null -eq $ts.SelectSingleNode('Thread')) {
      # Written for a time span stopped before it measured: no numbers at all.
      $out.Add((New-IoSpdResultError -Id 'IoSpdResultTimeSpanInterrupted' -Category InvalidResult -Target $target -Message (
            "Time span $index in $Origin has no results: $($interrupted.InnerText.Trim())")))
      continue
    }
    $secs = Get-IoSpdNumber -Node $ts -Name 'TestTimeSeconds'
    $threads = New-Object System.Collections.Generic.List[object]
    [int64]$tb = 0; [int64]$tio = 0; [int64]$rb = 0; [int64]$rio = 0; [int64]$wb = 0; [int64]$wio = 0
    foreach ($th in $ts.SelectNodes('Thread')) {
      $tid = Get-IoSpdOptionalInt -Node $th -Name 'Id'
      foreach ($tg in $th.SelectNodes('Target')) {
        $bytes = Get-IoSpdInt $tg 'BytesCount'; $ios = Get-IoSpdInt $tg 'IOCount'
        $rBytes = Get-IoSpdInt $tg 'ReadBytes'; $rCount = Get-IoSpdInt $tg 'ReadCount'
        $wBytes = Get-IoSpdInt $tg 'WriteBytes'; $wCount = Get-IoSpdInt $tg 'WriteCount'
        $avgR = Get-IoSpdNumber $tg 'AverageReadLatencyMilliseconds'
        $avgW = Get-IoSpdNumber $tg 'AverageWriteLatencyMilliseconds'
        # iospd writes the target's own average; DISKSPD 2.2 does not, so weight.
        $avgT = Get-IoSpdNumber $tg 'AverageLatencyMilliseconds'
        if ($null -eq $avgT) { $avgT = Get-IoSpdWeightedLatency $rCount $avgR $wCount $avgW }
        $pathNode = $tg.SelectSingleNode('Path')
        $threads.Add([pscustomobject]@{
            PSTypeName          = 'IoSpd.ThreadResult'
            TimeSpan            = $index
            Thread              = $tid
            Path                = $(if ($pathNode) { $pathNode.InnerText } else { $null })
            FileSize            = Get-IoSpdOptionalInt $tg 'FileSize'
            Bytes               = $bytes
            IOs                 = $ios
            ReadBytes           = $rBytes
            ReadIOs             = $rCount
            WriteBytes          = $wBytes
            WriteIOs            = $wCount
            IOPS                = Get-IoSpdRate $ios $secs
            ReadIOPS            = Get-IoSpdRate $rCount $secs
            WriteIOPS           = Get-IoSpdRate $wCount $secs
            MiBps               = Get-IoSpdRate $bytes $secs 1MB
            ReadMiBps           = Get-IoSpdRate $rBytes $secs 1MB
            WriteMiBps          = Get-IoSpdRate $wBytes $secs 1MB
            AvgLatencyMs        = $avgT
            AvgReadLatencyMs    = $avgR
            AvgWriteLatencyMs   = $avgW
            ReadLatencyStdDevMs = Get-IoSpdNumber $tg 'ReadLatencyStdev'
            WriteLatencyStdDevMs = Get-IoSpdNumber $tg 'WriteLatencyStdev'
            IopsStdDev          = Get-IoSpdNumber $tg 'Iops/IopsStdDev'
            ReadIopsStdDev      = Get-IoSpdNumber $tg 'Iops/ReadIopsStdDev'
            WriteIopsStdDev     = Get-IoSpdNumber $tg 'Iops/WriteIopsStdDev'
          })
        $tb += $bytes; $tio += $ios; $rb += $rBytes; $rio += $rCount; $wb += $wBytes; $wio += $wCount
      }
    }

    $lat = $ts.SelectSingleNode('Latency')
    $buckets = New-Object System.Collections.Generic.List[object]
    if ($lat) {
      foreach ($b in $lat.SelectNodes('Bucket')) {
        $buckets.Add([pscustomobject]@{
            PSTypeName = 'IoSpd.LatencyPercentile'
            Percentile = Get-IoSpdNumber $b 'Percentile'
            PercentileText = $b.SelectSingleNode('Percentile').InnerText.Trim()
            ReadMs     = Get-IoSpdNumber $b 'ReadMilliseconds'
            WriteMs    = Get-IoSpdNumber $b 'WriteMilliseconds'
            TotalMs    = Get-IoSpdNumber $b 'TotalMilliseconds'
          })
      }
    }

    $avgRead = Get-IoSpdNumber $lat 'AverageReadMilliseconds'
    $avgWrite = Get-IoSpdNumber $lat 'AverageWriteMilliseconds'
    $avgTotal = Get-IoSpdNumber $lat 'AverageTotalMilliseconds'
    if ($null -eq $lat) {
      # Without -L DISKSPD still reports per-target averages; weight them.
      $sr = [double]0; $sw = [double]0; $hasR = $false; $hasW = $false
      foreach ($t in $threads) {
        if ($null -ne $t.AvgReadLatencyMs) { $sr += $t.ReadIOs * $t.AvgReadLatencyMs; $hasR = $true }
        if ($null -ne $t.AvgWriteLatencyMs) { $sw += $t.WriteIOs * $t.AvgWriteLatencyMs; $hasW = $true }
      }
      if ($hasR -and $rio -gt 0) { $avgRead = $sr / $rio }
      if ($hasW -and $wio -gt 0) { $avgWrite = $sw / $wio }
      $avgTotal = Get-IoSpdWeightedLatency $rio $avgRead $wio $avgWrite
    }

    $props = [ordered]@{
      PSTypeName          = 'IoSpd.Result'
      TimeSpan            = $index
      ResultFile          = $(if ($SourcePath) { $SourcePath } else { $null })
      ComputerName        = $(if ($computer) { $computer.InnerText } else { $null })
      ToolVersion         = $(if ($version) { $version.InnerText } else { $null })
      # The DISKSPD release the document follows ('2.2', '2.3'): DISKSPD's
      # own version, or the level iospd ran at (--diskspd=), which iospd
      # writes there too; $null when <Version> is not a 2.x.
      DiskSpdVersion      = $(if ($version -and $version.InnerText.Trim() -match '^(2)\.(\d+)') { "$($Matches[1]).$($Matches[2])" } else { $null })
      RunTime             = $(if ($runTime) { $runTime.InnerText } else { $null })
      TestTimeSeconds     = $secs
      ThreadCount         = Get-IoSpdOptionalInt $ts 'ThreadCount'
      ProcCount           = Get-IoSpdOptionalInt $ts 'ProcCount'
      TotalBytes          = $tb
      ReadBytes           = $rb
      WriteBytes          = $wb
      TotalIOs            = $tio
      ReadIOs             = $rio
      WriteIOs            = $wio
      IOPS                = Get-IoSpdRate $tio $secs
      ReadIOPS            = Get-IoSpdRate $rio $secs
      WriteIOPS           = Get-IoSpdRate $wio $secs
      MiBps               = Get-IoSpdRate $tb $secs 1MB
      ReadMiBps           = Get-IoSpdRate $rb $secs 1MB
      WriteMiBps          = Get-IoSpdRate $wb $secs 1MB
      AvgLatencyMs        = $avgTotal
      AvgReadLatencyMs    = $avgRead
      AvgWriteLatencyMs   = $avgWrite
      LatencyStdDevMs     = Get-IoSpdNumber $lat 'LatencyStdev'
      ReadLatencyStdDevMs = Get-IoSpdNumber $lat 'ReadLatencyStdev'
      WriteLatencyStdDevMs = Get-IoSpdNumber $lat 'WriteLatencyStdev'
      IopsStdDev          = Get-IoSpdNumber $ts 'Iops/IopsStdDev'
      ReadIopsStdDev      = Get-IoSpdNumber $ts 'Iops/ReadIopsStdDev'
      WriteIopsStdDev     = Get-IoSpdNumber $ts 'Iops/WriteIopsStdDev'
      CpuUsagePercent     = Get-IoSpdNumber $ts 'CpuUtilization/Average/UsagePercent'
      CpuUserPercent      = Get-IoSpdNumber $ts 'CpuUtilization/Average/UserPercent'
      CpuKernelPercent    = Get-IoSpdNumber $ts 'CpuUtilization/Average/KernelPercent'
      CpuIdlePercent      = Get-IoSpdNumber $ts 'CpuUtilization/Average/IdlePercent'
    }
    $settings = Get-IoSpdProfileSetting -Span $(if ($index -le $profileSpans.Count) { $profileSpans[$index - 1] } else { $null })
    foreach ($extra in (Get-IoSpdCpuHotCore -Span $ts), (Get-IoSpdIopsVariation -Iops $ts.SelectSingleNode('Iops')), $settings) {
      foreach ($k in $extra.Keys) { $props[$k] = $extra[$k] }
    }
    foreach ($kind in 'Read', 'Write', 'Total') {
      foreach ($name in $script:IoSpdPercentiles.Keys) {
        $pct = [double]::Parse($script:IoSpdPercentiles[$name], $inv)
        $row = $buckets | Where-Object { $_.Percentile -eq $pct } | Select-Object -First 1
        $props["$kind$($name)Ms"] = $(if ($row) { $row."$($kind)Ms" } else { $null })
      }
    }
    $props['Percentiles'] = $buckets.ToArray()
    $props['Threads'] = $threads.ToArray()
    # --verify (iospd only): per target counts; $null when not verifying.
    $verify = $ts.SelectSingleNode('Verify')
    $props['VerifyFailures'] = $null
    $props['Verify'] = $null
    if ($null -ne $verify) {
      $vt = foreach ($t in @($verify.SelectNodes('Target'))) {
        [pscustomobject]@{
          PSTypeName      = 'IoSpd.VerifyTarget'
          Path            = $t.SelectSingleNode('Path').InnerText
          BlocksWritten   = Get-IoSpdInt $t 'BlocksWritten'
          BlocksChecked   = Get-IoSpdInt $t 'BlocksChecked'
          Failures        = Get-IoSpdInt $t 'Failures'
          BadChecksum     = Get-IoSpdInt $t 'BadChecksum'
          StaleGeneration = Get-IoSpdInt $t 'StaleGeneration'
          Misdirected     = Get-IoSpdInt $t 'Misdirected'
          Zeroed          = Get-IoSpdInt $t 'Zeroed'
          Torn            = Get-IoSpdInt $t 'Torn'
          Indeterminate   = Get-IoSpdInt $t 'Indeterminate'
          Untracked       = Get-IoSpdInt $t 'Untracked'
        }
      }
      $props['Verify'] = @($vt)
      $props['VerifyFailures'] = [int64](@($vt) | Measure-Object -Property Failures -Sum).Sum
    }
    $obj = [pscustomobject]$props
    $display = [Management.Automation.PSPropertySet]::new('DefaultDisplayPropertySet',
      [string[]]@('TestTimeSeconds', 'ThreadCount', 'TotalIOs', 'IOPS', 'MiBps', 'AvgLatencyMs', 'TotalP99Ms', 'CpuUsagePercent'))
    $obj | Add-Member -MemberType MemberSet -Name PSStandardMembers -Value ([Management.Automation.PSMemberInfo[]]@($display))
    $out.Add($obj)
  }
  if ($null -ne $script:IoSpdBadNumber) {
    return New-IoSpdResultError -Id 'IoSpdResultXmlBadNumber' -Target $target -Message (
      "The results XML in $Origin is not usable: $($script:IoSpdBadNumber), which is not a number.")
  }
  $out.ToArray()
}

function Resolve-IoSpdResultFile {
  # -Path (wildcards) or -LiteralPath -> full paths of result files, resolved
  # against the PowerShell location of $Cmdlet (not the process directory).
  # A folder stands for the *.xml files in it. Emits an ErrorRecord
  # (ObjectNotFound / InvalidArgument) for a path that names nothing usable.
  param([string[]] $Path, [switch] $Literal, [Parameter(Mandatory)] [Management.Automation.PSCmdlet] $Cmdlet)
  foreach ($p in $Path) {
    $found = $false
    $exists = if ($Literal) { Test-Path -LiteralPath $p } else { Test-Path -Path $p }
    if ($exists) {
      $provider = $null
      $full = if ($Literal) {
        $drive = $null
        @($Cmdlet.SessionState.Path.GetUnresolvedProviderPathFromPSPath($p, [ref]$provider, [ref]$drive))
      } else {
        @($Cmdlet.SessionState.Path.GetResolvedProviderPathFromPSPath($p, [ref]$provider))
      }
      if ($provider.Name -ne 'FileSystem') {
        New-IoSpdResultError -Id 'IoSpdResultPathNotFileSystem' -Category InvalidArgument -Target $p -Message (
          "'$p' is not a file system path (provider $($provider.Name)); give the path of an -Rxml result file or folder.")
        continue
      }
      foreach ($f in $full) {
        if ([IO.Directory]::Exists($f)) {
          foreach ($x in Get-ChildItem -LiteralPath $f -Filter '*.xml' -File | Sort-Object Name) { $found = $true; $x.FullName }
        } else { $found = $true; $f }
      }
    }
    if (-not $found) {
      $what = if ($exists) { 'is a folder without *.xml files' } else { 'matches no file' }
      New-IoSpdResultError -Id 'IoSpdResultFileNotFound' -Category ObjectNotFound -Target $p -Message (
        "The results path '$p' $what (relative paths start at $($Cmdlet.SessionState.Path.CurrentFileSystemLocation)).")
    }
  }
}

function Read-IoSpdResultFile {
  # One result file (full path) -> its IoSpd.Result objects or ErrorRecords.
  param([Parameter(Mandatory)] [string] $FullPath)
  $text = $null
  try { $text = [IO.File]::ReadAllText($FullPath) }
  catch {
    $e = $_.Exception
    if ($null -ne $e.InnerException) { $e = $e.InnerException }
    return New-IoSpdResultError -Id 'IoSpdResultFileUnreadable' -Category ReadError -Target $FullPath -Inner $e -Message (
      "Cannot read the results file '$FullPath': $($e.Message)")
  }
  foreach ($doc in ConvertTo-IoSpdXmlDocument -Text $text -Origin "'$FullPath'" -Target $FullPath) {
    if ($doc -is [Management.Automation.ErrorRecord]) { $doc }
    else { ConvertFrom-IoSpdXmlDocument -Document $doc -Origin "'$FullPath'" -SourcePath $FullPath }
  }
}
