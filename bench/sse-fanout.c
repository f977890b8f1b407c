/* Opens N server-sent-event streams to 127.0.0.1 at once and watches them for a fixed time, on one epoll loop.
 *
 *   sse-fanout PORT CONNECTIONS SECONDS INTERVAL_MS TARGET
 *
 * For every connection: sends "GET TARGET", reads the reply head (must be 200), decodes a chunked body (or reads a
 * plain one), splits it into lines, and for each "id: N" line checks that N is the previous id + 1 and records the
 * gap since the previous event. Stops by itself after SECONDS (counted from when every connection is open), then
 * prints one JSON line: connections opened and streaming, events delivered, events expected (per connection,
 * floor(time streamed / interval)), order violations, errors, and the gap distribution in ms. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

enum { HEAD, CHUNK_SIZE, CHUNK_DATA, CHUNK_CRLF, PLAIN, DONE };

struct conn {
    int fd;
    int state;
    int chunked;
    int status;
    size_t chunk_left;
    char head[2048];
    size_t head_len;
    char line[4096];
    size_t line_len;
    char size_line[32];
    size_t size_len;
    long last_id;
    double last_event_ms;
    double started_ms;
    long events;
    long misordered;
};

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double *gaps;
static size_t gap_count, gap_capacity;
static long errors;

static void add_gap(double gap) {
    if (gap_count == gap_capacity) {
        gap_capacity = gap_capacity ? gap_capacity * 2 : 65536;
        gaps = realloc(gaps, gap_capacity * sizeof *gaps);
    }
    gaps[gap_count++] = gap;
}

static void on_line(struct conn *c, double t) {
    c->line[c->line_len] = 0;
    if (c->line_len > 0 && c->line[c->line_len - 1] == '\r') c->line[--c->line_len] = 0;
    if (strncmp(c->line, "id:", 3) == 0) {
        long id = strtol(c->line + 3, NULL, 10);
        if (c->last_id && id != c->last_id + 1) c->misordered++;
        if (c->events > 0) add_gap(t - c->last_event_ms);
        c->last_id = id;
        c->last_event_ms = t;
        c->events++;
    }
    c->line_len = 0;
}

static void body_bytes(struct conn *c, const char *p, size_t n, double t) {
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\n') on_line(c, t);
        else if (c->line_len < sizeof c->line - 1) c->line[c->line_len++] = p[i];
    }
}

static void feed(struct conn *c, const char *p, size_t n, double t) {
    size_t i = 0;
    while (i < n) {
        switch (c->state) {
        case HEAD:
            if (c->head_len < sizeof c->head - 1) c->head[c->head_len++] = p[i];
            i++;
            c->head[c->head_len] = 0;
            if (c->head_len >= 4 && strcmp(c->head + c->head_len - 4, "\r\n\r\n") == 0) {
                c->status = atoi(c->head + 9);
                if (c->status != 200) { errors++; c->state = DONE; return; }
                c->chunked = strcasestr(c->head, "transfer-encoding: chunked") != NULL;
                c->state = c->chunked ? CHUNK_SIZE : PLAIN;
                c->started_ms = t;
            }
            break;
        case CHUNK_SIZE:
            if (p[i] == '\n') {
                c->size_line[c->size_len] = 0;
                c->chunk_left = strtoul(c->size_line, NULL, 16);
                c->size_len = 0;
                c->state = c->chunk_left ? CHUNK_DATA : DONE;
            } else if (c->size_len < sizeof c->size_line - 1) {
                c->size_line[c->size_len++] = p[i];
            }
            i++;
            break;
        case CHUNK_DATA: {
            size_t take = n - i < c->chunk_left ? n - i : c->chunk_left;
            body_bytes(c, p + i, take, t);
            i += take;
            c->chunk_left -= take;
            if (!c->chunk_left) c->state = CHUNK_CRLF;
            break;
        }
        case CHUNK_CRLF:
            if (p[i] == '\n') c->state = CHUNK_SIZE;
            i++;
            break;
        case PLAIN:
            body_bytes(c, p + i, n - i, t);
            i = n;
            break;
        default:
            return;
        }
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percentile(double p) {
    if (!gap_count) return 0;
    size_t index = (size_t)(p * (gap_count - 1));
    return gaps[index];
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s PORT CONNECTIONS SECONDS INTERVAL_MS TARGET\n", argv[0]);
        return 2;
    }
    int port = atoi(argv[1]), count = atoi(argv[2]);
    double seconds = atof(argv[3]), interval = atof(argv[4]);
    const char *target = argv[5];
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) == 0) { limit.rlim_cur = limit.rlim_max; setrlimit(RLIMIT_NOFILE, &limit); }

    char request[1024];
    int request_len = snprintf(request, sizeof request, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n", target);
    struct conn *conns = calloc((size_t)count, sizeof *conns);
    int epoll = epoll_create1(0);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int opened = 0;
    for (int i = 0; i < count; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd < 0) { errors++; conns[i].fd = -1; conns[i].state = DONE; continue; }
        if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0 ||
            write(fd, request, (size_t)request_len) != request_len) {
            errors++; close(fd); conns[i].fd = -1; conns[i].state = DONE; continue;
        }
        fcntl(fd, F_SETFL, O_NONBLOCK);
        conns[i].fd = fd;
        struct epoll_event event = {.events = EPOLLIN, .data.ptr = &conns[i]};
        epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event);
        opened++;
    }
    double start = now_ms(), deadline = start + seconds * 1e3;
    struct epoll_event events[256];
    char buffer[65536];
    for (;;) {
        double t = now_ms();
        if (t >= deadline) break;
        int ready = epoll_wait(epoll, events, 256, (int)(deadline - t) + 1);
        t = now_ms();
        for (int e = 0; e < ready; e++) {
            struct conn *c = events[e].data.ptr;
            for (;;) {
                ssize_t got = read(c->fd, buffer, sizeof buffer);
                if (got > 0) { feed(c, buffer, (size_t)got, t); continue; }
                if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
                /* Closed or failed before the deadline: counts as an error. */
                errors++;
                epoll_ctl(epoll, EPOLL_CTL_DEL, c->fd, NULL);
                c->state = DONE;
                break;
            }
        }
    }
    double end = now_ms();
    long delivered = 0, expected = 0, misordered = 0, streaming = 0;
    for (int i = 0; i < count; i++) {
        struct conn *c = &conns[i];
        delivered += c->events;
        misordered += c->misordered;
        if (c->started_ms > 0) {
            streaming++;
            expected += (long)((end - c->started_ms) / interval);
        }
        if (c->fd >= 0) close(c->fd);
    }
    qsort(gaps, gap_count, sizeof *gaps, compare);
    printf("{\"connections\": %d, \"opened\": %d, \"streaming\": %ld, \"delivered\": %ld, \"expected\": %ld, "
           "\"misordered\": %ld, \"errors\": %ld, \"gaps\": %zu, \"gap_p50_ms\": %.2f, \"gap_p99_ms\": %.2f, "
           "\"gap_max_ms\": %.2f, \"seconds\": %.3f}\n",
           count, opened, streaming, delivered, expected, misordered, errors, gap_count, percentile(0.50),
           percentile(0.99), gap_count ? gaps[gap_count - 1] : 0.0, (end - start) / 1e3);
    return 0;
}
