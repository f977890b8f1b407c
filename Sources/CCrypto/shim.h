#ifndef UNDERSTUDY_CCRYPTO_SHIM_H
#define UNDERSTUDY_CCRYPTO_SHIM_H

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#endif
