# SPDX-License-Identifier: MIT
# iospd's two documents beyond the results, as PowerShell objects: the
# --curve document (format "iospd-curve", docs/curve.md,
# schema/iospd-curve.schema.json) for Invoke-IoSpdSweep -LatencyLimit/
# -Curve/-Expect, and the --pts document (format "iospd-pts", docs/pts.md,
# schema/iospd-pts.schema.json) for Invoke-IoSpd -Pts. Property names are
# PowerShell's (PascalCase, latencies in microseconds as the documents
# give them: ...Us); the parsed document itself stays in Document.

function Get-IoSpdDocValue {
  # $Object.$Name, or $null when the object is null or lacks the key.
  param([AllowNull()] [object] $Object, [Parameter(Mandatory)] [string] $Name)
  if ($null -eq $Object) { return $null }
  $p = $Object.PSObject.Properties[$Name]
  if ($null -eq $p) { return $null }
  return $p.Value
}

function Assert-IoSpdDocFormat {
  # Throws an IoSpdBadDocument ErrorRecord unless $Doc says format $Format.
  param([AllowNull()] [object] $Doc, [Parameter(Mandatory)] [string] $Format, [string] $Source)
  $got = Get-IoSpdDocValue $Doc 'format'
  if ($got -ne $Format) {
    $what = if ($null -eq $got) { 'no "format" key' } else { "format '$got'" }
    throw (New-IoSpdInvokeError -Message "$Source holds $what, not an $Format document." `
        -ErrorId 'IoSpdBadDocument' -Category InvalidData -TargetObject $Source)
  }
}

function ConvertFrom-IoSpdCurveDocument {
  # An iospd-curve document (parsed JSON) -> IoSpd.CurveResult: Points (one
  # IoSpd.CurvePoint row per point run), Knee, Answer, Cap, LittlesLaw,
  # Verdict (string[]), Stopped, Interrupted and the asked Axis,
  # LatencyLimit and Expect.
  param([Parameter(Mandatory)] [object] $Doc, [string] $Source = 'the curve document')
  Assert-IoSpdDocFormat -Doc $Doc -Format 'iospd-curve' -Source $Source
  $lat = { param($p, $k) Get-IoSpdDocValue (Get-IoSpdDocValue $p 'latency_us') $k }
  $points = foreach ($p in @(Get-IoSpdDocValue $Doc 'points')) {
    if ($null -eq $p) { continue }
    [pscustomobject]@{
      PSTypeName              = 'IoSpd.CurvePoint'
      Point                   = Get-IoSpdDocValue $p 'n'
      Phase                   = Get-IoSpdDocValue $p 'phase'
      AxisValue               = Get-IoSpdDocValue $p 'axis_value'
      BlockSize               = Get-IoSpdDocValue $p 'block_size'
      Threads                 = Get-IoSpdDocValue $p 'threads'
      OutstandingIO           = Get-IoSpdDocValue $p 'outstanding'
      RateLimitBytesPerSec    = Get-IoSpdDocValue $p 'rate_limit_bps'
      Seconds                 = Get-IoSpdDocValue $p 'seconds'
      IOPS                    = Get-IoSpdDocValue $p 'iops'
      MiBps                   = Get-IoSpdDocValue $p 'mib_per_s'
      MeanUs                  = & $lat $p 'mean'
      P50Us                   = & $lat $p 'p50'
      P99Us                   = & $lat $p 'p99'
      P99_9Us                 = & $lat $p 'p99.9'
      MaxUs                   = & $lat $p 'max'
      LimitStatUs             = Get-IoSpdDocValue $p 'limit_stat_us'
      WithinLimit             = Get-IoSpdDocValue $p 'within_limit'
      CpuPercent              = Get-IoSpdDocValue $p 'cpu_percent'
      BusiestThreadCpuPercent = Get-IoSpdDocValue $p 'busiest_thread_cpu_percent'
      Failed                  = [bool](Get-IoSpdDocValue $p 'failed')
      Results                 = Get-IoSpdDocValue $p 'results'
    }
  }
  $k = Get-IoSpdDocValue $Doc 'knee'
  $knee = if ($null -eq $k) { $null } else {
    [pscustomobject]@{
      PSTypeName = 'IoSpd.CurveKnee'
      Point = Get-IoSpdDocValue $k 'point'; AxisValue = Get-IoSpdDocValue $k 'axis_value'
      IOPS = Get-IoSpdDocValue $k 'iops'; MiBps = Get-IoSpdDocValue $k 'mib_per_s'
      MeanUs = & $lat $k 'mean'; P99Us = & $lat $k 'p99'
    }
  }
  $a = Get-IoSpdDocValue $Doc 'answer'
  $answer = if ($null -eq $a) { $null } else {
    $br = Get-IoSpdDocValue $a 'bracket'
    [pscustomobject]@{
      PSTypeName = 'IoSpd.CurveAnswer'
      Point = Get-IoSpdDocValue $a 'point'; AxisValue = Get-IoSpdDocValue $a 'axis_value'
      IOPS = Get-IoSpdDocValue $a 'iops'; MiBps = Get-IoSpdDocValue $a 'mib_per_s'
      LatencyUs = Get-IoSpdDocValue $a 'latency_us'; RateLimitIops = Get-IoSpdDocValue $a 'rate_limit_iops'
      GoodAxisValue = Get-IoSpdDocValue $br 'good_axis_value'; BadAxisValue = Get-IoSpdDocValue $br 'bad_axis_value'
    }
  }
  $c = Get-IoSpdDocValue $Doc 'cap'
  $cap = if ($null -eq $c) { $null } else {
    [pscustomobject]@{
      PSTypeName = 'IoSpd.CurveCap'
      Kind = Get-IoSpdDocValue $c 'kind'; Value = Get-IoSpdDocValue $c 'value'
      Unit = Get-IoSpdDocValue $c 'unit'; Evidence = Get-IoSpdDocValue $c 'evidence'
    }
  }
  $ll = Get-IoSpdDocValue $Doc 'latency_limit'
  $ex = Get-IoSpdDocValue $Doc 'expect'
  $axis = Get-IoSpdDocValue $Doc 'axis'
  [pscustomobject]@{
    PSTypeName   = 'IoSpd.CurveResult'
    Axis         = Get-IoSpdDocValue $axis 'name'
    AxisSwitch   = Get-IoSpdDocValue $axis 'switch'
    Planned      = @(Get-IoSpdDocValue $axis 'planned')
    LatencyLimit = $(if ($null -eq $ll) { $null } else {
        [pscustomobject]@{ Stat = Get-IoSpdDocValue $ll 'stat'; Percentile = Get-IoSpdDocValue $ll 'percentile'
          Op = Get-IoSpdDocValue $ll 'op'; LimitUs = Get-IoSpdDocValue $ll 'limit_us' } })
    Expect       = $(if ($null -eq $ex) { $null } else {
        [pscustomobject]@{ Kind = Get-IoSpdDocValue $ex 'kind'; Value = Get-IoSpdDocValue $ex 'value' } })
    Points       = @($points)
    Stopped      = Get-IoSpdDocValue $Doc 'stopped'
    Knee         = $knee
    Answer       = $answer
    Cap          = $cap
    LittlesLaw   = @(foreach ($l in @(Get-IoSpdDocValue $Doc 'littles_law')) {
        if ($null -eq $l) { continue }
        [pscustomobject]@{ Point = Get-IoSpdDocValue $l 'point'; OutstandingTotal = Get-IoSpdDocValue $l 'outstanding_total'
          IOPS = Get-IoSpdDocValue $l 'iops'; ExpectedLatencyUs = Get-IoSpdDocValue $l 'expected_latency_us'
          MeasuredLatencyUs = Get-IoSpdDocValue $l 'measured_latency_us' } })
    Verdict      = [string[]]@(Get-IoSpdDocValue $Doc 'verdict')
    Interrupted  = [bool](Get-IoSpdDocValue $Doc 'interrupted')
    CommandLine  = Get-IoSpdDocValue $Doc 'command_line'
    Document     = $Doc
  }
}

function ConvertFrom-IoSpdPtsDocument {
  # An iospd-pts document (parsed JSON) -> IoSpd.PtsResult: Rounds (Round,
  # TrackedValue, Cells: one IoSpd.PtsCell row per cell), Window (the last
  # measurement window), Converged, Stopped, Conformant and the set-up.
  param([Parameter(Mandatory)] [object] $Doc, [string] $Source = 'the PTS document')
  Assert-IoSpdDocFormat -Doc $Doc -Format 'iospd-pts' -Source $Source
  $rounds = foreach ($r in @(Get-IoSpdDocValue $Doc 'rounds')) {
    if ($null -eq $r) { continue }
    $cells = foreach ($c in @(Get-IoSpdDocValue $r 'cells')) {
      if ($null -eq $c) { continue }
      $l = Get-IoSpdDocValue $c 'latency_us'
      [pscustomobject]@{
        PSTypeName  = 'IoSpd.PtsCell'
        Round       = Get-IoSpdDocValue $r 'n'
        BlockSize   = Get-IoSpdDocValue $c 'block_size'
        ReadPercent = Get-IoSpdDocValue $c 'read_pct'
        Access      = Get-IoSpdDocValue $c 'access'
        Seconds     = Get-IoSpdDocValue $c 'seconds'
        IOPS        = Get-IoSpdDocValue $c 'iops'
        MiBps       = Get-IoSpdDocValue $c 'mib_per_s'
        MeanUs      = Get-IoSpdDocValue $l 'mean'
        MaxUs       = Get-IoSpdDocValue $l 'max'
        P99Us       = Get-IoSpdDocValue $l 'p99'
        P99_9Us     = Get-IoSpdDocValue $l 'p99.9'
        P99_99Us    = Get-IoSpdDocValue $l 'p99.99'
      }
    }
    [pscustomobject]@{
      PSTypeName = 'IoSpd.PtsRound'
      Round = Get-IoSpdDocValue $r 'n'; TrackedValue = Get-IoSpdDocValue $r 'tracked_value'; Cells = @($cells)
    }
  }
  $w = Get-IoSpdDocValue $Doc 'window'
  $window = if ($null -eq $w) { $null } else {
    [pscustomobject]@{
      PSTypeName = 'IoSpd.PtsWindow'
      FirstRound = Get-IoSpdDocValue $w 'first_round'; LastRound = Get-IoSpdDocValue $w 'last_round'
      Values = @(Get-IoSpdDocValue $w 'values'); Mean = Get-IoSpdDocValue $w 'mean'
      DataExcursion = Get-IoSpdDocValue $w 'data_excursion'; DataExcursionPercent = Get-IoSpdDocValue $w 'data_excursion_pct'
      Slope = Get-IoSpdDocValue $w 'slope'; Intercept = Get-IoSpdDocValue $w 'intercept'
      SlopeExcursion = Get-IoSpdDocValue $w 'slope_excursion'; SlopeExcursionPercent = Get-IoSpdDocValue $w 'slope_excursion_pct'
      DataOk = Get-IoSpdDocValue $w 'data_ok'; SlopeOk = Get-IoSpdDocValue $w 'slope_ok'
    }
  }
  $t = Get-IoSpdDocValue $Doc 'tracked'
  [pscustomobject]@{
    PSTypeName           = 'IoSpd.PtsResult'
    Test                 = Get-IoSpdDocValue $Doc 'test'
    Conformant           = Get-IoSpdDocValue $Doc 'conformant'
    NonconformantReasons = [string[]]@(Get-IoSpdDocValue $Doc 'nonconformant_reasons')
    CellSeconds          = Get-IoSpdDocValue $Doc 'cell_seconds'
    Target               = Get-IoSpdDocValue (Get-IoSpdDocValue $Doc 'target') 'path'
    Threads              = Get-IoSpdDocValue $Doc 'threads'
    OutstandingIO        = Get-IoSpdDocValue $Doc 'outstanding'
    Tracked              = $(if ($null -eq $t) { $null } else {
        [pscustomobject]@{ BlockSize = Get-IoSpdDocValue $t 'block_size'; ReadPercent = Get-IoSpdDocValue $t 'read_pct'
          Access = Get-IoSpdDocValue $t 'access'; Metric = Get-IoSpdDocValue $t 'metric'; Unit = Get-IoSpdDocValue $t 'unit' } })
    Rounds               = @($rounds)
    Window               = $window
    Converged            = [bool](Get-IoSpdDocValue $Doc 'converged')
    Stopped              = Get-IoSpdDocValue $Doc 'stopped'
    Interrupted          = [bool](Get-IoSpdDocValue $Doc 'interrupted')
    Error                = Get-IoSpdDocValue $Doc 'error'
    CommandLine          = Get-IoSpdDocValue $Doc 'command_line'
    Document             = $Doc
  }
}
