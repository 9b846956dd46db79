# SPDX-License-Identifier: MIT
# iospd's warnings for PowerShell: the lines iospd keeps as warnings
# (its own "warning: ...", DISKSPD's "WARNING: ..." and the "note: ..."
# detail that follows one), read from stderr or from a JSON document's
# "warnings" array, turned into the Warnings property of a result and the
# messages Write-Warning shows. DISKSPD's "NOTE: ..." lines are
# information, not warnings.

function ConvertFrom-IoSpdWarningLine {
  # Returns Lines (every kept line as iospd printed it, in order: what a
  # result's Warnings property holds, the same list as the JSON "warnings"
  # array), Messages (one per warning for Write-Warning: the text after the
  # prefix, with the "note:" lines that follow it appended) and Notes (the
  # "NOTE:" lines' text, for Write-Information).
  [CmdletBinding()]
  param([AllowNull()] [AllowEmptyCollection()] [string[]] $Line)
  $lines = [Collections.Generic.List[string]]::new()
  $messages = [Collections.Generic.List[string]]::new()
  $notes = [Collections.Generic.List[string]]::new()
  foreach ($chunk in @($Line)) {
    if ($null -eq $chunk) { continue }
    foreach ($l in ($chunk -split '\r?\n')) {
      if ($l -cmatch '^(?:warning|WARNING): (.*)$') {
        $lines.Add($l); $messages.Add($Matches[1].Trim())
      } elseif ($l -cmatch '^note: (.*)$') {
        # iospd's detail of the warning before it (a lone one stands alone).
        $lines.Add($l)
        if ($messages.Count) { $messages[$messages.Count - 1] += ' (' + $Matches[1].Trim() + ')' }
        else { $messages.Add($Matches[1].Trim()) }
      } elseif ($l -cmatch '^NOTE: (.*)$') {
        $notes.Add($Matches[1].Trim())
      }
    }
  }
  [pscustomobject]@{ Lines = [string[]]$lines.ToArray(); Messages = [string[]]$messages.ToArray(); Notes = [string[]]$notes.ToArray() }
}

function Add-IoSpdWarningProperty {
  # Puts the Warnings property (string[], empty when there were none) on a
  # result object and passes it on. A JSON document that has "warnings"
  # already keeps it (PowerShell's property names ignore case).
  param([Parameter(Mandatory, ValueFromPipeline)] [object] $InputObject, [AllowEmptyCollection()] [string[]] $Lines = @())
  process {
    if ($InputObject -is [psobject] -and -not $InputObject.PSObject.Properties['Warnings']) {
      $InputObject | Add-Member -NotePropertyName Warnings -NotePropertyValue ([string[]]@($Lines))
    }
    $InputObject
  }
}
