# SPDX-License-Identifier: MIT
# Builds the DISKSPD-style argument list for Invoke-IoSpd (kept apart from
# running it so that the exact lists can be tested), quotes it for Windows
# PowerShell 5.1, and runs the program (with a timeout, and killed when the
# pipeline is stopped).

function New-IoSpdInvokeError {
  # An ErrorRecord with a stable id and a category, so that callers can use
  # -ErrorAction, catch by FullyQualifiedErrorId and filter $Error.
  [CmdletBinding()]
  [OutputType([Management.Automation.ErrorRecord])]
  param(
    [Parameter(Mandatory)] [string] $Message,
    [Parameter(Mandatory)] [string] $ErrorId,
    [Parameter(Mandatory)] [Management.Automation.ErrorCategory] $Category,
    [object] $TargetObject
  )
  $ex = switch ($Category) {
    'InvalidArgument' { [ArgumentException]::new($Message) }
    'ObjectNotFound' { [Management.Automation.ItemNotFoundException]::new($Message) }
    'OperationTimeout' { [TimeoutException]::new($Message) }
    default { [InvalidOperationException]::new($Message) }
  }
  return [Management.Automation.ErrorRecord]::new($ex, $ErrorId, $Category, $TargetObject)
}

function ConvertTo-IoSpdSizeArgument {
  # A size for -b/-c: a number is bytes (PowerShell's own literals 4KB or 1GB
  # arrive as the numbers 4096 and 1073741824; 1.5GB as a whole double); a
  # string is iospd's form, digits with an optional K/M/G/T, where the
  # PowerShell spelling KB/MB/GB/TB and the KiB/MiB/GiB/TiB iospd prints
  # are taken as the same binary unit. iospd's
  # B (blocks) suffix is refused: '4B' would read as 4 bytes to most people.
  # Throws an IoSpdInvalidSize ErrorRecord naming the parameter.
  [CmdletBinding()]
  [OutputType([string])]
  param([Parameter(Mandatory)] [AllowNull()] [object] $Value, [Parameter(Mandatory)] [string] $Parameter)
  # Argument-mode literals come wrapped in a PSObject whose ToString() is the
  # literal's text ('4KB'): look at the base object, never at [string]$Value.
  $base = if ($Value -is [psobject]) { $Value.PSObject.BaseObject } else { $Value }
  $problem = $null
  $result = $null
  if ($base -is [byte] -or $base -is [int16] -or $base -is [int32] -or $base -is [int64] -or
    $base -is [uint16] -or $base -is [uint32] -or $base -is [uint64] -or $base -is [sbyte] -or
    $base -is [double] -or $base -is [single] -or $base -is [decimal]) {
    $d = $null
    try { $d = [decimal]$base } catch { $d = $null }
    if ($null -eq $d) {
      $problem = "$base bytes is out of range"
    } elseif ($d -ne [decimal]::Truncate($d)) {
      $problem = "$base is not a whole number of bytes"
    } elseif ($d -le 0) {
      $problem = "$base is not greater than zero"
    } else {
      $result = $d.ToString('0', [Globalization.CultureInfo]::InvariantCulture)
    }
  } elseif ($base -is [string]) {
    $text = $base.Trim()
    # 4K, 4KB (PowerShell's spelling), 4KiB (the form iospd prints), 4096;
    # not 4B (iospd: 4 blocks).
    if ($text -match '^([0-9]+)(?:([KMGTkmgt])(?:[Ii]?[Bb])?)?$') {
      $digits = $Matches[1]; $unit = ([string]$Matches[2]).ToUpperInvariant()
      if ($digits -match '^0+$') {
        $problem = "'$base' is not greater than zero"
      } else {
        $result = $digits + $unit
      }
    } else {
      $problem = "'$base' is not a size"
    }
  } else {
    $problem = "a $($base.GetType().Name) is not a size"
  }
  if ($problem) {
    $msg = "-${Parameter}: $problem. Give a number of bytes (4096, or PowerShell's 4KB, 1GB) " +
      "or iospd's size text ('4K', '64KiB', '1G')."
    throw (New-IoSpdInvokeError -Message $msg -ErrorId 'IoSpdInvalidSize' -Category InvalidArgument -TargetObject $Value)
  }
  return $result
}

function ConvertTo-IoSpdArgumentList {
  # Returns the argument array in a fixed order: --diskspd=, sizes and counts, access
  # pattern, timing, caching, statistics, raw arguments, -Rxml (or -Rjson
  # with -ResultFormat json), targets. Bad values throw ErrorRecords with
  # the ids IoSpdInvalidSize / IoSpdInvalidArgument.
  [CmdletBinding()]
  [OutputType([string[]])]
  param(
    [Parameter(Mandatory)] [AllowEmptyString()] [string[]] $Target,
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
    [string[]] $ArgumentList,
    [ValidateSet('xml', 'json')] [string] $ResultFormat = 'xml',
    [switch] $Verify,
    [switch] $VerifyOnly,
    [string] $VerifyState,
    [ValidateSet('', '2.2', '2.3')] [string] $DiskSpdVersion = ''
  )
  function Stop-Bad([string] $Message, [object] $Value) {
    throw (New-IoSpdInvokeError -Message $Message -ErrorId 'IoSpdInvalidArgument' -Category InvalidArgument -TargetObject $Value)
  }
  $a = New-Object System.Collections.Generic.List[string]
  # The DISKSPD release whose defaults and layouts iospd follows; first, so
  # every switch after it is read at that level. Not given: iospd's default.
  if ($DiskSpdVersion) { $a.Add("--diskspd=$DiskSpdVersion") }
  if ($PSBoundParameters.ContainsKey('BlockSize') -and $null -ne $BlockSize) {
    $a.Add('-b' + (ConvertTo-IoSpdSizeArgument -Value $BlockSize -Parameter 'BlockSize'))
  }
  if ($PSBoundParameters.ContainsKey('Threads')) {
    if ($Threads -lt 1) { Stop-Bad "-Threads must be 1 or more (got $Threads)." $Threads }
    $a.Add("-t$Threads")
  }
  if ($PSBoundParameters.ContainsKey('OutstandingIO')) {
    if ($OutstandingIO -lt 1) { Stop-Bad "-OutstandingIO must be 1 or more (got $OutstandingIO)." $OutstandingIO }
    $a.Add("-o$OutstandingIO")
  }
  if ($WritePercent -ge 0) {
    if ($WritePercent -gt 100) { Stop-Bad "-WritePercent must be 0..100 (got $WritePercent)." $WritePercent }
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
    if ($IopsInterval -lt 1) { Stop-Bad "-IopsInterval is in milliseconds and must be 1 or more (got $IopsInterval)." $IopsInterval }
    $a.Add("-D$IopsInterval")
  }
  if ($PSBoundParameters.ContainsKey('CreateSize') -and $null -ne $CreateSize) {
    $a.Add('-c' + (ConvertTo-IoSpdSizeArgument -Value $CreateSize -Parameter 'CreateSize'))
  }
  if ($Verify -and $VerifyOnly) {
    Stop-Bad ('-Verify and -VerifyOnly cannot be used together: -Verify runs the workload with checked ' +
      'blocks, -VerifyOnly only reads and checks what earlier -Verify runs wrote.') $VerifyOnly
  }
  if ($Verify) { $a.Add('--verify') }
  if ($VerifyOnly) { $a.Add('--verify-only') }
  if ($PSBoundParameters.ContainsKey('VerifyState')) {
    if ([string]::IsNullOrWhiteSpace($VerifyState)) { Stop-Bad '-VerifyState is an empty path.' $VerifyState }
    if (-not ($Verify -or $VerifyOnly)) { Stop-Bad '-VerifyState needs -Verify or -VerifyOnly.' $VerifyState }
    $a.Add("--verify-state=$VerifyState")
  }
  foreach ($raw in @($ArgumentList | Where-Object { $null -ne $_ -and $_ -ne '' })) {
    if ($raw -cmatch '^[-/]R') {
      Stop-Bad ("-ArgumentList contains '$raw': Invoke-IoSpd always asks for -R$ResultFormat to read the " +
        'results; run iospd directly for other output, or use --output=<format>:<file> for a second report.') $raw
    }
    $a.Add($raw)
  }
  # --verify-only prints its own text summary (ConvertFrom-IoSpdVerifyText).
  if (-not $VerifyOnly) { $a.Add('-R' + $ResultFormat) }
  foreach ($t in $Target) {
    if ([string]::IsNullOrWhiteSpace($t)) { Stop-Bad '-Target contains an empty path.' $Target }
    $a.Add($t)
  }
  return , $a.ToArray()
}

function Get-IoSpdGridProblem {
  # Checks every value of a sweep's dimensions before anything runs and
  # returns one line per bad value (none when the grid is fine).
  [CmdletBinding()]
  [OutputType([string])]
  param([Parameter(Mandatory)] [Collections.IDictionary] $Dimension)
  $limits = @{ Threads = @(1, 65535); OutstandingIO = @(1, 1048576); WritePercent = @(0, 100) }
  foreach ($name in $Dimension.Keys) {
    $i = 0
    foreach ($v in @($Dimension[$name])) {
      $i++
      if ($null -eq $v) { continue }
      if ($name -eq 'BlockSize') {
        try { $null = ConvertTo-IoSpdSizeArgument -Value $v -Parameter 'BlockSize' }
        catch { "-BlockSize value $i ('$v'): " + ($_.Exception.Message -replace '^-BlockSize: ', '' -replace ' Give .*$', '') }
      } elseif ($limits.ContainsKey($name)) {
        $lo = $limits[$name][0]; $hi = $limits[$name][1]
        if ($v -lt $lo -or $v -gt $hi) { "-$name value $i ($v) is outside $lo..$hi." }
      }
    }
  }
}

function Resolve-IoSpdExecutable {
  # -Path if given (relative to the PowerShell location), else iospd(.exe)
  # from PATH. Throws IoSpdExecutableNotFound.
  [CmdletBinding()]
  [OutputType([string])]
  param([string] $Path)
  if ($Path) {
    if (-not (Test-Path -LiteralPath $Path -PathType Leaf)) {
      throw (New-IoSpdInvokeError -Message "The iospd executable '$Path' does not exist." `
          -ErrorId 'IoSpdExecutableNotFound' -Category ObjectNotFound -TargetObject $Path)
    }
    return (Resolve-Path -LiteralPath $Path).ProviderPath
  }
  $cmd = Get-Command -Name 'iospd' -CommandType Application -ErrorAction SilentlyContinue |
    Select-Object -First 1
  if (-not $cmd) {
    throw (New-IoSpdInvokeError -Message 'iospd was not found on PATH. Install it with Install-IoSpd or pass -Path <iospd executable>.' `
        -ErrorId 'IoSpdExecutableNotFound' -Category ObjectNotFound -TargetObject 'iospd')
  }
  return $cmd.Source
}

function Resolve-IoSpdLocalPath {
  # A path as PowerShell means it: relative paths (and PSDrive paths such as
  # TestDrive:\x) against the PowerShell location, not the process's current
  # directory. Fully qualified Windows paths (C:\..., \\server\...) are kept
  # as they are, also off Windows, where .NET would call them relative.
  [CmdletBinding()]
  [OutputType([string])]
  param(
    [Parameter(Mandatory)] [string] $Path,
    [Parameter(Mandatory)] [Management.Automation.SessionState] $SessionState
  )
  if ($Path -match '^[A-Za-z]:[\\/]' -or $Path -match '^[\\/]{2}') { return $Path }
  return $SessionState.Path.GetUnresolvedProviderPathFromPSPath($Path)
}

function ConvertTo-IoSpdWindowsArgumentString {
  # Joins arguments into one command line that the Microsoft C runtime
  # (CommandLineToArgvW, argv of any MSVC/mingw program) splits back into
  # exactly the same arguments. Needed where .NET has only
  # ProcessStartInfo.Arguments (.NET Framework, Windows PowerShell 5.1).
  # Rules: an argument without space, tab, newline, vertical tab or quote
  # (and not empty) goes as it is. Otherwise it is put in quotes, where a
  # run of n backslashes before a quote becomes 2n+1 backslashes and \",
  # a run of n backslashes before the closing quote becomes 2n, and any
  # other backslashes stay as they are.
  [CmdletBinding()]
  [OutputType([string])]
  param([Parameter(Mandatory)] [AllowEmptyCollection()] [AllowEmptyString()] [string[]] $ArgumentList)
  $parts = foreach ($arg in $ArgumentList) {
    if ($null -eq $arg) { $arg = '' }
    if ($arg -ne '' -and $arg -notmatch "[ `t`n`v`"]") { $arg; continue }
    $sb = [Text.StringBuilder]::new('"')
    $slashes = 0
    foreach ($c in $arg.ToCharArray()) {
      if ($c -eq '\') { $slashes++; continue }
      if ($c -eq '"') {
        $null = $sb.Append([char]'\', 2 * $slashes + 1).Append([char]'"')
      } else {
        $null = $sb.Append([char]'\', $slashes).Append($c)
      }
      $slashes = 0
    }
    $null = $sb.Append([char]'\', 2 * $slashes).Append([char]'"')
    $sb.ToString()
  }
  return (@($parts) -join ' ')
}

function New-IoSpdProcessStartInfo {
  # The ProcessStartInfo for a run: arguments passed one by one
  # (ArgumentList, .NET Core) or, where that does not exist or with
  # -UseArgumentString, as one MSVC-quoted string; stdout/stderr redirected
  # and decoded as UTF-8 (iospd writes UTF-8; without this Windows would use
  # the console's OEM code page and mangle non-ASCII paths); started in the
  # PowerShell location so that relative targets resolve there.
  [CmdletBinding()]
  [OutputType([Diagnostics.ProcessStartInfo])]
  param(
    [Parameter(Mandatory)] [string] $FilePath,
    [string[]] $ArgumentList = @(),
    [switch] $UseArgumentString
  )
  $psi = [Diagnostics.ProcessStartInfo]::new($FilePath)
  if (-not $UseArgumentString -and $null -ne $psi.PSObject.Properties['ArgumentList']) {
    foreach ($arg in $ArgumentList) { $psi.ArgumentList.Add($arg) }
  } else {
    $psi.Arguments = ConvertTo-IoSpdWindowsArgumentString -ArgumentList $ArgumentList
  }
  $psi.WorkingDirectory = (Get-Location -PSProvider FileSystem).ProviderPath
  $psi.UseShellExecute = $false
  $psi.RedirectStandardOutput = $true
  $psi.RedirectStandardError = $true
  $utf8 = [Text.UTF8Encoding]::new($false)
  $psi.StandardOutputEncoding = $utf8
  $psi.StandardErrorEncoding = $utf8
  $psi.CreateNoWindow = $true
  return $psi
}

function Stop-IoSpdProcessTree {
  # Kills a running process (with its children where .NET can) and waits a
  # bounded time for it to be gone. Only .NET calls: this runs in the
  # stopping path, where PowerShell commands may no longer write.
  param([Parameter(Mandatory)] [Diagnostics.Process] $Process)
  try {
    if ($Process.HasExited) { return }
    if ($Process.GetType().GetMethod('Kill', [type[]]@([bool]))) { $Process.Kill($true) } else { $Process.Kill() }
  } catch [InvalidOperationException] {
    # exited between the check and the kill
  } catch {
    # access denied or similar: the wait below still bounds the delay
  }
  try { $null = $Process.WaitForExit(10000) } catch { }
}

function Invoke-IoSpdProcess {
  # Runs the program and returns ExitCode, StdOut, StdErr, TimedOut and Id.
  # Both streams are read concurrently so a full stderr pipe cannot block
  # the child. The wait polls in short steps so that a stopped pipeline
  # (Ctrl-C, PowerShell.Stop(), a downstream Select-Object -First) reaches
  # the finally block, which kills the program and waits for it; with
  # -TimeoutSec the program is killed after that many seconds (TimedOut).
  [CmdletBinding()]
  param(
    [Parameter(Mandatory)] [string] $FilePath,
    [string[]] $ArgumentList = @(),
    [ValidateRange(0, 2147483)] [int] $TimeoutSec = 0
  )
  $psi = New-IoSpdProcessStartInfo -FilePath $FilePath -ArgumentList $ArgumentList
  $proc = [Diagnostics.Process]::new()
  $proc.StartInfo = $psi
  try {
    $null = $proc.Start()
  } catch {
    $proc.Dispose()
    throw (New-IoSpdInvokeError -Message "Could not start '$FilePath': $($_.Exception.Message)" `
        -ErrorId 'IoSpdStartFailed' -Category ResourceUnavailable -TargetObject $FilePath)
  }
  $timedOut = $false
  try {
    Write-Verbose "Started $FilePath (PID $($proc.Id))"
    $out = $proc.StandardOutput.ReadToEndAsync()
    $err = $proc.StandardError.ReadToEndAsync()
    $watch = [Diagnostics.Stopwatch]::StartNew()
    while (-not $proc.WaitForExit(100)) {
      if ($TimeoutSec -gt 0 -and $watch.Elapsed.TotalSeconds -ge $TimeoutSec) {
        $timedOut = $true
        Stop-IoSpdProcessTree -Process $proc
        break
      }
    }
    if (-not $timedOut) { $proc.WaitForExit() }   # also lets the redirected streams reach their end
    [pscustomobject]@{
      ExitCode = if ($timedOut) { $null } else { $proc.ExitCode }
      StdOut   = $out.GetAwaiter().GetResult()
      StdErr   = $err.GetAwaiter().GetResult()
      TimedOut = $timedOut
      Id       = $proc.Id
    }
  } finally {
    # Reached with the program still running only when the pipeline stops.
    Stop-IoSpdProcessTree -Process $proc
    $proc.Dispose()
  }
}
