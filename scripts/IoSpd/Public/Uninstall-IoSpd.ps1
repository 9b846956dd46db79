# SPDX-License-Identifier: MIT
# Uninstall-IoSpd: removes what Install-IoSpd added: the installed files
# (only those its marker lists), the marker, the folder when that empties
# it, and its PATH entries: this session's, the stored ones (the registry's
# user and machine Path on Windows; the shell profile blocks on Linux and
# macOS).

function Uninstall-IoSpd {
  <#
  .SYNOPSIS
  Removes an iospd that Install-IoSpd installed, and its PATH entries.

  .DESCRIPTION
  Undoes Install-IoSpd for -Destination:
  - deletes exactly the files and folders the install's marker
    (.iospd-install) lists, then the marker, then the folder when nothing
    else is left in it; anything else in the folder stays, and is named in
    a warning and in the result's Left;
  - removes every PATH entry in that folder: from this session, and from
    the stored PATH, which is the registry's user Path (HKCU\Environment)
    and, when elevated, the machine Path on Windows, or the iospd block of
    the shell profiles on Linux and macOS (~/.bash_profile, ~/.bash_login,
    ~/.profile, ~/.zprofile, and /etc/profile.d/iospd.sh when root). A
    machine Path that holds the folder in a session that is not elevated
    is left, with a warning that says so.

  A folder without the marker is not an install of Install-IoSpd: nothing
  is deleted (IoSpdNotInstalled). Supports -WhatIf and -Confirm.

  .PARAMETER Destination
  The install folder; default: Install-IoSpd's default (Program Files or
  the user's programs folder on Windows, ~/.iospd elsewhere).

  .EXAMPLE
  Uninstall-IoSpd

  Removes the iospd installed to the default folder and its PATH entries.

  .EXAMPLE
  Uninstall-IoSpd -Destination D:\tools\iospd -WhatIf

  Shows what would be removed.

  .OUTPUTS
  IoSpd.UninstallResult: Destination, Version, Removed (the folder is
  gone), Left (what stayed in it), PathRemovedFrom (where PATH entries were
  removed: Process, the registry values or the profile files).
  #>
  [CmdletBinding(SupportsShouldProcess, ConfirmImpact = 'High')]
  param([string] $Destination)
  if (-not $Destination) { $Destination = Get-IoSpdDefaultDestination }
  $Destination = (Resolve-IoSpdLocalPath -Path $Destination -SessionState $PSCmdlet.SessionState).TrimEnd('\', '/')
  $marker = Read-IoSpdInstallMarker -Path $Destination
  if (-not $marker) {
    $PSCmdlet.ThrowTerminatingError((New-IoSpdHostError -Id 'IoSpdNotInstalled' -Category ObjectNotFound -Target $Destination `
          -Message ("'$Destination' holds no iospd installed by Install-IoSpd (no readable $(Get-IoSpdMarkerName) in it), " +
            'so nothing was removed. Give the folder Install-IoSpd installed to with -Destination.')))
  }
  if (-not $PSCmdlet.ShouldProcess($Destination, "Remove iospd $($marker.Version) and its PATH entries")) { return }

  $from = [Collections.Generic.List[string]]::new()
  $windows = Test-IoSpdWindows
  if ($windows) {
    $acc = Get-IoSpdRegistryAccessor
    foreach ($scope in 'User', 'Machine') {
      $loc = Get-IoSpdRegistryPathLocation -Scope $scope
      $cur = & $acc.Read $scope
      if (-not $cur.Exists -or ($cur.Kind -ne 'String' -and $cur.Kind -ne 'ExpandString')) { continue }
      $new = Remove-IoSpdPathEntryUnder -PathValue ([string]$cur.Raw) -Root $Destination -Separator ';' -IgnoreCase $true
      if ($new -ceq [string]$cur.Raw) { continue }
      if ($scope -eq 'Machine' -and -not (Test-IoSpdElevated)) {
        Write-Warning "$($loc.Display) still holds '$Destination': removing it needs an elevated session (run Uninstall-IoSpd as administrator)."
        continue
      }
      & $acc.Write $scope $new ([string]$cur.Kind)
      $null = & $acc.Broadcast
      $from.Add($loc.Display)
    }
  } else {
    $files = @(Get-IoSpdProfileCandidate)
    if (Test-IoSpdElevated) { $files += Get-IoSpdProfileFile -Scope Machine }
    foreach ($f in $files) {
      if (-not [IO.File]::Exists($f)) { continue }
      $text = [IO.File]::ReadAllText($f)
      # Only a block that puts this install's folder on PATH.
      $q = ConvertTo-IoSpdShellQuoted -Text $Destination.TrimEnd('/')
      $b = [regex]::Match($text, '(?ms)^' + [regex]::Escape((Get-IoSpdProfileBlockStart)) + '.*?^' + [regex]::Escape((Get-IoSpdProfileBlockEnd)))
      if (-not $b.Success -or -not $b.Value.Contains($q.TrimEnd("'"))) { continue }
      $null = Remove-IoSpdProfileBlock -File $f
      if ($f -eq '/etc/profile.d/iospd.sh' -and -not ([IO.File]::ReadAllText($f).Trim())) { [IO.File]::Delete($f) }
      $from.Add($f)
    }
  }
  $name = Get-IoSpdPathVariableName
  $current = Get-IoSpdEnvironmentVariable -Name $name -Scope Process
  $sep = if ($windows) { ';' } else { [IO.Path]::PathSeparator }
  $new = Remove-IoSpdPathEntryUnder -PathValue $current -Root $Destination -Separator $sep -IgnoreCase $windows
  if ($new -cne $current) {
    Set-IoSpdEnvironmentVariable -Name $name -Value $new -Scope Process -WhatIf:$false -Confirm:$false
    $from.Add('Process')
  }
  $left = @(Remove-IoSpdInstallTree -Path $Destination)
  if ($left.Count) {
    Write-Warning "'$Destination' was not removed: it holds what Install-IoSpd did not put there ($($left -join ', '))."
  }
  [pscustomobject]@{
    PSTypeName      = 'IoSpd.UninstallResult'
    Destination     = $Destination
    Version         = $marker.Version
    Removed         = -not [IO.Directory]::Exists($Destination)
    Left            = [string[]]$left
    PathRemovedFrom = [string[]]$from.ToArray()
  }
}
