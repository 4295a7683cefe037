// The ECB's daily reference rates since 1999 (scripts/update-ecb-snapshot.sh),
// embedded in the binary with C23 #embed: the file is compiled in as data, so
// the build costs one small C file and the binary grows by the file's size.
// Clang 19+ (Linux toolchains, Apple clang from Xcode 16.3) supports it in any
// C mode, as an extension before C23.
#include "CECBSnapshot.h"

#if !defined(__has_embed)
#error "rates needs a C compiler with #embed (clang 19 or later) for its ECB snapshot"
#endif

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc23-extensions"
static const unsigned char snapshot[] = {
#embed "eurofxref.bin"
};
#pragma clang diagnostic pop

const unsigned char *rates_ecb_snapshot_bytes(void) { return snapshot; }

size_t rates_ecb_snapshot_size(void) { return sizeof snapshot; }
