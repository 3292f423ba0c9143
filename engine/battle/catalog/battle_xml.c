/* SPDX-License-Identifier: MIT */
/* Notes and helpers of the game's XML importers (see battle_xml.h). */
#include "battle_xml.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sk_banned.h"

void battle_xml_note(const struct battle_xml_notes *n, long line, const char *fmt, ...)
{
    /* Fixed buffers: a note is one short line, so a longer one is cut, not allocated. */
    char where[300], msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    snprintf(where, sizeof(where), "%s:%ld", n->file, line);
    sk_verr_add(n->list, where, "%s", msg);
}

int battle_xml_is(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

void battle_xml_error_text(const xmlError *e, char *out, size_t outlen)
{
    if (outlen == 0)
        return;
    snprintf(out, outlen, "%s", e && e->message ? e->message : "not well-formed XML");
    /* libxml2 ends its messages with a newline; a note is one line */
    out[strcspn(out, "\n")] = '\0';
}
