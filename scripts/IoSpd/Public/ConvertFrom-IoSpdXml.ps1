# SPDX-License-Identifier: MIT
# ConvertFrom-IoSpdXml: turns an -Rxml results document (iospd's or DISKSPD's,
# same layout) into one summary object per time span plus per-thread rows.

function ConvertFrom-IoSpdXml {
  <#
  .SYNOPSIS
  Converts iospd or DISKSPD -Rxml results into objects.

  .DESCRIPTION
  Reads a results document (the <Results> element written with -Rxml) and
  returns one IoSpd.Result object per <TimeSpan> with totals over all
  threads and targets: TestTimeSeconds, ThreadCount, TotalBytes, TotalIOs,
  ReadIOs, WriteIOs, IOPS, ReadIOPS, WriteIOPS, MiBps (and read/write
  variants), average latencies, IopsStdDev, CPU averages and latency
  percentiles (TotalP50Ms, ReadP99Ms, WriteP99_9Ms, ...). Rates are counts
  divided by TestTimeSeconds. Percentile properties are $null when the run
  did not measure latency (-L) or did no I/O of that kind.

  Each result carries Threads: one IoSpd.ThreadResult row per thread and
  target (Thread, Path, Bytes, IOs, IOPS, MiBps, AvgLatencyMs, ...), and
  Percentiles: every Latency/Bucket row. With -ThreadDetail the thread rows
  are returned instead of the summaries, ready for Export-Csv.

  .PARAMETER Xml
  The document as a string or an [xml] object (a FileInfo from Get-Item or
  Get-ChildItem is read as a file). Text before <Results> (for
  example warnings) is ignored.

  .PARAMETER Path
  One or more result files.

  .PARAMETER ThreadDetail
  Return the per-thread/target rows instead of the per-time-span summaries.

  .EXAMPLE
  iospd -c1G -d30 -b4K -r -o32 -t4 -L -Rxml D:\t.dat | Out-String | ConvertFrom-IoSpdXml

  Runs a test and turns its XML output into a summary object.

  .EXAMPLE
  ConvertFrom-IoSpdXml -Path .\run1.xml, .\run2.xml | Format-Table TestTimeSeconds, IOPS, MiBps, TotalP99Ms

  Compares two saved runs.

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
    [string[]] $Path,

    [switch] $ThreadDetail
  )
  process {
    $docs = @()
    if ($PSCmdlet.ParameterSetName -eq 'Path') {
      foreach ($p in $Path) {
        if (-not (Test-Path -LiteralPath $p -PathType Leaf)) {
          throw "The results file '$p' does not exist."
        }
        $docs += , @{ Doc = (ConvertTo-IoSpdXmlDocument -Text (Get-Content -LiteralPath $p -Raw) -Origin $p) }
      }
    } elseif ($Xml -is [IO.FileInfo]) {
      # Get-Item run.xml | ConvertFrom-IoSpdXml
      $docs += , @{ Doc = (ConvertTo-IoSpdXmlDocument -Text (Get-Content -LiteralPath $Xml.FullName -Raw) -Origin $Xml.FullName) }
    } elseif ($Xml -is [xml]) {
      $docs += , @{ Doc = $Xml }
    } else {
      $docs += , @{ Doc = (ConvertTo-IoSpdXmlDocument -Text ([string]$Xml) -Origin 'the input') }
    }
    foreach ($d in $docs) {
      $results = ConvertFrom-IoSpdXmlDocument -Document $d.Doc
      if ($ThreadDetail) { $results | ForEach-Object { $_.Threads } } else { $results }
    }
  }
}
