# SPDX-License-Identifier: MIT
# The IoSpd module as a whole: manifest, exports, comment-based help with
# examples for every public function, CmdletBinding, and a parse check of
# every script (PSScriptAnalyzer is not available from NuGet here).

BeforeDiscovery {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  $script:publicNames = @(Get-ChildItem (Join-Path $repo 'scripts/IoSpd/Public') -Filter *.ps1 | ForEach-Object BaseName)
  $script:scriptFiles = @(Get-ChildItem (Join-Path $repo 'scripts/IoSpd'), (Join-Path $repo 'tests/pester') -Recurse -Include *.ps1, *.psm1, *.psd1 |
      ForEach-Object { @{ File = $_.FullName; Name = $_.Name } })
}

BeforeAll {
  $script:repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  $script:module = Import-Module (Join-Path $script:repo 'scripts/IoSpd/IoSpd.psd1') -Force -PassThru
}

Describe 'IoSpd module' {
  It 'has a valid manifest' {
    $m = Test-ModuleManifest (Join-Path $script:repo 'scripts/IoSpd/IoSpd.psd1')
    $m.Name | Should -Be 'IoSpd'
    $m.RootModule | Should -Be 'IoSpd.psm1'
  }
  It 'exports exactly the public functions listed in the manifest' {
    @($script:module.ExportedFunctions.Keys | Sort-Object) | Should -Be @('ConvertFrom-IoSpdXml', 'ConvertTo-IoSpdRow',
      'Get-IoSpdCsvOwner', 'Install-IoSpd', 'Invoke-IoSpd', 'Invoke-IoSpdFleet', 'Invoke-IoSpdFleetSweep', 'Invoke-IoSpdSweep',
      'Move-IoSpdCsvOwner', 'Uninstall-IoSpd')
    $files = @(Get-ChildItem (Join-Path $script:repo 'scripts/IoSpd/Public') -Filter *.ps1 | ForEach-Object BaseName)
    @($script:module.ExportedFunctions.Keys | Sort-Object) | Should -Be @($files | Sort-Object)
  }
  It 'keeps the private helpers private' {
    Get-Command ConvertTo-IoSpdArgumentList -ErrorAction SilentlyContinue | Should -BeNullOrEmpty
    Get-Command Test-IoSpdElevated -ErrorAction SilentlyContinue | Should -BeNullOrEmpty
  }
}

Describe 'Help of <_>' -ForEach $script:publicNames {
  BeforeAll {
    $script:name = $_
    $script:help = Get-Help $_ -Full
    $script:cmd = Get-Command $_
  }
  It 'has a synopsis and a description' {
    $help.Synopsis | Should -Not -BeNullOrEmpty
    $help.Synopsis | Should -Not -Match ([regex]::Escape($name) + ' \[')   # not the generated syntax line
    ($help.description | Out-String).Trim() | Should -Not -BeNullOrEmpty
  }
  It 'has at least two examples that call the function' {
    $ex = @($help.examples.example)
    $ex.Count | Should -BeGreaterOrEqual 2
    foreach ($e in $ex) { ($e.code + ($e.remarks | Out-String)) | Should -Match ([regex]::Escape($name)) }
  }
  It 'uses CmdletBinding' {
    $cmd.CmdletBinding | Should -BeTrue
  }
  # Read from the source's comment-based help, not from Get-Help: Get-Help
  # lists every parameter whether or not the source documents it, and drops
  # a .PARAMETER that names no parameter, so a test through it cannot fail.
  # Deliberate breakage that this test catches: rename ".PARAMETER Latency"
  # to ".PARAMETER Latencies" in Invoke-IoSpd.ps1 (missing: Latency; extra:
  # Latencies), or delete it.
  It 'documents every parameter it declares, and only those, in its own help' {
    $file = Join-Path $script:repo "scripts/IoSpd/Public/$name.ps1"
    $ast = [Management.Automation.Language.Parser]::ParseFile($file, [ref]$null, [ref]$null)
    $fn = $ast.Find({ param($a) $a -is [Management.Automation.Language.FunctionDefinitionAst] -and $a.Name -eq $name }, $true)
    $fn | Should -Not -BeNullOrEmpty -Because "$file defines $name"
    $declared = @($fn.Body.ParamBlock.Parameters | ForEach-Object { $_.Name.VariablePath.UserPath.ToUpperInvariant() } | Sort-Object)
    $documented = @($fn.GetHelpContent().Parameters.Keys | ForEach-Object { $_.ToUpperInvariant() } | Sort-Object)
    @($declared | Where-Object { $documented -notcontains $_ }) | Should -BeNullOrEmpty -Because 'every parameter needs a .PARAMETER entry'
    @($documented | Where-Object { $declared -notcontains $_ }) | Should -BeNullOrEmpty -Because 'a .PARAMETER must name a parameter'
    foreach ($k in $fn.GetHelpContent().Parameters.Keys) {
      $fn.GetHelpContent().Parameters[$k].Trim() | Should -Not -BeNullOrEmpty -Because ".PARAMETER $k needs a description"
    }
  }
}

Describe 'Script file <Name>' -ForEach $script:scriptFiles {
  It 'parses without errors' {
    $tokens = $null; $errors = $null
    $null = [Management.Automation.Language.Parser]::ParseFile($File, [ref]$tokens, [ref]$errors)
    @($errors | ForEach-Object { "$($_.Extent.StartLineNumber): $($_.Message)" }) | Should -BeNullOrEmpty
  }
  It 'starts with the SPDX line' {
    (Get-Content -LiteralPath $File -TotalCount 1) | Should -Be '# SPDX-License-Identifier: MIT'
  }
}
