/*
 * auth.h - PasswordAuthenticator over SASL PLAIN: the user is the account
 * name, the password the account key, as Azure Cosmos DB does it.
 */
#ifndef EMULATOR_AUTH_H
#define EMULATOR_AUTH_H

#include "wire/wire.h"

#define EMU_AUTHENTICATOR "org.apache.cassandra.auth.PasswordAuthenticator"

/*
 * Checks a SASL PLAIN token "[authzid] NUL user NUL password" against the
 * account, comparing in constant time. Returns BASE_OK, or BASE_ERROR with
 * err set to Bad credentials (0x0100) and Cassandra's message.
 */
int emu_auth_check_plain(wire_value_t token, const char *account, const char *key,
                         base_error_t *err);

#endif
