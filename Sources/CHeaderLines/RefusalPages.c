// evhttp answers some requests itself, before any callback of Understudy's runs: a body over the limit or a
// malformed chunked body (413), a request line or header it cannot parse or a head over the size limit (400), a
// method it does not know (501), an `Expect` other than `100-continue` (417). libevent 2.1 has no hook for those
// replies (2.2's `evhttp_set_errorcb` is the first), and no way to reach a request before its body is read (2.2's
// `evhttp_set_newreqcb`); it sends each as a fixed HTML page labelled `text/html`, which an all-JSON API's clients
// cannot decode.
//
// The page goes out through the connection's output buffer, which is Understudy's: its bufferevent is made by
// `ConnectionRegistry`. A callback on that buffer recognises the page when evhttp adds it (the body comes last, in
// one piece, after the whole head) and rewrites the reply before a byte of it is sent: the same status line and
// header lines, with `Content-Type: application/json; charset=utf-8`, `{"message":"…"}` and its Content-Length.
// Nothing of libevent's is redefined, and the connection ends after the reply as evhttp meant it to.
//
// libevent calls the callback on every change to the buffer, so it costs every reply a few calls: each returns
// after three comparisons unless an addition is the size of an error page and follows a head long enough to be
// evhttp's, and such an addition's first bytes are read before deciding more. It never allocates.
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <event2/buffer.h>
#include "CHeaderLines.h"

/// libevent 2.1's `evhttp_send_error` page; its arguments are the status, the reason and the reason again.
static const char page_format[] = "<HTML><HEAD>\n<TITLE>%d %s</TITLE>\n</HEAD><BODY>\n<H1>%s</H1>\n</BODY></HTML>\n";
static const char page_opening[] = "<HTML><HEAD>\n<TITLE>";
static const char json_type[] = "application/json; charset=utf-8";
enum {
    /// The page's length without its status (three digits) and its reason (twice).
    page_fixed_length = sizeof page_format - 1 - 6,
    reason_capacity = 64,
    page_minimum = page_fixed_length + 3 + 2,
    page_capacity = page_fixed_length + 3 + 2 * reason_capacity,
    /// evhttp's head for a page is up to five lines (status, Content-Type, Connection, Date, Content-Length), and
    /// a `100 Continue` may still be waiting ahead of it. The shortest is "HTTP/1.1 400 Bad Request",
    /// "Content-Type: text/html", "Connection: close" and the blank line.
    head_minimum = 26 + 25 + 19 + 2,
    head_capacity = 512,
    reply_capacity = 1024,
};

/// What each refusal means, said the way Understudy's own errors say it.
static const char *refusal_message(int status, const char *reason) {
    switch (status) {
    case 400: return "Bad request: the request line or headers could not be parsed, or the headers are over the size limit";
    case 413: return "Request body too large: it is over the server's body size limit (or its chunked encoding is malformed)";
    case 417: return "Expectation failed: Understudy takes only Expect: 100-continue";
    case 501: return "Method not implemented: Understudy serves GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS and TRACE";
    default: return reason;
    }
}

/// Reads the status and reason out of `page` (`length` bytes) if it is exactly the page evhttp formats for them.
/// Returns the status, or 0 when it is not such a page; `reason` receives the reason.
static int read_page(const char *page, size_t length, char reason[reason_capacity + 1]) {
    size_t opening = sizeof page_opening - 1;
    if (length < page_minimum || memcmp(page, page_opening, opening) != 0) return 0;
    const char *digits = page + opening;
    if (digits[0] < '1' || digits[0] > '5' || digits[1] < '0' || digits[1] > '9' || digits[2] < '0'
        || digits[2] > '9' || digits[3] != ' ') return 0;
    int status = (digits[0] - '0') * 100 + (digits[1] - '0') * 10 + (digits[2] - '0');
    size_t reason_length = (length - page_fixed_length - 3) / 2;
    if (reason_length > reason_capacity) return 0;
    memcpy(reason, digits + 4, reason_length);
    reason[reason_length] = '\0';
    char expected[page_capacity + 1];
    int written = snprintf(expected, sizeof expected, page_format, status, reason, reason);
    if (written < 0 || (size_t)written != length || memcmp(expected, page, length) != 0) return 0;
    return status;
}

/// Appends `count` bytes at `*at` in `out` (`capacity` bytes); returns 0 when they do not fit.
static int append(char *out, size_t capacity, size_t *at, const char *bytes, size_t count) {
    if (*at + count > capacity) return 0;
    memcpy(out + *at, bytes, count);
    *at += count;
    return 1;
}

/// Writes into `reply` the reply that replaces evhttp's: `head` (`head_length` bytes, ending with its blank line)
/// line by line, with the JSON type and length, then the JSON body. Lines before the refusal's status line (a
/// `100 Continue`) are kept. Returns the reply's length, or 0 when the head is not one evhttp writes for a page.
static size_t write_reply(const char *head, size_t head_length, int status, const char *message,
                          char reply[reply_capacity]) {
    char body[reply_capacity / 2];
    size_t body_length = 0;
    static const char prefix[] = "{\"message\":\"";
    append(body, sizeof body, &body_length, prefix, sizeof prefix - 1);
    for (const char *c = message; *c != '\0' && body_length < sizeof body - 4; c++) {
        unsigned char byte = (unsigned char)*c;
        if (byte < 0x20) continue;
        if (byte == '"' || byte == '\\') body[body_length++] = '\\';
        body[body_length++] = (char)byte;
    }
    append(body, sizeof body, &body_length, "\"}", 2);

    // The refusal's status line opens the head or follows the blank line that ends a `100 Continue`.
    if (head_length < 16 || memcmp(head + head_length - 4, "\r\n\r\n", 4) != 0) return 0;
    size_t start = 0;
    for (size_t index = 0; index + 4 < head_length - 4; index++) {
        if (memcmp(head + index, "\r\n\r\n", 4) == 0) start = index + 4;
    }
    const char *space = memchr(head + start, ' ', head_length - start);
    char code[6];
    snprintf(code, sizeof code, " %d ", status);
    if (memcmp(head + start, "HTTP/", 5) != 0 || space == NULL || (size_t)(space - head) + 5 > head_length
        || memcmp(space, code, 5) != 0) return 0;

    size_t length = 0;
    if (!append(reply, reply_capacity, &length, head, start)) return 0;
    const char *line = head + start;
    const char *end = head + head_length - 2;
    int relabelled = 0;
    while (line < end) {
        const char *line_end = memchr(line, '\r', (size_t)(end - line));
        if (line_end == NULL) return 0;
        size_t line_length = (size_t)(line_end - line);
        char number[24];
        if (line_length > 13 && strncasecmp(line, "Content-Type:", 13) == 0) {
            if (!append(reply, reply_capacity, &length, "Content-Type: ", 14)
                || !append(reply, reply_capacity, &length, json_type, sizeof json_type - 1)) return 0;
            relabelled = 1;
        } else if (line_length > 15 && strncasecmp(line, "Content-Length:", 15) == 0) {
            int count = snprintf(number, sizeof number, "Content-Length: %zu", body_length);
            if (count < 0 || !append(reply, reply_capacity, &length, number, (size_t)count)) return 0;
        } else if (!append(reply, reply_capacity, &length, line, line_length)) {
            return 0;
        }
        if (!append(reply, reply_capacity, &length, "\r\n", 2)) return 0;
        line = line_end + 2;
    }
    if (!relabelled || !append(reply, reply_capacity, &length, "\r\n", 2)
        || !append(reply, reply_capacity, &length, body, body_length)) return 0;
    return length;
}

/// Copies `length` bytes from `position` in `buffer` to `out`. `evbuffer_copyout` will not read a buffer whose
/// front is frozen, as a socket bufferevent keeps its output between writes; peeking does.
static int copy_out(struct evbuffer *buffer, size_t position, char *out, size_t length) {
    struct evbuffer_ptr at;
    struct evbuffer_iovec pieces[8];
    if (evbuffer_ptr_set(buffer, &at, position, EVBUFFER_PTR_SET) != 0) return 0;
    int count = evbuffer_peek(buffer, (ev_ssize_t)length, &at, pieces, 8);
    if (count < 0 || count > 8) return 0;
    size_t copied = 0;
    for (int index = 0; index < count && copied < length; index++) {
        size_t take = pieces[index].iov_len < length - copied ? pieces[index].iov_len : length - copied;
        memcpy(out + copied, pieces[index].iov_base, take);
        copied += take;
    }
    return copied == length;
}

/// Rewrites the reply if the `added` bytes at `position` in `output` complete one of evhttp's pages.
__attribute__((noinline)) static void rewrite_if_refusal(struct evbuffer *output, size_t position, size_t added) {
    char page[page_capacity];
    if (!copy_out(output, position, page, sizeof page_opening - 1)
        || memcmp(page, page_opening, sizeof page_opening - 1) != 0) return;
    char reason[reason_capacity + 1];
    if (!copy_out(output, position, page, added)) return;
    int status = read_page(page, added, reason);
    if (status == 0) return;

    char head[head_capacity];
    if (!copy_out(output, 0, head, position)) return;
    char reply[reply_capacity];
    size_t length = write_reply(head, position, status, refusal_message(status, reason), reply);
    if (length == 0) return;
    // Nothing of the reply has been sent, so it is replaced whole; a frozen front is thawed for that and frozen
    // again.
    size_t total = position + added;
    if (evbuffer_drain(output, total) != 0) {
        evbuffer_unfreeze(output, 1);
        int drained = evbuffer_drain(output, total);
        evbuffer_freeze(output, 1);
        if (drained != 0) return;
    }
    evbuffer_add(output, reply, length);
}

/// The output buffer's callback, run on every change to it: counts what the socket took, and looks only at an
/// addition of a page's size that follows at least the shortest head evhttp writes for one. (A canned head's long
/// line follows the status line alone; a reply's body is rarely that small.)
static void answer_refusal(struct evbuffer *output, const struct evbuffer_cb_info *info, void *argument) {
    ((struct understudy_progress *)argument)->bytes_out += info->n_deleted;
    if (info->n_added - page_minimum > page_capacity - page_minimum
        || info->orig_size - head_minimum > head_capacity - head_minimum || info->n_deleted != 0) return;
    rewrite_if_refusal(output, info->orig_size, info->n_added);
}

struct evbuffer_cb_entry *understudy_answer_refusals_as_json(struct evbuffer *output, struct understudy_progress *progress) {
    return evbuffer_add_cb(output, answer_refusal, progress);
}
