# SPDX-License-Identifier: MIT
# The nodes of a fleet run: given sessions, or sessions opened here from
# -ComputerName (WinRM) or -HostName (SSH). A node that cannot be reached is
# kept with its error so that the result names it.

function New-IoSpdFleetErrorRecord {
  param([Parameter(Mandatory)] [string] $Message, [Parameter(Mandatory)] [string] $Id,
    [Management.Automation.ErrorCategory] $Category = 'InvalidOperation', $Target)
  [Management.Automation.ErrorRecord]::new([InvalidOperationException]::new($Message), $Id, $Category, $Target)
}

function Get-IoSpdFleetNode {
  # Returns one object per node: Name, Session, Owned (opened here, closed
  # at the end), Error (why it cannot take part, or $null).
  param(
    [object[]] $Session,
    [string[]] $ComputerName,
    [string[]] $HostName,
    [pscredential] $Credential,
    [string] $UserName,
    [string] $KeyFilePath,
    [int] $Port,
    [hashtable] $SshOption,
    [string[]] $NodeName
  )
  $count = if ($Session) { @($Session).Count } elseif ($ComputerName) { $ComputerName.Count } else { @($HostName).Count }
  if ($NodeName -and $NodeName.Count -ne $count) {
    throw (New-IoSpdFleetErrorRecord -Id 'IoSpdFleetNodeNameCount' -Category InvalidArgument `
        -Message "-NodeName has $($NodeName.Count) names for $count nodes: give one name per session or host, in the same order.")
  }
  $nodes = [Collections.Generic.List[object]]::new()
  if ($Session) {
    foreach ($s in $Session) {
      $nodes.Add([pscustomobject]@{ Name = [string]$s.ComputerName; Session = $s; Owned = $false; Error = $null })
    }
  } else {
    $names = if ($ComputerName) { $ComputerName } else { $HostName }
    foreach ($n in $names) {
      $p = @{ ErrorAction = 'Stop' }
      if ($ComputerName) {
        $p.ComputerName = $n
        if ($Credential) { $p.Credential = $Credential }
        if ($Port) { $p.Port = $Port }
      } else {
        $p.HostName = $n
        if ($UserName) { $p.UserName = $UserName }
        if ($KeyFilePath) { $p.KeyFilePath = $KeyFilePath }
        if ($Port) { $p.Port = $Port }
        if ($SshOption) { $p.Options = $SshOption }
      }
      $node = [pscustomobject]@{ Name = $n; Session = $null; Owned = $true; Error = $null }
      try { $node.Session = New-PSSession @p }
      catch { $node.Error = "unreachable: $($_.Exception.Message)" }
      $nodes.Add($node)
    }
  }
  if ($NodeName) {
    for ($i = 0; $i -lt $nodes.Count; $i++) { $nodes[$i].Name = $NodeName[$i] }
  }
  $dup = @($nodes | Group-Object Name | Where-Object Count -gt 1 | ForEach-Object Name)
  if ($dup) {
    foreach ($n in $nodes) { if ($n.Owned -and $n.Session) { Remove-IoSpdFleetSession -Session $n.Session } }
    throw (New-IoSpdFleetErrorRecord -Id 'IoSpdFleetDuplicateNode' -Category InvalidArgument `
        -Message "Node name(s) $($dup -join ', ') appear more than once: several sessions to one machine need -NodeName with a distinct name each ({node} in the templates).")
  }
  return , $nodes.ToArray()
}

function Remove-IoSpdFleetSession {
  # Closes a session this module opened (a seam for the mocked WinRM tests).
  param([Parameter(Mandatory)] $Session)
  Remove-PSSession -Session $Session -ErrorAction SilentlyContinue
}
