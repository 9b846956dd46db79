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
    'Uninstall-IoSpd'
  )
  FormatsToProcess     = @('IoSpd.Format.ps1xml')
  CmdletsToExport      = @()
  VariablesToExport    = @()
  AliasesToExport      = @()
  # PowerShell Gallery metadata (Publish-PSResource reads PSData). The
  # project's own web address goes into ProjectUri once it has one.
  PrivateData          = @{
    PSData = @{
      Tags         = @('storage', 'benchmark', 'diskspd', 'iospd', 'io_uring', 'IOCP', 'csv', 'cluster',
        'PSEdition_Desktop', 'PSEdition_Core', 'Windows', 'Linux')
      LicenseUri   = 'https://opensource.org/licenses/MIT'
      ReleaseNotes = @'
0.1.0: iospd's warnings are Write-Warning and a Warnings property on every
result (per node in a fleet); fleet results show one row per node and a
cluster row, a failed node is an ErrorRecord carrying the partial result,
node work files are removed unless -KeepNodeFiles; files piped to
Invoke-IoSpd become its targets; -ExecutablePath (alias -Path) names the
iospd executable; failed sweep points are errors with the point attached;
sizes accept 64KiB; ConvertTo-IoSpdRow keeps Process-DiskSpd's Affinity and
Add1..Add3 columns.
'@
    }
  }
}
