# SPDX-License-Identifier: MIT
# The parsing behind ConvertFrom-IoSpdXml: XML text -> document -> result
# objects. Numbers are read with the invariant culture (the files use '.').

$script:IoSpdPercentiles = [ordered]@{
  'Min' = '0'; 'P25' = '25'; 'P50' = '50'; 'P75' = '75'; 'P90' = '90'; 'P95' = '95'
  'P99' = '99'; 'P99_9' = '99.9'; 'P99_99' = '99.99'; 'P99_999' = '99.999'
  'P99_9999' = '99.9999'; 'P99_99999' = '99.99999'; 'P99_999999' = '99.999999'
  'P99_9999999' = '99.9999999'; 'Max' = '100'
}

function ConvertTo-IoSpdXmlDocument {
  [CmdletBinding()]
  [OutputType([xml])]
  param([AllowEmptyString()] [string] $Text, [string] $Origin = 'the input')
  if ($null -eq $Text) { $Text = '' }
  $start = $Text.IndexOf('<Results')
  if ($start -lt 0) {
    throw "No <Results> element in $Origin; expected the XML that iospd or DISKSPD writes with -Rxml."
  }
  $doc = [xml]::new()
  try {
    $doc.LoadXml($Text.Substring($start))
  } catch {
    throw "The results XML in $Origin is not well formed: $($_.Exception.Message)"
  }
  return $doc
}

function Get-IoSpdNumber {
  # Inner text of a child element as a double, or $null when absent/empty.
  param([Xml.XmlNode] $Node, [string] $Name)
  if ($null -eq $Node) { return $null }
  $child = $Node.SelectSingleNode($Name)
  if ($null -eq $child -or [string]::IsNullOrWhiteSpace($child.InnerText)) { return $null }
  return [double]::Parse($child.InnerText.Trim(), [Globalization.CultureInfo]::InvariantCulture)
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

function ConvertFrom-IoSpdXmlDocument {
  [CmdletBinding()]
  param([Parameter(Mandatory)] [xml] $Document)
  $inv = [Globalization.CultureInfo]::InvariantCulture
  $root = $Document.DocumentElement
  if ($null -eq $root -or $root.Name -ne 'Results') {
    throw 'The document element is not <Results>; expected -Rxml output of iospd or DISKSPD.'
  }
  $computer = $root.SelectSingleNode('System/ComputerName')
  $version = $root.SelectSingleNode('System/Tool/Version')
  $runTime = $root.SelectSingleNode('System/RunTime')
  $spans = @($root.SelectNodes('TimeSpan'))
  if ($spans.Count -eq 0) {
    throw 'The results XML has no <TimeSpan> element (was the run stopped before it measured?).'
  }
  $index = 0
  foreach ($ts in $spans) {
    $index++
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
      ComputerName        = $(if ($computer) { $computer.InnerText } else { $null })
      ToolVersion         = $(if ($version) { $version.InnerText } else { $null })
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
    foreach ($kind in 'Read', 'Write', 'Total') {
      foreach ($name in $script:IoSpdPercentiles.Keys) {
        $pct = [double]::Parse($script:IoSpdPercentiles[$name], $inv)
        $row = $buckets | Where-Object { $_.Percentile -eq $pct } | Select-Object -First 1
        $props["$kind$($name)Ms"] = $(if ($row) { $row."$($kind)Ms" } else { $null })
      }
    }
    $props['Percentiles'] = $buckets.ToArray()
    $props['Threads'] = $threads.ToArray()
    $obj = [pscustomobject]$props
    $display = [Management.Automation.PSPropertySet]::new('DefaultDisplayPropertySet',
      [string[]]@('TestTimeSeconds', 'ThreadCount', 'TotalIOs', 'IOPS', 'MiBps', 'AvgLatencyMs', 'TotalP99Ms', 'CpuUsagePercent'))
    $obj | Add-Member -MemberType MemberSet -Name PSStandardMembers -Value ([Management.Automation.PSMemberInfo[]]@($display))
    $obj
  }
}
