// A connection's idle timeout is kept by the loop's sweep (ConnectionRegistry.swift), not by timeouts on its
// bufferevent: evhttp enables a connection's read and write events about three times a request, and with a timeout
// each of those updates a timer queue, ~1.2k instructions a request in all. The sweep needs to know only whether
// bytes moved since it last looked; the buffers' callbacks count them. libevent already walks every callback of a
// buffer on each change, so a counter costs a call and an addition there.
#include <event2/buffer.h>
#include "CHeaderLines.h"

static void count_input(struct evbuffer *input, const struct evbuffer_cb_info *info, void *argument) {
    (void)input;
    ((struct understudy_progress *)argument)->bytes_in += info->n_added;
}

struct evbuffer_cb_entry *understudy_count_input(struct evbuffer *input, struct understudy_progress *progress) {
    return evbuffer_add_cb(input, count_input, progress);
}
