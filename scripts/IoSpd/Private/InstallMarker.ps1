# SPDX-License-Identifier: MIT
# The install marker (.iospd-install) that Install-IoSpd writes into every
# install, and the checks built on it, so that Install-IoSpd only ever
# deletes files and folders that an earlier Install-IoSpd put there.

function Get-IoSpdMarkerName {
  [CmdletBinding()]
  [OutputType([string])]
  param()
  return '.iospd-install'
}

function Test-IoSpdReparsePoint {
  # Symbolic links and junctions: never followed, never deleted through.
  [CmdletBinding()]
  [OutputType([bool])]
  param([Parameter(Mandatory)] [IO.FileSystemInfo] $Item)
  return (($Item.Attributes -band [IO.FileAttributes]::ReparsePoint) -ne 0)
}

function New-IoSpdEntrySet {
  # Entry names compare like the file system does: without case on Windows.
  [CmdletBinding()]
  param()
  $cmp = [StringComparer]::Ordinal
  if (Test-IoSpdWindows) { $cmp = [StringComparer]::OrdinalIgnoreCase }
  return , ([Collections.Generic.HashSet[string]]::new($cmp))
}

function Get-IoSpdInstallListing {
  # Every file and folder under $Root as a '/'-separated relative path
  # (folders end in '/'), parents before children, without the marker.
  [CmdletBinding()]
  [OutputType([string[]])]
  param([Parameter(Mandatory)] [string] $Root)
  $out = [Collections.Generic.List[string]]::new()
  $pending = [Collections.Generic.Queue[object]]::new()
  $pending.Enqueue(@([IO.DirectoryInfo]::new($Root), ''))
  $marker = Get-IoSpdMarkerName
  while ($pending.Count -gt 0) {
    $dir, $prefix = $pending.Dequeue()
    foreach ($item in $dir.GetFileSystemInfos() | Sort-Object Name) {
      $rel = $prefix + $item.Name
      if ($rel -eq $marker) { continue }
      if ($item -is [IO.DirectoryInfo] -and -not (Test-IoSpdReparsePoint $item)) {
        $out.Add("$rel/")
        $pending.Enqueue(@($item, "$rel/"))
      } else {
        $out.Add($rel)
      }
    }
  }
  return $out.ToArray()
}

function Write-IoSpdInstallMarker {
  # Writes <Root>/.iospd-install: what was installed, from which package,
  # and every entry the install consists of.
  [CmdletBinding()]
  param(
    [Parameter(Mandatory)] [string] $Root,
    [Parameter(Mandatory)] [string] $Version,
    [Parameter(Mandatory)] [string] $Sha256
  )
  $lines = [Collections.Generic.List[string]]::new()
  $lines.Add('# Written by Install-IoSpd: this folder is an iospd install. A later')
  $lines.Add('# Install-IoSpd replaces it only while it holds nothing but the entries')
  $lines.Add('# listed here, and deletes only those. Do not edit.')
  $lines.Add('format: iospd-install 1')
  $lines.Add("version: $Version")
  $lines.Add("sha256: $Sha256")
  $lines.Add('installed: ' + [DateTime]::UtcNow.ToString('yyyy-MM-ddTHH:mm:ssZ', [Globalization.CultureInfo]::InvariantCulture))
  foreach ($e in Get-IoSpdInstallListing -Root $Root) { $lines.Add("entry: $e") }
  $text = ($lines -join "`n") + "`n"
  [IO.File]::WriteAllText((Join-Path $Root (Get-IoSpdMarkerName)), $text, [Text.UTF8Encoding]::new($false))
}

function Test-IoSpdEntryName {
  # A marker entry must name something inside the install: relative, no
  # '.' or '..' steps, no drive or backslash. Other lines are ignored, so a
  # hand-edited marker cannot make Install-IoSpd delete outside the folder.
  [CmdletBinding()]
  [OutputType([bool])]
  param([AllowEmptyString()] [string] $Name)
  if (-not $Name -or $Name -match '[\\:]') { return $false }
  $parts = @($Name.TrimEnd('/') -split '/')
  foreach ($p in $parts) {
    if ($p -eq '' -or $p -eq '.' -or $p -eq '..') { return $false }
  }
  return $true
}

function Read-IoSpdInstallMarker {
  # The marker of the install in $Path, or $null when there is no readable
  # marker (then the folder is not known to be an iospd install).
  [CmdletBinding()]
  param([Parameter(Mandatory)] [string] $Path)
  $file = [IO.FileInfo]::new((Join-Path $Path (Get-IoSpdMarkerName)))
  if (-not $file.Exists -or (Test-IoSpdReparsePoint $file)) { return $null }
  try {
    $lines = [IO.File]::ReadAllLines($file.FullName)
  } catch {
    return $null
  }
  $version = ''; $sha = ''; $ok = $false
  $entries = New-IoSpdEntrySet
  foreach ($line in $lines) {
    $m = [regex]::Match($line, '^(\w+): (.*)$')
    if (-not $m.Success) { continue }
    $value = $m.Groups[2].Value
    switch ($m.Groups[1].Value) {
      'format' { $ok = ($value -eq 'iospd-install 1') }
      'version' { $version = $value }
      'sha256' { $sha = $value }
      'entry' { if (Test-IoSpdEntryName $value) { $null = $entries.Add($value) } }
    }
  }
  if (-not $ok) { return $null }
  return [pscustomobject]@{ Version = $version; Sha256 = $sha; Entries = $entries }
}

function Get-IoSpdForeignEntry {
  # What in the install folder $Path the install listed in $Marker did not
  # put there ('/'-separated relative paths). A folder that is not listed is
  # reported once, without looking inside; links are always foreign.
  [CmdletBinding()]
  [OutputType([string[]])]
  param(
    [Parameter(Mandatory)] [string] $Path,
    [Parameter(Mandatory)] $Marker
  )
  $foreign = [Collections.Generic.List[string]]::new()
  $pending = [Collections.Generic.Queue[object]]::new()
  $pending.Enqueue(@([IO.DirectoryInfo]::new($Path), ''))
  $markerName = Get-IoSpdMarkerName
  while ($pending.Count -gt 0) {
    $dir, $prefix = $pending.Dequeue()
    foreach ($item in $dir.GetFileSystemInfos() | Sort-Object Name) {
      $rel = $prefix + $item.Name
      $link = Test-IoSpdReparsePoint $item
      if ($rel -eq $markerName -and $item -is [IO.FileInfo] -and -not $link) { continue }
      if ($item -is [IO.DirectoryInfo] -and -not $link) {
        if ($Marker.Entries.Contains("$rel/")) { $pending.Enqueue(@($item, "$rel/")) }
        else { $foreign.Add("$rel/") }
      } elseif ($link -or -not $Marker.Entries.Contains($rel)) {
        $foreign.Add($rel)
      }
    }
  }
  return $foreign.ToArray()
}

function Format-IoSpdEntryList {
  # "a, b, c and 4 more" for error messages.
  [CmdletBinding()]
  [OutputType([string])]
  param([string[]] $Entry, [int] $Max = 5)
  $shown = @($Entry | Select-Object -First $Max) -join ', '
  if ($Entry.Count -gt $Max) { $shown += " and $($Entry.Count - $Max) more" }
  return $shown
}

function Assert-IoSpdReplaceableDestination {
  # Throws unless Install-IoSpd may put a new install at $Destination
  # without deleting anything it did not install: the folder must be
  # missing, empty, or an earlier install (marker present) that holds only
  # what its marker lists. Returns $true when something is there to replace.
  [CmdletBinding()]
  [OutputType([bool])]
  param([Parameter(Mandatory)] [string] $Destination)
  $dir = [IO.DirectoryInfo]::new($Destination)
  $file = [IO.FileInfo]::new($Destination)
  if (-not $dir.Exists) {
    if ($file.Exists) {
      throw (New-IoSpdHostError -Id 'IoSpdDestinationIsFile' -Category InvalidArgument -Target $Destination -Message (
          "'$Destination' is a file, not a folder, so Install-IoSpd cannot install there. " +
            'Nothing was installed. Pass a new or empty folder as -Destination.'))
    }
    return $false
  }
  if (Test-IoSpdReparsePoint $dir) {
    throw (New-IoSpdHostError -Id 'IoSpdDestinationIsLink' -Category InvalidArgument -Target $Destination -Message (
        "'$Destination' is a link (symbolic link or junction). Install-IoSpd replaces the " +
          'install folder as a whole and will not replace a link. Nothing was installed. Pass the ' +
          'folder the link points to, or a new or empty folder, as -Destination.'))
  }
  $top = @($dir.GetFileSystemInfos() | Sort-Object Name | ForEach-Object Name)
  if ($top.Count -eq 0) { return $true }
  $marker = Read-IoSpdInstallMarker -Path $Destination
  if (-not $marker) {
    throw (New-IoSpdHostError -Id 'IoSpdDestinationNotEmpty' -Category ResourceExists -Target $Destination -Message (
        "The folder '$Destination' is not empty and is not an iospd install (it has no " +
          "$(Get-IoSpdMarkerName) file), so Install-IoSpd will not replace it: that would delete " +
          "what is in it ($(Format-IoSpdEntryList $top)). Nothing was installed. Choose a new or " +
          "empty folder, e.g. -Destination '$(Join-Path $Destination 'iospd')', or empty or remove " +
          "'$Destination' yourself and run Install-IoSpd again (an iospd folder installed before " +
          'installs carried this marker has to be removed by hand once).'))
  }
  $foreign = @(Get-IoSpdForeignEntry -Path $Destination -Marker $marker)
  if ($foreign.Count -gt 0) {
    throw (New-IoSpdHostError -Id 'IoSpdDestinationHasForeignEntries' -Category ResourceExists -Target $Destination -Message (
        "The folder '$Destination' holds an iospd install (version $($marker.Version)) but " +
          "also things that install did not put there: $(Format-IoSpdEntryList $foreign). " +
          'Install-IoSpd replaces the whole install folder and will not delete them. Nothing was ' +
          "installed. Move them out of '$Destination' and run Install-IoSpd again, or choose " +
          'another -Destination.'))
  }
  return $true
}

function Remove-IoSpdInstallTree {
  # Deletes, in the install folder $Path that was moved aside, exactly the
  # entries its marker lists, then the marker, then the folder if that left
  # it empty. Nothing unlisted is touched and links are never followed;
  # returns what was left behind (empty when the folder is gone).
  [CmdletBinding()]
  [OutputType([string[]])]
  param([Parameter(Mandatory)] [string] $Path)
  if (-not [IO.Directory]::Exists($Path)) { return }
  $marker = Read-IoSpdInstallMarker -Path $Path
  if ($marker) {
    $sep = [IO.Path]::DirectorySeparatorChar
    $entries = @($marker.Entries | Sort-Object { $_.Length } -Descending)
    foreach ($e in $entries) {
      $full = Join-Path $Path ($e.TrimEnd('/').Replace('/', $sep))
      try {
        if ($e.EndsWith('/')) {
          $d = [IO.DirectoryInfo]::new($full)
          # Not recursive: a folder that is not empty keeps its content.
          if ($d.Exists -and -not (Test-IoSpdReparsePoint $d)) { $d.Delete($false) }
        } else {
          $f = [IO.FileInfo]::new($full)
          if ($f.Exists -and -not (Test-IoSpdReparsePoint $f)) {
            $f.Attributes = [IO.FileAttributes]::Normal   # read-only files too
            $f.Delete()
          }
        }
      } catch {
        Write-Verbose "Could not delete '$full': $($_.Exception.Message)"
      }
    }
    # The marker is ours too; what is left after it is not an install.
    try { [IO.File]::Delete((Join-Path $Path (Get-IoSpdMarkerName))) } catch { Write-Verbose $_.Exception.Message }
  }
  $left = @([IO.DirectoryInfo]::new($Path).GetFileSystemInfos() | Sort-Object Name | ForEach-Object Name)
  if ($left.Count -eq 0) {
    try { [IO.Directory]::Delete($Path, $false) } catch { $left = @('.') }
  }
  return $left
}

function Get-IoSpdPackageVersion {
  # The version from a package name iospd-<version>.zip (URL or path), or
  # 'unknown' for a package named otherwise.
  [CmdletBinding()]
  [OutputType([string])]
  param([Parameter(Mandatory)] [string] $Source)
  $leaf = @((($Source -split '[?#]')[0]) -split '[\\/]')[-1]
  $m = [regex]::Match($leaf, '^iospd-([0-9A-Za-z][0-9A-Za-z._+-]*)\.zip$')
  if ($m.Success) { return $m.Groups[1].Value }
  return 'unknown'
}
