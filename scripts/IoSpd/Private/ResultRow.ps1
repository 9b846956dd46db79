# SPDX-License-Identifier: MIT
# The flat row behind ConvertTo-IoSpdRow (Process-DiskSpd.ps1's column
# names) and its TSV/CSV text.

# Row column suffix -> result property infix (ReadP99_9Ms ...): the
# percentiles Process-DiskSpd.ps1 reports, plus the deeper nines.
$script:IoSpdRowPercentiles = [ordered]@{
  '25' = 'P25'; '50' = 'P50'; '75' = 'P75'; '90' = 'P90'; '95' = 'P95'; '99' = 'P99'
  '99.9' = 'P99_9'; '99.99' = 'P99_99'; '99.999' = 'P99_999'; '99.9999' = 'P99_9999'
  '99.99999' = 'P99_99999'; '99.999999' = 'P99_999999'; '100' = 'Max'
}

function Get-IoSpdRowValue {
  # A result property, or $null when the object does not have it.
  param([psobject] $Object, [string] $Name)
  $p = $Object.PSObject.Properties[$Name]
  if ($null -eq $p) { return $null }
  return $p.Value
}

function ConvertTo-IoSpdRowObject {
  # IoSpd.Result -> IoSpd.Row. Only copies and divides what the result holds.
  param([Parameter(Mandatory)] [psobject] $Result)
  $v = { param($n) Get-IoSpdRowValue -Object $Result -Name $n }
  $secs = & $v 'TestTimeSeconds'
  $perSec = { param($n) $c = & $v $n; if ($null -eq $c -or $null -eq $secs -or $secs -le 0) { $null } else { [double]$c / $secs } }
  $file = & $v 'ResultFile'
  $paths = @(@(& $v 'Threads') | Where-Object { $null -ne $_ } | ForEach-Object { Get-IoSpdRowValue $_ 'Path' } |
      Where-Object { $_ } | Select-Object -Unique)
  $row = [ordered]@{
    PSTypeName     = 'IoSpd.Row'
    ResultFileName = $(if ($file) { [IO.Path]::GetFileNameWithoutExtension($file) } else { $null })
    TimeSpan       = & $v 'TimeSpan'
    System         = & $v 'ComputerName'
    Path           = $(if ($paths.Count) { $paths -join ';' } else { $null })
    TestTime       = $secs
    Block          = & $v 'BlockSize'
    Outstanding    = & $v 'OutstandingIO'
    Threads        = & $v 'ThreadCount'
    WriteRatio     = & $v 'WriteRatio'
    Pattern        = & $v 'Pattern'
    RandomPercent  = & $v 'RandomPercent'
    Align          = & $v 'Alignment'
    ReadIOPS       = & $v 'ReadIOPS'
    WriteIOPS      = & $v 'WriteIOPS'
    TotIOPS        = & $v 'IOPS'
    ReadBW         = & $perSec 'ReadBytes'
    WriteBW        = & $perSec 'WriteBytes'
    TotBW          = & $perSec 'TotalBytes'
    ReadMiBps      = & $v 'ReadMiBps'
    WriteMiBps     = & $v 'WriteMiBps'
    TotMiBps       = & $v 'MiBps'
    ReadBytes      = & $v 'ReadBytes'
    WriteBytes     = & $v 'WriteBytes'
    IOPSCoV        = & $v 'IopsCoV'
    ReadIOPSCoV    = & $v 'ReadIopsCoV'
    WriteIOPSCoV   = & $v 'WriteIopsCoV'
    CPU            = & $v 'CpuUsagePercent'
    CPUKern        = & $v 'CpuKernelPercent'
    CPUHotCore     = & $v 'CpuHotCorePercent'
    CPUHotCoreKern = & $v 'CpuHotCoreKernelPercent'
    LatAV          = & $v 'AvgLatencyMs'
    LatReadAV      = & $v 'AvgReadLatencyMs'
    LatWriteAV     = & $v 'AvgWriteLatencyMs'
  }
  foreach ($kind in 'Read', 'Write') {
    foreach ($p in $script:IoSpdRowPercentiles.Keys) {
      $row["Lat$kind$p"] = & $v "$kind$($script:IoSpdRowPercentiles[$p])Ms"
    }
  }
  # Process-DiskSpd.ps1's Affinity (threads tied to CPUs: no -n) and its
  # Add1..Add3, read from the file name as it does: VM Fleet's
  # '-wc<n>wicpw<n>vm<n>' gives the three numbers, '-basevm<n>' gives
  # base, base, <n>, any other file name na, na, na ($null without a file).
  $row['Affinity'] = & $v 'Affinity'
  $add = @($null, $null, $null)
  if ($row.ResultFileName) {
    if ($row.ResultFileName -match '-wc(\d+)wicpw(\d+)vm(\d+)') { $add = @($Matches[1], $Matches[2], $Matches[3]) }
    elseif ($row.ResultFileName -match '-basevm(\d+)') { $add = @('base', 'base', $Matches[1]) }
    else { $add = @('na', 'na', 'na') }
  }
  for ($i = 0; $i -lt 3; $i++) { $row["Add$($i + 1)"] = $add[$i] }
  # After Process-DiskSpd.ps1's columns, so its spreadsheets keep their
  # layout: the DISKSPD release and 2.3's settings (-u as 25% or 8).
  $ringBatch = & $v 'IoRingBatchSize'
  $row['DiskSpdVersion'] = & $v 'DiskSpdVersion'
  $row['IoRing'] = & $v 'IoRing'
  $row['IoRingBatch'] = $(if ($null -ne $ringBatch) { "$ringBatch$(if (& $v 'IoRingBatchPercent') { '%' })" } else { $null })
  $row['BufferSeparation'] = & $v 'BufferSeparation'
  $row['CompletionDepth'] = & $v 'CompletionDepth'
  [pscustomobject]$row
}

function ConvertTo-IoSpdDelimitedText {
  # Rows -> header + one line per row. Numbers use '.' (invariant culture,
  # round-trip precision); $null is an empty field; a field is quoted (and
  # its quotes doubled) only when it holds the delimiter, a quote or a line break.
  param([Parameter(Mandatory)] [object[]] $Row, [Parameter(Mandatory)] [string] $Delimiter)
  $inv = [Globalization.CultureInfo]::InvariantCulture
  $names = @($Row[0].PSObject.Properties | ForEach-Object { $_.Name })
  $field = {
    param($x)
    $s = if ($null -eq $x) { '' }
    elseif ($x -is [double] -or $x -is [single]) { $x.ToString('R', $inv) }
    elseif ($x -is [IFormattable]) { $x.ToString($null, $inv) }
    else { [string]$x }
    if ($s.Contains($Delimiter) -or $s.IndexOfAny([char[]]"`"`r`n") -ge 0) { '"' + $s.Replace('"', '""') + '"' } else { $s }
  }
  $sb = [Text.StringBuilder]::new()
  $null = $sb.Append((($names | ForEach-Object { & $field $_ }) -join $Delimiter)).Append([Environment]::NewLine)
  foreach ($r in $Row) {
    $null = $sb.Append((($names | ForEach-Object { & $field (Get-IoSpdRowValue $r $_) }) -join $Delimiter)).Append([Environment]::NewLine)
  }
  $sb.ToString()
}
