# SPDX-License-Identifier: MIT
# A private OpenSSH server on 127.0.0.1 for the fleet tests (dot-sourced by
# Fleet.Tests.ps1). Everything lives in one temp folder made at test time:
# its sshd_config, host key, client key, authorized_keys and known_hosts.
# The system's sshd and ~/.ssh are not touched. The server takes only that
# client key, only from 127.0.0.1, and its only use is the PowerShell
# subsystem; it logs in as the user running the tests (root on the CI
# machine: then PermitRootLogin prohibit-password, key only).
# sshd needs its privilege separation folder /run/sshd, which Debian's
# package makes only when its own service starts: it is created if missing.

function Start-IoSpdTestSshd {
  # Returns @{ Port; KeyFile; Options (for New-PSSession -Options); User;
  # Dir; Process } or @{ Skip = 'why' } when no server can be started here.
  $sshd = @('/usr/sbin/sshd', (Get-Command sshd -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1 -ExpandProperty Source)) |
    Where-Object { $_ -and (Test-Path $_) } | Select-Object -First 1
  if (-not $sshd) { return @{ Skip = 'no sshd: install openssh-server (scripts/deps.sh installs it)' } }
  $keygen = Get-Command ssh-keygen -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1
  if (-not $keygen) { return @{ Skip = 'no ssh-keygen (openssh-client)' } }
  if (-not (Get-Command ssh -CommandType Application -ErrorAction SilentlyContinue)) { return @{ Skip = 'no ssh client (openssh-client)' } }
  $pwsh = (Get-Process -Id $PID).Path
  if ($pwsh -notmatch 'pwsh$') {
    $c = Get-Command pwsh -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1
    $pwsh = if ($c) { $c.Source } elseif (Test-Path "$HOME/.dotnet/tools/pwsh") { "$HOME/.dotnet/tools/pwsh" } else { $null }
  }
  if (-not $pwsh) { return @{ Skip = 'pwsh for the sshd PowerShell subsystem not found' } }
  $dir = Join-Path ([IO.Path]::GetTempPath()) ("iospd-sshd-" + [guid]::NewGuid().ToString('N').Substring(0, 8))
  $null = New-Item -ItemType Directory -Path $dir
  & $keygen.Source -q -t ed25519 -N '' -f "$dir/host_key" -C iospd-test-host | Out-Null
  & $keygen.Source -q -t ed25519 -N '' -f "$dir/client_key" -C iospd-test-client | Out-Null
  if (-not (Test-Path "$dir/client_key")) { return @{ Skip = "ssh-keygen made no key in $dir"; Dir = $dir } }
  Copy-Item "$dir/client_key.pub" "$dir/authorized_keys"
  chmod 600 "$dir/authorized_keys" "$dir/client_key"
  if (-not (Test-Path /run/sshd)) { $null = New-Item -ItemType Directory -Path /run/sshd -ErrorAction SilentlyContinue }
  $user = [Environment]::UserName

  # A free port: bind port 0, read it, close (sshd binds it right after).
  $l = [Net.Sockets.TcpListener]::new([Net.IPAddress]::Loopback, 0)
  $l.Start(); $port = $l.LocalEndpoint.Port; $l.Stop()

  @(
    "Port $port", 'ListenAddress 127.0.0.1', "HostKey $dir/host_key", "PidFile $dir/sshd.pid",
    "AuthorizedKeysFile $dir/authorized_keys", 'PubkeyAuthentication yes', 'PasswordAuthentication no',
    'KbdInteractiveAuthentication no', 'PermitRootLogin prohibit-password', 'StrictModes no', 'UsePAM no',
    "AllowUsers $user@127.0.0.1", 'AllowTcpForwarding no', 'X11Forwarding no', 'PrintMotd no',
    "Subsystem powershell $pwsh -sshs -NoLogo"
  ) | Set-Content -Path "$dir/sshd_config"
  $check = & $sshd -t -f "$dir/sshd_config" 2>&1
  if ($LASTEXITCODE -ne 0) { return @{ Skip = "sshd -t refused the test config: $check"; Dir = $dir } }
  $p = Start-Process -FilePath $sshd -ArgumentList '-D', '-e', '-f', "$dir/sshd_config" -PassThru `
    -RedirectStandardError "$dir/sshd.log" -RedirectStandardOutput "$dir/sshd.out"
  $hostKey = (Get-Content "$dir/host_key.pub").Split(' ')[0..1] -join ' '
  "[127.0.0.1]:$port $hostKey" | Set-Content "$dir/known_hosts"
  $up = $false
  for ($i = 0; $i -lt 50 -and -not $up; $i++) {
    Start-Sleep -Milliseconds 100
    if ($p.HasExited) { break }
    $up = (Get-Content "$dir/sshd.log" -Raw -ErrorAction SilentlyContinue) -match 'Server listening'
  }
  if (-not $up) {
    $log = Get-Content "$dir/sshd.log" -Raw -ErrorAction SilentlyContinue
    if (-not $p.HasExited) { $p.Kill() }
    return @{ Skip = "sshd did not start on 127.0.0.1:${port}: $log"; Dir = $dir }
  }
  @{
    Port = $port; KeyFile = "$dir/client_key"; User = $user; Dir = $dir; Process = $p
    Options = @{ StrictHostKeyChecking = 'yes'; UserKnownHostsFile = "$dir/known_hosts"; GlobalKnownHostsFile = '/dev/null'
      BatchMode = 'yes' }
  }
}

function Stop-IoSpdTestSshd {
  param($Bed)
  if (-not $Bed) { return }
  if ($Bed.Process -and -not $Bed.Process.HasExited) { $Bed.Process.Kill(); $null = $Bed.Process.WaitForExit(5000) }
  if ($Bed.Dir -and (Test-Path $Bed.Dir)) { Remove-Item -Recurse -Force $Bed.Dir }
}

function New-IoSpdTestSession {
  param([Parameter(Mandatory)] $Bed, [Parameter(Mandatory)] [string] $Name)
  New-PSSession -HostName 127.0.0.1 -Port $Bed.Port -UserName $Bed.User -KeyFilePath $Bed.KeyFile `
    -Options $Bed.Options -Name $Name -ErrorAction Stop
}
