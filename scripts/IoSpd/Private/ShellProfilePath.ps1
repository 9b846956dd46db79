# SPDX-License-Identifier: MIT
# The stored PATH on Linux and macOS. There is no registry: a PATH that
# outlives the session has to be set by a file the shells read. -Scope User
# writes a marked block into the file the user's login shell reads
# (Get-IoSpdProfileFile: ~/.zprofile for zsh, bash's first of
# ~/.bash_profile, ~/.bash_login, ~/.profile, else ~/.profile), -Scope
# Machine into /etc/profile.d/iospd.sh. ~/.profile was chosen over
# ~/.config/environment.d because it is read by every POSIX login shell
# (sh, dash, bash without ~/.bash_profile, ksh), by SSH and console logins
# and by the display managers of Debian and Ubuntu, where environment.d is
# read only by systemd user sessions (not by SSH or console logins, nor
# where systemd is absent, as in most containers). It is not read by
# non-login shells that start from an already running session.
#
# The block is the only thing changed: the rest of the file is kept byte
# for byte, a second install with the same folder leaves the file as it is,
# an install to another folder replaces the block, and deleting the block
# (between its two marker lines) undoes it.

function Get-IoSpdProfileBlockStart { '# >>> iospd PATH (written by Install-IoSpd; delete this block to undo) >>>' }
function Get-IoSpdProfileBlockEnd { '# <<< iospd PATH <<<' }

function ConvertTo-IoSpdShellQuoted {
  # 'text' for a POSIX shell; a ' inside becomes '\''.
  [CmdletBinding()]
  [OutputType([string])]
  param([Parameter(Mandatory)] [string] $Text)
  return "'" + $Text.Replace("'", "'\''") + "'"
}

function Update-IoSpdProfileText {
  # Pure: the text of a shell profile with the iospd block for $Entry in it
  # (replacing an earlier iospd block, else appended on a line of its own).
  # The block adds $Entry to PATH once, even when the file is read twice.
  [CmdletBinding()]
  [OutputType([string])]
  param(
    [AllowEmptyString()] [AllowNull()] [string] $Text,
    [Parameter(Mandatory)] [string] $Entry
  )
  if ($null -eq $Text) { $Text = '' }
  $q = ConvertTo-IoSpdShellQuoted -Text $Entry
  $block = (Get-IoSpdProfileBlockStart) + "`n" +
    "case `":`${PATH}:`" in *:${q}:*) ;; *) PATH=`"`${PATH:+`${PATH}:}`"$q; export PATH ;; esac`n" +
    (Get-IoSpdProfileBlockEnd) + "`n"
  $pattern = '(?m)^' + [regex]::Escape((Get-IoSpdProfileBlockStart)) + '\r?\n[\s\S]*?^' +
    [regex]::Escape((Get-IoSpdProfileBlockEnd)) + '[^\n]*(\n|$)'
  $m = [regex]::Match($Text, $pattern)
  if ($m.Success) {
    return $Text.Substring(0, $m.Index) + $block + $Text.Substring($m.Index + $m.Length)
  }
  if ($Text.Length -gt 0 -and -not $Text.EndsWith("`n")) { $Text += "`n" }
  return $Text + $block
}

function Get-IoSpdProfileCandidate {
  # Every per-user file a login shell may read first: where -Scope User may
  # have written its block (and where Uninstall-IoSpd looks).
  [CmdletBinding()]
  [OutputType([string])]
  param()
  $h = $env:HOME
  if (-not $h) { $h = $HOME }
  $z = if ($env:ZDOTDIR) { $env:ZDOTDIR } else { $h }
  @((Join-Path $h '.bash_profile'), (Join-Path $h '.bash_login'), (Join-Path $h '.profile'), (Join-Path $z '.zprofile')) |
    Select-Object -Unique
}

function Get-IoSpdProfileFile {
  # The file -Scope User or Machine writes: the one the user's login shell
  # reads ($env:SHELL; $env:HOME first, so that a changed HOME counts).
  # zsh reads ~/.zprofile ($ZDOTDIR/.zprofile); bash reads the first of
  # ~/.bash_profile, ~/.bash_login and ~/.profile that exists, so the block
  # goes into that one; every other shell (sh, dash, ksh) reads ~/.profile.
  # Machine: /etc/profile.d/iospd.sh.
  [CmdletBinding()]
  [OutputType([string])]
  param([Parameter(Mandatory)] [ValidateSet('User', 'Machine')] [string] $Scope)
  if ($Scope -eq 'Machine') { return '/etc/profile.d/iospd.sh' }
  $h = $env:HOME
  if (-not $h) { $h = $HOME }
  $shell = if ($env:SHELL) { Split-Path -Leaf $env:SHELL } else { '' }
  if ($shell -eq 'zsh') {
    $z = if ($env:ZDOTDIR) { $env:ZDOTDIR } else { $h }
    return (Join-Path $z '.zprofile')
  }
  if ($shell -eq 'bash') {
    foreach ($n in '.bash_profile', '.bash_login') {
      $f = Join-Path $h $n
      if ([IO.File]::Exists($f)) { return $f }
    }
  }
  return (Join-Path $h '.profile')
}

function Remove-IoSpdProfileText {
  # Pure: the text without the iospd block (the rest byte for byte).
  [CmdletBinding()]
  [OutputType([string])]
  param([AllowEmptyString()] [AllowNull()] [string] $Text)
  if ($null -eq $Text) { return '' }
  $pattern = '(?m)^' + [regex]::Escape((Get-IoSpdProfileBlockStart)) + '\r?\n[\s\S]*?^' +
    [regex]::Escape((Get-IoSpdProfileBlockEnd)) + '[^\n]*(\n|$)'
  return [regex]::Replace($Text, $pattern, '')
}

function Remove-IoSpdProfileBlock {
  # Removes the iospd block from each file that has one; returns the files
  # changed. Files without a block are not touched.
  [CmdletBinding()]
  [OutputType([string])]
  param([Parameter(Mandatory)] [AllowEmptyCollection()] [string[]] $File)
  foreach ($f in $File) {
    if (-not [IO.File]::Exists($f)) { continue }
    $old = [IO.File]::ReadAllText($f)
    $new = Remove-IoSpdProfileText -Text $old
    if ($new -cne $old) {
      [IO.File]::WriteAllText($f, $new, [Text.UTF8Encoding]::new($false))
      $f
    }
  }
}

function Add-IoSpdProfilePathEntry {
  # Writes the iospd block for $Entry into the profile of $Scope. Returns
  # Changed and StoredIn ($null when the file could not be written: then a
  # warning says that only this session's PATH was changed and what to add).
  [CmdletBinding()]
  param(
    [Parameter(Mandatory)] [ValidateSet('User', 'Machine')] [string] $Scope,
    [Parameter(Mandatory)] [string] $Entry
  )
  $file = Get-IoSpdProfileFile -Scope $Scope
  $line = 'export PATH="$PATH:"' + (ConvertTo-IoSpdShellQuoted -Text $Entry)
  try {
    $old = ''
    if ([IO.File]::Exists($file)) { $old = [IO.File]::ReadAllText($file) }
    $new = Update-IoSpdProfileText -Text $old -Entry $Entry
    $changed = ($new -cne $old)
    if ($changed) {
      $dir = Split-Path -Parent $file
      if (-not [IO.Directory]::Exists($dir)) { $null = [IO.Directory]::CreateDirectory($dir) }
      # Written in place (through a link, keeping the file's mode).
      [IO.File]::WriteAllText($file, $new, [Text.UTF8Encoding]::new($false))
    }
  } catch {
    Write-Warning ("PATH was changed for this PowerShell session only: '$file' could not be written " +
      "($($_.Exception.Message)). To keep '$Entry' on PATH, add this line to your shell profile: $line")
    return [pscustomobject]@{ Changed = $false; StoredIn = $null }
  }
  $how = "'$Entry' is on PATH in this session and, through '$file', in login shells started from now on"
  if ($Scope -eq 'User') {
    # One block only: an earlier install's block in another file the login
    # shell may read (another shell then, or ~/.profile before a
    # ~/.bash_profile existed) goes.
    $others = @(Get-IoSpdProfileCandidate | Where-Object { $_ -ne $file })
    try { foreach ($f in @(Remove-IoSpdProfileBlock -File $others)) { Write-Verbose "removed the earlier iospd block from '$f'" } }
    catch { Write-Warning "An earlier iospd PATH block could not be removed: $($_.Exception.Message)" }
    $short = $file
    $h = $env:HOME
    if ($h -and $file.StartsWith($h.TrimEnd('/') + '/')) { $short = '~/' + $file.Substring($h.TrimEnd('/').Length + 1) }
    Write-Host ("$how. In a shell that is already open, run: . $short")
  } else {
    Write-Host "$how (for every user)."
  }
  return [pscustomobject]@{ Changed = $changed; StoredIn = $file }
}
