# SPDX-License-Identifier: MIT
# The release zip from scripts/package.sh: layout, digest file, the module
# inside it, PE headers of both builds, Install-IoSpd from it, and
# `iospd.exe -?` under wine (exit 0 and a Usage line).

BeforeAll {
  $script:repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  Import-Module (Join-Path $script:repo 'scripts/IoSpd/IoSpd.psd1') -Force
  $script:version = '1.2.3'
  $script:dist = Join-Path $TestDrive 'dist'
  $log = Join-Path $TestDrive 'package.log'
  & bash (Join-Path $script:repo 'scripts/package.sh') $script:version $script:dist *> $log
  if ($LASTEXITCODE -ne 0) {
    throw "scripts/package.sh failed with exit code ${LASTEXITCODE}:`n$(Get-Content $log -Raw)"
  }
  $script:zip = Join-Path $script:dist "iospd-$script:version.zip"
  $script:unpacked = Join-Path $TestDrive 'unpacked'
  Add-Type -AssemblyName System.IO.Compression.FileSystem
  [IO.Compression.ZipFile]::ExtractToDirectory($script:zip, $script:unpacked)
  $archive = [IO.Compression.ZipFile]::OpenRead($script:zip)
  try { $script:entries = @($archive.Entries | ForEach-Object FullName) } finally { $archive.Dispose() }

  # Imported DLL names of a PE file, from objdump.
  function script:Get-PeImports([string] $Path) {
    @(& objdump -p $Path | Select-String -Pattern 'DLL Name:\s*(\S+)' | ForEach-Object { $_.Matches[0].Groups[1].Value.ToLowerInvariant() })
  }
  $script:systemDll = '^(kernel32|msvcrt|advapi32|powrprof|ntdll|user32|bcrypt|ws2_32|shell32|ole32|api-ms-win-[a-z0-9-]+)\.dll$'

  # Wine: headless, quiet, in an existing prefix when there is one.
  $script:wine = (Get-Command wine -CommandType Application -ErrorAction SilentlyContinue | Select-Object -First 1).Source
  $script:winePrefix = $env:IOSPD_WINEPREFIX
  if (-not $script:winePrefix) {
    $shared = Join-Path $script:repo 'build/wineprefix'   # the one scripts/test.sh makes
    if (Test-Path (Join-Path $shared 'system.reg')) { $script:winePrefix = $shared }
    else { $script:winePrefix = Join-Path $script:repo 'build/pkg-wineprefix' }
  }
  function script:Invoke-Wine([string] $Exe, [string[]] $Arguments) {
    $saved = @{}
    foreach ($k in 'WINEPREFIX', 'WINEDEBUG', 'WINEDLLOVERRIDES', 'DISPLAY', 'WAYLAND_DISPLAY') { $saved[$k] = [Environment]::GetEnvironmentVariable($k) }
    try {
      $env:WINEPREFIX = $script:winePrefix; $env:WINEDEBUG = '-all'; $env:WINEDLLOVERRIDES = 'mscoree,mshtml='
      Remove-Item Env:DISPLAY, Env:WAYLAND_DISPLAY -ErrorAction SilentlyContinue
      if (-not (Test-Path (Join-Path $script:winePrefix 'system.reg'))) {
        # First use: create the prefix outside the measured call (see toolchain.md).
        & wineboot -i *> $null; & wineserver -w *> $null
      }
      $out = & $script:wine $Exe @Arguments 2>&1
      [pscustomobject]@{ ExitCode = $LASTEXITCODE; Text = (($out | ForEach-Object { "$_" }) -join "`n") -replace "`r", '' }
    } finally {
      foreach ($k in $saved.Keys) { [Environment]::SetEnvironmentVariable($k, $saved[$k]) }
    }
  }
}

Describe 'Release package' {
  It 'writes the zip and a sha256sum-style digest file' {
    Test-Path $script:zip | Should -BeTrue
    $hash = (Get-FileHash $script:zip -Algorithm SHA256).Hash.ToLowerInvariant()
    (Get-Content "$script:zip.sha256" -Raw) | Should -BeExactly "$hash  iospd-$script:version.zip`n"
  }
  It 'has the layout amd64/ x86/ IoSpd/ xml/ docs/ schema/ LICENSE README.md windows-selfcheck.ps1' {
    $script:entries | Should -Contain 'amd64/iospd.exe'
    $script:entries | Should -Contain 'x86/iospd.exe'
    $script:entries | Should -Contain 'IoSpd/IoSpd.psd1'
    $script:entries | Should -Contain 'IoSpd/IoSpd.psm1'
    $script:entries | Should -Contain 'LICENSE'
    $script:entries | Should -Contain 'README.md'
    $script:entries | Should -Contain 'windows-selfcheck.ps1'
    @($script:entries | Where-Object { $_ -like 'xml/*' }).Count | Should -BeGreaterThan 0
    $top = $script:entries | ForEach-Object { ($_ -split '/')[0] } | Sort-Object -Unique
    $script:entries | Should -Contain 'schema/iospd-results.schema.json'
    $top | Should -Be @('amd64', 'docs', 'IoSpd', 'LICENSE', 'README.md', 'schema', 'windows-selfcheck.ps1', 'x86', 'xml')
  }
  It 'ships docs/ so that every relative link in README.md and docs/*.md leads to a file in the zip' {
    $script:entries | Should -Contain 'docs/README.md'
    $pages = @(Join-Path $script:unpacked 'README.md') + @(Get-ChildItem (Join-Path $script:unpacked 'docs') -Filter *.md | ForEach-Object FullName)
    $checked = 0
    foreach ($page in $pages) {
      foreach ($m in [regex]::Matches((Get-Content $page -Raw), '\]\(([^)\s#]+)(#[^)\s]*)?\)')) {
        $target = $m.Groups[1].Value
        if ($target -match '^[a-z]+:') { continue }   # http(s) and other URLs
        $path = Join-Path (Split-Path $page) $target
        Test-Path $path | Should -BeTrue -Because "$(Split-Path $page -Leaf) links to $target"
        $checked++
      }
    }
    $checked | Should -BeGreaterThan 5
  }
  It 'contains every module file and everything under xml/' {
    $root = $script:repo
    foreach ($f in Get-ChildItem (Join-Path $root 'scripts/IoSpd') -Recurse -File) {
      $rel = 'IoSpd/' + [IO.Path]::GetRelativePath((Join-Path $root 'scripts/IoSpd'), $f.FullName).Replace('\', '/')
      $script:entries | Should -Contain $rel
    }
    foreach ($f in Get-ChildItem (Join-Path $root 'xml') -Recurse -File -ErrorAction SilentlyContinue) {
      $rel = 'xml/' + [IO.Path]::GetRelativePath((Join-Path $root 'xml'), $f.FullName).Replace('\', '/')
      $script:entries | Should -Contain $rel
    }
  }
  It 'ships windows-selfcheck.ps1 unchanged; it finds amd64\iospd.exe and the IoSpd module beside it' {
    $packed = Join-Path $script:unpacked 'windows-selfcheck.ps1'
    (Get-FileHash $packed).Hash | Should -Be (Get-FileHash (Join-Path $script:repo 'scripts/windows-selfcheck.ps1')).Hash
    # In a fresh session, so no module is loaded yet.
    $pwsh = (Get-Command pwsh -CommandType Application | Select-Object -First 1).Source
    $probe = ". '$packed'; `$env:PROCESSOR_ARCHITECTURE = 'AMD64'; Resolve-SelfCheckIoSpd; Import-SelfCheckModule; (Get-Command ConvertFrom-IoSpdXml).Module.Path"
    $out = @(& $pwsh -NoProfile -NonInteractive -Command $probe)
    $LASTEXITCODE | Should -Be 0 -Because ($out -join "`n")
    $out[0] | Should -Be (Join-Path (Join-Path $script:unpacked 'amd64') 'iospd.exe')
    $out[1] | Should -Be (Join-Path (Join-Path $script:unpacked 'IoSpd') 'IoSpd.psm1')
  }
  It 'ships the MIT license' {
    $text = Get-Content (Join-Path $script:unpacked 'LICENSE') -Raw
    $text | Should -Match '^MIT License'
    $text | Should -Match 'Copyright \(c\) 2026 The iospd authors'
  }
  It 'ships a module that imports, carries the release version and has help' {
    $m = Import-Module (Join-Path $script:unpacked 'IoSpd/IoSpd.psd1') -Force -PassThru
    try {
      $m.Version.ToString() | Should -Be '1.2.3'
      @($m.ExportedFunctions.Keys | Sort-Object) | Should -Be @('ConvertFrom-IoSpdXml', 'ConvertTo-IoSpdRow', 'Get-IoSpdCsvOwner',
        'Install-IoSpd', 'Invoke-IoSpd', 'Invoke-IoSpdFleet', 'Invoke-IoSpdFleetSweep', 'Invoke-IoSpdSweep', 'Move-IoSpdCsvOwner',
        'Uninstall-IoSpd')
    } finally {
      Remove-Module $m -Force
      Import-Module (Join-Path $script:repo 'scripts/IoSpd/IoSpd.psd1') -Force
    }
  }
  It 'has an amd64 PE32+ console program that needs only system DLLs' {
    $exe = Join-Path $script:unpacked 'amd64/iospd.exe'
    (& objdump -f $exe) -join "`n" | Should -Match 'file format pei-x86-64'
    (& objdump -p $exe) -join "`n" | Should -Match 'Subsystem\s+00000003\s+\(Windows CUI\)'
    $dlls = Get-PeImports $exe
    $dlls | Should -Contain 'kernel32.dll'
    foreach ($d in $dlls) { $d | Should -Match $script:systemDll }
  }
  It 'has an x86 PE32 console program (i386) that needs only system DLLs' {
    $exe = Join-Path $script:unpacked 'x86/iospd.exe'
    $head = (& objdump -f $exe) -join "`n"
    $head | Should -Match 'file format pei-i386'
    $head | Should -Match 'architecture: i386'
    (& objdump -p $exe) -join "`n" | Should -Match 'Magic\s+010b\s+\(PE32\)'
    $dlls = Get-PeImports $exe
    $dlls | Should -Contain 'kernel32.dll'
    foreach ($d in $dlls) { $d | Should -Match $script:systemDll }
  }
  It 'installs with Install-IoSpd from the package and its .sha256 (Windows simulated)' {
    # The zip holds Windows builds only: Test-IoSpdWindows is mocked, and the
    # session Path lives in memory (Windows spells it Path).
    Mock -ModuleName IoSpd Test-IoSpdWindows { $true }
    Mock -ModuleName IoSpd Get-IoSpdArchitecture { 'amd64' }
    $script:winPath = 'C:\Windows'
    Mock -ModuleName IoSpd Get-IoSpdEnvironmentVariable -ParameterFilter { $Name -ceq 'Path' } { $script:winPath }
    Mock -ModuleName IoSpd Set-IoSpdEnvironmentVariable -ParameterFilter { $Name -ceq 'Path' } { $script:winPath = $Value }
    $dest = Join-Path $TestDrive 'installed/iospd'
    $r = Install-IoSpd -Source $script:zip -Destination $dest -Confirm:$false
    (Get-FileHash (Join-Path $dest 'amd64/iospd.exe')).Hash |
      Should -Be (Get-FileHash (Join-Path $script:unpacked 'amd64/iospd.exe')).Hash
    $r.Sha256 | Should -Be (Get-FileHash $script:zip).Hash
    $script:winPath | Should -BeExactly ('C:\Windows' + [IO.Path]::PathSeparator + (Join-Path $dest 'amd64'))
  }
  It 'is refused by Install-IoSpd on Linux: it holds Windows builds only' -Skip:($IsWindows) {
    $saved = $env:PATH
    try {
      $dest = Join-Path $TestDrive 'linux-install/iospd'
      { Install-IoSpd -Source $script:zip -Destination $dest -Confirm:$false } |
        Should -Throw '*holds only Windows executables (amd64/iospd.exe, x86/iospd.exe), which cannot run on Linux*' -ErrorId 'IoSpdPackageWrongSystem,Install-IoSpd'
      Test-Path $dest | Should -BeFalse
      $env:PATH | Should -BeExactly $saved
    } finally { $env:PATH = $saved }
  }
}

Describe 'Packaged iospd.exe under wine' {
  It 'amd64: iospd.exe -? exits 0 and prints a Usage line' {
    if (-not $script:wine) { throw 'wine is not installed (apt-get install wine64 wine); it runs the amd64 build.' }
    $r = Invoke-Wine (Join-Path $script:unpacked 'amd64/iospd.exe') @('-?')
    $r.ExitCode | Should -Be 0 -Because "iospd.exe -? printed:`n$($r.Text)"
    $r.Text | Should -Match '(?m)^\s*Usage'
  }
  It 'x86: iospd.exe -? exits 0 and prints a Usage line (wine32, WoW64)' {
    if (-not (Test-Path '/usr/lib/wine/i386-windows/kernel32.dll') -and -not (Test-Path '/usr/lib/i386-linux-gnu/wine')) {
      throw 'wine32 (i386) is not installed; scripts/deps.sh installs it (wine32:i386). It runs the x86 build.'
    }
    $r = Invoke-Wine (Join-Path $script:unpacked 'x86/iospd.exe') @('-?')
    $r.ExitCode | Should -Be 0 -Because "iospd.exe -? printed:`n$($r.Text)"
    $r.Text | Should -Match '(?m)^\s*Usage'
  }
}
