/* SPDX-License-Identifier: MIT */
/* XML text for strings that may hold any bytes: target paths, host names,
 * OS messages. XML 1.0 cannot carry the C0 controls other than tab, LF and
 * CR, nor U+FFFE/U+FFFF, nor bytes that are not UTF-8 - not even as
 * character references - so those are replaced:
 *
 * - Paths (IOSPD_XML_ESC_BYTES): each such byte 0xNN is written as the
 *   private-use character U+F0NN, and the element carries
 *   Escaped="U+F0NN" (IOSPD_XML_ESCAPED_ATTR) so the reader (-X) turns every
 *   U+F001..U+F0FF of that value back into its byte. A literal U+F001..U+F0FF
 *   in such a path is escaped the same way, byte by byte, so the mapping is
 *   exact both ways. A path that needs none of this is written as before.
 * - Other text: each such character, and each byte that is not UTF-8,
 *   becomes U+FFFD (not reversible; the text is for people).
 *
 * Tab, LF and CR are written as &#9; &#10; &#13; (a parser would turn a raw
 * CR into LF, and raw whitespace in attributes into spaces), and DEL and the
 * C1 controls as character references, which XML carries exactly. */
#ifndef IOSPD_XML_ESCAPE_H
#define IOSPD_XML_ESCAPE_H

#include "iospd/common.h"
#include "iospd/strbuf.h"

enum {
  /* Escape " and ' too (attribute values; the report's element text). */
  IOSPD_XML_ESC_QUOTES = 1u << 0,
  /* Carry unrepresentable bytes as U+F0NN (the caller writes the
   * attribute); without it they become U+FFFD. */
  IOSPD_XML_ESC_BYTES = 1u << 1,
};

/* The attribute (name and value) that marks a value written with
 * IOSPD_XML_ESC_BYTES. */
#define IOSPD_XML_ESCAPED_ATTR "Escaped"
#define IOSPD_XML_ESCAPED_VALUE "U+F0NN"

/* True when s holds a byte XML cannot carry (see above): the value then
 * needs IOSPD_XML_ESC_BYTES and the attribute to survive a round trip. */
bool iospd_xml_needs_byte_escape(const char* s);

/* Appends s as XML character data: &, < and > always escaped, the rest as
 * described above. */
void iospd_xml_append_escaped(iospd_strbuf_t* sb, const char* s,
                              unsigned flags);

/* Reverses IOSPD_XML_ESC_BYTES: every U+F001..U+F0FF in s becomes the byte
 * 0x01..0xFF, everything else is copied. Returns a new string (iospd_free),
 * or NULL when out of memory. */
char* iospd_xml_unescape_bytes(const char* s);

#endif
