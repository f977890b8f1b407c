#ifndef UNDERSTUDY_CLIBEVENTOPENSSL_SHIM_H
#define UNDERSTUDY_CLIBEVENTOPENSSL_SHIM_H

#include <event2/bufferevent.h>
#include <event2/bufferevent_ssl.h>

#endif
