// `understudy_link_fields` and `understudy_unlink_fields` put a canned reply's fields into evhttp's header list and
// take them out again (CannedHead.swift): evhttp formats them as it does any field;
// they are unlinked before it frees the list.
#include <stddef.h>
#include <sys/queue.h>
#include <event2/keyvalq_struct.h>
#include "CHeaderLines.h"

void understudy_link_fields(struct evkeyvalq *headers, struct evkeyval *fields, int count) {
    for (int index = 0; index < count; index++) TAILQ_INSERT_TAIL(headers, &fields[index], next);
}

void understudy_unlink_fields(struct evkeyvalq *headers, struct evkeyval *fields, int count) {
    for (int index = 0; index < count; index++) TAILQ_REMOVE(headers, &fields[index], next);
}
