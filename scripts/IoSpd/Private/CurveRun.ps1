# SPDX-License-Identifier: MIT
# Invoke-IoSpdSweep's curve mode: one `iospd --curve` run (-LatencyLimit,
# -Curve, -Expect) with --output=json:<temp file>, returned as an
# IoSpd.CurveResult (CurvePts.ps1). Kept apart so that the grid sweep stays
# one job and this one another.

function Invoke-IoSpdCurveRun {
  # $Cmdlet: the sweep's $PSCmdlet (its -WhatIf, -ErrorAction and errors);
  # $Bound: its $PSBoundParameters.
  param([Parameter(Mandatory)] [Management.Automation.PSCmdlet] $Cmdlet, [Parameter(Mandatory)] [Collections.IDictionary] $Bound)
  $fixed = @{}
  $problems = [Collections.Generic.List[string]]::new()
  foreach ($name in 'BlockSize', 'Threads', 'OutstandingIO', 'WritePercent') {
    if (-not $Bound.ContainsKey($name)) { continue }
    $v = @($Bound[$name])
    if ($v.Count -gt 1) { $problems.Add("-$name has $($v.Count) values: with -LatencyLimit, -Curve or -Expect iospd walks one axis itself (-Curve o, t or b), so give one value.") }
    elseif ($v.Count -eq 1) { $fixed[$name] = $v[0] }
  }
  if ($Bound.ContainsKey('ContinueOnError')) { $problems.Add('-ContinueOnError is for grid sweeps: a curve is one iospd run.') }
  $marker = '{iospd-curve-target}'
  $argParams = @{ Target = $marker }
  foreach ($name in 'Random', 'Duration', 'Warmup', 'Cooldown', 'CacheMode', 'Latency', 'IopsInterval',
    'CreateSize', 'ArgumentList', 'DiskSpdVersion') {
    if ($Bound.ContainsKey($name)) { $argParams[$name] = $Bound[$name] }
  }
  foreach ($k in $fixed.Keys) { $argParams[$k] = $fixed[$k] }
  $built = @()
  try { $built = [string[]](ConvertTo-IoSpdArgumentList @argParams | ForEach-Object { $_ }) }
  catch { $problems.Add($_.Exception.Message) }
  foreach ($t in @($Bound['Target'])) {
    if ([string]::IsNullOrWhiteSpace($t)) { $problems.Add('-Target contains an empty path.') }
  }
  if ($problems.Count) {
    $Cmdlet.ThrowTerminatingError((New-IoSpdInvokeError -Message ('The curve was not started; ' + ($problems -join ' ')) `
          -ErrorId 'IoSpdSweepInvalidGrid' -Category InvalidArgument -TargetObject $Bound['Target']))
  }
  try { $exe = Resolve-IoSpdExecutable -Path $Bound['ExecutablePath'] } catch { $Cmdlet.ThrowTerminatingError($_) }

  $json = Join-Path ([IO.Path]::GetTempPath()) ("iospd-curve-" + [guid]::NewGuid().ToString('N') + '.json')
  $curveArgs = @(if ($Bound['Curve']) { "--curve=$($Bound['Curve'])" } else { '--curve' })
  if ($Bound['LatencyLimit']) { $curveArgs += "--latency-limit=$($Bound['LatencyLimit'])" }
  if ($Bound['Expect']) { $curveArgs += "--expect=$($Bound['Expect'])" }
  $curveArgs += "--output=json:$json"
  # The switches built for one run, without its -Rxml (iospd prints the
  # curve's text report on stdout, unread) and the targets last.
  $argv = @($built | Where-Object { $_ -cne '-Rxml' -and $_ -cne $marker }) + $curveArgs + @($Bound['Target'])
  $commandLine = "$exe " + ($argv -join ' ')
  if (-not $Cmdlet.ShouldProcess((@($Bound['Target']) -join ', '), "Run $commandLine")) { return }
  Write-Verbose "Running: $commandLine"
  $runParams = @{ FilePath = $exe; ArgumentList = $argv }
  if ($Bound.ContainsKey('TimeoutSec')) { $runParams['TimeoutSec'] = $Bound['TimeoutSec'] }
  try {
    try { $run = Invoke-IoSpdProcess @runParams } catch { $Cmdlet.ThrowTerminatingError($_) }
    if ($run.TimedOut) {
      $Cmdlet.WriteError((New-IoSpdInvokeError -Message "iospd --curve was stopped after -TimeoutSec $($Bound['TimeoutSec']) s ($commandLine)." `
            -ErrorId 'IoSpdTimeout' -Category OperationTimeout -TargetObject $exe))
      return
    }
    $warn = ConvertFrom-IoSpdWarningLine -Line ([string]$run.StdErr)
    foreach ($m in $warn.Messages) { Write-Warning "iospd: $m" }
    foreach ($n in $warn.Notes) { Write-Information -MessageData "iospd: $n" -Tags 'IoSpd', 'Note' }
    # A curve cut short (Ctrl-C, a failed point) still writes its document:
    # it is returned, and a non-zero exit is an error after it.
    $result = $null
    if (Test-Path -LiteralPath $json -PathType Leaf) {
      try {
        $doc = Get-Content -LiteralPath $json -Raw -Encoding utf8 | ConvertFrom-Json -ErrorAction Stop
        $result = ConvertFrom-IoSpdCurveDocument -Doc $doc -Source "iospd --curve's $json" | Add-IoSpdWarningProperty -Lines $warn.Lines
      } catch {
        $Cmdlet.WriteError((New-IoSpdInvokeError -Message "iospd --curve's document: $($_.Exception.Message)" `
              -ErrorId 'IoSpdBadJson' -Category InvalidData -TargetObject $json))
        return
      }
    }
    if ($result) { $result }
    if ($run.ExitCode -ne 0 -or -not $result) {
      $msg = ([string]$run.StdErr).Trim()
      if (-not $msg) { $msg = '(no error text)' }
      $what = if ($result) { 'the curve above is what it measured' } else { 'it wrote no curve document' }
      $Cmdlet.WriteError((New-IoSpdInvokeError -Message "iospd --curve exited with code $($run.ExitCode) ($what): $msg" `
            -ErrorId 'IoSpdCurveFailed' -Category InvalidResult -TargetObject $result))
    }
  } finally {
    Remove-Item -LiteralPath $json -Force -ErrorAction SilentlyContinue
  }
}
