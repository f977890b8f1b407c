// Two things live here. `understudy_link_fields` and `understudy_unlink_fields` put a canned reply's fields into
// evhttp's header list and take them out again (CannedHead.swift); they are always built.
//
// The rest is built only with the HeadLineWriter trait (UNDERSTUDY_HEAD_LINE_WRITER), off by default, since it
// overrides a libevent symbol for the whole process; nothing `make` builds turns it on (it is kept to measure).
// evhttp writes every reply's status line and each header line with `evbuffer_add_printf`, which costs a full
// `vsnprintf` pass (~1.3k instructions a line, most of the listener's own cost for a small reply). This file
// defines `evbuffer_add_printf` for the process: the two formats evhttp uses for a reply head are copied
// directly, byte for byte what `vsnprintf` would produce; every other format goes to libevent's
// `evbuffer_add_vprintf` unchanged. libevent calls the function through its PLT, so on ELF platforms this
// definition is the one it reaches.
//
// The same hook makes evhttp's own error pages JSON. When evhttp refuses a request before any callback runs
// (a body over the limit, a header flood, a request line it cannot parse, a method it does not take) it sends
// a fixed HTML page labelled `text/html`, which no API client can decode. Here the page's format is recognised
// and `{"message": …}` written instead, and the `text/html` label evhttp then gives that page becomes
// `application/json; charset=utf-8`; Content-Length is counted afterwards. The hook is process-wide: another
// evhttp server in the same process gets JSON error pages too.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/queue.h>
#include <event2/buffer.h>
#include <event2/keyvalq_struct.h>
#include "CHeaderLines.h"

#ifdef UNDERSTUDY_HEAD_LINE_WRITER
enum { line_capacity = 512 };

/// Where this thread is in sending an evhttp error page: the page's body is formatted first, then its head, in
/// one call (`evhttp_send_error`) on one thread. Only that head's `Content-Type: text/html` is relabelled, so a
/// reply anyone else sends as text/html in this process keeps its label.
enum { no_error_page, error_page_formatted, in_error_page_head };
static _Thread_local int error_page_state = no_error_page;
/// What a fast path returns for a line it does not write, leaving it to libevent.
enum { not_taken = -2 };

/// Writes `value` in decimal at `out`; returns the number of characters written.
static size_t write_decimal(char *out, int value) {
    char digits[12];
    size_t count = 0;
    unsigned magnitude = value < 0 ? 0u - (unsigned)value : (unsigned)value;
    do {
        digits[count++] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0);
    size_t written = 0;
    if (value < 0) out[written++] = '-';
    while (count > 0) out[written++] = digits[--count];
    return written;
}

/// `"%s: %s\r\n"`: a header line. Returns the bytes added, -1 on failure, or `not_taken`.
static int add_header_line(struct evbuffer *buffer, va_list arguments) {
    const char *name = va_arg(arguments, const char *);
    const char *value = va_arg(arguments, const char *);
    if (name == NULL || value == NULL) return not_taken;
    if (error_page_state == in_error_page_head && strcmp(value, "text/html") == 0
        && strcasecmp(name, "Content-Type") == 0) {
        value = "application/json; charset=utf-8";
    }
    size_t name_length = strlen(name), value_length = strlen(value);
    size_t total = name_length + value_length + 4;
    if (total > line_capacity) {
        // A long line (several fields written as one, see understudy_link_fields): in pieces, still no printf.
        if (evbuffer_add(buffer, name, name_length) != 0 || evbuffer_add(buffer, ": ", 2) != 0
            || evbuffer_add(buffer, value, value_length) != 0 || evbuffer_add(buffer, "\r\n", 2) != 0) return -1;
        return (int)total;
    }
    char line[line_capacity];
    memcpy(line, name, name_length);
    line[name_length] = ':';
    line[name_length + 1] = ' ';
    memcpy(line + name_length + 2, value, value_length);
    line[total - 2] = '\r';
    line[total - 1] = '\n';
    return evbuffer_add(buffer, line, total) == 0 ? (int)total : -1;
}

/// `"HTTP/%d.%d %d %s\r\n"`: a status line.
static int add_status_line(struct evbuffer *buffer, va_list arguments) {
    error_page_state = error_page_state == error_page_formatted ? in_error_page_head : no_error_page;
    int major = va_arg(arguments, int);
    int minor = va_arg(arguments, int);
    int code = va_arg(arguments, int);
    const char *reason = va_arg(arguments, const char *);
    if (reason == NULL) return not_taken;
    size_t reason_length = strlen(reason);
    // "HTTP/" + three numbers of at most 11 characters + ". " + " " + reason + CRLF.
    if (reason_length + 5 + 3 * 11 + 4 > line_capacity) return not_taken;
    char line[line_capacity];
    size_t length = 0;
    memcpy(line, "HTTP/", 5);
    length = 5;
    length += write_decimal(line + length, major);
    line[length++] = '.';
    length += write_decimal(line + length, minor);
    line[length++] = ' ';
    length += write_decimal(line + length, code);
    line[length++] = ' ';
    memcpy(line + length, reason, reason_length);
    length += reason_length;
    line[length++] = '\r';
    line[length++] = '\n';
    return evbuffer_add(buffer, line, length) == 0 ? (int)length : -1;
}

/// libevent 2.1's `evhttp_send_error` page; its arguments are the status, the reason and the reason again.
static const char error_page_format[] =
    "<HTML><HEAD>\n<TITLE>%d %s</TITLE>\n</HEAD><BODY>\n<H1>%s</H1>\n</BODY></HTML>\n";

/// What evhttp's refusals mean, said the way Understudy's own errors say it.
static const char *error_message(int status, const char *reason) {
    switch (status) {
    case 400: return "Bad request: the request line or headers could not be parsed, or the headers are over the size limit";
    case 413: return "Request body too large: it is over the server's body size limit (or its chunked encoding is malformed)";
    case 501: return "Method not implemented: Understudy serves GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS and TRACE";
    case 505: return "HTTP version not supported: Understudy speaks HTTP/1.0 and HTTP/1.1";
    default: return reason;
    }
}

/// Writes `{"message":"…"}` for an error page. Returns the bytes added, or -1 on failure.
static int add_error_body(struct evbuffer *buffer, va_list arguments) {
    error_page_state = error_page_formatted;
    int status = va_arg(arguments, int);
    const char *reason = va_arg(arguments, const char *);
    const char *message = error_message(status, reason != NULL ? reason : "Error");
    char body[line_capacity];
    size_t length = 0;
    static const char prefix[] = "{\"message\":\"";
    memcpy(body, prefix, sizeof prefix - 1);
    length = sizeof prefix - 1;
    for (const char *c = message; *c != '\0' && length < sizeof body - 4; c++) {
        unsigned char byte = (unsigned char)*c;
        if (byte < 0x20) continue;
        if (byte == '"' || byte == '\\') body[length++] = '\\';
        body[length++] = (char)byte;
    }
    body[length++] = '"';
    body[length++] = '}';
    return evbuffer_add(buffer, body, length) == 0 ? (int)length : -1;
}

int evbuffer_add_printf(struct evbuffer *buffer, const char *format, ...) {
    va_list arguments;
    int result = not_taken;
    if (format != NULL) {
        va_start(arguments, format);
        if (strcmp(format, "%s: %s\r\n") == 0) {
            result = add_header_line(buffer, arguments);
        } else if (strcmp(format, "HTTP/%d.%d %d %s\r\n") == 0) {
            result = add_status_line(buffer, arguments);
        } else if (strcmp(format, error_page_format) == 0) {
            result = add_error_body(buffer, arguments);
        }
        va_end(arguments);
    }
    if (result != not_taken) return result;
    va_start(arguments, format);
    result = evbuffer_add_vprintf(buffer, format, arguments);
    va_end(arguments);
    return result;
}

int understudy_header_lines_active(void) {
    void *resolved = dlsym(RTLD_DEFAULT, "evbuffer_add_printf");
    return resolved == (void *)&evbuffer_add_printf;
}

#else
int understudy_header_lines_active(void) { return 0; }
#endif

void understudy_link_fields(struct evkeyvalq *headers, struct evkeyval *fields, int count) {
    for (int index = 0; index < count; index++) TAILQ_INSERT_TAIL(headers, &fields[index], next);
}

void understudy_unlink_fields(struct evkeyvalq *headers, struct evkeyval *fields, int count) {
    for (int index = 0; index < count; index++) TAILQ_REMOVE(headers, &fields[index], next);
}
