/* SPDX-License-Identifier: MIT */
/* What the importers of the game's XML files share: battle_tu (cards) and battle_missions
 * (missions and raids) both report what they read around as notes at "FILE:LINE", test
 * elements by name and quote libxml2's error messages, and must word all three alike. This
 * module does not read files (battle_tu_read does) nor decide when a note is due; it is
 * private to engine/battle, which is why libxml2's types may appear here. */
#ifndef BATTLE_XML_H
#define BATTLE_XML_H

#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <stddef.h>

#include "sk_verr.h"

/* Where an importer's notes go. Both borrowed; `file` changes as the importer moves on. */
struct battle_xml_notes {
    struct sk_verr_list *list; /* the caller's list of notes */
    const char *file;          /* the file being read, named within its folder */
};

/**
 * Adds the printf-style message to n->list at "FILE:LINE" (`file` of `n`, `line`). Like
 * sk_verr_add it never fails from the caller's point of view; a message past 511 bytes is
 * cut. Not thread-safe (one list per load).
 */
__attribute__((format(printf, 3, 4))) void battle_xml_note(const struct battle_xml_notes *n,
                                                           long line, const char *fmt, ...);

/** 1 when node `n` (borrowed) is an element named `name`, else 0. */
int battle_xml_is(const xmlNode *n, const char *name);

/**
 * Writes the first line of libxml2's message for error `e` (borrowed), or "not well-formed
 * XML" when it has none, into out[0 .. outlen), cut to fit and NUL-terminated.
 */
void battle_xml_error_text(const xmlError *e, char *out, size_t outlen);

#endif
