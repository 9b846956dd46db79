# SPDX-License-Identifier: MIT
# Install-IoSpd from a zip served over HTTP on 127.0.0.1 (python3
# http.server) and from a local path: hash check before extraction, staged
# swap, PATH idempotence, failures that leave the previous install and PATH
# alone, scope/elevation rules, and the install marker: folders that are not
# an earlier install (or hold files it did not put there) are refused and
# left untouched. Persistent env writes are mocked.

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  Import-Module (Join-Path $repo 'scripts/IoSpd/IoSpd.psd1') -Force
  Add-Type -AssemblyName System.IO.Compression.FileSystem

  # Builds <dir>/<name>.zip (+ .sha256) whose iospd.exe files contain $Marker.
  function script:New-TestPackage {
    param([string] $Dir, [string] $Name, [string] $Marker, [string[]] $Arch = @('amd64', 'x86'), [string] $Wrap,
      [string[]] $Extra = @())
    $src = Join-Path $TestDrive ("src-" + [guid]::NewGuid().ToString('N'))
    $content = $src
    if ($Wrap) { $content = Join-Path $src $Wrap }
    foreach ($a in $Arch) {
      $null = New-Item -ItemType Directory -Path (Join-Path $content $a) -Force
      Set-Content -LiteralPath (Join-Path $content "$a/iospd.exe") -Value "$Marker $a" -NoNewline
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

  $script:served = Join-Path $TestDrive 'www'
  $script:local = Join-Path $TestDrive 'local'
  $script:v1Http = New-TestPackage -Dir $script:served -Name 'iospd-1.0.0' -Marker 'v1'
  $script:v1 = New-TestPackage -Dir $script:local -Name 'iospd-1.0.0' -Marker 'v1'
  $script:v2 = New-TestPackage -Dir $script:local -Name 'iospd-2.0.0' -Marker 'v2'
  $script:v1extra = New-TestPackage -Dir (Join-Path $TestDrive 'local-extra') -Name 'iospd-1.0.0' -Marker 'v1' `
    -Extra @('xml/old.xsd', 'amd64/old-only.txt')
  $script:x86only = New-TestPackage -Dir $script:local -Name 'iospd-x86only' -Marker 'v3' -Arch x86
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
    $script:dest = Join-Path $TestDrive ('inst-' + [guid]::NewGuid().ToString('N')) | Join-Path -ChildPath 'iospd'
    $sep = [IO.Path]::PathSeparator
    $script:userBefore = "/usr/bin$sep/opt/other"
    $script:store = @{ User = $script:userBefore; Machine = '/usr/bin' }
    Mock -ModuleName IoSpd Get-IoSpdArchitecture { 'amd64' }
    Mock -ModuleName IoSpd Test-IoSpdElevated { $false }
    # Persistent scopes go to an in-memory store; Process scope stays real.
    Mock -ModuleName IoSpd Get-IoSpdEnvironmentVariable -ParameterFilter { $Scope -ne 'Process' } { $script:store[$Scope] }
    Mock -ModuleName IoSpd Set-IoSpdEnvironmentVariable -ParameterFilter { $Scope -ne 'Process' } { $script:store[$Scope] = $Value }
  }
  AfterEach { $env:PATH = $script:savedPath }

  function script:Get-PathCount([string] $PathValue, [string] $Entry) {
    @($PathValue.Split([IO.Path]::PathSeparator) | Where-Object { $_ -eq $Entry }).Count
  }

  It 'installs from a URL served on 127.0.0.1 and adds amd64 to PATH' {
    $r = Install-IoSpd -Source "$script:base/iospd-1.0.0.zip" -Destination $script:dest -Confirm:$false
    $bin = Join-Path $script:dest 'amd64'
    Get-Content -LiteralPath (Join-Path $bin 'iospd.exe') -Raw | Should -BeExactly 'v1 amd64'
    Test-Path (Join-Path $script:dest 'x86/iospd.exe') | Should -BeTrue
    Test-Path (Join-Path $script:dest 'IoSpd/IoSpd.psd1') | Should -BeTrue
    $r.BinPath | Should -Be $bin
    $r.Architecture | Should -Be 'amd64'
    $r.Sha256 | Should -Be (Get-FileHash $script:v1Http -Algorithm SHA256).Hash
    Get-PathCount $env:PATH $bin | Should -Be 1
    $script:store.User | Should -Be $script:userBefore   # Process scope only
    Should -Invoke -ModuleName IoSpd Set-IoSpdEnvironmentVariable -Times 0 -Exactly -ParameterFilter { $Scope -ne 'Process' }
  }

  It 'installs from a local path with -Scope User, replacing the previous version' {
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false
    $null = Install-IoSpd -Source $script:v2 -Destination $script:dest -Scope User -Confirm:$false
    Get-Content -LiteralPath (Join-Path $script:dest 'amd64/iospd.exe') -Raw | Should -BeExactly 'v2 amd64'
    $bin = Join-Path $script:dest 'amd64'
    $script:store.User | Should -BeExactly ($script:userBefore + [IO.Path]::PathSeparator + $bin)
    # No staging or old copies are left beside the install.
    @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
  }

  It 'is idempotent: twice gives one PATH entry in the session and the user environment' {
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false
    $afterFirst = $env:PATH
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false
    $bin = Join-Path $script:dest 'amd64'
    $env:PATH | Should -BeExactly $afterFirst
    Get-PathCount $env:PATH $bin | Should -Be 1
    Get-PathCount $script:store.User $bin | Should -Be 1
    Should -Invoke -ModuleName IoSpd Set-IoSpdEnvironmentVariable -Times 1 -Exactly -ParameterFilter { $Scope -eq 'User' }
  }

  It 'treats an entry with a trailing separator as the same entry' {
    $bin = Join-Path $script:dest 'amd64'
    $env:PATH = $env:PATH + [IO.Path]::PathSeparator + $bin + [IO.Path]::DirectorySeparatorChar
    $before = $env:PATH
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
    $env:PATH | Should -BeExactly $before
  }

  It 'leaves the previous install and PATH untouched on a hash mismatch, before extracting anything' {
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false
    $pathBefore = $env:PATH; $userBefore = $script:store.User
    Mock -ModuleName IoSpd Expand-IoSpdZip { throw 'must not be called' }
    { Install-IoSpd -Source $script:badhash -Destination $script:dest -Scope User -Confirm:$false } |
      Should -Throw "*SHA-256 mismatch*expected 0000000000000000000000000000000000000000000000000000000000000000*Nothing was installed*"
    Should -Invoke -ModuleName IoSpd Expand-IoSpdZip -Times 0 -Exactly
    Get-Content -LiteralPath (Join-Path $script:dest 'amd64/iospd.exe') -Raw | Should -BeExactly 'v1 amd64'
    $env:PATH | Should -BeExactly $pathBefore
    $script:store.User | Should -BeExactly $userBefore
    @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
  }

  It 'checks -ExpectedHash instead of a .sha256 file' {
    { Install-IoSpd -Source $script:nohash -Destination $script:dest -ExpectedHash ('a' * 64) -Confirm:$false } |
      Should -Throw '*SHA-256 mismatch*'
    Test-Path $script:dest | Should -BeFalse
    $good = (Get-FileHash $script:nohash -Algorithm SHA256).Hash.ToLowerInvariant()
    $null = Install-IoSpd -Source $script:nohash -Destination $script:dest -ExpectedHash $good -Confirm:$false
    Get-Content -LiteralPath (Join-Path $script:dest 'amd64/iospd.exe') -Raw | Should -BeExactly 'v5 amd64'
  }

  It 'refuses a package without a .sha256 file and without -ExpectedHash' {
    { Install-IoSpd -Source $script:nohash -Destination $script:dest -Confirm:$false } |
      Should -Throw "*iospd-nohash.zip.sha256' does not exist*"
    Test-Path $script:dest | Should -BeFalse
  }

  It 'leaves the previous install and PATH untouched when the architecture folder is missing' {
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
    $pathBefore = $env:PATH
    { Install-IoSpd -Source $script:x86only -Destination $script:dest -Scope User -Confirm:$false } |
      Should -Throw '*has no amd64/iospd.exe*previous install was left as it was*'
    Get-Content -LiteralPath (Join-Path $script:dest 'amd64/iospd.exe') -Raw | Should -BeExactly 'v1 amd64'
    $env:PATH | Should -BeExactly $pathBefore
    $script:store.User | Should -BeExactly $script:userBefore
    @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
  }

  It 'leaves the previous install and PATH untouched when the download fails' {
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
    $pathBefore = $env:PATH
    { Install-IoSpd -Source "$script:base/iospd-9.9.9.zip" -Destination $script:dest -Scope User -Confirm:$false } |
      Should -Throw "*Could not download '$script:base/iospd-9.9.9.zip'*"
    Get-Content -LiteralPath (Join-Path $script:dest 'amd64/iospd.exe') -Raw | Should -BeExactly 'v1 amd64'
    $env:PATH | Should -BeExactly $pathBefore
    $script:store.User | Should -BeExactly $script:userBefore
  }

  It 'refuses -Scope Machine without elevation, before fetching anything' {
    Mock -ModuleName IoSpd Copy-IoSpdSourceFile { throw 'must not be called' }
    $pathBefore = $env:PATH
    { Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope Machine -Confirm:$false } |
      Should -Throw '*-Scope Machine*needs an elevated (administrator) session*-Scope User*'
    Should -Invoke -ModuleName IoSpd Copy-IoSpdSourceFile -Times 0 -Exactly
    Test-Path $script:dest | Should -BeFalse
    $env:PATH | Should -BeExactly $pathBefore
    $script:store.Machine | Should -BeExactly '/usr/bin'
  }

  It 'writes the machine PATH with -Scope Machine when elevated' {
    Mock -ModuleName IoSpd Test-IoSpdElevated { $true }
    $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope Machine -Confirm:$false
    $bin = Join-Path $script:dest 'amd64'
    $script:store.Machine | Should -BeExactly ('/usr/bin' + [IO.Path]::PathSeparator + $bin)
    $script:store.User | Should -BeExactly $script:userBefore
    Should -Invoke -ModuleName IoSpd Set-IoSpdEnvironmentVariable -Times 1 -Exactly -ParameterFilter {
      $Scope -eq 'Machine' -and $Name -eq 'PATH' -and $Value -eq ('/usr/bin' + [IO.Path]::PathSeparator + $bin) }
  }

  It 'adds the x86 folder on an x86 machine' {
    Mock -ModuleName IoSpd Get-IoSpdArchitecture { 'x86' }
    $r = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
    $r.BinPath | Should -Be (Join-Path $script:dest 'x86')
    Get-PathCount $env:PATH (Join-Path $script:dest 'x86') | Should -Be 1
    Get-PathCount $env:PATH (Join-Path $script:dest 'amd64') | Should -Be 0
  }

  It 'accepts a package whose content sits in one top-level folder' {
    $null = Install-IoSpd -Source $script:wrapped -Destination $script:dest -Confirm:$false
    Get-Content -LiteralPath (Join-Path $script:dest 'amd64/iospd.exe') -Raw | Should -BeExactly 'v4 amd64'
  }

  It 'resolves a relative -Destination against the PowerShell location' {
    $base = Split-Path $script:dest
    $null = New-Item -ItemType Directory -Path $base -Force
    Push-Location $base
    try {
      $r = Install-IoSpd -Source $script:v1 -Destination 'rel/iospd' -Confirm:$false
    } finally { Pop-Location }
    $r.Destination | Should -Be (Join-Path $base 'rel/iospd')
    Test-Path (Join-Path $base 'rel/iospd/amd64/iospd.exe') | Should -BeTrue
  }

  It 'changes nothing with -WhatIf' {
    $pathBefore = $env:PATH
    Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -WhatIf
    Test-Path $script:dest | Should -BeFalse
    $env:PATH | Should -BeExactly $pathBefore
    $script:store.User | Should -BeExactly $script:userBefore
  }

  It 'asks for a source when none is given' {
    $old = $env:IOSPD_SOURCE
    try {
      Remove-Item Env:IOSPD_SOURCE -ErrorAction SilentlyContinue
      { Install-IoSpd -Destination $script:dest -Confirm:$false } | Should -Throw '*No package given: pass -Source*'
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
      $script:store.User | Should -BeExactly $script:userBefore
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
        Should -Throw '*is not an iospd install*(amd64, LICENSE)*installed before installs carried this marker has to be removed by hand once*'
      Get-Tree $script:dest | Should -Be $before
    }

    It 'installs into an existing empty folder and marks it' {
      $null = New-Item -ItemType Directory -Path $script:dest -Force
      $r = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
      Get-Content -LiteralPath (Join-Path $script:dest 'amd64/iospd.exe') -Raw | Should -BeExactly 'v1 amd64'
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
        'amd64/', 'IoSpd/', 'LICENSE', 'x86/', 'amd64/iospd.exe', 'IoSpd/IoSpd.psd1', 'x86/iospd.exe')
    }

    It 'replaces a marked install and removes the files of the old version the new one does not have' {
      $null = Install-IoSpd -Source $script:v1extra -Destination $script:dest -Confirm:$false
      Test-Path -LiteralPath (Join-Path $script:dest 'amd64/old-only.txt') | Should -BeTrue
      $r = Install-IoSpd -Source $script:v2 -Destination $script:dest -Confirm:$false -WarningVariable warn
      $warn | Should -BeNullOrEmpty
      $r.Version | Should -Be '2.0.0'
      Get-Tree $script:dest | Where-Object { $_ -notlike '.iospd-install=*' } | Should -Be @(
        'amd64/', 'amd64/iospd.exe=v2 amd64', 'IoSpd/', "IoSpd/IoSpd.psd1=@{}$([Environment]::NewLine)",
        "LICENSE=MIT$([Environment]::NewLine)", 'x86/', 'x86/iospd.exe=v2 x86')
      Get-Content -LiteralPath (Join-Path $script:dest '.iospd-install') | Should -Contain 'version: 2.0.0'
      @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
    }

    It 'refuses a marked install holding a file of the user''s (<Extra>) and keeps both' -ForEach @(
      @{ Extra = 'notes.txt' }, @{ Extra = 'amd64/results.xml' }, @{ Extra = 'mine/data.bin' }
    ) {
      $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Scope User -Confirm:$false
      New-File (Join-Path $script:dest $Extra) 'user data'
      $before = Get-Tree $script:dest
      $pathBefore = $env:PATH; $userBefore = $script:store.User
      $shown = $Extra
      if ($Extra -like 'mine/*') { $shown = 'mine/' }   # an unknown folder is named, not searched
      { Install-IoSpd -Source $script:v2 -Destination $script:dest -Scope User -Confirm:$false } |
        Should -Throw ("The folder '$script:dest' holds an iospd install (version 1.0.0) but also things that " +
          "install did not put there: $shown. *will not delete them. Nothing was installed. Move them out of*")
      Get-Tree $script:dest | Should -Be $before
      Get-Content -LiteralPath (Join-Path $script:dest $Extra) -Raw | Should -BeExactly 'user data'
      $env:PATH | Should -BeExactly $pathBefore
      $script:store.User | Should -BeExactly $userBefore
      @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force).Name | Should -Be @('iospd')
    }

    It 'reinstalls once the user''s file has been moved out' {
      $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
      New-File (Join-Path $script:dest 'notes.txt') 'user data'
      { Install-IoSpd -Source $script:v2 -Destination $script:dest -Confirm:$false } | Should -Throw '*notes.txt*'
      Remove-Item -LiteralPath (Join-Path $script:dest 'notes.txt')
      $null = Install-IoSpd -Source $script:v2 -Destination $script:dest -Confirm:$false
      Get-Content -LiteralPath (Join-Path $script:dest 'amd64/iospd.exe') -Raw | Should -BeExactly 'v2 amd64'
    }

    It 'keeps a user file that appears after the last check, and says where' {
      $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
      New-File (Join-Path $script:dest 'amd64/results.xml') 'user data'
      # Simulate the file arriving between the last check and the delete.
      Mock -ModuleName IoSpd Assert-IoSpdReplaceableDestination { $true }
      $r = Install-IoSpd -Source $script:v2 -Destination $script:dest -Confirm:$false -WarningVariable warn 3>$null
      Get-Content -LiteralPath (Join-Path $r.BinPath 'iospd.exe') -Raw | Should -BeExactly 'v2 amd64'
      $old = @(Get-ChildItem -LiteralPath (Split-Path $script:dest) -Force -Filter '.iospd.old-*')
      $old.Count | Should -Be 1
      # Only the user's file (and the folder holding it) are left of v1.
      Get-Tree $old[0].FullName | Should -Be @('amd64/', 'amd64/results.xml=user data')
      "$warn" | Should -BeLike "*previous install was moved to '$($old[0].FullName)'*what is left (amd64) was kept*"
    }

    It 'refuses a -Destination that is a file' {
      New-File $script:dest 'not a folder'
      { Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false } |
        Should -Throw "'$script:dest' is a file, not a folder*Nothing was installed*"
      [IO.File]::ReadAllText($script:dest) | Should -BeExactly 'not a folder'
    }

    It 'refuses a -Destination that is a link, and a marked install holding a link' -Skip:($IsWindows) {
      $outside = Join-Path (Split-Path $script:dest) 'outside'
      New-File (Join-Path $outside 'precious.txt') 'keep me'
      $null = New-Item -ItemType SymbolicLink -Path $script:dest -Target $outside
      { Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false } |
        Should -Throw "'$script:dest' is a link*Nothing was installed*"
      Remove-Item -LiteralPath $script:dest   # the link only
      $null = Install-IoSpd -Source $script:v1 -Destination $script:dest -Confirm:$false
      $null = New-Item -ItemType SymbolicLink -Path (Join-Path $script:dest 'amd64/data') -Target $outside
      { Install-IoSpd -Source $script:v2 -Destination $script:dest -Confirm:$false } |
        Should -Throw '*did not put there: amd64/data.*'
      Get-Tree $outside | Should -Be @('precious.txt=keep me')
    }
  }
}

Describe 'Environment helpers (private)' {
  It 'maps PROCESSOR_ARCHITECTURE <Value> to <Want>' -ForEach @(
    @{ Value = 'AMD64'; Want = 'amd64' }, @{ Value = 'x86'; Want = 'x86' }, @{ Value = 'ARM64'; Want = 'amd64' }
  ) {
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
      { InModuleScope IoSpd { Get-IoSpdArchitecture } } | Should -Throw "*no build for the processor architecture 'MIPS'*"
    } finally { $env:PROCESSOR_ARCHITECTURE = $saved }
  }
  It 'reads the digest from a sha256sum line and rejects garbage' {
    $f = Join-Path $TestDrive 'h.sha256'
    Set-Content $f ('ab' * 32 + '  x.zip')
    InModuleScope IoSpd -Parameters @{ F = $f } { param($F) Read-IoSpdHashFile -Path $F } | Should -BeExactly ('AB' * 32)
    Set-Content $f 'not a hash'
    { InModuleScope IoSpd -Parameters @{ F = $f } { param($F) Read-IoSpdHashFile -Path $F } } | Should -Throw '*does not start with a SHA-256 digest*'
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
