# SPDX-License-Identifier: MIT
# Builds the DISKSPD-style argument list for Invoke-IoSpd (kept apart from
# running it so that the exact lists can be tested), and runs the program.

function ConvertTo-IoSpdSizeArgument {
  # Integers are bytes; strings may carry DISKSPD's K/M/G/T suffix or, for
  # -c and -b, the b(locks) suffix is not accepted here on purpose.
  param([Parameter(Mandatory)] [object] $Value, [Parameter(Mandatory)] [string] $Parameter)
  $text = ([string]$Value).Trim()
  if ($text -notmatch '^[0-9]+[KMGTkmgt]?$') {
    throw "-$Parameter '$Value' is not a size: use a number of bytes (4096) or a number " +
      'with K, M, G or T (4K, 64K, 1G).'
  }
  if ($text -match '^0+[KMGTkmgt]?$') {
    throw "-$Parameter must be greater than zero."
  }
  return $text.ToUpperInvariant()
}

function ConvertTo-IoSpdArgumentList {
  # Returns the argument array in a fixed order: sizes and counts, access
  # pattern, timing, caching, statistics, raw arguments, -Rxml, targets.
  [CmdletBinding()]
  [OutputType([string[]])]
  param(
    [Parameter(Mandatory)] [string[]] $Target,
    [object] $BlockSize,
    [int] $Threads,
    [int] $OutstandingIO,
    [int] $WritePercent = -1,
    [switch] $Random,
    [int] $Duration = -1,
    [int] $Warmup = -1,
    [int] $Cooldown = -1,
    [ValidateSet('', 'Cached', 'NoBuffering', 'WriteThrough', 'Both')] [string] $CacheMode = '',
    [switch] $Latency,
    [int] $IopsInterval,
    [object] $CreateSize,
    [string[]] $ArgumentList
  )
  $a = New-Object System.Collections.Generic.List[string]
  if ($PSBoundParameters.ContainsKey('BlockSize') -and $null -ne $BlockSize) {
    $a.Add('-b' + (ConvertTo-IoSpdSizeArgument -Value $BlockSize -Parameter 'BlockSize'))
  }
  if ($PSBoundParameters.ContainsKey('Threads')) {
    if ($Threads -lt 1) { throw "-Threads must be 1 or more (got $Threads)." }
    $a.Add("-t$Threads")
  }
  if ($PSBoundParameters.ContainsKey('OutstandingIO')) {
    if ($OutstandingIO -lt 1) { throw "-OutstandingIO must be 1 or more (got $OutstandingIO)." }
    $a.Add("-o$OutstandingIO")
  }
  if ($WritePercent -ge 0) {
    if ($WritePercent -gt 100) { throw "-WritePercent must be 0..100 (got $WritePercent)." }
    $a.Add("-w$WritePercent")
  }
  if ($Random) { $a.Add('-r') }
  if ($Duration -ge 0) { $a.Add("-d$Duration") }
  if ($Warmup -ge 0) { $a.Add("-W$Warmup") }
  if ($Cooldown -ge 0) { $a.Add("-C$Cooldown") }
  switch ($CacheMode) {
    'Cached' { $a.Add('-Sb') }
    'NoBuffering' { $a.Add('-Su') }
    'WriteThrough' { $a.Add('-Sw') }
    'Both' { $a.Add('-Sh') }
  }
  if ($Latency) { $a.Add('-L') }
  if ($PSBoundParameters.ContainsKey('IopsInterval')) {
    if ($IopsInterval -lt 1) { throw "-IopsInterval is in milliseconds and must be 1 or more (got $IopsInterval)." }
    $a.Add("-D$IopsInterval")
  }
  if ($PSBoundParameters.ContainsKey('CreateSize') -and $null -ne $CreateSize) {
    $a.Add('-c' + (ConvertTo-IoSpdSizeArgument -Value $CreateSize -Parameter 'CreateSize'))
  }
  foreach ($raw in @($ArgumentList | Where-Object { $null -ne $_ -and $_ -ne '' })) {
    if ($raw -cmatch '^[-/]R') {
      throw "-ArgumentList contains '$raw': Invoke-IoSpd always asks for -Rxml to read the " +
        'results; run iospd directly for text output.'
    }
    $a.Add($raw)
  }
  $a.Add('-Rxml')
  foreach ($t in $Target) {
    if ([string]::IsNullOrWhiteSpace($t)) { throw '-Target contains an empty path.' }
    $a.Add($t)
  }
  return , $a.ToArray()
}

function Resolve-IoSpdExecutable {
  # -Path if given, else iospd(.exe) from PATH.
  [CmdletBinding()]
  [OutputType([string])]
  param([string] $Path)
  if ($Path) {
    if (-not (Test-Path -LiteralPath $Path -PathType Leaf)) {
      throw "The iospd executable '$Path' does not exist."
    }
    return (Resolve-Path -LiteralPath $Path).ProviderPath
  }
  $cmd = Get-Command -Name 'iospd' -CommandType Application -ErrorAction SilentlyContinue |
    Select-Object -First 1
  if (-not $cmd) {
    throw 'iospd was not found on PATH. Install it with Install-IoSpd or pass -Path <iospd executable>.'
  }
  return $cmd.Source
}

function Invoke-IoSpdProcess {
  # Runs the program with each argument passed as-is (no shell quoting) and
  # returns ExitCode, StdOut and StdErr. Both streams are read concurrently
  # so a full stderr pipe cannot block the child.
  [CmdletBinding()]
  param(
    [Parameter(Mandatory)] [string] $FilePath,
    [string[]] $ArgumentList = @()
  )
  $psi = [Diagnostics.ProcessStartInfo]::new($FilePath)
  if ($null -ne $psi.PSObject.Properties['ArgumentList']) {
    foreach ($arg in $ArgumentList) { $psi.ArgumentList.Add($arg) }
  } else {
    # .NET Framework (Windows PowerShell 5.1) has only the single string.
    $psi.Arguments = (@($ArgumentList | ForEach-Object {
          if ($_ -match '[\s"]' -or $_ -eq '') { '"' + ($_ -replace '(\\*)"', '$1$1\"') + '"' } else { $_ }
        }) -join ' ')
  }
  # Relative targets mean the PowerShell location, which is not
  # necessarily the process's current directory.
  $psi.WorkingDirectory = (Get-Location -PSProvider FileSystem).ProviderPath
  $psi.UseShellExecute = $false
  $psi.RedirectStandardOutput = $true
  $psi.RedirectStandardError = $true
  $psi.CreateNoWindow = $true
  $proc = [Diagnostics.Process]::new()
  $proc.StartInfo = $psi
  try {
    $null = $proc.Start()
  } catch {
    throw "Could not start '$FilePath': $($_.Exception.Message)"
  }
  $out = $proc.StandardOutput.ReadToEndAsync()
  $err = $proc.StandardError.ReadToEndAsync()
  $proc.WaitForExit()
  [pscustomobject]@{
    ExitCode = $proc.ExitCode
    StdOut   = $out.GetAwaiter().GetResult()
    StdErr   = $err.GetAwaiter().GetResult()
  }
  $proc.Dispose()
}
