# SPDX-License-Identifier: MIT
# scripts/package-manifests.sh: the Scoop and winget manifests of a release
# zip, with its SHA-256. No schema of either tool is available offline
# here, so the test checks the fields each tool requires (Scoop: version,
# url, hash, bin; winget singleton 1.6.0: the identity, locale, licence and
# description fields and, per installer, Architecture, InstallerType,
# NestedInstallerType/Files, InstallerUrl, InstallerSha256), the hash
# against the zip's own, and that every bin path is a file in the zip.

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  $script:tool = Join-Path $repo 'scripts/package-manifests.sh'
}

Describe 'Scoop and winget manifests of the release zip' -Skip:($IsWindows) {
  BeforeAll {
    $script:out = Join-Path $TestDrive 'dist'
    $stage = Join-Path $TestDrive 'stage'
    $null = New-Item -ItemType Directory -Force -Path $script:out, "$stage/amd64", "$stage/x86"
    Set-Content -LiteralPath "$stage/amd64/iospd.exe" -Value 'amd64 build'
    Set-Content -LiteralPath "$stage/x86/iospd.exe" -Value 'x86 build'
    $script:zip = Join-Path $script:out 'iospd-1.2.3.zip'
    Compress-Archive -Path "$stage/*" -DestinationPath $script:zip
    $script:hash = (Get-FileHash -LiteralPath $script:zip -Algorithm SHA256).Hash
    $script:entries = & python3 -c 'import sys, zipfile; print("\n".join(n.replace("\\", "/") for n in zipfile.ZipFile(sys.argv[1]).namelist()))' $script:zip
    $script:log = & bash $script:tool $script:zip 'https://example.org/releases/1.2.3/' 2>&1
    $script:rc = $LASTEXITCODE
  }
  It 'writes both files and names the hash' {
    $script:rc | Should -Be 0 -Because ($script:log -join ' ')
    "$script:log" | Should -BeLike "*sha256 $($script:hash.ToLowerInvariant())*"
    Test-Path -LiteralPath (Join-Path $script:out 'iospd.json') | Should -BeTrue
    Test-Path -LiteralPath (Join-Path $script:out 'iospd-1.2.3.winget.yaml') | Should -BeTrue
  }
  It 'has what Scoop requires, with the zip''s hash' {
    $m = Get-Content -Raw -LiteralPath (Join-Path $script:out 'iospd.json') | ConvertFrom-Json
    $m.version | Should -Be '1.2.3'
    $m.license | Should -Be 'MIT'
    $m.homepage | Should -Be 'https://example.org/releases/1.2.3'
    $m.description | Should -Not -BeNullOrEmpty
    foreach ($a in '64bit', '32bit') {
      $arch = $m.architecture.$a
      $arch.url | Should -BeExactly 'https://example.org/releases/1.2.3/iospd-1.2.3.zip'
      $arch.hash | Should -BeExactly $script:hash.ToLowerInvariant()
      $script:entries | Should -Contain ($arch.bin -replace '\\', '/')
    }
    $m.architecture.'64bit'.bin | Should -BeExactly 'amd64\iospd.exe'
  }
  It 'has what winget requires (singleton 1.6.0), with the zip''s hash' {
    $json = & python3 -c 'import json, sys, yaml; print(json.dumps(yaml.safe_load(open(sys.argv[1]))))' (Join-Path $script:out 'iospd-1.2.3.winget.yaml')
    $LASTEXITCODE | Should -Be 0
    $w = $json | ConvertFrom-Json
    foreach ($k in 'PackageIdentifier', 'PackageVersion', 'PackageLocale', 'Publisher', 'PackageName', 'License', 'ShortDescription') {
      [string]$w.$k | Should -Not -BeNullOrEmpty -Because "winget requires $k"
    }
    $w.PackageIdentifier | Should -Match '^[^.\s]+(\.[^.\s]+)+$'
    $w.PackageVersion | Should -Be '1.2.3'
    $w.PackageLocale | Should -Be 'en-US'
    $w.ManifestType | Should -Be 'singleton'
    $w.ManifestVersion | Should -Be '1.6.0'
    @($w.Installers).Count | Should -Be 2
    @($w.Installers.Architecture) | Should -Be @('x64', 'x86')
    foreach ($i in $w.Installers) {
      $i.InstallerType | Should -Be 'zip'
      $i.NestedInstallerType | Should -Be 'portable'
      $i.InstallerUrl | Should -BeExactly 'https://example.org/releases/1.2.3/iospd-1.2.3.zip'
      $i.InstallerSha256 | Should -BeExactly $script:hash.ToUpperInvariant()
      $i.InstallerSha256 | Should -Match '^[0-9A-F]{64}$'
      $i.NestedInstallerFiles[0].PortableCommandAlias | Should -Be 'iospd'
      $script:entries | Should -Contain ($i.NestedInstallerFiles[0].RelativeFilePath -replace '\\', '/')
    }
  }
  It 'refuses <Why>' -ForEach @(
    @{ Why = 'a zip not named iospd-<version>.zip'; Name = 'other.zip'; Url = 'https://example.org/r'; Msg = "*'other.zip' is not named iospd-<version>.zip*" }
    @{ Why = 'a base URL that is not https'; Name = 'iospd-1.0.zip'; Url = 'http://example.org/r'; Msg = '*must start with https://*' }
  ) {
    $z = Join-Path $TestDrive $Name
    Copy-Item -LiteralPath $script:zip -Destination $z
    $msg = & bash $script:tool $z $Url 2>&1
    $LASTEXITCODE | Should -Be 2
    "$msg" | Should -BeLike $Msg
  }
}
