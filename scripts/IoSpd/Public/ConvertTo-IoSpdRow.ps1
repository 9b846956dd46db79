# SPDX-License-Identifier: MIT
# ConvertTo-IoSpdRow: one flat row per result (file and time span) with the
# columns Process-DiskSpd.ps1 users know, and a folder/wildcard mode that
# writes all rows of many result files to one TSV or CSV file.

function ConvertTo-IoSpdRow {
  <#
  .SYNOPSIS
  Turns iospd/DISKSPD results into flat rows (Process-DiskSpd.ps1 columns) and writes them as TSV or CSV.

  .DESCRIPTION
  Makes one IoSpd.Row per result, that is per result file and time span,
  from IoSpd.Result objects (ConvertFrom-IoSpdXml, Invoke-IoSpd) or from
  result files (-Path: files, folders, wildcards). The columns carry the
  names Process-DiskSpd.ps1 uses, so its spreadsheets keep working:

  ResultFileName (file name without .xml), TimeSpan, System, Path (target
  paths, ';' between several), TestTime (s), Block (bytes), Outstanding,
  Threads, WriteRatio, Pattern (Random, Sequential, Mixed), RandomPercent,
  Align; ReadIOPS, WriteIOPS, TotIOPS; ReadBW, WriteBW, TotBW (bytes/s);
  ReadMiBps, WriteMiBps, TotMiBps; ReadBytes, WriteBytes; IOPSCoV,
  ReadIOPSCoV, WriteIOPSCoV (coefficient of variation of the -D interval
  buckets, $null without -D); CPU, CPUKern (average %), CPUHotCore,
  CPUHotCoreKern (highest CPU); LatAV, LatReadAV, LatWriteAV (ms); and the
  latency percentiles in ms LatRead25, LatRead50, LatRead75, LatRead90,
  LatRead95, LatRead99, LatRead99.9, LatRead99.99, LatRead99.999,
  LatRead99.9999, LatRead99.99999, LatRead99.999999, LatRead100 and the
  same LatWrite... columns.

  Nothing is invented: a value the run did not measure (latency without
  -L, a kind of I/O that did not happen, CoV without -D) is $null, an
  empty field in the file. A setting the targets do not share is $null.

  With -OutFile all rows go to one file (UTF-8, header line, fields quoted
  only when needed, numbers with '.' whatever the culture): tab-separated
  for .tsv/.tab/.txt, comma-separated for .csv, or -Delimiter. Files that
  cannot be read give an error each and the others are still written.

  .PARAMETER InputObject
  IoSpd.Result objects, or files and folders (FileInfo, DirectoryInfo).

  .PARAMETER Path
  Result files or folders (a folder means its *.xml files); wildcards are
  expanded and relative paths start at the PowerShell location.

  .PARAMETER LiteralPath
  Like -Path, without wildcard expansion.

  .PARAMETER OutFile
  Write all rows to this file instead of returning them.

  .PARAMETER Delimiter
  Field separator for -OutFile; default from its extension.

  .PARAMETER PassThru
  With -OutFile, also return the rows.

  .EXAMPLE
  ConvertTo-IoSpdRow -Path D:\results -OutFile D:\results\result.tsv

  Like Process-DiskSpd.ps1: every *.xml in D:\results becomes a row of result.tsv.

  .EXAMPLE
  ConvertTo-IoSpdRow -Path .\sweep\*-b4K-*.xml | Format-Table

  Shows the 4 KiB points of a sweep as a table (latencies in ms, 3 decimals).

  .EXAMPLE
  Invoke-IoSpd -Target D:\t.dat -BlockSize 4K -Random -Latency -Duration 30 | ConvertTo-IoSpdRow -OutFile run.csv -PassThru

  Runs a test and keeps its row in a CSV file.

  .OUTPUTS
  IoSpd.Row (none with -OutFile unless -PassThru).
  #>
  [CmdletBinding(DefaultParameterSetName = 'InputObject', SupportsShouldProcess)]
  [OutputType('IoSpd.Row')]
  param(
    [Parameter(Mandatory, ValueFromPipeline, ParameterSetName = 'InputObject')]
    [object[]] $InputObject,

    [Parameter(Mandatory, Position = 0, ParameterSetName = 'Path')]
    [SupportsWildcards()]
    [string[]] $Path,

    [Parameter(Mandatory, ParameterSetName = 'LiteralPath')]
    [Alias('PSPath')]
    [string[]] $LiteralPath,

    [string] $OutFile,

    [ValidateNotNullOrEmpty()]
    [string] $Delimiter,

    [switch] $PassThru
  )
  begin {
    $rows = New-Object System.Collections.Generic.List[object]
    $outPath = $null
    $sep = $Delimiter
    if ($PSBoundParameters.ContainsKey('Delimiter') -and -not $OutFile) {
      $PSCmdlet.ThrowTerminatingError((New-IoSpdResultError -Id 'IoSpdRowDelimiterWithoutOutFile' -Category InvalidArgument -Target $Delimiter -Message (
            '-Delimiter only applies to -OutFile; give -OutFile too, or pipe the rows to Export-Csv -Delimiter.')))
    }
    if ($OutFile) {
      $outPath = $PSCmdlet.SessionState.Path.GetUnresolvedProviderPathFromPSPath($OutFile)
      if (-not $PSBoundParameters.ContainsKey('Delimiter')) {
        $sep = switch ([IO.Path]::GetExtension($outPath).ToLowerInvariant()) {
          '.csv' { ','; break }
          { $_ -in '.tsv', '.tab', '.txt' } { "`t"; break }
          default { $null }
        }
        if ($null -eq $sep) {
          $PSCmdlet.ThrowTerminatingError((New-IoSpdResultError -Id 'IoSpdRowUnknownFormat' -Category InvalidArgument -Target $OutFile -Message (
                "Cannot tell the format of '$OutFile' from its extension: name it .tsv or .csv, or give -Delimiter.")))
        }
      }
    }
  }
  process {
    $results = New-Object System.Collections.Generic.List[object]
    $files = @()
    switch ($PSCmdlet.ParameterSetName) {
      'Path' { $files = @(Resolve-IoSpdResultFile -Path $Path -Cmdlet $PSCmdlet) }
      'LiteralPath' { $files = @(Resolve-IoSpdResultFile -Path $LiteralPath -Literal -Cmdlet $PSCmdlet) }
      default {
        foreach ($o in $InputObject) {
          if ($null -eq $o) { continue }
          if ($o -is [IO.FileSystemInfo]) { $files += @(Resolve-IoSpdResultFile -Path $o.FullName -Literal -Cmdlet $PSCmdlet) }
          elseif ($o.PSObject.TypeNames -contains 'IoSpd.Result') { $results.Add($o) }
          else {
            $PSCmdlet.WriteError((New-IoSpdResultError -Id 'IoSpdRowNotAResult' -Category InvalidArgument -Target $o -Message (
                  "ConvertTo-IoSpdRow takes IoSpd.Result objects (ConvertFrom-IoSpdXml, Invoke-IoSpd) or result files, not $($o.GetType().FullName).")))
          }
        }
      }
    }
    foreach ($f in $files) {
      $items = if ($f -is [Management.Automation.ErrorRecord]) { $f } else { Read-IoSpdResultFile -FullPath $f }
      foreach ($i in $items) {
        if ($i -is [Management.Automation.ErrorRecord]) { $PSCmdlet.WriteError($i) } else { $results.Add($i) }
      }
    }
    foreach ($r in $results) {
      $row = ConvertTo-IoSpdRowObject -Result $r
      if ($outPath) {
        $rows.Add($row)
        if ($PassThru) { $row }
      } else { $row }
    }
  }
  end {
    if (-not $outPath) { return }
    if ($rows.Count -eq 0) {
      $PSCmdlet.WriteError((New-IoSpdResultError -Id 'IoSpdRowNoResults' -Category ObjectNotFound -Target $OutFile -Message (
            "No results to write; '$OutFile' was not written.")))
      return
    }
    if ($PSCmdlet.ShouldProcess($outPath, "Write $($rows.Count) result row(s)")) {
      $text = ConvertTo-IoSpdDelimitedText -Row $rows.ToArray() -Delimiter $sep
      [IO.File]::WriteAllText($outPath, $text, [Text.UTF8Encoding]::new($false))
    }
  }
}
