# SPDX-License-Identifier: MIT
# Thin wrappers around everything Install-IoSpd and the CSV functions read
# from or write to the machine, so that Pester can Mock each one.

function Test-IoSpdWindows {
  # $IsWindows does not exist in Windows PowerShell 5.1 (always Windows).
  [CmdletBinding()]
  [OutputType([bool])]
  param()
  if (Test-Path -Path 'Variable:IsWindows') { return [bool]$IsWindows }
  return $true
}

function Test-IoSpdElevated {
  # True when the session may write machine-wide state (administrator on
  # Windows, root elsewhere).
  [CmdletBinding()]
  [OutputType([bool])]
  param()
  if (Test-IoSpdWindows) {
    $id = [Security.Principal.WindowsIdentity]::GetCurrent()
    $principal = [Security.Principal.WindowsPrincipal]::new($id)
    return $principal.IsInRole([Security.Principal.WindowsBuiltInRole]::Administrator)
  }
  $prop = [Environment].GetProperty('IsPrivilegedProcess')
  if ($prop) { return [bool]$prop.GetValue($null) }
  return ((& id -u) -eq '0')
}

function Get-IoSpdArchitecture {
  # Maps the processor architecture to the package folder name: amd64 or x86.
  # ARM64 Windows runs the amd64 build through its x64 emulation.
  [CmdletBinding()]
  [OutputType([string])]
  param()
  $arch = $env:PROCESSOR_ARCHITEW6432
  if (-not $arch) { $arch = $env:PROCESSOR_ARCHITECTURE }
  if (-not $arch) {
    $arch = [Runtime.InteropServices.RuntimeInformation]::OSArchitecture.ToString()
  }
  # Linux and macOS on ARM64 have no amd64 emulation to fall back on.
  if ($arch -eq 'ARM64' -and -not (Test-IoSpdWindows)) { return 'arm64' }
  switch -Regex ($arch) {
    '^(AMD64|X64|ARM64|IA64)$' { return 'amd64' }
    '^(x86|X86)$' { return 'x86' }
    default {
      throw (New-IoSpdHostError -Id 'IoSpdUnknownArchitecture' -Category NotImplemented -Target $arch `
        -Message ("iospd has no build for the processor architecture '$arch'; " +
          'the packages hold amd64 and x86 builds (Windows) and linux-<arch> builds only.'))
    }
  }
}

function Get-IoSpdComputerName {
  # The local cluster node name as the cluster cmdlets report it.
  [CmdletBinding()]
  [OutputType([string])]
  param()
  if ($env:COMPUTERNAME) { return $env:COMPUTERNAME }
  return [Environment]::MachineName
}

function Get-IoSpdEnvironmentVariable {
  # Reads a variable of this process. The stored PATH is read and written
  # elsewhere (WindowsPath.ps1, ShellProfilePath.ps1): .NET's User/Machine
  # targets store REG_SZ with %VARS% expanded on Windows and do nothing at
  # all on Linux, so they are not offered here.
  [CmdletBinding()]
  [OutputType([string])]
  param(
    [Parameter(Mandatory)] [string] $Name,
    [Parameter(Mandatory)] [ValidateSet('Process')] [string] $Scope
  )
  return [Environment]::GetEnvironmentVariable($Name, [EnvironmentVariableTarget]::Process)
}

function Set-IoSpdEnvironmentVariable {
  # Writes a variable of this process (see Get-IoSpdEnvironmentVariable).
  [CmdletBinding(SupportsShouldProcess)]
  param(
    [Parameter(Mandatory)] [string] $Name,
    [AllowEmptyString()] [string] $Value,
    [Parameter(Mandatory)] [ValidateSet('Process')] [string] $Scope
  )
  if ($PSCmdlet.ShouldProcess("process environment variable $Name", 'Set')) {
    [Environment]::SetEnvironmentVariable($Name, $Value, [EnvironmentVariableTarget]::Process)
  }
}

function Get-IoSpdDefaultDestination {
  # Program Files when elevated on Windows, the user's local programs folder
  # otherwise; ~/.iospd on other systems.
  [CmdletBinding()]
  [OutputType([string])]
  param()
  if (Test-IoSpdWindows) {
    if ((Test-IoSpdElevated) -and $env:ProgramFiles) {
      return (Join-Path $env:ProgramFiles 'iospd')
    }
    $base = $env:LOCALAPPDATA
    if (-not $base) { $base = Join-Path $HOME 'AppData\Local' }
    return (Join-Path (Join-Path $base 'Programs') 'iospd')
  }
  return (Join-Path $HOME '.iospd')
}

function Get-IoSpdPathVariableName {
  # Windows spells it Path, the other systems PATH (case matters there).
  [CmdletBinding()]
  [OutputType([string])]
  param()
  if (Test-IoSpdWindows) { return 'Path' }
  return 'PATH'
}

function Test-IoSpdSamePathEntry {
  # Whether two PATH entries name the same folder: quotes, blanks and a
  # trailing \ or / do not count, case does not count with -IgnoreCase, and
  # an entry with %VARIABLES% also matches what it expands to.
  [CmdletBinding()]
  [OutputType([bool])]
  param(
    [AllowEmptyString()] [string] $Existing,
    [Parameter(Mandatory)] [string] $Entry,
    [bool] $IgnoreCase
  )
  $cmp = [StringComparison]::Ordinal
  if ($IgnoreCase) { $cmp = [StringComparison]::OrdinalIgnoreCase }
  $want = $Entry.Trim().Trim('"').TrimEnd('\', '/')
  foreach ($candidate in $Existing, [Environment]::ExpandEnvironmentVariables($Existing)) {
    $have = $candidate.Trim().Trim('"').TrimEnd('\', '/')
    if ($have -and [string]::Equals($have, $want, $cmp)) { return $true }
  }
  return $false
}

function Add-IoSpdPathEntry {
  # Pure: the PATH string $PathValue with $Entry appended, unless an equal
  # entry (Test-IoSpdSamePathEntry) is already there. Everything that was
  # there is kept byte for byte: unexpanded %VARIABLES%, empty entries, a
  # trailing separator; the only change is ";<Entry>" at the end.
  [CmdletBinding()]
  [OutputType([string])]
  param(
    [AllowEmptyString()] [AllowNull()] [string] $PathValue,
    [Parameter(Mandatory)] [string] $Entry,
    [string] $Separator = [IO.Path]::PathSeparator,
    [bool] $IgnoreCase = (Test-IoSpdWindows)
  )
  if (-not $PathValue) { return $Entry }
  foreach ($p in $PathValue.Split($Separator)) {
    if (Test-IoSpdSamePathEntry -Existing $p -Entry $Entry -IgnoreCase $IgnoreCase) { return $PathValue }
  }
  if ($PathValue.EndsWith($Separator)) { return $PathValue + $Entry }
  return $PathValue + $Separator + $Entry
}

function New-IoSpdHostError {
  # An ErrorRecord (message, id, category, target) for the install and
  # cluster functions: helpers throw it, the public functions hand it on
  # with $PSCmdlet.ThrowTerminatingError or WriteError so that the id and
  # category reach the caller and -ErrorAction works.
  [CmdletBinding()]
  [OutputType([Management.Automation.ErrorRecord])]
  param(
    [Parameter(Mandatory)] [string] $Message,
    [Parameter(Mandatory)] [string] $Id,
    [Parameter(Mandatory)] [Management.Automation.ErrorCategory] $Category,
    [AllowNull()] [object] $Target,
    [Exception] $InnerException
  )
  $ex = [InvalidOperationException]::new($Message, $InnerException)
  return [Management.Automation.ErrorRecord]::new($ex, $Id, $Category, $Target)
}
