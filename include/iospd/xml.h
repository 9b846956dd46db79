/* SPDX-License-Identifier: MIT */
/* A small, strict XML reader: UTF-8 in, a DOM of elements, attributes and
 * text out. No DTDs, no external entities, only the five predefined entities
 * and numeric character references; depth and size limits. Every node keeps
 * its line and column for error messages. */
#ifndef IOSPD_XML_H
#define IOSPD_XML_H

#include "iospd/common.h"
#include "iospd/error.h"

#define IOSPD_XML_MAX_DEPTH 64
#define IOSPD_XML_MAX_SIZE (16u * 1024u * 1024u)

typedef struct iospd_xml_attr_s {
  const char* name;
  const char* value;
  struct iospd_xml_attr_s* next;
} iospd_xml_attr_t;

typedef struct iospd_xml_node_s {
  const char* name;
  const char* text; /* the element's character data, concatenated, raw */
  iospd_xml_attr_t* attrs;
  struct iospd_xml_node_s* parent;
  struct iospd_xml_node_s* first_child;
  struct iospd_xml_node_s* next_sibling;
  uint32_t line, column;
} iospd_xml_node_t;

typedef struct iospd_xml_doc_s iospd_xml_doc_t;

/* Parses len bytes. On failure returns a negative IOSPD_E* and err says
 * "line L, column C: what is wrong". */
int iospd_xml_parse(const char* data, size_t len, iospd_xml_doc_t** doc,
                    iospd_err_t* err);
void iospd_xml_free(iospd_xml_doc_t* doc);
const iospd_xml_node_t* iospd_xml_root(const iospd_xml_doc_t* doc);
const char* iospd_xml_attr(const iospd_xml_node_t* n, const char* name);

#endif
