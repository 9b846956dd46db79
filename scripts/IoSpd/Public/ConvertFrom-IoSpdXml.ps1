# SPDX-License-Identifier: MIT
# ConvertFrom-IoSpdXml: turns -Rxml results documents (iospd's or DISKSPD's,
# same layout) into one summary object per time span plus per-thread rows.

function ConvertFrom-IoSpdXml {
  <#
  .SYNOPSIS
  Converts iospd or DISKSPD -Rxml results into objects.

  .DESCRIPTION
  Reads results documents (the <Results> element written with -Rxml) and
  returns one IoSpd.Result object per <TimeSpan> with totals over all
  threads and targets: TestTimeSeconds, ThreadCount, TotalBytes, TotalIOs,
  ReadIOs, WriteIOs, IOPS, ReadIOPS, WriteIOPS, MiBps (and read/write
  variants), average latencies, IopsStdDev, CPU averages and latency
  percentiles (TotalP50Ms, ReadP99Ms, WriteP99_9Ms, ...). Rates are counts
  divided by TestTimeSeconds. ResultFile is the file the result came from
  ($null for -Xml).

  Each result also keeps its time span's profile settings: BlockSize,
  OutstandingIO, WriteRatio, Pattern (Random, Sequential, Mixed for -rs),
  RandomPercent, Alignment, ThreadsPerTarget ($null with -F) and
  ProfileTargets (each target's own values; a setting the targets do not
  share is $null in the summary), plus IopsCoV, ReadIopsCoV, WriteIopsCoV
  (coefficient of variation of the -D buckets) and CpuHotCorePercent,
  CpuHotCoreKernelPercent (busiest CPU). ConvertTo-IoSpdRow flattens it.

  What the run did not measure is $null, never 0: every latency property
  (averages, standard deviations, percentiles; result and thread rows)
  without -L or for a kind of I/O that did not happen, the IOPS standard
  deviations without -D, rates when the time span has no TestTimeSeconds.

  Each result carries Threads: one IoSpd.ThreadResult row per thread and
  target (Thread, Path, Bytes, IOs, IOPS, MiBps, AvgLatencyMs, ...), and
  Percentiles: every Latency/Bucket row. With -ThreadDetail the thread rows
  are returned instead of the summaries, ready for Export-Csv.

  Files are read one by one: a file that is missing, not a results
  document, not well formed or interrupted before it measured gives a
  non-terminating error (category InvalidData or ObjectNotFound, ids
  IoSpdResultXmlMalformed, IoSpdResultXmlNoResults, IoSpdResultXmlNoTimeSpan,
  IoSpdResultXmlBadNumber, IoSpdResultTimeSpanInterrupted,
  IoSpdResultFileNotFound; the file is the target object) and the other
  files still give results. -ErrorAction Stop makes it terminating. A bad
  -Xml text is always a terminating error with the same ids.

  .PARAMETER Xml
  The document as a string or an [xml] object. Text around <Results> (for
  example warnings) is ignored; piped text may come line by line (iospd
  ... -Rxml | ConvertFrom-IoSpdXml) and may hold several documents, one
  result set each. From the pipeline, FileInfo and
  DirectoryInfo objects (Get-ChildItem) and single-line strings that name
  existing files (wildcards allowed) are read as files.

  .PARAMETER Path
  Result files or folders (a folder means the *.xml files in it).
  Wildcards are expanded; relative paths start at the PowerShell location.

  .PARAMETER LiteralPath
  Like -Path, without wildcard expansion (for names with [ or ]).

  .PARAMETER ThreadDetail
  Return the per-thread/target rows instead of the per-time-span summaries.

  .EXAMPLE
  iospd -c1G -d30 -b4K -r -o32 -t4 -L -Rxml D:\t.dat | ConvertFrom-IoSpdXml

  Runs a test and turns its XML output into a summary object.

  .EXAMPLE
  ConvertFrom-IoSpdXml -Path .\results\*.xml | Format-Table BlockSize, OutstandingIO, IOPS, MiBps, TotalP99Ms

  Compares saved runs; a file in the folder that is not a result gets an
  error and the others are still shown.

  .EXAMPLE
  ConvertFrom-IoSpdXml -Path .\run.xml -ThreadDetail | Export-Csv threads.csv -NoTypeInformation

  Writes one CSV row per thread and target.

  .OUTPUTS
  IoSpd.Result, or IoSpd.ThreadResult with -ThreadDetail.
  #>
  [CmdletBinding(DefaultParameterSetName = 'Xml')]
  param(
    [Parameter(Mandatory, Position = 0, ValueFromPipeline, ParameterSetName = 'Xml')]
    [AllowEmptyString()]
    [object] $Xml,

    [Parameter(Mandatory, ParameterSetName = 'Path')]
    [SupportsWildcards()]
    [string[]] $Path,

    [Parameter(Mandatory, ParameterSetName = 'LiteralPath')]
    [Alias('PSPath')]
    [string[]] $LiteralPath,

    [switch] $ThreadDetail
  )
  begin {
    # Text arrives whole (-Xml $text, Out-String) or line by line (iospd
    # ... -Rxml | ConvertFrom-IoSpdXml): it is collected and parsed at the end.
    $textParts = New-Object System.Collections.Generic.List[string]
    # Each item is a document, an ErrorRecord, or a full file path to read.
    function Write-IoSpdResultItem([object[]] $Items, [bool] $Terminating) {
      foreach ($item in $Items) {
        $results = if ($item -is [xml]) { ConvertFrom-IoSpdXmlDocument -Document $item }
        elseif ($item -is [Management.Automation.ErrorRecord]) { $item }
        else { Read-IoSpdResultFile -FullPath $item }
        foreach ($r in $results) {
          if ($r -is [Management.Automation.ErrorRecord]) {
            if ($Terminating) { $PSCmdlet.ThrowTerminatingError($r) }
            $PSCmdlet.WriteError($r)
          } elseif ($ThreadDetail) { $r.Threads }
          else { $r }
        }
      }
    }
  }
  process {
    $items = @()
    $terminating = $false
    switch ($PSCmdlet.ParameterSetName) {
      'Path' { $items = @(Resolve-IoSpdResultFile -Path $Path -Cmdlet $PSCmdlet) }
      'LiteralPath' { $items = @(Resolve-IoSpdResultFile -Path $LiteralPath -Literal -Cmdlet $PSCmdlet) }
      default {
        $value = $Xml
        if ($value -is [IO.FileSystemInfo]) {
          $items = @(Resolve-IoSpdResultFile -Path $value.FullName -Literal -Cmdlet $PSCmdlet)
        } elseif ($value -is [xml]) {
          $items = @(, $value)
          $terminating = $true
        } else {
          $text = [string]$value
          # A piped file name: one line, no markup, naming something that exists.
          if ($text -and $text -notmatch '[<\r\n]' -and (Test-Path -Path $text)) {
            $items = @(Resolve-IoSpdResultFile -Path $text -Cmdlet $PSCmdlet)
          } else {
            $textParts.Add($text)
          }
        }
      }
    }
    Write-IoSpdResultItem -Items $items -Terminating $terminating
  }
  end {
    if ($textParts.Count -eq 0) { return }
    $all = $textParts -join [Environment]::NewLine
    Write-IoSpdResultItem -Items @(ConvertTo-IoSpdXmlDocument -Text $all -Origin 'the input' -Target 'the input') -Terminating $true
  }
}
