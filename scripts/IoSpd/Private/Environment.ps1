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
  switch -Regex ($arch) {
    '^(AMD64|X64|ARM64|IA64)$' { return 'amd64' }
    '^(x86|X86)$' { return 'x86' }
    default {
      throw "iospd has no build for the processor architecture '$arch'; " +
        'the package contains amd64 and x86 builds only.'
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
  # Reads a variable from the process, user or machine environment.
  [CmdletBinding()]
  [OutputType([string])]
  param(
    [Parameter(Mandatory)] [string] $Name,
    [Parameter(Mandatory)] [ValidateSet('Process', 'User', 'Machine')] [string] $Scope
  )
  return [Environment]::GetEnvironmentVariable($Name, [EnvironmentVariableTarget]$Scope)
}

function Set-IoSpdEnvironmentVariable {
  # Writes a variable to the process, user or machine environment.
  [CmdletBinding(SupportsShouldProcess)]
  param(
    [Parameter(Mandatory)] [string] $Name,
    [AllowEmptyString()] [string] $Value,
    [Parameter(Mandatory)] [ValidateSet('Process', 'User', 'Machine')] [string] $Scope
  )
  if ($PSCmdlet.ShouldProcess("$Scope environment variable $Name", 'Set')) {
    [Environment]::SetEnvironmentVariable($Name, $Value, [EnvironmentVariableTarget]$Scope)
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

function Add-IoSpdPathEntry {
  # Returns $PathValue with $Entry appended unless an equal entry (ignoring
  # case on Windows and a trailing separator) is already there.
  [CmdletBinding()]
  [OutputType([string])]
  param(
    [AllowEmptyString()] [AllowNull()] [string] $PathValue,
    [Parameter(Mandatory)] [string] $Entry
  )
  $sep = [IO.Path]::PathSeparator
  $norm = {
    param($p)
    $t = $p.Trim().TrimEnd('\', '/')
    if (Test-IoSpdWindows) { $t = $t.ToLowerInvariant() }
    $t
  }
  $want = & $norm $Entry
  $parts = @()
  if ($PathValue) { $parts = @($PathValue.Split($sep) | Where-Object { $_ -ne '' }) }
  foreach ($p in $parts) {
    if ((& $norm $p) -eq $want) { return $PathValue }
  }
  return (@($parts) + $Entry) -join $sep
}
