#ifndef CECBSNAPSHOT_H
#define CECBSNAPSHOT_H

#include <stddef.h>

/// The ECB snapshot built into the binary (eurofxref.bin, made by
/// scripts/update-ecb-snapshot.sh): its first byte. Read-only, static.
const unsigned char *rates_ecb_snapshot_bytes(void);

/// The snapshot's length in bytes.
size_t rates_ecb_snapshot_size(void);

#endif
