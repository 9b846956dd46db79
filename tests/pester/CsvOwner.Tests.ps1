# SPDX-License-Identifier: MIT
# Get-IoSpdCsvOwner and Move-IoSpdCsvOwner against Mocks of the
# FailoverClusters cmdlets. Stub functions stand in for the cmdlets so that
# Mock has something to mock where the module does not exist (Linux); every
# stub THROWS, and every Mock has a -ParameterFilter naming the call it
# expects, so a call with other parameters (or one no test expects) reaches
# the stub and fails the test instead of quietly returning nothing.
#
# Each test can fail; a comment "Breakage:" names a deliberate change of the
# module that makes it fail (tried when the test was written).

BeforeAll {
  $repo = (Resolve-Path (Join-Path $PSScriptRoot '../..')).Path
  $script:psd1 = Join-Path $repo 'scripts/IoSpd/IoSpd.psd1'
  Import-Module $script:psd1 -Force

  # Same parameter names as the real cmdlets, so ParameterFilter can see them.
  function global:Get-ClusterSharedVolume {
    param([Parameter(Position = 0)] [string[]] $Name, [string] $Cluster)
    throw "unexpected call: Get-ClusterSharedVolume -Name '$Name' (no Mock matches)"
  }
  function global:Get-ClusterSharedVolumeState {
    param([Parameter(Position = 0)] [string[]] $Name, [string[]] $Node, [string] $Cluster)
    throw "unexpected call: Get-ClusterSharedVolumeState -Name '$Name' -Node '$Node' (no Mock matches)"
  }
  function global:Move-ClusterSharedVolume {
    param([Parameter(Position = 0)] [string] $Name, [Parameter(Position = 1)] [string] $Node, [string] $Cluster)
    throw "unexpected call: Move-ClusterSharedVolume -Name '$Name' -Node '$Node' (no Mock matches)"
  }

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
    # Breakage: drop Assert-IoSpdFailoverClusters -> the Should -Invoke of
    # this mock fails (0 calls), and the "module absent" test gets no error.
    Mock -ModuleName IoSpd Get-Module { [pscustomobject]@{ Name = 'FailoverClusters' } } -ParameterFilter {
      $ListAvailable -and $Name -eq 'FailoverClusters' }
    Mock -ModuleName IoSpd Get-IoSpdComputerName { 'NODE1' }
    # Only the unfiltered listing of all CSVs is expected here.
    Mock -ModuleName IoSpd Get-ClusterSharedVolume -ParameterFilter { -not $Name -and -not $Cluster } {
      New-TestCsv 'Cluster Disk 1' 'NODE2' 'C:\ClusterStorage\Volume1'
      New-TestCsv 'Cluster Disk 10' 'NODE1' 'C:\ClusterStorage\Volume10'
      New-TestCsv 'Cluster Disk 3' 'node1' 'C:\ClusterStorage\Volume1\nested'
    }
    # State is asked for the local node only.
    Mock -ModuleName IoSpd Get-ClusterSharedVolumeState -ParameterFilter { $Node -eq 'NODE1' -and @($Name).Count -eq 1 } {
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
    Should -Invoke -ModuleName IoSpd Get-ClusterSharedVolume -Times 1 -Exactly
  }
  It 'does not match Volume1 for a path on Volume10 (whole path components only)' {
    # Breakage: StartsWith($vol) without the '\' -> Cluster Disk 1.
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
    Mock -ModuleName IoSpd Get-ClusterSharedVolumeState -ParameterFilter { $Name -eq 'Cluster Disk 10' -and $Node -eq 'NODE1' } {
      [pscustomobject]@{ Name = $Name[0]; Node = $Node[0]; StateInfo = 'FileSystemRedirected'
        FileSystemRedirectedIOReason = 'UserRequest'; BlockRedirectedIOReason = 'NotBlockRedirected' }
    }
    $r = Get-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume10\t.dat'
    $r.StateInfo | Should -Be 'FileSystemRedirected'
    $r.IsRedirected | Should -BeTrue
    $r.FileSystemRedirectedIOReason | Should -Be 'UserRequest'
  }
  It 'resolves a relative path against the PowerShell location, not the process directory' {
    # Breakage: [IO.Path]::GetFullPath($Path) (the process directory, which
    # Push-Location does not change) -> "not on a Cluster Shared Volume".
    $here = Join-Path $TestDrive 'csvloc'
    $null = New-Item -ItemType Directory -Path $here -Force
    $vol = $here -replace '/', '\'
    Mock -ModuleName IoSpd Get-ClusterSharedVolume -ParameterFilter { -not $Name } { New-TestCsv 'Here' 'NODE1' $vol }
    Push-Location $here
    try { $r = Get-IoSpdCsvOwner -Path 'sub/../t.dat' } finally { Pop-Location }
    [Environment]::CurrentDirectory | Should -Not -Be $here
    $r.CsvName | Should -Be 'Here'
    $r.Path | Should -Be "$vol\t.dat"
  }
  It 'gives a non-terminating IoSpdPathNotOnCsv error for a path off the CSVs and goes on with the next' {
    # Breakage: a bare throw -> the second path is never looked up.
    $r = @('D:\data\t.dat', 'C:\ClusterStorage\Volume10\t.dat' | Get-IoSpdCsvOwner -ErrorAction SilentlyContinue -ErrorVariable ev)
    $r.Count | Should -Be 1
    $r[0].CsvName | Should -Be 'Cluster Disk 10'
    $ev.Count | Should -Be 1
    $ev[0].FullyQualifiedErrorId | Should -Be 'IoSpdPathNotOnCsv,Get-IoSpdCsvOwner'
    $ev[0].CategoryInfo.Category | Should -Be 'ObjectNotFound'
    $ev[0].TargetObject | Should -Be 'D:\data\t.dat'
    "$($ev[0])" | Should -BeLike "'D:\data\t.dat' is not on a Cluster Shared Volume*"
    Should -Invoke -ModuleName IoSpd Get-ClusterSharedVolumeState -Times 1 -Exactly
  }
  It 'stops with -ErrorAction Stop on a path off the CSVs' {
    { Get-IoSpdCsvOwner -Path 'D:\data\t.dat' -ErrorAction Stop } |
      Should -Throw "*'D:\data\t.dat' is not on a Cluster Shared Volume*" -ErrorId 'IoSpdPathNotOnCsv,Get-IoSpdCsvOwner'
    Should -Invoke -ModuleName IoSpd Get-ClusterSharedVolumeState -Times 0 -Exactly
  }
  It 'stops (terminating, NotInstalled) when the FailoverClusters module is absent, even with -ErrorAction SilentlyContinue' {
    Mock -ModuleName IoSpd Get-Module { } -ParameterFilter { $ListAvailable -and $Name -eq 'FailoverClusters' }
    $err = { Get-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -ErrorAction SilentlyContinue } |
      Should -Throw '*FailoverClusters PowerShell module is not available*RSAT-Clustering-PowerShell*' -ErrorId 'IoSpdFailoverClustersMissing,Get-IoSpdCsvOwner' -PassThru
    $err.CategoryInfo.Category | Should -Be 'NotInstalled'
    Should -Invoke -ModuleName IoSpd Get-ClusterSharedVolume -Times 0 -Exactly
  }
}

Describe 'Move-IoSpdCsvOwner' {
  BeforeEach {
    $script:owner = 'NODE2'
    $script:polls = 0
    $script:moves = [Collections.ArrayList]::new()
    Mock -ModuleName IoSpd Get-Module { [pscustomobject]@{ Name = 'FailoverClusters' } } -ParameterFilter {
      $ListAvailable -and $Name -eq 'FailoverClusters' }
    Mock -ModuleName IoSpd Get-IoSpdComputerName { 'NODE1' }
    Mock -ModuleName IoSpd Start-Sleep { } -ParameterFilter { $Milliseconds -gt 0 }
    Mock -ModuleName IoSpd Get-ClusterSharedVolumeState -ParameterFilter { $Name -eq 'Cluster Disk 1' -and $Node -eq 'NODE1' } {
      [pscustomobject]@{ Name = $Name[0]; Node = $Node[0]; StateInfo = 'Direct' }
    }
    # Unfiltered calls list all CSVs; -Name 'Cluster Disk 1' calls are the
    # polls, and the owner changes on the third poll.
    Mock -ModuleName IoSpd Get-ClusterSharedVolume -ParameterFilter { -not $Name } {
      New-TestCsv 'Cluster Disk 1' $script:owner 'C:\ClusterStorage\Volume1'
    }
    Mock -ModuleName IoSpd Get-ClusterSharedVolume -ParameterFilter { $Name -eq 'Cluster Disk 1' } {
      $script:polls++
      if ($script:polls -ge 3) { $script:owner = $script:target }
      New-TestCsv 'Cluster Disk 1' $script:owner 'C:\ClusterStorage\Volume1'
    }
    # Records every move; only moves of Cluster Disk 1 are expected.
    Mock -ModuleName IoSpd Move-ClusterSharedVolume -ParameterFilter { $Name -eq 'Cluster Disk 1' } {
      $null = $script:moves.Add("$Name -> $Node")
      $script:target = $Node
    }
  }

  It 'moves the CSV to this node and waits until the cluster shows it' {
    $r = Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -Confirm:$false
    $script:moves | Should -Be @('Cluster Disk 1 -> NODE1')
    Should -Invoke -ModuleName IoSpd Move-ClusterSharedVolume -Times 1 -Exactly -ParameterFilter {
      $Name -eq 'Cluster Disk 1' -and $Node -eq 'NODE1' }
    Should -Invoke -ModuleName IoSpd Get-ClusterSharedVolume -Times 3 -Exactly -ParameterFilter { $Name -eq 'Cluster Disk 1' }
    Should -Invoke -ModuleName IoSpd Start-Sleep -Times 2 -Exactly -ParameterFilter { $Milliseconds -eq 500 }
    $r.OwnerNode | Should -Be 'NODE1'
    $r.IsLocalOwner | Should -BeTrue
  }
  It 'moves to a named node' {
    $r = Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -Node NODE3 -Confirm:$false
    $script:moves | Should -Be @('Cluster Disk 1 -> NODE3')
    $r.OwnerNode | Should -Be 'NODE3'
    $r.IsLocalOwner | Should -BeFalse
  }
  It 'does nothing when the node already owns the CSV' {
    # Breakage: drop the "already owned" check -> a move is recorded.
    $script:owner = 'NODE1'
    $r = Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -Confirm:$false
    $script:moves.Count | Should -Be 0
    $r.IsLocalOwner | Should -BeTrue
  }
  It 'moves nothing with -WhatIf: a call of Move-ClusterSharedVolume fails the test' {
    # Breakage: call Move-ClusterSharedVolume before (or without)
    # ShouldProcess -> this mock throws, and the recorded list is not empty.
    Mock -ModuleName IoSpd Move-ClusterSharedVolume -ParameterFilter { $true } {
      $null = $script:moves.Add("$Name -> $Node (under -WhatIf)")
      throw 'Move-ClusterSharedVolume was called under -WhatIf'
    }
    $out = @(Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -WhatIf -ErrorVariable ev)
    $script:moves.Count | Should -Be 0
    $ev.Count | Should -Be 0
    $out.Count | Should -Be 0
    Should -Invoke -ModuleName IoSpd Move-ClusterSharedVolume -Times 0 -Exactly
    Should -Invoke -ModuleName IoSpd Get-ClusterSharedVolume -Times 0 -Exactly -ParameterFilter { $Name -eq 'Cluster Disk 1' }
    Should -Invoke -ModuleName IoSpd Start-Sleep -Times 0 -Exactly
  }
  It 'asks before moving (ConfirmImpact High): a session that cannot answer gets no move' {
    # A fresh runspace has no host UI, so a confirmation prompt fails there
    # instead of waiting. With the default $ConfirmPreference (High) the
    # call without -Confirm:$false must prompt; with it, it must move.
    # Breakage: ConfirmImpact Medium or Low -> no prompt, the move happens.
    $ps = [powershell]::Create()
    try {
      $null = $ps.AddScript({
          param($Psd1)
          Import-Module $Psd1 -Force
          $global:moves = [Collections.ArrayList]::new()
          function global:Get-ClusterSharedVolume { param([string[]] $Name) New-TestCsvHere }
          function global:New-TestCsvHere {
            [pscustomobject]@{ Name = 'Cluster Disk 1'; OwnerNode = [pscustomobject]@{ Name = $global:owner }
              SharedVolumeInfo = @([pscustomobject]@{ FriendlyVolumeName = 'C:\ClusterStorage\Volume1' }) }
          }
          function global:Get-ClusterSharedVolumeState { param([string[]] $Name, [string[]] $Node) [pscustomobject]@{ StateInfo = 'Direct' } }
          function global:Move-ClusterSharedVolume { param([string] $Name, [string] $Node) $null = $global:moves.Add($Node); $global:owner = $Node }
          & (Get-Module IoSpd) {
            function script:Get-IoSpdFailoverClustersError { }
            function script:Get-IoSpdComputerName { 'NODE1' }
          }
          $global:owner = 'NODE2'
          $asked = Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -ErrorVariable askErr -ErrorAction SilentlyContinue
          $afterAsk = $global:moves.Count
          $moved = Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -Confirm:$false -PollMilliseconds 10
          [pscustomobject]@{ AfterAsk = $afterAsk; AskError = "$askErr"; Asked = $asked
            Moves = @($global:moves); Owner = $moved.OwnerNode; Impact = $ConfirmPreference }
        }).AddArgument($script:psd1)
      $res = $ps.Invoke()
      @($ps.Streams.Error | ForEach-Object { "$_" }) | Should -BeNullOrEmpty
    } finally { $ps.Dispose() }
    $res[0].Impact | Should -Be 'High'
    $res[0].AfterAsk | Should -Be 0
    $res[0].Asked | Should -BeNullOrEmpty
    $res[0].AskError | Should -BeLike '*prompts the user failed*Move to node NODE1*'
    $res[0].Moves | Should -Be @('NODE1')
    $res[0].Owner | Should -Be 'NODE1'
  }
  It 'gives a non-terminating IoSpdCsvMoveTimeout error when the owner does not change' {
    Mock -ModuleName IoSpd Move-ClusterSharedVolume -ParameterFilter { $Name -eq 'Cluster Disk 1' } { }   # the cluster never moves it
    Mock -ModuleName IoSpd Get-ClusterSharedVolume -ParameterFilter { $Name -eq 'Cluster Disk 1' } {
      New-TestCsv 'Cluster Disk 1' 'NODE2' 'C:\ClusterStorage\Volume1'
    }
    $out = Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -TimeoutSeconds 2 -PollMilliseconds 500 -Confirm:$false `
      -ErrorAction SilentlyContinue -ErrorVariable ev
    $out | Should -BeNullOrEmpty
    $ev.Count | Should -Be 1
    $ev[0].FullyQualifiedErrorId | Should -Be 'IoSpdCsvMoveTimeout,Move-IoSpdCsvOwner'
    $ev[0].CategoryInfo.Category | Should -Be 'OperationTimeout'
    "$($ev[0])" | Should -BeLike "Timed out after 2 s waiting for 'Cluster Disk 1' to move to node 'NODE1'*still reports owner 'NODE2'*"
    # 2 s / 500 ms = 4 sleeps, 5 checks.
    Should -Invoke -ModuleName IoSpd Start-Sleep -Times 4 -Exactly
    Should -Invoke -ModuleName IoSpd Get-ClusterSharedVolume -Times 5 -Exactly -ParameterFilter { $Name -eq 'Cluster Disk 1' }
    { Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -TimeoutSeconds 1 -Confirm:$false -ErrorAction Stop } |
      Should -Throw -ErrorId 'IoSpdCsvMoveTimeout,Move-IoSpdCsvOwner'
  }
  It 'names the CSV and node when Move-ClusterSharedVolume fails (IoSpdCsvMoveFailed)' {
    Mock -ModuleName IoSpd Move-ClusterSharedVolume -ParameterFilter { $Name -eq 'Cluster Disk 1' } { throw 'The cluster node is paused.' }
    $err = { Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -Confirm:$false -ErrorAction Stop } |
      Should -Throw "Could not move 'Cluster Disk 1' to node 'NODE1': The cluster node is paused." -ErrorId 'IoSpdCsvMoveFailed,Move-IoSpdCsvOwner' -PassThru
    $err.CategoryInfo.Category | Should -Be 'InvalidOperation'
    Should -Invoke -ModuleName IoSpd Get-ClusterSharedVolume -Times 0 -Exactly -ParameterFilter { $Name -eq 'Cluster Disk 1' }
  }
  It 'stops when the FailoverClusters module is absent' {
    Mock -ModuleName IoSpd Get-Module { } -ParameterFilter { $ListAvailable -and $Name -eq 'FailoverClusters' }
    { Move-IoSpdCsvOwner -Path 'C:\ClusterStorage\Volume1\t.dat' -Confirm:$false } |
      Should -Throw '*FailoverClusters PowerShell module is not available*' -ErrorId 'IoSpdFailoverClustersMissing,Move-IoSpdCsvOwner'
    $script:moves.Count | Should -Be 0
  }
  It 'gives IoSpdPathNotOnCsv for a path off the CSVs and moves the next path' {
    $r = @('E:\t.dat', 'C:\ClusterStorage\Volume1\t.dat' | ForEach-Object { [pscustomobject]@{ Path = $_ } } |
        Move-IoSpdCsvOwner -Confirm:$false -ErrorAction SilentlyContinue -ErrorVariable ev)
    $ev.Count | Should -Be 1
    $ev[0].FullyQualifiedErrorId | Should -Be 'IoSpdPathNotOnCsv,Move-IoSpdCsvOwner'
    "$($ev[0])" | Should -BeLike "'E:\t.dat' is not on a Cluster Shared Volume*"
    $script:moves | Should -Be @('Cluster Disk 1 -> NODE1')
    $r.Count | Should -Be 1
  }
}

Describe 'CSV path resolution (private)' {
  It 'makes <Path> on <Base> into <Want>' -ForEach @(
    @{ Path = 't.dat'; Base = 'C:\ClusterStorage\Volume1'; Want = 'C:\ClusterStorage\Volume1\t.dat' }
    @{ Path = '..\Volume2\.\t.dat'; Base = 'C:\ClusterStorage\Volume1\'; Want = 'C:\ClusterStorage\Volume2\t.dat' }
    @{ Path = '\ClusterStorage\Volume1\t.dat'; Base = 'D:\work'; Want = 'D:\ClusterStorage\Volume1\t.dat' }
    @{ Path = 'C:/ClusterStorage/Volume1/t.dat'; Base = 'D:\work'; Want = 'C:\ClusterStorage\Volume1\t.dat' }
    @{ Path = '\\fs1\share\x\..\t.dat'; Base = 'D:\work'; Want = '\\fs1\share\t.dat' }
    @{ Path = 'C:\ClusterStorage\Volume1\'; Base = 'D:\work'; Want = 'C:\ClusterStorage\Volume1\' }
  ) {
    InModuleScope IoSpd -Parameters @{ P = $Path; B = $Base } { param($P, $B) ConvertTo-IoSpdWindowsPath -Path $P -BasePath $B } |
      Should -BeExactly $Want
  }
}
