# SPDX-License-Identifier: MIT
# Reading the Authenticode signature of an executable (Install-IoSpd), kept
# apart so that Pester can Mock it: Get-AuthenticodeSignature exists only on
# Windows, and the tests need Valid, HashMismatch and NotSigned answers.

function Get-IoSpdFileSignature {
  # Returns Status (the SignatureStatus name: Valid, NotSigned, HashMismatch,
  # NotTrusted, ..., or NotAvailable where nothing can read a signature),
  # Signer (the subject of the signing certificate, or $null) and Message.
  [CmdletBinding()]
  [OutputType([pscustomobject])]
  param([Parameter(Mandatory)] [string] $Path)
  $reader = $null
  if (Test-IoSpdWindows) { $reader = Get-Command -Name Get-AuthenticodeSignature -ErrorAction SilentlyContinue }
  if (-not $reader) {
    return [pscustomobject]@{
      Status  = 'NotAvailable'
      Signer  = $null
      Message = 'Authenticode signatures can be read on Windows only.'
    }
  }
  $sig = & $reader -LiteralPath $Path -ErrorAction Stop
  $signer = $null
  if ($sig.SignerCertificate) { $signer = $sig.SignerCertificate.Subject }
  return [pscustomobject]@{
    Status  = [string]$sig.Status
    Signer  = $signer
    Message = [string]$sig.StatusMessage
  }
}

function Confirm-IoSpdPackageSignature {
  # Install-IoSpd's signature rule for the unpacked executable $Path
  # ($Name is its place in the package, e.g. amd64/iospd.exe), run before
  # anything is moved into place:
  # - a signature that is there but not valid (HashMismatch, NotTrusted,
  #   ...) refuses the install (IoSpdSignatureInvalid);
  # - Valid is returned for the result object;
  # - no signature (or none that this system can read) installs, with a
  #   warning unless the user gave the digest ($UserDigest): a digest from
  #   the .sha256 beside the zip proves no more than the zip itself.
  # Returns Status, Signer and Warning (the text for Write-Warning once the
  # install succeeded, or $null).
  [CmdletBinding()]
  [OutputType([pscustomobject])]
  param(
    [Parameter(Mandatory)] [string] $Path,
    [Parameter(Mandatory)] [string] $Name,
    [Parameter(Mandatory)] [string] $Source,
    [Parameter(Mandatory)] [string] $HashFrom,
    [bool] $UserDigest
  )
  $sig = Get-IoSpdFileSignature -Path $Path
  # NotSupportedFileFormat: the file has no place for a signature, so none
  # is there; the rest (HashMismatch, NotTrusted, UnknownError,
  # Incompatible) is a signature that Windows does not accept.
  $unsigned = @('NotSigned', 'NotSupportedFileFormat', 'NotAvailable')
  $result = [pscustomobject]@{ Status = $sig.Status; Signer = $sig.Signer; Warning = $null }
  if ($sig.Status -eq 'Valid') {
    Write-Verbose "Authenticode signature of $Name is valid (signer: $($sig.Signer))"
    return $result
  }
  if ($unsigned -notcontains $sig.Status) {
    $detail = $sig.Status
    if ($sig.Message) { $detail += ": $($sig.Message)" }
    throw (New-IoSpdHostError -Id 'IoSpdSignatureInvalid' -Category SecurityError -Target $Source `
        -Message ("$Name in '$Source' is signed, but the Authenticode signature is not valid ($detail). " +
          'The file was changed after it was signed, or its signer is not trusted. Nothing was installed ' +
          'and the previous install was left as it was. Do not run it; get the package again from its publisher.'))
  }
  if (-not $UserDigest) {
    $what = "$Name in '$Source' is not signed"
    if ($sig.Status -eq 'NotAvailable') {
      $what = "$Name in '$Source' has no signature that can be checked on this system (Authenticode is Windows only)"
    }
    $result.Warning = ("$what, so nothing proves who built it. The package's SHA-256 matched '$HashFrom': " +
      'that proves the download is complete and unchanged since that file was written, not who wrote it; ' +
      'anyone who can replace the zip can replace the .sha256 beside it. iospd was installed anyway. To prove ' +
      'more, get the digest from a channel you trust (not the download folder) and pass it with -Sha256.')
  }
  return $result
}
