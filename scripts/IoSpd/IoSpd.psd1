# SPDX-License-Identifier: MIT
# Module manifest of IoSpd: PowerShell helpers around the iospd storage
# benchmark (install, run, parse results, Cluster Shared Volume ownership).
@{
  RootModule           = 'IoSpd.psm1'
  ModuleVersion        = '0.1.0'
  GUID                 = '4b0f7a52-1c3e-4d8e-9a51-6f2d3c9e7a10'
  Author               = 'The iospd authors'
  CompanyName          = 'The iospd authors'
  Copyright            = 'Copyright (c) 2026 The iospd authors. MIT License.'
  Description          = 'Install iospd, run DISKSPD-compatible benchmarks and sweeps, turn -Rxml results into objects, and align Cluster Shared Volume ownership before a run.'
  PowerShellVersion    = '5.1'
  CompatiblePSEditions = @('Desktop', 'Core')
  FunctionsToExport    = @(
    'ConvertFrom-IoSpdXml'
    'ConvertTo-IoSpdRow'
    'Get-IoSpdCsvOwner'
    'Install-IoSpd'
    'Invoke-IoSpd'
    'Invoke-IoSpdFleet'
    'Invoke-IoSpdFleetSweep'
    'Invoke-IoSpdSweep'
    'Move-IoSpdCsvOwner'
  )
  FormatsToProcess     = @('IoSpd.Format.ps1xml')
  CmdletsToExport      = @()
  VariablesToExport    = @()
  AliasesToExport      = @()
  PrivateData          = @{
    PSData = @{
      Tags       = @('storage', 'benchmark', 'diskspd', 'iospd', 'csv', 'cluster')
      LicenseUri = 'https://opensource.org/licenses/MIT'
    }
  }
}
