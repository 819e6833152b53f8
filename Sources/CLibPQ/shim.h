// libpq, PostgreSQL's client library. Nothing here is a macro Swift needs, but the shim keeps
// every C target the same shape.
#ifndef REVUE_CLIBPQ_SHIM_H
#define REVUE_CLIBPQ_SHIM_H

#include <libpq-fe.h>

/// The OID PostgreSQL uses for bytea, sent in binary format so no escaping is involved.
static inline unsigned int revue_pq_bytea_oid(void) { return 17; }

#endif
