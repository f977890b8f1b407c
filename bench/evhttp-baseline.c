/* A bare evhttp server in C, tuned as shared/reference/performance.md says: the physical limit of the listener
 * Understudy is built on. It serves fixed bytes fetched from Understudy by bench/bench.py.
 *
 *   evhttp-baseline MAPFILE
 *
 * MAPFILE has one line per route: "STATUS<TAB>CONTENT-TYPE<TAB>URI<TAB>BODYFILE". The request URI (path and
 * query, exactly as sent) selects the entry; anything else is a 404. Binds 127.0.0.1 on a free port and prints
 * "http://127.0.0.1:PORT" as its first line. Exits on SIGTERM or SIGINT.
 *
 * With BASELINE_EXTRA_HEADERS set ("Name: value" lines), every reply also carries those headers: bench/instructions.sh
 * uses it to price the headers Understudy must send (X-RateLimit-*, ETag) in evhttp itself.
 *
 * Settings: evconnlistener_new_bind with a 1,024 backlog + evhttp_bind_listener, TCP_NODELAY on the listener
 * (accepted sockets inherit it), bufferevent max single write 256 KiB via evhttp_set_bevcb, bodies added by
 * reference (evbuffer_add_reference), no copy. */
#include <arpa/inet.h>
#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

struct route {
    int status;
    char *content_type;
    char *uri;
    char *body;
    size_t length;
};

static struct route routes[64];
static int route_count;

static char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(2); }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *bytes = malloc(size > 0 ? (size_t)size : 1);
    if (size > 0 && fread(bytes, 1, (size_t)size, file) != (size_t)size) { perror(path); exit(2); }
    fclose(file);
    *length = (size_t)size;
    return bytes;
}

static void load_map(const char *path) {
    FILE *file = fopen(path, "r");
    if (!file) { perror(path); exit(2); }
    char line[4096];
    while (fgets(line, sizeof line, file) && route_count < 64) {
        line[strcspn(line, "\r\n")] = 0;
        char *status = strtok(line, "\t"), *type = strtok(NULL, "\t"), *uri = strtok(NULL, "\t"),
             *body = strtok(NULL, "\t");
        if (!status || !type || !uri || !body) continue;
        struct route *r = &routes[route_count++];
        r->status = atoi(status);
        r->content_type = strdup(type);
        r->uri = strdup(uri);
        r->body = read_file(body, &r->length);
    }
    fclose(file);
}

static char *extra_names[16], *extra_values[16];
static int extra_count;

static void load_extra_headers(void) {
    const char *text = getenv("BASELINE_EXTRA_HEADERS");
    if (!text) return;
    char *copy = strdup(text), *line, *rest = copy;
    while ((line = strsep(&rest, "\n")) && extra_count < 16) {
        char *colon = strstr(line, ": ");
        if (!colon) continue;
        *colon = '\0';
        extra_names[extra_count] = line;
        extra_values[extra_count++] = colon + 2;
    }
}

static void no_cleanup(const void *data, size_t length, void *arg) { (void)data; (void)length; (void)arg; }

static void handle(struct evhttp_request *request, void *arg) {
    (void)arg;
    const char *uri = evhttp_request_get_uri(request);
    for (int i = 0; i < route_count; i++) {
        if (strcmp(uri, routes[i].uri) == 0) {
            struct route *r = &routes[i];
            evhttp_add_header(evhttp_request_get_output_headers(request), "Content-Type", r->content_type);
            for (int h = 0; h < extra_count; h++)
                evhttp_add_header(evhttp_request_get_output_headers(request), extra_names[h], extra_values[h]);
            evbuffer_add_reference(evhttp_request_get_output_buffer(request), r->body, r->length, no_cleanup, NULL);
            evhttp_send_reply(request, r->status, r->status == 200 ? "OK" : "Error", NULL);
            return;
        }
    }
    evhttp_send_error(request, 404, "Not Found");
}

static struct bufferevent *make_bev(struct event_base *base, void *arg) {
    (void)arg;
    struct bufferevent *bev = bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE);
    if (bev) bufferevent_set_max_single_write(bev, 256 << 10);
    return bev;
}

static void on_signal(evutil_socket_t fd, short what, void *arg) {
    (void)fd; (void)what;
    event_base_loopexit((struct event_base *)arg, NULL);
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: %s MAPFILE\n", argv[0]); return 2; }
    signal(SIGPIPE, SIG_IGN);
    load_map(argv[1]);
    load_extra_headers();
    struct event_base *base = event_base_new();
    struct evhttp *http = evhttp_new(base);
    evhttp_set_gencb(http, handle, NULL);
    evhttp_set_bevcb(http, make_bev, NULL);
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    struct evconnlistener *listener = evconnlistener_new_bind(
        base, NULL, NULL, LEV_OPT_REUSEABLE | LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 1024,
        (struct sockaddr *)&address, sizeof address);
    if (!listener) { perror("listen"); return 1; }
    evutil_socket_t fd = evconnlistener_get_fd(listener);
    int on = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
    evhttp_bind_listener(http, listener);
    socklen_t length = sizeof address;
    getsockname(fd, (struct sockaddr *)&address, &length);
    printf("http://127.0.0.1:%d\n", ntohs(address.sin_port));
    fflush(stdout);
    struct event *term = evsignal_new(base, SIGTERM, on_signal, base);
    struct event *interrupt = evsignal_new(base, SIGINT, on_signal, base);
    event_add(term, NULL);
    event_add(interrupt, NULL);
    event_base_dispatch(base);
    event_free(term);
    event_free(interrupt);
    evhttp_free(http);
    event_base_free(base);
    return 0;
}
