# SPDX-License-Identifier: MIT
# Install-IoSpd from a zip served over HTTP on 127.0.0.1 (python3
# http.server) and from a local path: hash check before extraction, staged
# swap, PATH idempotence, failures that leave the previous install and PATH
# alone, scope/elevation rules, and the install marker: folders that are not
# an earlier install (or hold files it did not put there) are refused and
# left untouched. The stored PATH is real on Linux (~/.profile under a HOME
# in TestDrive, /etc/profile.d redirected to TestDrive) and a recording fake
# registry for Windows, which is simulated by mocking Test-IoSpdWindows.
#
# Each test below can fail; a comment "Breakage:" names a deliberate change
# of the module that makes it fail (tried when the test was written).

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  Import-Module (Join-Path $repo 'scripts/IoSpd/IoSpd.psd1') -Force
  Add-Type -AssemblyName System.IO.Compression.FileSystem

  # The build folder and file of this system: linux-amd64/iospd on Linux.
  $layout = InModuleScope IoSpd { Get-IoSpdPackageLayout -Architecture amd64 }
  $script:binRel = $layout.Folder
  $script:exeName = $layout.File
  $script:mainExe = "$($layout.Folder)/$($layout.File)"

  # Builds <dir>/<name>.zip (+ .sha256) whose executables contain "$Marker <folder>":
  # <arch>/iospd.exe for Windows folders (amd64, x86, as scripts/package.sh
  # makes them), <folder>/iospd for linux-* and macos-* folders.
  function script:New-TestPackage {
    param([string] $Dir, [string] $Name, [string] $Marker,
      [string[]] $Arch = @('amd64', 'x86', 'linux-amd64', 'linux-arm64', 'macos-amd64'), [string] $Wrap,
      [string[]] $Extra = @())
    $src = Join-Path $TestDrive ("src-" + [guid]::NewGuid().ToString('N'))
    $content = $src
    if ($Wrap) { $content = Join-Path $src $Wrap }
    foreach ($a in $Arch) {
      $null = New-Item -ItemType Directory -Path (Join-Path $content $a) -Force
      $file = 'iospd.exe'
      if ($a -match '^(linux|macos)-') { $file = 'iospd' }
      # Mode 0644 as on a zip made on Windows: the install must add +x.
      Set-Content -LiteralPath (Join-Path $content "$a/$file") -Value "$Marker $a" -NoNewline
    }
    $null = New-Item -ItemType Directory -Path (Join-Path $content 'IoSpd') -Force
    Set-Content -LiteralPath (Join-Path $content 'IoSpd/IoSpd.psd1') -Value '@{}'
    Set-Content -LiteralPath (Join-Path $content 'LICENSE') -Value 'MIT'
    foreach ($e in $Extra) {
      $null = New-Item -ItemType Directory -Path (Split-Path (Join-Path $content $e)) -Force
      Set-Content -LiteralPath (Join-Path $content $e) -Value $Marker
    }
    $null = New-Item -ItemType Directory -Path $Dir -Force
    $zip = Join-Path $Dir "$Name.zip"
    Remove-Item -LiteralPath $zip, "$zip.sha256" -ErrorAction SilentlyContinue
    [IO.Compression.ZipFile]::CreateFromDirectory($src, $zip)
    $hash = (Get-FileHash -LiteralPath $zip -Algorithm SHA256).Hash.ToLowerInvariant()
    Set-Content -LiteralPath "$zip.sha256" -Value "$hash  $Name.zip"
    return $zip
  }

  # The PATH a POSIX login shell gets from profile file $File, starting
  # from $Start: what the stored PATH really is on Linux.
  function script:Get-ProfilePath([string] $File, [string] $Start = '/usr/bin:/opt/other') {
    if (-not (Test-Path -LiteralPath $File)) { return $Start }
    $out = & /bin/sh -c 'PATH="$1"; . "$2" >/dev/null 2>&1; printf %s "$PATH"' sh $Start $File
    return [string]$out
  }

  $script:served = Join-Path $TestDrive 'www'
  $script:local = Join-Path $TestDrive 'local'
  $script:v1Http = New-TestPackage -Dir $script:served -Name 'iospd-1.0.0' -Marker 'v1'
  $script:v1 = New-TestPackage -Dir $script:local -Name 'iospd-1.0.0' -Marker 'v1'
  $script:v2 = New-TestPackage -Dir $script:local -Name 'iospd-2.0.0' -Marker 'v2'
  $script:v1extra = New-TestPackage -Dir (Join-Path $TestDrive 'local-extra') -Name 'iospd-1.0.0' -Marker 'v1' `
    -Extra @('xml/old.xsd', 'amd64/old-only.txt')
  $script:x86only = New-TestPackage -Dir $script:local -Name 'iospd-x86only' -Marker 'v3' -Arch x86, linux-x86
  # What scripts/package.sh makes: Windows builds only.
  $script:winOnly = New-TestPackage -Dir $script:local -Name 'iospd-winonly' -Marker 'w' -Arch amd64, x86
  $script:linuxOnly = New-TestPackage -Dir $script:local -Name 'iospd-linuxonly' -Marker 'l' -Arch linux-amd64, linux-arm64
  $script:noBuild = New-TestPackage -Dir $script:local -Name 'iospd-nobuild' -Marker 'n' -Arch @()
  $script:wrapped = New-TestPackage -Dir $script:local -Name 'iospd-wrapped' -Marker 'v4' -Wrap 'iospd-4.0.0'
  $script:nohash = New-TestPackage -Dir $script:local -Name 'iospd-nohash' -Marker 'v5'
  Remove-Item -LiteralPath "$script:nohash.sha256"
  $script:badhash = New-TestPackage -Dir $script:local -Name 'iospd-badhash' -Marker 'evil'
  Set-Content -LiteralPath "$script:badhash.sha256" -Value (('0' * 64) + '  iospd-badhash.zip')

  # Local HTTP server on a free loopback port, stopped in AfterAll.
  $listener = [Net.Sockets.TcpListener]::new([Net.IPAddress]::Loopback, 0)
  $listener.Start(); $script:port = $listener.LocalEndpoint.Port; $listener.Stop()
  $python = (Get-Command python3 -CommandType Application -ErrorAction Stop | Select-Object -First 1).Source
  $script:server = Start-Process -FilePath $python -PassThru `
    -ArgumentList @('-m', 'http.server', "$script:port", '--bind', '127.0.0.1', '--directory', $script:served) `
    -RedirectStandardOutput (Join-Path $TestDrive 'http.out') -RedirectStandardError (Join-Path $TestDrive 'http.err')
  $script:base = "http://127.0.0.1:$script:port"
  $up = $false
  for ($i = 0; $i -lt 100 -and -not $up; $i++) {
    try { $null = Invoke-WebRequest -Uri "$script:base/" -UseBasicParsing -TimeoutSec 2; $up = $true }
    catch { Start-Sleep -Milliseconds 100 }
  }
  if (-not $up) { throw "The test HTTP server on $script:base did not start: $(Get-Content (Join-Path $TestDrive 'http.err') -Raw)" }
}

AfterAll {
  if ($script:server -and -not $script:server.HasExited) { Stop-Process -Id $script:server.Id -Force }
}

Describe 'Install-IoSpd' {
  BeforeEach {
    $script:savedPath = $env:PATH
    $script:savedHome = $env:HOME
    $script:dest = Join-Path $TestDrive ('inst-' + [guid]::NewGuid().ToString('N')) | Join-Path -ChildPath 'iospd'
    # -Scope User writes $HOME/.profile: a HOME of its own for each test,
    # with a profile the user already had (no final newline).
    $env:HOME = Join-Path $TestDrive ('home-' + [guid]::NewGuid().ToString('N'))
    $null = New-Item -ItemType Directory -Path $env:HOME
    $script:userProfile = Join-Path $env:HOME '.profile'
    $script:profileBefore = "# the user's own profile`nexport EDITOR=vi"
    [IO.File]::WriteAllText($script:userProfile, $script:profileBefore)
    $script:machineProfile = Join-Path $TestDrive ('etc-' + [guid]::NewGuid().ToString('N') + '/profile.d/iospd.sh')
    $script:userBefore = '/usr/bin:/opt/other'
    Mock -ModuleName IoSpd Get-IoSpdArchitecture { 'amd64' }
    # Breakage: drop the elevation check from Install-IoSpd -> the -Scope
    # Machine refusal test fails (it installs), and the Should -Invoke of
    # this mock in the elevated test fails (0 calls).
    Mock -ModuleName IoSpd Test-IoSpdElevated { $false }
    # /etc/profile.d stays untouched: -Scope Machine writes into TestDrive.
    Mock -ModuleName IoSpd Get-IoSpdProfileFile -ParameterFilter { $Scope -eq 'Machine' } { $script:machineProfile }
  }
  AfterEach { $env:PATH = $script:savedPath; $env:HOME = $script:savedHome }

  # The PATH that login shells get from the stored scope.
  function script:Get-StoredPath([string] $Scope) {
    if ($Scope -eq 'Machine') { return Get-ProfilePath $script:machineProfile '/usr/bin' }
    return Get-ProfilePath $script:userProfile $script:userBefore
  }

  function script:Get-PathCount([string] $PathValue, [string] $Entry) {
    @($PathValue.Split([IO.Path]::PathSeparator) | Where-Object { $_ -eq $Entry }).Count
  }

  It 'installs from a URL served on 127.0.0.1 and adds the build of this system to PATH' {
    $r = Install-IoSpd -Source "$script:base/iospd-1.0.0.zip" -Destination $script:dest -Confirm:$false
    $bin = Join-Path $script:dest $script:binRel
    Get-Content -LiteralPath (Join-Path $bin $script:exeName) -Raw | Should -BeExactly "v1 $script:binRel"
    Test-Path (Join-Path $script:dest 'x86/iospd.exe') | Should -BeTrue
    Test-Path (Join-Path $script:dest 'IoSpd/IoSpd.psd1') | Should -BeTrue
    $r.BinPath | Should -Be $bin
    $r.Executable | Should -Be (Join-Path $bin $script:exeName)
    $r.Architecture | Should -Be 'amd64'
    $r.PathStoredIn | Should -BeNullOrEmpty
    $r.Sha256 | Should -Be (Get-FileHash $script:v1Http -Algorithm SHA256).Hash
    Get-PathCount $env:PATH $bin | Should -Be 1
    # Process scope only: the profile is left byte for byte.
    [IO.File]::ReadAllText($script:userProfile) | Should -BeExactly $script:profileBefore
  }

  It 'makes the installed build executable although the zip carries no Unix mode' -Skip:($IsWindows) {
    $r = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
    # Breakage: drop Set-IoSpdExecutableMode -> the mode stays rw-r--r--.
    (Get-Item -LiteralPath $r.Executable).UnixFileMode.HasFlag([IO.UnixFileMode]::UserExecute) | Should -BeTrue
    (Get-Item -LiteralPath $r.Executable).UnixFileMode.HasFlag([IO.UnixFileMode]::OtherExecute) | Should -BeTrue
  }

  It 'installs from a local path with -Scope User, replacing the previous version' {
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false
    $null = Install-IoSpd -Source $script:v2 -Destination $script:dest -Scope User -Confirm:$false
    Get-Content -LiteralPath (Join-Path $script:dest $script:mainExe) -Raw | Should -BeExactly "v2 $script:binRel"
    $bin = Join-Path $script:dest $script:binRel
    (Get-StoredPath User) | Should -BeExactly ($script:userBefore + [IO.Path]::PathSeparator + $bin)
    # No staging or old copies are left beside the install.
    @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
  }

  It 'is idempotent: twice gives one PATH entry in the session and the stored PATH, and the same profile bytes' {
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false
    $afterFirst = $env:PATH
    $profileFirst = [IO.File]::ReadAllText($script:userProfile)
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false
    $bin = Join-Path $script:dest $script:binRel
    $env:PATH | Should -BeExactly $afterFirst
    Get-PathCount $env:PATH $bin | Should -Be 1
    Get-PathCount (Get-StoredPath User) $bin | Should -Be 1
    [IO.File]::ReadAllText($script:userProfile) | Should -BeExactly $profileFirst
  }

  It 'treats an entry with a trailing separator as the same entry' {
    $bin = Join-Path $script:dest $script:binRel
    $env:PATH = $env:PATH + [IO.Path]::PathSeparator + $bin + [IO.Path]::DirectorySeparatorChar
    $before = $env:PATH
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
    $env:PATH | Should -BeExactly $before
  }

  It 'leaves the previous install and PATH untouched on a hash mismatch, before extracting anything' {
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false
    $pathBefore = $env:PATH; $userBefore = (Get-StoredPath User)
    Mock -ModuleName IoSpd Expand-IoSpdZip { throw 'must not be called' }
    { Install-IoSpd -Source $script:badhash -Destination $script:dest -Scope User -Confirm:$false } |
      Should -Throw "*SHA-256 mismatch*expected 0000000000000000000000000000000000000000000000000000000000000000*Nothing was installed*" -ErrorId 'IoSpdHashMismatch,Install-IoSpd'
    Should -Invoke -ModuleName IoSpd Expand-IoSpdZip -Times 0 -Exactly
    Get-Content -LiteralPath (Join-Path $script:dest $script:mainExe) -Raw | Should -BeExactly "v1 $script:binRel"
    $env:PATH | Should -BeExactly $pathBefore
    (Get-StoredPath User) | Should -BeExactly $userBefore
    @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
  }

  It 'checks -ExpectedHash instead of a .sha256 file' {
    { Install-IoSpd -Source $script:nohash -Destination $script:dest -ExpectedHash ('a' * 64) -Confirm:$false } |
      Should -Throw '*SHA-256 mismatch*'
    Test-Path $script:dest | Should -BeFalse
    $good = (Get-FileHash $script:nohash -Algorithm SHA256).Hash.ToLowerInvariant()
    $null = Install-IoSpd -Source $script:nohash -Destination $script:dest -ExpectedHash $good -Confirm:$false
    Get-Content -LiteralPath (Join-Path $script:dest $script:mainExe) -Raw | Should -BeExactly "v5 $script:binRel"
  }

  It 'takes the digest from -Sha256 and then does not read the .sha256 beside the zip: a sidecar that does not match is ignored' {
    # The sidecar of iospd-badhash.zip holds 64 zeros; the user's digest is right.
    # Breakage: fetch or check the sidecar as well -> the mock throws / mismatch.
    Mock -ModuleName IoSpd Copy-IoSpdSourceFile -ParameterFilter { $Source -like '*.sha256' } { throw 'the .sha256 must not be read' }
    $good = (Get-FileHash $script:badhash -Algorithm SHA256).Hash.ToLowerInvariant()
    $r = Install-IoSpd -Source $script:badhash -Destination $script:dest -Sha256 $good -Confirm:$false -WarningVariable w
    Should -Invoke -ModuleName IoSpd Copy-IoSpdSourceFile -ParameterFilter { $Source -like '*.sha256' } -Times 0 -Exactly
    Get-Content -LiteralPath (Join-Path $script:dest $script:mainExe) -Raw | Should -BeExactly "evil $script:binRel"
    $r.Sha256 | Should -BeExactly $good.ToUpperInvariant()
    $r.HashFrom | Should -BeExactly '-Sha256'
    # The user vouched for the zip: no warning about an unproven source.
    $w | Should -BeNullOrEmpty
  }

  It 'refuses a zip that does not match -Sha256 although the .sha256 beside it matches, and keeps the previous install' {
    # Breakage: fall back to the sidecar when -Sha256 does not match -> it installs v2.
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false 3>$null
    $pathBefore = $env:PATH
    Mock -ModuleName IoSpd Copy-IoSpdSourceFile -ParameterFilter { $Source -like '*.sha256' } { throw 'the .sha256 must not be read' }
    $have = (Get-FileHash $script:v2 -Algorithm SHA256).Hash
    $err = { Install-IoSpd -Source $script:v2 -Destination $script:dest -Sha256 ('b' * 64) -Confirm:$false } |
      Should -Throw -ErrorId 'IoSpdHashMismatch,Install-IoSpd' -PassThru
    $err.CategoryInfo.Category | Should -Be 'SecurityError'
    $err.Exception.Message | Should -BeExactly ("SHA-256 mismatch for '$script:v2': expected $('B' * 64) (from -Sha256), the file has $have. " +
      'Nothing was installed; check the digest you gave and where the package came from.')
    Should -Invoke -ModuleName IoSpd Copy-IoSpdSourceFile -ParameterFilter { $Source -like '*.sha256' } -Times 0 -Exactly
    Get-Content -LiteralPath (Join-Path $script:dest $script:mainExe) -Raw | Should -BeExactly "v1 $script:binRel"
    $env:PATH | Should -BeExactly $pathBefore
    @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
  }

  It 'refuses a -Sha256 that is not 64 hex digits before fetching anything' {
    Mock -ModuleName IoSpd Copy-IoSpdSourceFile { throw 'must not be called' }
    { Install-IoSpd -Source $script:v1 -Destination $script:dest -Sha256 'abc' -Confirm:$false } |
      Should -Throw "*Cannot validate argument on parameter 'Sha256'*" -ErrorId 'ParameterArgumentValidationError,Install-IoSpd'
    Should -Invoke -ModuleName IoSpd Copy-IoSpdSourceFile -Times 0 -Exactly
    Test-Path $script:dest | Should -BeFalse
  }

  It 'names the .sha256 file the digest came from when the zip does not match it' {
    $err = { Install-IoSpd -Source $script:badhash -Destination $script:dest -Confirm:$false } | Should -Throw -ErrorId 'IoSpdHashMismatch,Install-IoSpd' -PassThru
    $err.Exception.Message | Should -BeExactly ("SHA-256 mismatch for '$script:badhash': expected $('0' * 64) (from '$script:badhash.sha256'), " +
      "the file has $((Get-FileHash $script:badhash -Algorithm SHA256).Hash). Nothing was installed; download the package again.")
  }

  It 'warns, when only the .sha256 beside the zip was checked, that this proves the download whole but not who made it' {
    # On Linux no signature can be read (no Authenticode); nothing mocked here.
    # Breakage: install without a word -> no warning.
    $r = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false -WarningVariable w 3>$null
    @($w).Count | Should -Be 1
    "$w" | Should -BeLike ("$script:mainExe in '$script:v1' *so nothing proves who built it. The package's SHA-256 matched '$script:v1.sha256': " +
      'that proves the download is complete and unchanged since that file was written, not who wrote it; anyone who can ' +
      'replace the zip can replace the .sha256 beside it. iospd was installed anyway.*pass it with -Sha256.')
    $r.HashFrom | Should -BeExactly "$script:v1.sha256"
  }

  It 'refuses a package without a .sha256 file and without -ExpectedHash' {
    { Install-IoSpd -Source $script:nohash -Destination $script:dest -Confirm:$false } |
      Should -Throw "*iospd-nohash.zip.sha256' does not exist*" -ErrorId 'IoSpdSourceNotFound,Install-IoSpd'
    Test-Path $script:dest | Should -BeFalse
  }

  It 'leaves the previous install and PATH untouched when the architecture folder is missing' {
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
    $pathBefore = $env:PATH
    { Install-IoSpd -Source $script:x86only -Destination $script:dest -Scope User -Confirm:$false } |
      Should -Throw "*has no $script:mainExe*previous install was left as it was*" -ErrorId 'IoSpdPackageNoBuild,Install-IoSpd'
    Get-Content -LiteralPath (Join-Path $script:dest $script:mainExe) -Raw | Should -BeExactly "v1 $script:binRel"
    $env:PATH | Should -BeExactly $pathBefore
    (Get-StoredPath User) | Should -BeExactly $script:userBefore
    @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
  }

  It 'leaves the previous install and PATH untouched when the download fails' {
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
    $pathBefore = $env:PATH
    { Install-IoSpd -Source "$script:base/iospd-9.9.9.zip" -Destination $script:dest -Scope User -Confirm:$false } |
      Should -Throw "*Could not download '$script:base/iospd-9.9.9.zip'*" -ErrorId 'IoSpdDownloadFailed,Install-IoSpd'
    Get-Content -LiteralPath (Join-Path $script:dest $script:mainExe) -Raw | Should -BeExactly "v1 $script:binRel"
    $env:PATH | Should -BeExactly $pathBefore
    (Get-StoredPath User) | Should -BeExactly $script:userBefore
  }

  It 'refuses -Scope Machine without elevation, before fetching anything' {
    Mock -ModuleName IoSpd Copy-IoSpdSourceFile { throw 'must not be called' }
    $pathBefore = $env:PATH
    $err = { Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope Machine -Confirm:$false } |
      Should -Throw '*-Scope Machine*needs an elevated (administrator) session*-Scope User*' -ErrorId 'IoSpdNotElevated,Install-IoSpd' -PassThru
    $err.CategoryInfo.Category | Should -Be 'PermissionDenied'
    Should -Invoke -ModuleName IoSpd Test-IoSpdElevated -Times 1 -Exactly
    Should -Invoke -ModuleName IoSpd Copy-IoSpdSourceFile -Times 0 -Exactly
    Test-Path $script:dest | Should -BeFalse
    $env:PATH | Should -BeExactly $pathBefore
    Test-Path -LiteralPath $script:machineProfile | Should -BeFalse
  }

  It 'does not let -ErrorAction SilentlyContinue turn a refusal into an install' {
    # A bare throw inside an advanced function is swallowed when the caller
    # passes -ErrorAction SilentlyContinue, and the function runs on; the
    # refusal must still stop it, with its id.
    # Breakage: put "throw '...'" back for the elevation check -> this installs.
    $caught = $null
    try {
      Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope Machine -Confirm:$false -ErrorAction SilentlyContinue
    } catch { $caught = $_ }
    Test-Path $script:dest | Should -BeFalse
    Test-Path -LiteralPath $script:machineProfile | Should -BeFalse
    $caught.FullyQualifiedErrorId | Should -Be 'IoSpdNotElevated,Install-IoSpd'
  }

  It 'writes the machine PATH (/etc/profile.d/iospd.sh, redirected) with -Scope Machine when elevated' -Skip:($IsWindows) {
    Mock -ModuleName IoSpd Test-IoSpdElevated { $true }
    $r = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope Machine -Confirm:$false -InformationVariable info
    $bin = Join-Path $script:dest $script:binRel
    (Get-StoredPath Machine) | Should -BeExactly ('/usr/bin' + [IO.Path]::PathSeparator + $bin)
    (Get-StoredPath User) | Should -BeExactly $script:userBefore
    $r.PathStoredIn | Should -Be $script:machineProfile
    "$info" | Should -BeLike "*through '$script:machineProfile', in login shells started from now on (for every user)*"
    Should -Invoke -ModuleName IoSpd Test-IoSpdElevated -Times 1 -Exactly
    Should -Invoke -ModuleName IoSpd Get-IoSpdProfileFile -Times 1 -Exactly -ParameterFilter { $Scope -eq 'Machine' }
  }

  It 'adds the x86 folder on an x86 machine' {
    Mock -ModuleName IoSpd Get-IoSpdArchitecture { 'x86' }
    $x86 = InModuleScope IoSpd { (Get-IoSpdPackageLayout -Architecture x86).Folder }
    $r = Install-IoSpd -Source $script:x86only -Destination $script:dest -Confirm:$false
    $r.BinPath | Should -Be (Join-Path $script:dest $x86)
    Get-PathCount $env:PATH (Join-Path $script:dest $x86) | Should -Be 1
    Get-PathCount $env:PATH (Join-Path $script:dest $script:binRel) | Should -Be 0
  }

  It 'accepts a package whose content sits in one top-level folder' {
    $null = Install-IoSpd -Source $script:wrapped -Destination $script:dest -Confirm:$false
    Get-Content -LiteralPath (Join-Path $script:dest $script:mainExe) -Raw | Should -BeExactly "v4 $script:binRel"
  }

  It 'resolves a relative -Destination against the PowerShell location' {
    $base = Split-Path $script:dest
    $null = New-Item -ItemType Directory -Path $base -Force
    Push-Location $base
    try {
      $r = Install-IoSpd -Source $script:v1 -Destination 'rel/iospd' -Confirm:$false
    } finally { Pop-Location }
    $r.Destination | Should -Be (Join-Path $base 'rel/iospd')
    Test-Path (Join-Path $base "rel/iospd/$script:mainExe") | Should -BeTrue
  }

  It 'changes nothing with -WhatIf' {
    $pathBefore = $env:PATH
    Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -WhatIf
    Test-Path $script:dest | Should -BeFalse
    $env:PATH | Should -BeExactly $pathBefore
    [IO.File]::ReadAllText($script:userProfile) | Should -BeExactly $script:profileBefore
  }

  It 'asks for a source when none is given' {
    $old = $env:IOSPD_SOURCE
    try {
      Remove-Item Env:IOSPD_SOURCE -ErrorAction SilentlyContinue
      { Install-IoSpd -Destination $script:dest -Confirm:$false } | Should -Throw '*No package given: pass -Source*' -ErrorId 'IoSpdNoSource,Install-IoSpd'
    } finally { if ($old) { $env:IOSPD_SOURCE = $old } }
  }

  It 'defaults to ~/.iospd on Linux' -Skip:($IsWindows) {
    InModuleScope IoSpd { Get-IoSpdDefaultDestination } | Should -Be (Join-Path $HOME '.iospd')
  }

  Context 'never deletes what it did not install' {
    BeforeAll {
      # "relative/path=content" of every file and "relative/" of every
      # folder under $Dir: equal snapshots mean nothing was changed.
      function script:Get-Tree([string] $Dir) {
        $base = (Get-Item -LiteralPath $Dir -Force).FullName.TrimEnd('\', '/')
        @(Get-ChildItem -LiteralPath $Dir -Recurse -Force | ForEach-Object {
            $rel = $_.FullName.Substring($base.Length + 1).Replace('\', '/')
            if ($_.PSIsContainer) { "$rel/" } else { "$rel=" + [IO.File]::ReadAllText($_.FullName) }
          } | Sort-Object)
      }
      function script:New-File([string] $Path, [string] $Text) {
        $null = New-Item -ItemType Directory -Path (Split-Path $Path) -Force
        [IO.File]::WriteAllText($Path, $Text)
      }
    }

    It 'refuses a non-empty folder without a marker, before fetching anything, and leaves it as it was' {
      # The reported case: -Destination pointing at a shared tools folder.
      $tools = Join-Path (Split-Path $script:dest -Parent) 'tools'
      New-File (Join-Path $tools 'precious.txt') 'keep me'
      New-File (Join-Path $tools 'other-tool/run.cmd') 'echo hi'
      $before = Get-Tree $tools
      $pathBefore = $env:PATH
      Mock -ModuleName IoSpd Copy-IoSpdSourceFile { throw 'must not be called' }
      { Install-IoSpd -Source $script:v1 -Destination $tools -Scope User -Confirm:$false } |
        Should -Throw ("The folder '$tools' is not empty and is not an iospd install (it has no .iospd-install file)*" +
          '(other-tool, precious.txt). Nothing was installed. Choose a new or empty folder, e.g. -Destination*' +
          "or empty or remove '$tools' yourself*")
      Should -Invoke -ModuleName IoSpd Copy-IoSpdSourceFile -Times 0 -Exactly
      Get-Tree $tools | Should -Be $before
      @(Get-ChildItem -LiteralPath (Split-Path $tools) -Force).Name | Should -Be @(Split-Path $tools -Leaf)
      $env:PATH | Should -BeExactly $pathBefore
      (Get-StoredPath User) | Should -BeExactly $script:userBefore
    }

    It 'refuses a foreign folder that appears while the package is fetched, and deletes nothing' {
      $pathBefore = $env:PATH
      $dest = $script:dest
      Mock -ModuleName IoSpd Copy-IoSpdSourceFile -ParameterFilter { $Source -notlike '*.sha256' } {
        # Someone fills the folder after the first check.
        $null = New-Item -ItemType Directory -Path $dest -Force
        [IO.File]::WriteAllText((Join-Path $dest 'precious.txt'), 'keep me')
        Copy-Item -LiteralPath $Source -Destination $OutFile
      }
      { Install-IoSpd -Source $script:v1 -Destination $dest -Confirm:$false } |
        Should -Throw "The folder '$dest' is not empty and is not an iospd install*(precious.txt)*"
      Get-Tree $dest | Should -Be @('precious.txt=keep me')
      @(Get-ChildItem -LiteralPath (Split-Path $dest) -Force).Name | Should -Be @('iospd')
      $env:PATH | Should -BeExactly $pathBefore
    }

    It 'refuses an iospd folder installed before installs carried the marker' {
      New-File (Join-Path $script:dest 'amd64/iospd.exe') 'old amd64'
      New-File (Join-Path $script:dest 'LICENSE') 'MIT'
      $before = Get-Tree $script:dest
      { Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false } |
        Should -Throw '*is not an iospd install*(amd64, LICENSE)*installed before installs carried this marker has to be removed by hand once*' -ErrorId 'IoSpdDestinationNotEmpty,Install-IoSpd'
      Get-Tree $script:dest | Should -Be $before
    }

    It 'installs into an existing empty folder and marks it' {
      $null = New-Item -ItemType Directory -Path $script:dest -Force
      $r = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
      Get-Content -LiteralPath (Join-Path $script:dest $script:mainExe) -Raw | Should -BeExactly "v1 $script:binRel"
      $r.Version | Should -Be '1.0.0'
      Test-Path -LiteralPath (Join-Path $script:dest '.iospd-install') -PathType Leaf | Should -BeTrue
      @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
    }

    It 'writes a marker with the version, the package SHA-256 and every entry it installed' {
      $r = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
      $lines = @(Get-Content -LiteralPath (Join-Path $script:dest '.iospd-install'))
      $lines | Should -Contain 'format: iospd-install 1'
      $lines | Should -Contain 'version: 1.0.0'
      $lines | Should -Contain ('sha256: ' + (Get-FileHash $script:v1 -Algorithm SHA256).Hash)
      $r.Sha256 | Should -Be (Get-FileHash $script:v1 -Algorithm SHA256).Hash
      @($lines | Where-Object { $_ -like 'installed: *' })[0] | Should -Match '^installed: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$'
      @($lines | Where-Object { $_ -like 'entry: *' } | ForEach-Object { $_.Substring(7) }) | Should -Be @(
        'amd64/', 'IoSpd/', 'LICENSE', 'linux-amd64/', 'linux-arm64/', 'macos-amd64/', 'x86/', 'amd64/iospd.exe',
        'IoSpd/IoSpd.psd1', 'linux-amd64/iospd', 'linux-arm64/iospd', 'macos-amd64/iospd', 'x86/iospd.exe')
    }

    It 'replaces a marked install and removes the files of the old version the new one does not have' {
      $null = Install-IoSpd -Source $script:v1extra -Destination $script:dest -Confirm:$false
      Test-Path -LiteralPath (Join-Path $script:dest 'amd64/old-only.txt') | Should -BeTrue
      $r = Install-IoSpd -Source $script:v2 -Destination $script:dest -Confirm:$false -WarningVariable warn 3>$null
      # Only the warning that the .sha256 beside the zip proves no origin.
      @($warn | Where-Object { "$_" -notlike '*nothing proves who built it*' }) | Should -BeNullOrEmpty
      @($warn).Count | Should -Be 1
      $r.Version | Should -Be '2.0.0'
      Get-Tree $script:dest | Where-Object { $_ -notlike '.iospd-install=*' } | Should -Be @(
        'amd64/', 'amd64/iospd.exe=v2 amd64', 'IoSpd/', "IoSpd/IoSpd.psd1=@{}$([Environment]::NewLine)",
        "LICENSE=MIT$([Environment]::NewLine)", 'linux-amd64/', 'linux-amd64/iospd=v2 linux-amd64',
        'linux-arm64/', 'linux-arm64/iospd=v2 linux-arm64', 'macos-amd64/', 'macos-amd64/iospd=v2 macos-amd64',
        'x86/', 'x86/iospd.exe=v2 x86')
      Get-Content -LiteralPath (Join-Path $script:dest '.iospd-install') | Should -Contain 'version: 2.0.0'
      @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
    }

    It 'refuses a marked install holding a file of the user''s (<Extra>) and keeps both' -ForEach @(
      @{ Extra = 'notes.txt' }, @{ Extra = 'amd64/results.xml' }, @{ Extra = 'mine/data.bin' }
    ) {
      $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false
      New-File (Join-Path $script:dest $Extra) 'user data'
      $before = Get-Tree $script:dest
      $pathBefore = $env:PATH; $userBefore = (Get-StoredPath User)
      $shown = $Extra
      if ($Extra -like 'mine/*') { $shown = 'mine/' }   # an unknown folder is named, not searched
      { Install-IoSpd -Source $script:v2 -Destination $script:dest -Scope User -Confirm:$false } |
        Should -Throw ("The folder '$script:dest' holds an iospd install (version 1.0.0) but also things that " +
          "install did not put there: $shown. *will not delete them. Nothing was installed. Move them out of*")
      Get-Tree $script:dest | Should -Be $before
      Get-Content -LiteralPath (Join-Path $script:dest $Extra) -Raw | Should -BeExactly 'user data'
      $env:PATH | Should -BeExactly $pathBefore
      (Get-StoredPath User) | Should -BeExactly $userBefore
      @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
    }

    It 'reinstalls once the user''s file has been moved out' {
      $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
      New-File (Join-Path $script:dest 'notes.txt') 'user data'
      { Install-IoSpd -Source $script:v2 -Destination $script:dest -Confirm:$false } | Should -Throw '*notes.txt*'
      Remove-Item -LiteralPath (Join-Path $script:dest 'notes.txt')
      $null = Install-IoSpd -Source $script:v2 -Destination $script:dest -Confirm:$false
      Get-Content -LiteralPath (Join-Path $script:dest $script:mainExe) -Raw | Should -BeExactly "v2 $script:binRel"
    }

    It 'keeps a user file that appears after the last check, and says where' {
      $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
      New-File (Join-Path $script:dest 'amd64/results.xml') 'user data'
      # Simulate the file arriving between the last check and the delete.
      Mock -ModuleName IoSpd Assert-IoSpdReplaceableDestination { $true }
      $r = Install-IoSpd -Source $script:v2 -Destination $script:dest -Confirm:$false -WarningVariable warn 3>$null
      Get-Content -LiteralPath $r.Executable -Raw | Should -BeExactly "v2 $script:binRel"
      $old = @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force -Filter '.iospd.old-*')
      $old.Count | Should -Be 1
      # Only the user's file (and the folder holding it) are left of v1.
      Get-Tree $old[0].FullName | Should -Be @('amd64/', 'amd64/results.xml=user data')
      "$warn" | Should -BeLike "*previous install was moved to '$($old[0].FullName)'*what is left (amd64) was kept*"
    }

    It 'refuses a -Destination that is a file' {
      New-File $script:dest 'not a folder'
      { Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false } |
        Should -Throw "'$script:dest' is a file, not a folder*Nothing was installed*" -ErrorId 'IoSpdDestinationIsFile,Install-IoSpd'
      [IO.File]::ReadAllText($script:dest) | Should -BeExactly 'not a folder'
    }

    It 'refuses a -Destination that is a link, and a marked install holding a link' -Skip:($IsWindows) {
      $outside = Join-Path (Split-Path $script:dest) 'outside'
      New-File (Join-Path $outside 'precious.txt') 'keep me'
      $null = New-Item -ItemType SymbolicLink -Path $script:dest -Target $outside
      { Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false } |
        Should -Throw "'$script:dest' is a link*Nothing was installed*" -ErrorId 'IoSpdDestinationIsLink,Install-IoSpd'
      Remove-Item -LiteralPath $script:dest   # the link only
      $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
      $null = New-Item -ItemType SymbolicLink -Path (Join-Path $script:dest 'amd64/data') -Target $outside
      { Install-IoSpd -Source $script:v2 -Destination $script:dest -Confirm:$false } |
        Should -Throw '*did not put there: amd64/data.*' -ErrorId 'IoSpdDestinationHasForeignEntries,Install-IoSpd'
      Get-Tree $outside | Should -Be @('precious.txt=keep me')
    }
  }
}

Describe 'PATH string: old PATH + new folder -> new PATH (pure)' {
  # Breakage: go back to split/filter/join (dropping empty entries) -> the
  # byte-for-byte tests fail; compare with case on Windows -> the duplicate
  # tests fail.
  It 'keeps every entry byte for byte, %VARIABLES% unexpanded, and appends ours once: <Name>' -ForEach @(
    @{ Name = 'Windows machine PATH'; Old = '%SystemRoot%\system32;%SystemRoot%;%SystemRoot%\System32\Wbem;C:\Program Files\Git\cmd\'
      Want = '%SystemRoot%\system32;%SystemRoot%;%SystemRoot%\System32\Wbem;C:\Program Files\Git\cmd\;C:\iospd\amd64' }
    @{ Name = 'empty entries and a trailing separator'; Old = 'C:\a;;C:\b;'; Want = 'C:\a;;C:\b;C:\iospd\amd64' }
    @{ Name = 'blanks and quotes kept'; Old = ' C:\a ;"C:\Program Files\x"'; Want = ' C:\a ;"C:\Program Files\x";C:\iospd\amd64' }
    @{ Name = 'empty'; Old = ''; Want = 'C:\iospd\amd64' }
  ) {
    InModuleScope IoSpd -Parameters @{ Old = $Old } {
      param($Old) Add-IoSpdPathEntry -PathValue $Old -Entry 'C:\iospd\amd64' -Separator ';' -IgnoreCase $true
    } | Should -BeExactly $Want
  }
  It 'treats <Existing> as our entry on Windows (case, trailing \, quotes, %VARIABLE%)' -ForEach @(
    @{ Existing = 'c:\IOSPD\AMD64' }, @{ Existing = 'C:\iospd\amd64\' }, @{ Existing = '"C:\iospd\amd64"' }
    @{ Existing = '%IOSPD_TEST_ROOT%\amd64' }
  ) {
    $env:IOSPD_TEST_ROOT = 'C:\iospd'
    try {
      $old = "%SystemRoot%;$Existing;C:\z"
      InModuleScope IoSpd -Parameters @{ Old = $old } {
        param($Old) Add-IoSpdPathEntry -PathValue $Old -Entry 'C:\iospd\amd64' -Separator ';' -IgnoreCase $true
      } | Should -BeExactly $old
    } finally { Remove-Item Env:IOSPD_TEST_ROOT }
  }
  It 'compares with case where the file system does (Linux)' {
    InModuleScope IoSpd {
      Add-IoSpdPathEntry -PathValue '/usr/bin:/opt/IoSpd/linux-amd64' -Entry '/opt/iospd/linux-amd64' -Separator ':' -IgnoreCase $false
    } | Should -BeExactly '/usr/bin:/opt/IoSpd/linux-amd64:/opt/iospd/linux-amd64'
    InModuleScope IoSpd {
      Add-IoSpdPathEntry -PathValue '/usr/bin:/opt/iospd/linux-amd64/' -Entry '/opt/iospd/linux-amd64' -Separator ':' -IgnoreCase $false
    } | Should -BeExactly '/usr/bin:/opt/iospd/linux-amd64/'
  }
}

Describe 'Stored PATH in the Windows registry, through a recording fake accessor' {
  BeforeAll {
    # A stand-in for Get-IoSpdRegistryAccessor: values per scope as
    # @{ Kind; Raw } (absent = no value), every Write recorded with its kind
    # and raw string, every Broadcast counted.
    function script:New-FakeRegistry([hashtable] $Values, [bool] $BroadcastOk = $true) {
      $state = @{ Values = $Values; Writes = [Collections.ArrayList]::new(); Broadcasts = 0; Ok = $BroadcastOk }
      [pscustomobject]@{
        State     = $state
        Read      = {
          param($Scope)
          $v = $state.Values[$Scope]
          if ($null -eq $v) { return [pscustomobject]@{ Exists = $false; Kind = $null; Raw = '' } }
          [pscustomobject]@{ Exists = $true; Kind = $v.Kind; Raw = $v.Raw }
        }.GetNewClosure()
        Write     = {
          param($Scope, $Value, $Kind)
          $null = [Microsoft.Win32.RegistryValueKind]$Kind   # a real kind name, or this throws
          $null = $state.Writes.Add([pscustomobject]@{ Scope = $Scope; Raw = $Value; Kind = $Kind })
          $state.Values[$Scope] = @{ Kind = $Kind; Raw = $Value }
        }.GetNewClosure()
        Broadcast = { $state.Broadcasts++; $state.Ok }.GetNewClosure()
      }
    }
    $script:machineRaw = '%SystemRoot%\system32;%SystemRoot%;%SystemRoot%\System32\Wbem;;C:\Tools\'
  }

  It 'keeps REG_EXPAND_SZ and the unexpanded entries, adds ours once and broadcasts once' {
    # Breakage: write through [Environment]::SetEnvironmentVariable or pass
    # kind 'String' -> Kind is String; expand the value on read -> Raw differs.
    $fake = New-FakeRegistry @{ Machine = @{ Kind = 'ExpandString'; Raw = $script:machineRaw } }
    $r = InModuleScope IoSpd -Parameters @{ F = $fake } { param($F) Add-IoSpdRegistryPathEntry -Scope Machine -Entry 'C:\Program Files\iospd\amd64' -Accessor $F }
    $fake.State.Writes.Count | Should -Be 1
    $fake.State.Writes[0].Scope | Should -Be 'Machine'
    $fake.State.Writes[0].Kind | Should -BeExactly 'ExpandString'
    $fake.State.Writes[0].Raw | Should -BeExactly ($script:machineRaw + ';C:\Program Files\iospd\amd64')
    $fake.State.Broadcasts | Should -Be 1
    $r.Changed | Should -BeTrue
    $r.StoredIn | Should -Be 'HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Environment\Path'
  }
  It 'keeps a REG_SZ value REG_SZ' {
    $fake = New-FakeRegistry @{ User = @{ Kind = 'String'; Raw = 'C:\Users\me\bin' } }
    $r = InModuleScope IoSpd -Parameters @{ F = $fake } { param($F) Add-IoSpdRegistryPathEntry -Scope User -Entry 'C:\iospd\amd64' -Accessor $F }
    $fake.State.Writes[0].Kind | Should -BeExactly 'String'
    $fake.State.Writes[0].Raw | Should -BeExactly 'C:\Users\me\bin;C:\iospd\amd64'
    $r.StoredIn | Should -Be 'HKCU\Environment\Path'
  }
  It 'creates a missing user PATH as REG_EXPAND_SZ holding our entry only' {
    $fake = New-FakeRegistry @{}
    $null = InModuleScope IoSpd -Parameters @{ F = $fake } { param($F) Add-IoSpdRegistryPathEntry -Scope User -Entry 'C:\iospd\amd64' -Accessor $F }
    @($fake.State.Writes).Count | Should -Be 1
    $fake.State.Writes[0].Kind | Should -BeExactly 'ExpandString'
    $fake.State.Writes[0].Raw | Should -BeExactly 'C:\iospd\amd64'
  }
  It 'writes nothing and broadcasts nothing when our entry is there (other case, trailing \)' {
    $fake = New-FakeRegistry @{ User = @{ Kind = 'ExpandString'; Raw = '%USERPROFILE%\bin;c:\IOSPD\amd64\' } }
    $r = InModuleScope IoSpd -Parameters @{ F = $fake } { param($F) Add-IoSpdRegistryPathEntry -Scope User -Entry 'C:\iospd\amd64' -Accessor $F }
    $fake.State.Writes.Count | Should -Be 0
    $fake.State.Broadcasts | Should -Be 0
    $r.Changed | Should -BeFalse
  }
  It 'refuses a PATH value that is not a string, with an ErrorRecord, and writes nothing' {
    $fake = New-FakeRegistry @{ User = @{ Kind = 'MultiString'; Raw = '' } }
    { InModuleScope IoSpd -Parameters @{ F = $fake } { param($F) Add-IoSpdRegistryPathEntry -Scope User -Entry 'C:\iospd\amd64' -Accessor $F } } |
      Should -Throw '*HKCU\Environment\Path is of kind MultiString, not a string*did not change it*' -ErrorId 'IoSpdPathRegistryKind'
    $fake.State.Writes.Count | Should -Be 0
  }
  It 'warns when the WM_SETTINGCHANGE broadcast does not get through' {
    $fake = New-FakeRegistry @{ User = @{ Kind = 'ExpandString'; Raw = 'C:\a' } } -BroadcastOk $false
    $null = InModuleScope IoSpd -Parameters @{ F = $fake } { param($F) Add-IoSpdRegistryPathEntry -Scope User -Entry 'C:\iospd\amd64' -Accessor $F -WarningVariable w 3>$null; $w } -OutVariable out
    "$out" | Should -BeLike '*not every window answered the WM_SETTINGCHANGE broadcast*'
  }
  It 'compiles the SendMessageTimeout declaration the real accessor calls' {
    # Only the declaration: calling it needs Windows (untested on real Windows).
    InModuleScope IoSpd { Initialize-IoSpdSettingChangeType }
    $m = [IoSpdNative.SettingChange].GetMethod('SendMessageTimeout')
    @($m.GetParameters()).Count | Should -Be 7
    $m.GetParameters()[3].ParameterType | Should -Be ([string])
  }
  It 'gives the real accessor Read, Write and Broadcast, and reads the value unexpanded' {
    $a = InModuleScope IoSpd { Get-IoSpdRegistryAccessor }
    foreach ($n in 'Read', 'Write', 'Broadcast') { $a.$n | Should -BeOfType [scriptblock] }
    "$($a.Read)" | Should -Match 'DoNotExpandEnvironmentNames'
    "$($a.Write)" | Should -Match 'RegistryValueKind\]\$Kind'
  }
}

Describe 'Install-IoSpd on Windows (simulated: Test-IoSpdWindows mocked, fake registry)' {
  BeforeAll {
    $script:winPkgDir = Join-Path $TestDrive 'win-pkgs'
    $script:winV1 = New-TestPackage -Dir $script:winPkgDir -Name 'iospd-1.0.0' -Marker 'w1' -Arch amd64, x86
  }
  BeforeEach {
    $script:dest = Join-Path $TestDrive ('win-' + [guid]::NewGuid().ToString('N')) | Join-Path -ChildPath 'iospd'
    $script:fake = New-FakeRegistry @{ User = @{ Kind = 'ExpandString'; Raw = '%USERPROFILE%\AppData\Local\Microsoft\WindowsApps;' }
      Machine = @{ Kind = 'ExpandString'; Raw = $script:machineRaw } }
    $script:procPath = 'C:\Windows\system32;C:\Windows'
    Mock -ModuleName IoSpd Test-IoSpdWindows { $true }
    Mock -ModuleName IoSpd Get-IoSpdArchitecture { 'amd64' }
    Mock -ModuleName IoSpd Test-IoSpdElevated { $false }
    Mock -ModuleName IoSpd Get-IoSpdRegistryAccessor { $script:fake }
    # The session's Path (Windows spells it Path) in memory, not this process's.
    Mock -ModuleName IoSpd Get-IoSpdEnvironmentVariable -ParameterFilter { $Name -ceq 'Path' -and $Scope -eq 'Process' } { $script:procPath }
    Mock -ModuleName IoSpd Set-IoSpdEnvironmentVariable -ParameterFilter { $Name -ceq 'Path' -and $Scope -eq 'Process' } { $script:procPath = $Value }
    # Breakage: use any other variable or scope -> these throw and the test fails.
    Mock -ModuleName IoSpd Get-IoSpdEnvironmentVariable { throw "unexpected Get-IoSpdEnvironmentVariable $Name $Scope" }
    Mock -ModuleName IoSpd Set-IoSpdEnvironmentVariable { throw "unexpected Set-IoSpdEnvironmentVariable $Name $Scope" }
    Mock -ModuleName IoSpd Add-IoSpdProfilePathEntry { throw 'no shell profile on Windows' }
  }

  It '-Scope User stores amd64 in HKCU\Environment\Path as REG_EXPAND_SZ, unexpanded, once' {
    $r = Install-IoSpd -Source $script:winV1 -Destination $script:dest -Scope User -Confirm:$false
    $bin = Join-Path $script:dest 'amd64'
    $r.Executable | Should -Be (Join-Path $bin 'iospd.exe')
    $r.PathStoredIn | Should -Be 'HKCU\Environment\Path'
    $script:fake.State.Writes.Count | Should -Be 1
    $script:fake.State.Writes[0].Kind | Should -BeExactly 'ExpandString'
    $script:fake.State.Writes[0].Raw | Should -BeExactly ('%USERPROFILE%\AppData\Local\Microsoft\WindowsApps;' + $bin)
    $script:fake.State.Values.Machine.Raw | Should -BeExactly $script:machineRaw
    $script:fake.State.Broadcasts | Should -Be 1
    $script:procPath | Should -BeExactly ("C:\Windows\system32;C:\Windows" + [IO.Path]::PathSeparator + $bin)
    Should -Invoke -ModuleName IoSpd Get-IoSpdRegistryAccessor -Times 1 -Exactly
    # Twice: no second write, no second broadcast.
    $null = Install-IoSpd -Source $script:winV1 -Destination $script:dest -Scope User -Confirm:$false
    $script:fake.State.Writes.Count | Should -Be 1
    $script:fake.State.Broadcasts | Should -Be 1
  }
  It '-Scope Machine (elevated) stores it in HKLM and leaves the user PATH alone' {
    Mock -ModuleName IoSpd Test-IoSpdElevated { $true }
    $r = Install-IoSpd -Source $script:winV1 -Destination $script:dest -Scope Machine -Confirm:$false
    $r.PathStoredIn | Should -Be 'HKLM\SYSTEM\CurrentControlSet\Control\Session Manager\Environment\Path'
    @($script:fake.State.Writes | ForEach-Object Scope) | Should -Be @('Machine')
    $script:fake.State.Writes[0].Raw | Should -BeExactly ($script:machineRaw + ';' + (Join-Path $script:dest 'amd64'))
    $script:fake.State.Writes[0].Kind | Should -BeExactly 'ExpandString'
    Should -Invoke -ModuleName IoSpd Test-IoSpdElevated -Times 1 -Exactly
  }
  It '-Scope Process touches no registry' {
    $null = Install-IoSpd -Source $script:winV1 -Destination $script:dest -Confirm:$false
    Should -Invoke -ModuleName IoSpd Get-IoSpdRegistryAccessor -Times 0 -Exactly
    $script:fake.State.Writes.Count | Should -Be 0
  }
  It 'says that iospd was installed but the PATH not stored when the registry write fails' {
    $script:fake.Write = { param($Scope, $Value, $Kind) throw 'Requested registry access is not allowed.' }
    $err = { Install-IoSpd -Source $script:winV1 -Destination $script:dest -Scope User -Confirm:$false } |
      Should -Throw -ErrorId 'IoSpdPathNotStored,Install-IoSpd' -PassThru
    $err.CategoryInfo.Category | Should -Be 'WriteError'
    $err.Exception.Message | Should -BeLike ('iospd was installed, but the User PATH could not be written: *Requested registry access is not allowed.*' +
      "Add '$(Join-Path $script:dest 'amd64')' to PATH yourself*")
    Test-Path -LiteralPath (Join-Path $script:dest 'amd64/iospd.exe') | Should -BeTrue
    $script:procPath | Should -BeExactly 'C:\Windows\system32;C:\Windows'
    $script:fake.State.Broadcasts | Should -Be 0
  }
  It 'refuses a package that holds only Linux builds, naming them and what to download' {
    $err = { Install-IoSpd -Source $script:linuxOnly -Destination $script:dest -Scope User -Confirm:$false } |
      Should -Throw -ErrorId 'IoSpdPackageWrongSystem,Install-IoSpd' -PassThru
    $err.CategoryInfo.Category | Should -Be 'InvalidArgument'
    $err.Exception.Message | Should -BeLike ("The package '$script:linuxOnly' holds only Linux executables " +
      '(linux-amd64/iospd, linux-arm64/iospd), which cannot run on Windows*Download the Windows release zip iospd-<version>.zip*Nothing was installed*')
    Test-Path $script:dest | Should -BeFalse
    $script:fake.State.Writes.Count | Should -Be 0
  }

  Context 'the Authenticode signature of iospd.exe (Get-IoSpdFileSignature mocked)' {
    BeforeEach {
      $script:winV1Hash = (Get-FileHash $script:winV1 -Algorithm SHA256).Hash
      $script:signedBy = 'CN=iospd release, O=The iospd authors, C=DE'
    }
    # What a sidecar-only install of an unsigned amd64/iospd.exe must say.
    function script:Get-UnsignedWarning([string] $Zip, [string] $What) {
      "amd64/iospd.exe in '$Zip' $What, so nothing proves who built it. The package's SHA-256 matched " +
      "'$Zip.sha256': that proves the download is complete and unchanged since that file was written, " +
      'not who wrote it; anyone who can replace the zip can replace the .sha256 beside it. iospd was ' +
      'installed anyway. To prove more, get the digest from a channel you trust (not the download folder) ' +
      'and pass it with -Sha256.'
    }

    It 'reads the signature of the unpacked amd64\iospd.exe before anything is moved into place, and reports a valid one' {
      # Breakage: no signature check -> the mock is not called (and the
      # result has no Signature/Signer).
      $dest = $script:dest
      $script:seen = [Collections.ArrayList]::new()
      Mock -ModuleName IoSpd Get-IoSpdFileSignature {
        $null = $script:seen.Add([pscustomobject]@{ Path = $Path; Content = [IO.File]::ReadAllText($Path); DestThere = (Test-Path -LiteralPath $dest) })
        [pscustomobject]@{ Status = 'Valid'; Signer = $script:signedBy; Message = 'Signature verified.' }
      }
      $r = Install-IoSpd -Source $script:winV1 -Destination $dest -Confirm:$false -WarningVariable w
      $script:seen.Count | Should -Be 1
      $script:seen[0].Path | Should -BeLike ((Split-Path $dest) + [IO.Path]::DirectorySeparatorChar + '.iospd.staging-*amd64' + [IO.Path]::DirectorySeparatorChar + 'iospd.exe')
      $script:seen[0].Content | Should -BeExactly 'w1 amd64'
      $script:seen[0].DestThere | Should -BeFalse
      $r.Signature | Should -BeExactly 'Valid'
      $r.Signer | Should -BeExactly $script:signedBy
      $r.HashFrom | Should -BeExactly "$script:winV1.sha256"
      $w | Should -BeNullOrEmpty
      Get-Content -LiteralPath (Join-Path $dest 'amd64/iospd.exe') -Raw | Should -BeExactly 'w1 amd64'
    }

    It 'refuses an exe whose signature is <Status>, with IoSpdSignatureInvalid, and leaves the previous install and PATH as they were' -ForEach @(
      @{ Status = 'HashMismatch'; Message = 'The contents of file iospd.exe might have been changed by an unauthorized user or process, because the hash of the file does not match the hash stored in the digital signature.' }
      @{ Status = 'NotTrusted'; Message = 'A certificate chain processed, but terminated in a root certificate which is not trusted by the trust provider.' }
    ) {
      # Breakage: treat every status but NotSigned as good -> it installs v2.
      $null = Install-IoSpd -Source $script:winV1 -Destination $script:dest -Scope User -Confirm:$false 3>$null
      $before = @(Get-ChildItem -LiteralPath $script:dest -Recurse -Force | ForEach-Object { $_.FullName + '=' + $(if ($_.PSIsContainer) { '' } else { [IO.File]::ReadAllText($_.FullName) }) } | Sort-Object)
      $procBefore = $script:procPath; $writes = $script:fake.State.Writes.Count
      $v2 = New-TestPackage -Dir (Join-Path $TestDrive ('win-tampered-' + [guid]::NewGuid().ToString('N'))) -Name 'iospd-2.0.0' -Marker 'tampered' -Arch amd64, x86
      $sig = [pscustomobject]@{ Status = $Status; Signer = $script:signedBy; Message = $Message }
      Mock -ModuleName IoSpd Get-IoSpdFileSignature { $sig }
      $err = { Install-IoSpd -Source $v2 -Destination $script:dest -Scope User -Confirm:$false } |
        Should -Throw -ErrorId 'IoSpdSignatureInvalid,Install-IoSpd' -PassThru
      $err.CategoryInfo.Category | Should -Be 'SecurityError'
      $err.TargetObject | Should -Be $v2
      $err.Exception.Message | Should -BeExactly ("amd64/iospd.exe in '$v2' is signed, but the Authenticode signature is not valid " +
        "($Status`: $Message). The file was changed after it was signed, or its signer is not trusted. Nothing was " +
        'installed and the previous install was left as it was. Do not run it; get the package again from its publisher.')
      @(Get-ChildItem -LiteralPath $script:dest -Recurse -Force | ForEach-Object { $_.FullName + '=' + $(if ($_.PSIsContainer) { '' } else { [IO.File]::ReadAllText($_.FullName) }) } | Sort-Object) |
        Should -Be $before
      Get-Content -LiteralPath (Join-Path $script:dest 'amd64/iospd.exe') -Raw | Should -BeExactly 'w1 amd64'
      @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
      $script:procPath | Should -BeExactly $procBefore
      $script:fake.State.Writes.Count | Should -Be $writes
    }

    It 'refuses an invalid signature even when the user gave the right -Sha256' {
      # Breakage: skip the signature check when -Sha256 is given -> it installs.
      Mock -ModuleName IoSpd Get-IoSpdFileSignature { [pscustomobject]@{ Status = 'HashMismatch'; Signer = $null; Message = '' } }
      { Install-IoSpd -Source $script:winV1 -Destination $script:dest -Sha256 $script:winV1Hash -Confirm:$false } |
        Should -Throw "amd64/iospd.exe in '$script:winV1' is signed, but the Authenticode signature is not valid (HashMismatch).*" -ErrorId 'IoSpdSignatureInvalid,Install-IoSpd'
      Test-Path $script:dest | Should -BeFalse
      @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force -ErrorAction SilentlyContinue).Count | Should -Be 0
    }

    It 'installs an unsigned exe checked only against the .sha256 beside it, with a warning that says what that did and did not prove' {
      # Breakage: install unsigned without a word -> no warning.
      Mock -ModuleName IoSpd Get-IoSpdFileSignature { [pscustomobject]@{ Status = 'NotSigned'; Signer = $null; Message = 'The file is not digitally signed.' } }
      $r = Install-IoSpd -Source $script:winV1 -Destination $script:dest -Confirm:$false -WarningVariable w 3>$null
      @($w).Count | Should -Be 1
      "$w" | Should -BeExactly (Get-UnsignedWarning $script:winV1 'is not signed')
      $r.Signature | Should -BeExactly 'NotSigned'
      $r.Signer | Should -BeNullOrEmpty
      Get-Content -LiteralPath (Join-Path $script:dest 'amd64/iospd.exe') -Raw | Should -BeExactly 'w1 amd64'
    }

    It 'installs an unsigned exe without that warning when the user gave the digest with -Sha256' {
      Mock -ModuleName IoSpd Get-IoSpdFileSignature { [pscustomobject]@{ Status = 'NotSigned'; Signer = $null; Message = '' } }
      $r = Install-IoSpd -Source $script:winV1 -Destination $script:dest -Sha256 $script:winV1Hash.ToLowerInvariant() -Confirm:$false -WarningVariable w
      $w | Should -BeNullOrEmpty
      $r.Signature | Should -BeExactly 'NotSigned'
      $r.HashFrom | Should -BeExactly '-Sha256'
      Get-Content -LiteralPath (Join-Path $script:dest 'amd64/iospd.exe') -Raw | Should -BeExactly 'w1 amd64'
    }

    It 'says so when no signature can be read on this system (NotAvailable), and installs' {
      Mock -ModuleName IoSpd Get-IoSpdFileSignature { [pscustomobject]@{ Status = 'NotAvailable'; Signer = $null; Message = 'Authenticode signatures can be read on Windows only.' } }
      $r = Install-IoSpd -Source $script:winV1 -Destination $script:dest -Confirm:$false -WarningVariable w 3>$null
      "$w" | Should -BeExactly (Get-UnsignedWarning $script:winV1 'has no signature that can be checked on this system (Authenticode is Windows only)')
      $r.Signature | Should -BeExactly 'NotAvailable'
      Test-Path -LiteralPath (Join-Path $script:dest 'amd64/iospd.exe') | Should -BeTrue
    }

    It 'does not warn about a signature when the install fails afterwards' {
      # The warning says "installed anyway": it must not come before a failure.
      Mock -ModuleName IoSpd Get-IoSpdFileSignature { [pscustomobject]@{ Status = 'NotSigned'; Signer = $null; Message = '' } }
      $script:fake.Write = { param($Scope, $Value, $Kind) throw 'Requested registry access is not allowed.' }
      $caught = $null; $w = 'not set'
      try { Install-IoSpd -Source $script:winV1 -Destination $script:dest -Scope User -Confirm:$false -WarningVariable w 3>$null }
      catch { $caught = $_ }
      $caught.FullyQualifiedErrorId | Should -Be 'IoSpdPathNotStored,Install-IoSpd'
      @($w).Count | Should -Be 0
    }
  }
}

Describe 'Install-IoSpd -Scope User on Linux: ~/.profile' -Skip:($IsWindows) {
  BeforeEach {
    $script:savedPath = $env:PATH; $script:savedHome = $env:HOME
    $env:HOME = Join-Path $TestDrive ('home-' + [guid]::NewGuid().ToString('N'))
    $null = New-Item -ItemType Directory -Path $env:HOME
    $script:prof = Join-Path $env:HOME '.profile'
    $script:dest = Join-Path $env:HOME '.iospd'
    Mock -ModuleName IoSpd Get-IoSpdArchitecture { 'amd64' }
  }
  AfterEach { $env:PATH = $script:savedPath; $env:HOME = $script:savedHome }

  It 'writes a marked block that login shells read, keeps the rest byte for byte, and says so' {
    # Breakage: the .NET User target (a no-op on Linux) -> no block, PATH
    # from the profile lacks the folder, and no message.
    $mine = "# mine`r`nexport EDITOR=vi`n  # no final newline"
    [IO.File]::WriteAllText($script:prof, $mine)
    $r = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false -InformationVariable info
    $bin = Join-Path $script:dest 'linux-amd64'
    $text = [IO.File]::ReadAllText($script:prof)
    $text.StartsWith($mine + "`n") | Should -BeTrue
    $text.Substring($mine.Length + 1) | Should -BeExactly ("# >>> iospd PATH (written by Install-IoSpd; delete this block to undo) >>>`n" +
      "case `":`${PATH}:`" in *:'$bin':*) ;; *) PATH=`"`${PATH:+`${PATH}:}`"'$bin'; export PATH ;; esac`n# <<< iospd PATH <<<`n")
    Get-ProfilePath $script:prof | Should -BeExactly "/usr/bin:/opt/other:$bin"
    # Read twice (a login shell that sources it again): still once.
    (& /bin/sh -c 'PATH=/usr/bin; . "$1"; . "$1"; printf %s "$PATH"' sh $script:prof) | Should -BeExactly "/usr/bin:$bin"
    $r.PathStoredIn | Should -Be $script:prof
    "$info" | Should -BeLike "*'$bin' is on PATH in this session and, through '$script:prof', in login shells started from now on. In a shell that is already open, run: . ~/.profile*"
  }
  It 'writes the .profile of $env:HOME for User (a shell without a file of its own) and /etc/profile.d/iospd.sh for Machine' {
    InModuleScope IoSpd { Get-IoSpdProfileFile -Scope User } | Should -Be (Join-Path $env:HOME '.profile')
    InModuleScope IoSpd { Get-IoSpdProfileFile -Scope Machine } | Should -Be '/etc/profile.d/iospd.sh'
  }
  It 'creates ~/.profile when there is none' {
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false 6>$null
    Get-ProfilePath $script:prof '/bin' | Should -BeExactly ('/bin:' + (Join-Path $script:dest 'linux-amd64'))
  }
  It 'replaces its block when installed to another folder, and leaves the file as it is when nothing changes' {
    [IO.File]::WriteAllText($script:prof, "export A=1`n")
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false 6>$null
    $once = [IO.File]::ReadAllBytes($script:prof)
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false 6>$null
    [IO.File]::ReadAllBytes($script:prof) | Should -Be $once
    $other = Join-Path $env:HOME 'tools/iospd'
    $null = Install-IoSpd -Source $script:v1 -Destination $other -Scope User -Confirm:$false 6>$null
    Get-ProfilePath $script:prof '/bin' | Should -BeExactly ('/bin:' + (Join-Path $other 'linux-amd64'))
    @([regex]::Matches([IO.File]::ReadAllText($script:prof), '>>> iospd PATH')).Count | Should -Be 1
    [IO.File]::ReadAllText($script:prof).StartsWith("export A=1`n# >>> iospd PATH") | Should -BeTrue
  }
  It 'quotes a folder with blanks and quotes for the shell' {
    $odd = Join-Path $env:HOME "it's my dir"
    $null = Install-IoSpd -Source $script:v1 -Destination $odd -Scope User -Confirm:$false 6>$null
    Get-ProfilePath $script:prof '/bin' | Should -BeExactly ('/bin:' + (Join-Path $odd 'linux-amd64'))
  }
  # The old code wrote ~/.profile and only warned that bash would not read
  # it when ~/.bash_profile existed.
  It 'writes ~/.bash_profile for bash when it exists, never a second block, and ~/.zprofile for zsh' {
    $savedShell = $env:SHELL; $savedZ = $env:ZDOTDIR
    try {
      Remove-Item Env:ZDOTDIR -ErrorAction SilentlyContinue
      $env:SHELL = '/bin/bash'
      $bin = Join-Path $script:dest 'linux-amd64'
      # No ~/.bash_profile: ~/.profile, which bash then reads.
      $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false 6>$null
      Get-ProfilePath $script:prof '/bin' | Should -BeExactly "/bin:$bin"
      # With one: the block moves there (bash reads it and not ~/.profile).
      $bp = Join-Path $env:HOME '.bash_profile'
      [IO.File]::WriteAllText($bp, "# bash only`n")
      $r = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false -InformationVariable info 6>$null
      $r.PathStoredIn | Should -Be $bp
      "$info" | Should -BeLike "*through '$bp', in login shells started from now on. In a shell that is already open, run: . ~/.bash_profile*"
      Get-ProfilePath $bp '/bin' | Should -BeExactly "/bin:$bin"
      [IO.File]::ReadAllText($bp).StartsWith("# bash only`n# >>> iospd PATH") | Should -BeTrue
      [IO.File]::ReadAllText($script:prof) | Should -Not -Match 'iospd PATH' -Because 'one block only'
      # A login bash for real reads it.
      (& bash -l -c 'printf %s "$PATH"' 2>$null) -split ':' | Should -Contain $bin
      # Again: the same bytes, one block.
      $once = [IO.File]::ReadAllBytes($bp)
      $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false 6>$null
      [IO.File]::ReadAllBytes($bp) | Should -Be $once
      # zsh: ~/.zprofile, and the bash block goes.
      $env:SHELL = '/usr/bin/zsh'
      $zp = Join-Path $env:HOME '.zprofile'
      (Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false 6>$null).PathStoredIn | Should -Be $zp
      Get-ProfilePath $zp '/bin' | Should -BeExactly "/bin:$bin"
      [IO.File]::ReadAllText($bp) | Should -BeExactly "# bash only`n"
    } finally { $env:SHELL = $savedShell; if ($savedZ) { $env:ZDOTDIR = $savedZ } }
  }
  It 'says plainly that only this session changed, and what to add, when ~/.profile cannot be written' {
    # A folder where the file should be: unwritable even for root.
    $null = New-Item -ItemType Directory -Path $script:prof
    $r = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false -WarningVariable w 3>$null -InformationVariable info
    $bin = Join-Path $script:dest 'linux-amd64'
    # The second warning is the one about the unproven origin (no Authenticode on Linux).
    @($w).Count | Should -Be 2
    "$($w[1])" | Should -BeLike '*nothing proves who built it*'
    "$($w[0])" | Should -BeLike ("PATH was changed for this PowerShell session only: '$script:prof' could not be written*" +
      "To keep '$bin' on PATH, add this line to your shell profile: export PATH=`"`$PATH:`"'$bin'")
    "$info" | Should -Not -BeLike '*login shells*'
    $r.PathStoredIn | Should -BeNullOrEmpty
    @($env:PATH.Split(':') | Where-Object { $_ -eq $bin }).Count | Should -Be 1
    Test-Path -LiteralPath (Join-Path $bin 'iospd') | Should -BeTrue
  }
}

Describe 'A package for another system' {
  BeforeEach {
    $script:dest = Join-Path $TestDrive ('sys-' + [guid]::NewGuid().ToString('N')) | Join-Path -ChildPath 'iospd'
    $script:savedPath = $env:PATH
    Mock -ModuleName IoSpd Get-IoSpdArchitecture { 'amd64' }
  }
  AfterEach { $env:PATH = $script:savedPath }

  It 'refuses the Windows release zip on Linux with an ErrorRecord naming what it holds and what to get' -Skip:($IsWindows) {
    # Breakage: look for amd64/iospd.exe on every system (as before) -> it installs.
    $pathBefore = $env:PATH
    $err = { Install-IoSpd -Source $script:winOnly -Destination $script:dest -Confirm:$false } |
      Should -Throw -ErrorId 'IoSpdPackageWrongSystem,Install-IoSpd' -PassThru
    $err.CategoryInfo.Category | Should -Be 'InvalidArgument'
    $err.TargetObject | Should -Be $script:winOnly
    $err.Exception.Message | Should -BeExactly ("The package '$script:winOnly' holds only Windows executables " +
      '(amd64/iospd.exe, x86/iospd.exe), which cannot run on Linux, so there is nothing to install on this ' +
      'machine. Download a Linux package (one with linux-amd64/iospd), or build iospd from source (README, ' +
      '"Build by hand"). Nothing was installed and the previous install was left as it was.')
    Test-Path $script:dest | Should -BeFalse
    @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force -ErrorAction SilentlyContinue).Count | Should -Be 0
    $env:PATH | Should -BeExactly $pathBefore
  }
  It 'keeps the previous install when the Windows zip is installed over it' -Skip:($IsWindows) {
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
    { Install-IoSpd -Source $script:winOnly -Destination $script:dest -Confirm:$false } | Should -Throw -ErrorId 'IoSpdPackageWrongSystem,Install-IoSpd'
    Get-Content -LiteralPath (Join-Path $script:dest 'linux-amd64/iospd') -Raw | Should -BeExactly 'v1 linux-amd64'
  }
  It 'says when a package holds no iospd at all' {
    $err = { Install-IoSpd -Source $script:noBuild -Destination $script:dest -Confirm:$false } |
      Should -Throw -ErrorId 'IoSpdPackageNoBuild,Install-IoSpd' -PassThru
    $err.Exception.Message | Should -BeLike "*has no $script:mainExe*it holds no iospd executable at all. Nothing was installed*"
  }
  It 'installs the Linux build of an arm64 machine' -Skip:($IsWindows) {
    Mock -ModuleName IoSpd Get-IoSpdArchitecture { 'arm64' }
    $r = Install-IoSpd -Source $script:linuxOnly -Destination $script:dest -Confirm:$false
    Get-Content -LiteralPath $r.Executable -Raw | Should -BeExactly 'l linux-arm64'
  }
}

Describe 'Elevation check (real, not mocked)' {
  It 'says elevated exactly when this process runs as root (uid 0)' -Skip:($IsWindows) {
    # Breakage: make Test-IoSpdElevated return a constant -> fails as root
    # (constant $false) or as a normal user (constant $true).
    $root = ((& id -u) -eq '0')
    InModuleScope IoSpd { Test-IoSpdElevated } | Should -Be $root
  }
}

Describe 'Environment helpers (private)' {
  It 'maps PROCESSOR_ARCHITECTURE <Value> to <Want> on <System>' -ForEach @(
    @{ Value = 'AMD64'; Want = 'amd64'; System = 'Windows' }, @{ Value = 'x86'; Want = 'x86'; System = 'Windows' }
    @{ Value = 'ARM64'; Want = 'amd64'; System = 'Windows' }, @{ Value = 'ARM64'; Want = 'arm64'; System = 'Linux' }
    @{ Value = 'X64'; Want = 'amd64'; System = 'Linux' }
  ) {
    Mock -ModuleName IoSpd Test-IoSpdWindows { $System -eq 'Windows' }
    $saved = $env:PROCESSOR_ARCHITECTURE; $saved64 = $env:PROCESSOR_ARCHITEW6432
    try {
      $env:PROCESSOR_ARCHITECTURE = $Value; Remove-Item Env:PROCESSOR_ARCHITEW6432 -ErrorAction SilentlyContinue
      InModuleScope IoSpd { Get-IoSpdArchitecture } | Should -Be $Want
    } finally {
      $env:PROCESSOR_ARCHITECTURE = $saved; $env:PROCESSOR_ARCHITEW6432 = $saved64
    }
  }
  It 'uses PROCESSOR_ARCHITEW6432 in a 32-bit process on 64-bit Windows' {
    $saved = $env:PROCESSOR_ARCHITECTURE; $saved64 = $env:PROCESSOR_ARCHITEW6432
    try {
      $env:PROCESSOR_ARCHITECTURE = 'x86'; $env:PROCESSOR_ARCHITEW6432 = 'AMD64'
      InModuleScope IoSpd { Get-IoSpdArchitecture } | Should -Be 'amd64'
    } finally {
      $env:PROCESSOR_ARCHITECTURE = $saved; $env:PROCESSOR_ARCHITEW6432 = $saved64
    }
  }
  It 'rejects an unknown architecture clearly' {
    $saved = $env:PROCESSOR_ARCHITECTURE
    try {
      $env:PROCESSOR_ARCHITECTURE = 'MIPS'
      { InModuleScope IoSpd { Get-IoSpdArchitecture } } | Should -Throw "*no build for the processor architecture 'MIPS'*" -ErrorId 'IoSpdUnknownArchitecture'
    } finally { $env:PROCESSOR_ARCHITECTURE = $saved }
  }
  It 'reads the digest from a sha256sum line and rejects garbage' {
    $f = Join-Path $TestDrive 'h.sha256'
    Set-Content $f ('ab' * 32 + '  x.zip')
    InModuleScope IoSpd -Parameters @{ F = $f } { param($F) Read-IoSpdHashFile -Path $F } | Should -BeExactly ('AB' * 32)
    Set-Content $f 'not a hash'
    { InModuleScope IoSpd -Parameters @{ F = $f } { param($F) Read-IoSpdHashFile -Path $F } } | Should -Throw '*does not start with a SHA-256 digest*' -ErrorId 'IoSpdHashFileInvalid'
  }
}

Describe 'Install marker helpers (private)' {
  It 'ignores marker entries that point outside the install, so they are never deleted' {
    $inst = Join-Path $TestDrive 'hand-edited/iospd'
    $null = New-Item -ItemType Directory -Path (Join-Path $inst 'amd64') -Force
    Set-Content -LiteralPath (Join-Path $inst 'amd64/iospd.exe') -Value 'x'
    Set-Content -LiteralPath (Join-Path $TestDrive 'hand-edited/precious.txt') -Value 'keep me'
    Set-Content -LiteralPath (Join-Path $inst '.iospd-install') -Value @(
      'format: iospd-install 1', 'version: 1.0.0', 'entry: amd64/', 'entry: amd64/iospd.exe',
      'entry: ../precious.txt', 'entry: /etc/passwd', 'entry: amd64/../../precious.txt', 'entry: C:\x')
    $entries = InModuleScope IoSpd -Parameters @{ P = $inst } { param($P) @((Read-IoSpdInstallMarker -Path $P).Entries | Sort-Object) }
    $entries | Should -Be @('amd64/', 'amd64/iospd.exe')
    $left = InModuleScope IoSpd -Parameters @{ P = $inst } { param($P) @(Remove-IoSpdInstallTree -Path $P) }
    $left.Count | Should -Be 0
    Test-Path -LiteralPath $inst | Should -BeFalse
    Get-Content -LiteralPath (Join-Path $TestDrive 'hand-edited/precious.txt') -Raw | Should -BeExactly "keep me$([Environment]::NewLine)"
  }
  It 'treats a marker without the format line as no marker' {
    $inst = Join-Path $TestDrive 'bad-marker'
    $null = New-Item -ItemType Directory -Path $inst -Force
    Set-Content -LiteralPath (Join-Path $inst '.iospd-install') -Value 'entry: notes.txt'
    InModuleScope IoSpd -Parameters @{ P = $inst } { param($P) Read-IoSpdInstallMarker -Path $P } | Should -BeNullOrEmpty
    { InModuleScope IoSpd -Parameters @{ P = $inst } { param($P) Assert-IoSpdReplaceableDestination -Destination $P } } |
      Should -Throw '*is not an iospd install*(.iospd-install)*'
  }
  It 'reads the version <Want> from <Source>' -ForEach @(
    @{ Source = 'https://example.org/r/iospd-1.2.3.zip?sig=abc'; Want = '1.2.3' }
    @{ Source = 'C:\drop\iospd-2.0.0-rc1.zip'; Want = '2.0.0-rc1' }
    @{ Source = '/tmp/package.zip'; Want = 'unknown' }
  ) {
    InModuleScope IoSpd -Parameters @{ S = $Source } { param($S) Get-IoSpdPackageVersion -Source $S } | Should -BeExactly $Want
  }
}

Describe 'Signature reader Get-IoSpdFileSignature (private)' {
  BeforeAll {
    $script:sigFile = Join-Path $TestDrive 'sig/iospd.exe'
    $null = New-Item -ItemType Directory -Path (Split-Path $script:sigFile) -Force
    [IO.File]::WriteAllText($script:sigFile, 'MZ')
  }
  # A stand-in for the Windows cmdlet, found by the module through Get-Command.
  AfterEach { if (Test-Path Function:\Get-AuthenticodeSignature) { Remove-Item Function:\Get-AuthenticodeSignature } }

  It 'answers NotAvailable off Windows without calling Get-AuthenticodeSignature' {
    Mock -ModuleName IoSpd Test-IoSpdWindows { $false }
    function global:Get-AuthenticodeSignature { throw 'must not be called off Windows' }
    $s = InModuleScope IoSpd -Parameters @{ P = $script:sigFile } { param($P) Get-IoSpdFileSignature -Path $P }
    $s.Status | Should -BeExactly 'NotAvailable'
    $s.Signer | Should -BeNullOrEmpty
    $s.Message | Should -BeExactly 'Authenticode signatures can be read on Windows only.'
  }
  It 'answers NotAvailable on Windows when there is no Get-AuthenticodeSignature (as on Linux pwsh)' -Skip:($IsWindows) {
    Mock -ModuleName IoSpd Test-IoSpdWindows { $true }
    (InModuleScope IoSpd -Parameters @{ P = $script:sigFile } { param($P) Get-IoSpdFileSignature -Path $P }).Status |
      Should -BeExactly 'NotAvailable'
  }
  It 'passes on the status <Status>, the signer subject and the message of Get-AuthenticodeSignature' -ForEach @(
    @{ Status = 'Valid'; Subject = 'CN=iospd release'; Want = 'CN=iospd release' }
    @{ Status = 'HashMismatch'; Subject = 'CN=iospd release'; Want = 'CN=iospd release' }
    @{ Status = 'NotSigned'; Subject = $null; Want = $null }
  ) {
    Mock -ModuleName IoSpd Test-IoSpdWindows { $true }
    $asked = @{}
    $answer = [pscustomobject]@{
      Status            = [Management.Automation.SignatureStatus]$Status
      StatusMessage     = "message for $Status"
      SignerCertificate = $(if ($Subject) { [pscustomobject]@{ Subject = $Subject } })
    }
    $null = Set-Item -Path Function:global:Get-AuthenticodeSignature -Value {
      param([string] $LiteralPath) $asked.Path = $LiteralPath; $answer
    }.GetNewClosure()
    $s = InModuleScope IoSpd -Parameters @{ P = $script:sigFile } { param($P) Get-IoSpdFileSignature -Path $P }
    $s.Status | Should -BeExactly $Status
    $s.Signer | Should -Be $Want
    $s.Message | Should -BeExactly "message for $Status"
    $asked.Path | Should -BeExactly $script:sigFile
  }
}

Describe 'Help of Install-IoSpd: what the digest and the signature prove' {
  BeforeAll {
    $script:installHelp = Get-Help Install-IoSpd -Full
    # One line of text per help section, however Get-Help wrapped it.
    function script:Get-Flat($Section) { (($Section | Out-String) -replace '\s+', ' ').Trim() }
  }
  It 'says that the .sha256 beside the zip proves the download whole, not who made it, and what to use instead' {
    # Breakage: the help as it was (no such paragraph) -> this fails.
    $d = Get-Flat $script:installHelp.description
    $d | Should -BeLike '*The .sha256 file beside the zip proves that the download is complete and unchanged since that file was written. It does not prove who made the package: anyone who can replace the zip*can replace the .sha256 beside it as well.*'
    $d | Should -BeLike '*-Sha256 <digest> proves that the zip is the one you vouch for, when you took the digest from a channel you trust*'
    $d | Should -BeLike '*On Windows, the Authenticode signature of iospd.exe*A signature that is there but not valid*refuses the install (IoSpdSignatureInvalid)*'
    $d | Should -BeLike '*The release zip of scripts/package.sh is not signed today.*'
  }
  It 'documents -Sha256 (alias -ExpectedHash): the sidecar is then not read' {
    $p = $script:installHelp.parameters.parameter | Where-Object name -eq 'Sha256'
    Get-Flat $p.description | Should -BeLike '*from a channel you trust. When given, the .sha256 file beside the zip is not fetched or read at all*'
    (Get-Command Install-IoSpd).Parameters['Sha256'].Aliases | Should -Be @('ExpectedHash')
  }
}

Describe 'Install-IoSpd and zip entries that point outside the staging folder (zip slip)' {
  BeforeAll {
    # A package for this system (linux-amd64/iospd, amd64/iospd.exe, LICENSE)
    # plus one hostile entry $Evil, written after the good ones so that the
    # unpack has begun when it meets it. -Link makes $Evil a symbolic link
    # (Unix mode 0120777) whose text is $LinkTarget.
    function script:New-SlipPackage([string] $Name, [string] $Evil, [string] $LinkTarget, [string] $After) {
      $dir = Join-Path $TestDrive 'slip-pkgs'
      $null = New-Item -ItemType Directory -Path $dir -Force
      $zip = Join-Path $dir "$Name.zip"
      $fs = [IO.File]::Open($zip, 'CreateNew')
      try {
        $za = [IO.Compression.ZipArchive]::new($fs, [IO.Compression.ZipArchiveMode]::Create)
        $entries = [ordered]@{ 'linux-amd64/iospd' = 'slip linux-amd64'; 'amd64/iospd.exe' = 'slip amd64'; 'LICENSE' = 'MIT'; $Evil = 'evil' }
        if ($LinkTarget) { $entries[$Evil] = $LinkTarget }
        if ($After) { $entries[$After] = 'evil through the link' }
        foreach ($k in $entries.Keys) {
          $e = $za.CreateEntry($k)
          if ($LinkTarget -and $k -eq $Evil) { $e.ExternalAttributes = [int](0xA1FF -shl 16) }
          $w = [IO.StreamWriter]::new($e.Open()); $w.Write($entries[$k]); $w.Dispose()
        }
        $za.Dispose()
      } finally { $fs.Dispose() }
      return $zip
    }
    # Every file or link whose name holds "evil" in or under the folder of
    # this test's install (where ../ from the staging folder leads), or in
    # $TestDrive itself (../../).
    function script:Get-EvilFile {
      @(@(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Recurse -Force -Filter '*evil*') +
        @(Get-ChildItem -LiteralPath $TestDrive -Force -Filter '*evil*') | ForEach-Object FullName)
    }
  }
  BeforeEach {
    $script:savedPath = $env:PATH
    $script:dest = Join-Path $TestDrive ('slip-' + [guid]::NewGuid().ToString('N')) | Join-Path -ChildPath 'iospd'
    Mock -ModuleName IoSpd Get-IoSpdArchitecture { 'amd64' }
    # The previous install each hostile package must leave as it was.
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false 3>$null
    $script:treeBefore = @(Get-ChildItem -LiteralPath $script:dest -Recurse -Force | ForEach-Object FullName | Sort-Object)
    $script:pathBefore = $env:PATH
  }
  AfterEach { $env:PATH = $script:savedPath }

  It 'refuses the entry <Evil>, writes nothing outside, and keeps the previous install' -ForEach @(
    @{ Evil = '../evil.txt' }
    @{ Evil = 'amd64/../../evil.txt' }
    @{ Evil = '../../../../../../../../../../tmp/evil-iospd-slip.txt'; Outside = '/tmp/evil-iospd-slip.txt' }
    @{ Evil = '/tmp/evil-iospd-abs.txt'; Outside = '/tmp/evil-iospd-abs.txt' }
  ) {
    # Breakage: extract entry by entry with Join-Path and no check -> the
    # file lands outside the staging folder.
    $zip = New-SlipPackage -Name ('slip-' + [guid]::NewGuid().ToString('N')) -Evil $Evil
    $sha = (Get-FileHash $zip -Algorithm SHA256).Hash
    $err = { Install-IoSpd -Source $zip -Destination $script:dest -Sha256 $sha -Confirm:$false } |
      Should -Throw -ErrorId 'IoSpdUnpackFailed,Install-IoSpd' -PassThru
    $err.Exception.Message | Should -BeExactly ("Could not unpack '$zip': Extracting Zip entry would have resulted in a file " +
      'outside the specified destination directory. Nothing was installed and the previous install was left as it was.')
    $err.TargetObject | Should -Be $zip
    Get-EvilFile | Should -BeNullOrEmpty
    if ($Outside) { Test-Path -LiteralPath $Outside | Should -BeFalse }
    @(Get-ChildItem -LiteralPath $script:dest -Recurse -Force | ForEach-Object FullName | Sort-Object) | Should -Be $script:treeBefore
    Get-Content -LiteralPath (Join-Path $script:dest 'linux-amd64/iospd') -Raw | Should -BeExactly 'v1 linux-amd64'
    @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
    $env:PATH | Should -BeExactly $script:pathBefore
  }

  It 'unpacks a backslash name (..\evil.txt) as a file inside the install on Linux, never beside it' -Skip:($IsWindows) {
    # On Windows the same entry would escape (and is refused as above).
    $zip = New-SlipPackage -Name ('slip-bs-' + [guid]::NewGuid().ToString('N')) -Evil '..\evil.txt'
    $r = Install-IoSpd -Source $zip -Destination $script:dest -Sha256 (Get-FileHash $zip -Algorithm SHA256).Hash -Confirm:$false
    Get-EvilFile | Should -Be @($script:dest + '/..\evil.txt')
    [IO.File]::ReadAllText($script:dest + '/..\evil.txt') | Should -BeExactly 'evil'
    Get-Content -LiteralPath $r.Executable -Raw | Should -BeExactly 'slip linux-amd64'
  }

  It 'does not follow a link entry out of the staging folder' -Skip:($IsWindows) {
    # A link "amd64/evil-link" -> the parent folder, then a file written
    # "through" it: the file must not appear beside the install.
    $zip = New-SlipPackage -Name ('slip-link-' + [guid]::NewGuid().ToString('N')) -Evil 'amd64/evil-link' `
      -LinkTarget (Split-Path $script:dest) -After 'amd64/evil-link/evil-through.txt'
    $err = { Install-IoSpd -Source $zip -Destination $script:dest -Sha256 (Get-FileHash $zip -Algorithm SHA256).Hash -Confirm:$false } |
      Should -Throw -ErrorId 'IoSpdUnpackFailed,Install-IoSpd' -PassThru
    # The link entry is unpacked as a plain file holding its target's name,
    # so the file "through" it cannot be created.
    $err.Exception.Message | Should -BeLike "Could not unpack '$zip': The file '*amd64*evil-link' already exists. Nothing was installed*"
    Get-EvilFile | Should -BeNullOrEmpty
    Test-Path -LiteralPath (Join-Path (Split-Path $script:dest) 'evil-through.txt') | Should -BeFalse
    @(Get-ChildItem -LiteralPath $script:dest -Recurse -Force | ForEach-Object FullName | Sort-Object) | Should -Be $script:treeBefore
    @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
  }
}

Describe 'Uninstall-IoSpd removes what Install-IoSpd added' {
  Context 'Linux: files, the profile block, the session PATH, the marker' -Skip:($IsWindows) {
    BeforeEach {
      $script:savedPath = $env:PATH; $script:savedHome = $env:HOME; $script:savedShell = $env:SHELL
      $env:HOME = Join-Path $TestDrive ('uhome-' + [guid]::NewGuid().ToString('N'))
      $null = New-Item -ItemType Directory -Path $env:HOME
      $env:SHELL = '/bin/bash'
      $script:dest = Join-Path $env:HOME '.iospd'
      Mock -ModuleName IoSpd Get-IoSpdArchitecture { 'amd64' }
      Mock -ModuleName IoSpd Test-IoSpdElevated { $false }
    }
    AfterEach { $env:PATH = $script:savedPath; $env:HOME = $script:savedHome; $env:SHELL = $script:savedShell }

    It 'removes the install, its block (keeping the rest of the profile) and its session PATH entry' {
      $prof = Join-Path $env:HOME '.profile'
      [IO.File]::WriteAllText($prof, "export EDITOR=vi`n")
      $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false 3>$null 6>$null
      $bin = Join-Path $script:dest 'linux-amd64'
      $env:PATH.Split(':') | Should -Contain $bin
      [IO.File]::ReadAllText($prof) | Should -Match 'iospd PATH'
      $r = Uninstall-IoSpd -Destination $script:dest -Confirm:$false
      $r.Removed | Should -BeTrue
      $r.Left.Count | Should -Be 0
      $r.Version | Should -Be '1.0.0'
      $r.PathRemovedFrom | Should -Be @($prof, 'Process')
      Test-Path -LiteralPath $script:dest | Should -BeFalse
      [IO.File]::ReadAllText($prof) | Should -BeExactly "export EDITOR=vi`n"
      $env:PATH.Split(':') | Should -Not -Contain $bin
      $env:PATH | Should -BeExactly $script:savedPath
    }
    It 'keeps what it did not install, and says so' {
      $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope Process -Confirm:$false 3>$null 6>$null
      Set-Content -LiteralPath (Join-Path $script:dest 'mine.txt') -Value 'keep'
      $r = Uninstall-IoSpd -Destination $script:dest -Confirm:$false -WarningVariable w -WarningAction SilentlyContinue
      $r.Removed | Should -BeFalse
      $r.Left | Should -Be @('mine.txt')
      "$w" | Should -BeLike "*'$script:dest' was not removed*mine.txt*"
      Get-Content -LiteralPath (Join-Path $script:dest 'mine.txt') | Should -Be 'keep'
      Test-Path -LiteralPath (Join-Path $script:dest 'linux-amd64') | Should -BeFalse
      Test-Path -LiteralPath (Join-Path $script:dest '.iospd-install') | Should -BeFalse
    }
    It 'refuses a folder that Install-IoSpd did not install, deleting nothing' {
      $d = Join-Path $env:HOME 'notours'
      $null = New-Item -ItemType Directory -Path $d
      Set-Content -LiteralPath (Join-Path $d 'iospd') -Value 'x'
      { Uninstall-IoSpd -Destination $d -Confirm:$false } | Should -Throw -ErrorId 'IoSpdNotInstalled,Uninstall-IoSpd'
      Test-Path -LiteralPath (Join-Path $d 'iospd') | Should -BeTrue
    }
    It 'changes nothing under -WhatIf' {
      $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false 3>$null 6>$null
      $before = [IO.File]::ReadAllText((Join-Path $env:HOME '.profile'))
      Uninstall-IoSpd -Destination $script:dest -WhatIf
      Test-Path -LiteralPath (Join-Path $script:dest 'linux-amd64/iospd') | Should -BeTrue
      [IO.File]::ReadAllText((Join-Path $env:HOME '.profile')) | Should -BeExactly $before
    }
  }

  It 'removes the folder''s entries from the user Path in the registry, kept unexpanded, and warns for the machine Path when not elevated' {
    $dest = 'C:\Users\u\AppData\Local\Programs\iospd'
    $state = @{ User = @{ Kind = 'ExpandString'; Raw = "%USERPROFILE%\bin;$dest\amd64;C:\x" }
      Machine = @{ Kind = 'ExpandString'; Raw = "C:\Windows;$dest\amd64" }; Writes = [Collections.ArrayList]::new() }
    $script:uFake = [pscustomobject]@{
      State     = $state
      Read      = { param($Scope) [pscustomobject]@{ Exists = $true; Kind = $state[$Scope].Kind; Raw = $state[$Scope].Raw } }.GetNewClosure()
      Write     = { param($Scope, $Value, $Kind) $null = $state.Writes.Add([pscustomobject]@{ Scope = $Scope; Raw = $Value; Kind = $Kind }) }.GetNewClosure()
      Broadcast = { $true }
    }
    $script:uProc = "C:\Windows;$dest\amd64"
    Mock -ModuleName IoSpd Test-IoSpdWindows { $true }
    Mock -ModuleName IoSpd Test-IoSpdElevated { $false }
    Mock -ModuleName IoSpd Get-IoSpdRegistryAccessor { $script:uFake }
    Mock -ModuleName IoSpd Read-IoSpdInstallMarker { [pscustomobject]@{ Version = '1.0.0'; Sha256 = ''; Entries = @() } }
    Mock -ModuleName IoSpd Remove-IoSpdInstallTree { }
    Mock -ModuleName IoSpd Get-IoSpdEnvironmentVariable { $script:uProc }
    Mock -ModuleName IoSpd Set-IoSpdEnvironmentVariable { $script:uProc = $Value }
    Mock -ModuleName IoSpd Get-IoSpdProfileCandidate { throw 'no shell profiles on Windows' }
    $r = Uninstall-IoSpd -Destination $dest -Confirm:$false -WarningVariable w -WarningAction SilentlyContinue
    $state.Writes.Count | Should -Be 1
    $state.Writes[0].Scope | Should -Be 'User'
    $state.Writes[0].Kind | Should -BeExactly 'ExpandString'
    $state.Writes[0].Raw | Should -BeExactly '%USERPROFILE%\bin;C:\x'
    "$w" | Should -BeLike "*HKLM*still holds '$dest'*elevated*"
    $script:uProc | Should -BeExactly 'C:\Windows'
    $r.PathRemovedFrom | Should -Be @('HKCU\Environment\Path', 'Process')
    InModuleScope IoSpd -Parameters @{ D = $dest } { param($D)
      Remove-IoSpdPathEntryUnder -PathValue "C:\A;$($D.ToUpper())\X86\;C:\B;$D-other" -Root $D -Separator ';' -IgnoreCase $true } |
      Should -BeExactly "C:\A;C:\B;$dest-other"
  }
}
