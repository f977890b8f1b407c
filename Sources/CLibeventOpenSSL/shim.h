#ifndef UNDERSTUDY_CLIBEVENTOPENSSL_SHIM_H
#define UNDERSTUDY_CLIBEVENTOPENSSL_SHIM_H

// The system headers first, as in CLibevent's shim: libevent's event-config.h defines _GNU_SOURCE, and a module
// that let it do so before <sys/types.h> declares fd_set with other member names than every other module, which
// Clang refuses when one Swift file sees both (it depends on which module is built first, so the build failed only
// sometimes).
#include <sys/types.h>
#include <sys/socket.h>
#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>

#endif
