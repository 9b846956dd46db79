# SPDX-License-Identifier: MIT
# The stored PATH on Windows, read and written in the registry directly:
# [Environment]::SetEnvironmentVariable(..., User|Machine) rewrites the
# value as REG_SZ with every %SystemRoot%-style entry expanded, which breaks
# entries that depend on a variable changing later. Here the value is read
# unexpanded and written back with its own kind (REG_EXPAND_SZ stays
# REG_EXPAND_SZ), and only our entry is added.
#
# The registry itself sits behind an accessor object (Read, Write,
# Broadcast) so that the tests can hand in a fake that records the value
# kind and the raw string; Get-IoSpdRegistryAccessor is the real one. The
# real accessor cannot run on Linux and is untested on real Windows
# (docs/powershell.md says so); only its C# signature is compiled in a test.

function Get-IoSpdRegistryPathLocation {
  # Where the stored PATH of a scope lives: hive, key and a display name.
  [CmdletBinding()]
  param([Parameter(Mandatory)] [ValidateSet('User', 'Machine')] [string] $Scope)
  if ($Scope -eq 'Machine') {
    return [pscustomobject]@{ Hive = 'LocalMachine'; Key = 'SYSTEM\CurrentControlSet\Control\Session Manager\Environment'
      Display = 'HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Environment\Path' }
  }
  return [pscustomobject]@{ Hive = 'CurrentUser'; Key = 'Environment'; Display = 'HKCU\Environment\Path' }
}

function Initialize-IoSpdSettingChangeType {
  # Compiles the P/Invoke declaration of SendMessageTimeout once per session
  # (compiling works everywhere; calling it only on Windows).
  [CmdletBinding()]
  param()
  if ('IoSpdNative.SettingChange' -as [type]) { return }
  Add-Type -Namespace IoSpdNative -Name SettingChange -MemberDefinition @'
[DllImport("user32.dll", SetLastError = true, CharSet = CharSet.Unicode)]
public static extern IntPtr SendMessageTimeout(IntPtr hWnd, uint Msg, UIntPtr wParam, string lParam,
    uint fuFlags, uint uTimeout, out UIntPtr lpdwResult);
'@
}

function Get-IoSpdRegistryAccessor {
  # The real registry: Read(scope) -> Exists, Kind (RegistryValueKind name)
  # and Raw (the string as stored, %VARS% unexpanded); Write(scope, raw,
  # kind); Broadcast() sends WM_SETTINGCHANGE "Environment" so that shells
  # started from Explorer from now on see the new PATH.
  [CmdletBinding()]
  param()
  [pscustomobject]@{
    Read      = {
      param([string] $Scope)
      $loc = Get-IoSpdRegistryPathLocation -Scope $Scope
      $key = [Microsoft.Win32.RegistryKey]::OpenBaseKey([Microsoft.Win32.RegistryHive]$loc.Hive,
        [Microsoft.Win32.RegistryView]::Default).OpenSubKey($loc.Key, $false)
      if (-not $key) { return [pscustomobject]@{ Exists = $false; Kind = $null; Raw = '' } }
      try {
        $raw = $key.GetValue('Path', $null, [Microsoft.Win32.RegistryValueOptions]::DoNotExpandEnvironmentNames)
        if ($null -eq $raw) { return [pscustomobject]@{ Exists = $false; Kind = $null; Raw = '' } }
        $kind = $key.GetValueKind('Path').ToString()
        if ($raw -isnot [string]) { $raw = '' }   # REG_MULTI_SZ, REG_DWORD...: refused by the caller
        return [pscustomobject]@{ Exists = $true; Kind = $kind; Raw = $raw }
      } finally { $key.Dispose() }
    }
    Write     = {
      param([string] $Scope, [string] $Value, [string] $Kind)
      $loc = Get-IoSpdRegistryPathLocation -Scope $Scope
      $base = [Microsoft.Win32.RegistryKey]::OpenBaseKey([Microsoft.Win32.RegistryHive]$loc.Hive,
        [Microsoft.Win32.RegistryView]::Default)
      $key = $base.CreateSubKey($loc.Key)   # opens it writable (HKCU\Environment may be missing)
      try { $key.SetValue('Path', $Value, [Microsoft.Win32.RegistryValueKind]$Kind) } finally { $key.Dispose() }
    }
    Broadcast = {
      Initialize-IoSpdSettingChangeType
      $result = [UIntPtr]::Zero
      # HWND_BROADCAST, WM_SETTINGCHANGE, SMTO_ABORTIFHUNG, 5 s per window.
      $ok = [IoSpdNative.SettingChange]::SendMessageTimeout([IntPtr]0xffff, 0x1A, [UIntPtr]::Zero,
        'Environment', 2, 5000, [ref]$result)
      return ($ok -ne [IntPtr]::Zero)
    }
  }
}

function Add-IoSpdRegistryPathEntry {
  # Adds $Entry to the stored PATH of $Scope through $Accessor: the value
  # is read unexpanded, extended by Add-IoSpdPathEntry (every existing entry
  # kept byte for byte, ours once) and written back with its own kind; a
  # missing value is created as REG_EXPAND_SZ, as Windows keeps PATH.
  # Returns Changed and StoredIn.
  [CmdletBinding()]
  param(
    [Parameter(Mandatory)] [ValidateSet('User', 'Machine')] [string] $Scope,
    [Parameter(Mandatory)] [string] $Entry,
    [Parameter(Mandatory)] $Accessor
  )
  $loc = Get-IoSpdRegistryPathLocation -Scope $Scope
  $cur = & $Accessor.Read $Scope
  $kind = 'ExpandString'
  $raw = ''
  if ($cur.Exists) {
    $kind = [string]$cur.Kind
    if ($kind -ne 'String' -and $kind -ne 'ExpandString') {
      throw (New-IoSpdHostError -Id 'IoSpdPathRegistryKind' -Category InvalidData -Target $loc.Display `
          -Message ("$($loc.Display) is of kind $kind, not a string (REG_SZ or REG_EXPAND_SZ), so " +
            "Install-IoSpd did not change it. iospd was installed; repair that value and add '$Entry' to it, " +
            'or run Install-IoSpd again with -Scope Process.'))
    }
    $raw = [string]$cur.Raw
  }
  $new = Add-IoSpdPathEntry -PathValue $raw -Entry $Entry -Separator ';' -IgnoreCase $true
  if ($cur.Exists -and $new -ceq $raw) {
    Write-Verbose "$($loc.Display) already holds '$Entry'"
    return [pscustomobject]@{ Changed = $false; StoredIn = $loc.Display }
  }
  & $Accessor.Write $Scope $new $kind
  if (-not (& $Accessor.Broadcast)) {
    Write-Warning ("$($loc.Display) now holds '$Entry', but not every window answered the " +
      'WM_SETTINGCHANGE broadcast: if a new console does not find iospd, sign out and in again.')
  }
  return [pscustomobject]@{ Changed = $true; StoredIn = $loc.Display }
}
