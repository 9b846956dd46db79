# SPDX-License-Identifier: MIT
# XML reader, XML profile reader/writer, their fuzz test, and (native builds
# only) xmllint checks of xml/profile.xsd against the examples and against
# profiles our writer produces.
iospd_add_test(test_xml_reader SOURCES test_xml_reader.c)
