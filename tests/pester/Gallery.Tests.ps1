# SPDX-License-Identifier: MIT
# The module as the PowerShell Gallery takes it: the manifest passes
# Test-ModuleManifest with the Gallery's metadata, and the module is
# published to a local folder repository and installed from there with
# Install-PSResource, then Invoke-IoSpd runs the real iospd. That part runs
# in a child pwsh whose HOME (and XDG config and cache) are under TestDrive, so the
# repository registration and the installed module never touch the user's.

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  $script:manifest = Join-Path $repo 'scripts/IoSpd/IoSpd.psd1'
  $script:exe = if ($env:IOSPD_EXE) { $env:IOSPD_EXE } else { Join-Path $repo 'build/linux/iospd' }
}

Describe 'Gallery-ready manifest' {
  It 'passes Test-ModuleManifest with tags, licence and release notes' {
    $m = Test-ModuleManifest -Path $script:manifest -ErrorAction Stop
    $m.Name | Should -Be 'IoSpd'
    $m.Version | Should -Be ([version]'0.1.0')
    $m.Author | Should -Not -BeNullOrEmpty
    $m.Description | Should -Not -BeNullOrEmpty
    $m.Tags | Should -Contain 'diskspd'
    $m.Tags | Should -Contain 'PSEdition_Core'
    # The Gallery refuses tags with spaces.
    @($m.Tags | Where-Object { $_ -match '\s' }).Count | Should -Be 0
    [string]$m.LicenseUri | Should -Be 'https://opensource.org/licenses/MIT'
    $m.ReleaseNotes | Should -Match '^0\.1\.0: '
    $m.ExportedFunctions.Keys | Should -Contain 'Invoke-IoSpd'
  }
}

Describe 'Publish to a folder repository and install with Install-PSResource' -Skip:($IsWindows) {
  BeforeAll {
    $script:have = [bool](Get-Module -ListAvailable Microsoft.PowerShell.PSResourceGet)
  }
  It 'publishes, installs and runs Invoke-IoSpd from the installed module' {
    if (-not $script:have) { Set-ItResult -Skipped -Because 'Microsoft.PowerShell.PSResourceGet is not installed'; return }
    $root = Join-Path $TestDrive 'gallery'
    $feed = Join-Path $root 'feed'
    $null = New-Item -ItemType Directory -Force -Path $feed, "$root/home", "$root/data", "$root/config", "$root/cache"
    $target = Join-Path $root 'run.dat'
    $child = @'
$ErrorActionPreference = 'Stop'
Register-PSResourceRepository -Name IoSpdLocal -Uri $env:T_FEED -Trusted
Publish-PSResource -Path $env:T_MODULE -Repository IoSpdLocal
$pkg = @(Get-ChildItem -LiteralPath $env:T_FEED -Filter '*.nupkg')
"published: " + ($pkg.Name -join ',')
Install-PSResource -Name IoSpd -Repository IoSpdLocal -Scope CurrentUser -TrustRepository
$m = Get-InstalledPSResource -Name IoSpd
"installed: $($m.Name) $($m.Version) $($m.InstalledLocation)"
Import-Module IoSpd
"imported from: " + (Get-Module IoSpd).ModuleBase
$r = Invoke-IoSpd -ExecutablePath $env:T_EXE -Target $env:T_TARGET -CreateSize 1M -BlockSize 4K -Duration 1 -Warmup 0 -WarningAction SilentlyContinue
"ios: $($r.TotalIOs) bytes: $($r.TotalBytes)"
'@
    # pwsh as PATH has it (a dotnet global tool runs as 'dotnet', so not
    # this process's own path).
    $pwsh = (Get-Command -Name pwsh -CommandType Application | Select-Object -First 1).Source
    $psi = [Diagnostics.ProcessStartInfo]::new($pwsh)
    foreach ($a in '-NoLogo', '-NoProfile', '-NonInteractive', '-Command', $child) { $psi.ArgumentList.Add($a) }
    $psi.Environment['HOME'] = "$root/home"
    # Unset so that pwsh and PSResourceGet agree on ~/.local/share.
    $psi.Environment.Remove('XDG_DATA_HOME') | Out-Null
    $psi.Environment['XDG_CONFIG_HOME'] = "$root/config"
    $psi.Environment['XDG_CACHE_HOME'] = "$root/cache"
    $psi.Environment['PSModulePath'] = ''
    $psi.Environment['T_FEED'] = $feed
    $psi.Environment['T_MODULE'] = Split-Path -Parent $script:manifest
    $psi.Environment['T_EXE'] = $script:exe
    $psi.Environment['T_TARGET'] = $target
    $psi.RedirectStandardOutput = $true; $psi.RedirectStandardError = $true; $psi.UseShellExecute = $false
    $p = [Diagnostics.Process]::Start($psi)
    $errTask = $p.StandardError.ReadToEndAsync()
    $out = $p.StandardOutput.ReadToEnd(); $p.WaitForExit()
    $err = $errTask.GetAwaiter().GetResult()
    $p.ExitCode | Should -Be 0 -Because "child pwsh said: $out $err"
    $lines = $out -split '\r?\n'
    $lines | Should -Contain 'published: IoSpd.0.1.0.nupkg'
    $inst = @($lines | Where-Object { $_ -like 'installed: IoSpd 0.1.0 *' })
    $inst.Count | Should -Be 1
    $inst[0] | Should -BeLike "installed: IoSpd 0.1.0 $root/home/.local/share/powershell/Modules*"
    $base = @($lines | Where-Object { $_ -like 'imported from: *' })[0]
    $base | Should -Be "imported from: $root/home/.local/share/powershell/Modules/IoSpd/0.1.0"
    $run = @($lines | Where-Object { $_ -match '^ios: (\d+) bytes: (\d+)$' })
    $run.Count | Should -Be 1
    $null = $run[0] -match '^ios: (\d+) bytes: (\d+)$'
    [long]$Matches[1] | Should -BeGreaterThan 0
    [long]$Matches[2] | Should -Be ([long]$Matches[1] * 4096)
    (Get-Item -LiteralPath $target).Length | Should -Be 1048576
  }
}
