# SPDX-License-Identifier: MIT
# Root module of IoSpd: loads the private helpers and the public functions
# (one file each) and exports only the public ones.
Set-StrictMode -Version 3.0

foreach ($folder in 'Private', 'Public') {
  $dir = Join-Path $PSScriptRoot $folder
  foreach ($file in Get-ChildItem -Path $dir -Filter '*.ps1' -File | Sort-Object Name) {
    . $file.FullName
  }
}

$public = Get-ChildItem -Path (Join-Path $PSScriptRoot 'Public') -Filter '*.ps1' -File |
  ForEach-Object { $_.BaseName }
Export-ModuleMember -Function $public
