# SPDX-License-Identifier: MIT
# Get-IoSpdCsvOwner and Move-IoSpdCsvOwner against Mocks of the
# FailoverClusters cmdlets. Stub functions stand in for the cmdlets so that
# Mock has something to mock where the module does not exist (Linux).

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  Import-Module (Join-Path $repo 'scripts/IoSpd/IoSpd.psd1') -Force

  # Same parameter names as the real cmdlets, so ParameterFilter can see them.
  function global:Get-ClusterSharedVolume { param([Parameter(Position = 0)] [string[]] $Name, [string] $Cluster) }
  function global:Get-ClusterSharedVolumeState { param([Parameter(Position = 0)] [string[]] $Name, [string[]] $Node, [string] $Cluster) }
  function global:Move-ClusterSharedVolume { param([Parameter(Position = 0)] [string] $Name, [Parameter(Position = 1)] [string] $Node, [string] $Cluster) }

  function global:New-TestCsv([string] $Name, [string] $Owner, [string[]] $Mount) {
    [pscustomobject]@{
      Name             = $Name
      OwnerNode        = [pscustomobject]@{ Name = $Owner; State = 'Up' }
      State            = 'Online'
      SharedVolumeInfo = @($Mount | ForEach-Object {
          [pscustomobject]@{ FriendlyVolumeName = $_; RedirectedAccess = $false } })
    }
  }
}

AfterAll {
  Remove-Item Function:\Get-ClusterSharedVolume, Function:\Get-ClusterSharedVolumeState,
    Function:\Move-ClusterSharedVolume, Function:\New-TestCsv -ErrorAction SilentlyContinue
}

Describe 'Get-IoSpdCsvOwner' {
  BeforeEach {
    Mock -ModuleName IoSpd Get-Module { [pscustomobject]@{ Name = 'FailoverClusters' } } -ParameterFilter { $Name -eq 'FailoverClusters' }
    Mock -ModuleName IoSpd Get-IoSpdComputerName { 'NODE1' }
    Mock -ModuleName IoSpd Get-ClusterSharedVolume {
      New-TestCsv 'Cluster Disk 1' 'NODE2' 'C:\ClusterStorage\Volume1'
      New-TestCsv 'Cluster Disk 10' 'NODE1' 'C:\ClusterStorage\Volume10'
      New-TestCsv 'Cluster Disk 3' 'node1' 'C:\ClusterStorage\Volume1\nested'
    }
    Mock -ModuleName IoSpd Get-ClusterSharedVolumeState {
      [pscustomobject]@{ Name = $Name[0]; Node = $Node[0]; StateInfo = 'Direct'
        FileSystemRedirectedIOReason = 'NotFileSystemRedirected'; BlockRedirectedIOReason = 'NotBlockRedirected' }
    }
  }

  It 'finds the CSV by mount-point prefix and reports a remote owner' {
    $r = Get-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\iospd\test.dat'
    $r.CsvName | Should -Be 'Cluster Disk 1'
    $r.VolumePath | Should -Be 'C:\ClusterStorage\Volume1'
    $r.OwnerNode | Should -Be 'NODE2'
    $r.LocalNode | Should -Be 'NODE1'
    $r.IsLocalOwner | Should -BeFalse
    $r.StateInfo | Should -Be 'Direct'
    $r.IsRedirected | Should -BeFalse
    $r.FileSystemRedirectedIOReason | Should -Be 'NotFileSystemRedirected'
    Should -Invoke -ModuleName IoSpd Get-ClusterSharedVolumeState -Times 1 -Exactly -ParameterFilter {
      $Name -eq 'Cluster Disk 1' -and $Node -eq 'NODE1' }
    Should -Invoke -ModuleName IoSpd Get-Module -Times 1 -Exactly -ParameterFilter { $ListAvailable -and $Name -eq 'FailoverClusters' }
  }
  It 'does not match Volume1 for a path on Volume10 (whole path components only)' {
    $r = Get-IoSpdCsvOwner -Path 'c:\clusterstorage\volume10\t.dat'
    $r.CsvName | Should -Be 'Cluster Disk 10'
    $r.IsLocalOwner | Should -BeTrue
  }
  It 'picks the longest matching mount point and compares node names without case' {
    $r = Get-IoSpdCsvOwner -Path 'C:/ClusterStorage/Volume1/nested/x.dat'
    $r.CsvName | Should -Be 'Cluster Disk 3'
    $r.Path | Should -Be 'C:\ClusterStorage\Volume1\nested\x.dat'
    $r.IsLocalOwner | Should -BeTrue
  }
  It 'matches the mount point itself' {
    (Get-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\').CsvName | Should -Be 'Cluster Disk 1'
  }
  It 'reports redirected access and its reason' {
    Mock -ModuleName IoSpd Get-ClusterSharedVolumeState {
      [pscustomobject]@{ Name = $Name[0]; Node = $Node[0]; StateInfo = 'FileSystemRedirected'
        FileSystemRedirectedIOReason = 'UserRequest'; BlockRedirectedIOReason = 'NotBlockRedirected' }
    }
    $r = Get-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume10\t.dat'
    $r.StateInfo | Should -Be 'FileSystemRedirected'
    $r.IsRedirected | Should -BeTrue
    $r.FileSystemRedirectedIOReason | Should -Be 'UserRequest'
  }
  It 'fails clearly when the path is not on a CSV' {
    { Get-IoSpdCsvOwner -Path 'D:\data\t.dat' } | Should -Throw "*'D:\data\t.dat' is not on a Cluster Shared Volume*"
    Should -Invoke -ModuleName IoSpd Get-ClusterSharedVolumeState -Times 0 -Exactly
  }
  It 'fails clearly when the FailoverClusters module is absent' {
    Mock -ModuleName IoSpd Get-Module { } -ParameterFilter { $Name -eq 'FailoverClusters' }
    { Get-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' } |
      Should -Throw '*FailoverClusters PowerShell module is not available*RSAT-Clustering-PowerShell*'
    Should -Invoke -ModuleName IoSpd Get-ClusterSharedVolume -Times 0 -Exactly
  }
}

Describe 'Move-IoSpdCsvOwner' {
  BeforeEach {
    $script:owner = 'NODE2'
    $script:polls = 0
    Mock -ModuleName IoSpd Get-Module { [pscustomobject]@{ Name = 'FailoverClusters' } } -ParameterFilter { $Name -eq 'FailoverClusters' }
    Mock -ModuleName IoSpd Get-IoSpdComputerName { 'NODE1' }
    Mock -ModuleName IoSpd Start-Sleep { }
    Mock -ModuleName IoSpd Get-ClusterSharedVolumeState {
      [pscustomobject]@{ Name = $Name[0]; Node = $Node[0]; StateInfo = 'Direct' }
    }
    # Unfiltered calls list all CSVs; -Name calls are the polls, and the
    # owner changes on the third poll.
    Mock -ModuleName IoSpd Get-ClusterSharedVolume {
      New-TestCsv 'Cluster Disk 1' $script:owner 'C:\ClusterStorage\Volume1'
    }
    Mock -ModuleName IoSpd Get-ClusterSharedVolume -ParameterFilter { $Name } {
      $script:polls++
      if ($script:polls -ge 3) { $script:owner = $script:target }
      New-TestCsv 'Cluster Disk 1' $script:owner 'C:\ClusterStorage\Volume1'
    }
    Mock -ModuleName IoSpd Move-ClusterSharedVolume { $script:target = $Node }
  }

  It 'moves the CSV to this node and waits until the cluster shows it' {
    $r = Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -Confirm:$false
    Should -Invoke -ModuleName IoSpd Move-ClusterSharedVolume -Times 1 -Exactly -ParameterFilter {
      $Name -eq 'Cluster Disk 1' -and $Node -eq 'NODE1' }
    Should -Invoke -ModuleName IoSpd Get-ClusterSharedVolume -Times 3 -Exactly -ParameterFilter { $Name -eq 'Cluster Disk 1' }
    Should -Invoke -ModuleName IoSpd Start-Sleep -Times 2 -Exactly -ParameterFilter { $Milliseconds -eq 500 }
    $r.OwnerNode | Should -Be 'NODE1'
    $r.IsLocalOwner | Should -BeTrue
  }
  It 'moves to a named node' {
    $r = Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -Node NODE3 -Confirm:$false
    Should -Invoke -ModuleName IoSpd Move-ClusterSharedVolume -Times 1 -Exactly -ParameterFilter {
      $Name -eq 'Cluster Disk 1' -and $Node -eq 'NODE3' }
    $r.OwnerNode | Should -Be 'NODE3'
    $r.IsLocalOwner | Should -BeFalse
  }
  It 'does nothing when the node already owns the CSV' {
    $script:owner = 'NODE1'
    $r = Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -Confirm:$false
    Should -Invoke -ModuleName IoSpd Move-ClusterSharedVolume -Times 0 -Exactly
    $r.IsLocalOwner | Should -BeTrue
  }
  It 'moves nothing with -WhatIf' {
    Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -WhatIf
    Should -Invoke -ModuleName IoSpd Move-ClusterSharedVolume -Times 0 -Exactly
  }
  It 'times out with a clear error when the owner does not change' {
    Mock -ModuleName IoSpd Move-ClusterSharedVolume { }   # the cluster never moves it
    Mock -ModuleName IoSpd Get-ClusterSharedVolume -ParameterFilter { $Name } {
      New-TestCsv 'Cluster Disk 1' 'NODE2' 'C:\ClusterStorage\Volume1'
    }
    { Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -TimeoutSeconds 2 -PollMilliseconds 500 -Confirm:$false } |
      Should -Throw "*Timed out after 2 s waiting for 'Cluster Disk 1' to move to node 'NODE1'*still reports owner 'NODE2'*"
    # 2 s / 500 ms = 4 sleeps, 5 checks.
    Should -Invoke -ModuleName IoSpd Start-Sleep -Times 4 -Exactly
    Should -Invoke -ModuleName IoSpd Get-ClusterSharedVolume -Times 5 -Exactly -ParameterFilter { $Name -eq 'Cluster Disk 1' }
  }
  It 'fails clearly when the FailoverClusters module is absent' {
    Mock -ModuleName IoSpd Get-Module { } -ParameterFilter { $Name -eq 'FailoverClusters' }
    { Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -Confirm:$false } |
      Should -Throw '*FailoverClusters PowerShell module is not available*'
    Should -Invoke -ModuleName IoSpd Move-ClusterSharedVolume -Times 0 -Exactly
  }
  It 'fails clearly when the path is not on a CSV' {
    { Move-IoSpdCsvOwner -Path 'E:\t.dat' -Confirm:$false } | Should -Throw "*'E:\t.dat' is not on a Cluster Shared Volume*"
    Should -Invoke -ModuleName IoSpd Move-ClusterSharedVolume -Times 0 -Exactly
  }
}
