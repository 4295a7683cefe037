// The ECB's daily reference rates since 1999 (eurofxref.bin, made by
// scripts/update-ecb-snapshot.sh), compiled into the binary as read-only data:
// the build costs one small C file, and the binary grows by the file's size.
//
// C23 #embed where the compiler has it (clang 19 or later, the Swift 6.1+
// toolchains), else the assembler's .incbin, which finds the file through the
// include path SwiftPM passes (Sources/CECBSnapshot/include, hence "../").
#include "CECBSnapshot.h"

// Generated with eurofxref.bin and naming its checksum: build systems track
// included headers, not embedded files, so a new snapshot rebuilds this file.
#include "eurofxref.h"

#if defined(__has_embed) && !defined(RATES_SNAPSHOT_INCBIN)

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wc23-extensions"
static const unsigned char snapshot[] = {
#embed "eurofxref.bin"
};
#pragma clang diagnostic pop

_Static_assert(sizeof snapshot == RATES_ECB_SNAPSHOT_SIZE, "eurofxref.h does not match eurofxref.bin");

const unsigned char *rates_ecb_snapshot_bytes(void) { return snapshot; }

size_t rates_ecb_snapshot_size(void) { return sizeof snapshot; }

#else

#if defined(__APPLE__)
#define RATES_SYMBOL(name) "_" #name
#define RATES_RODATA ".section __TEXT,__const\n"
#else
#define RATES_SYMBOL(name) #name
#define RATES_RODATA ".section .rodata\n"
#endif

__asm__(RATES_RODATA
        ".p2align 4\n"
        RATES_SYMBOL(rates_ecb_snapshot_data) ":\n"
        ".incbin \"../eurofxref.bin\"\n"
        ".text\n");

extern const unsigned char rates_ecb_snapshot_data[] __asm__(RATES_SYMBOL(rates_ecb_snapshot_data));

const unsigned char *rates_ecb_snapshot_bytes(void) { return rates_ecb_snapshot_data; }

size_t rates_ecb_snapshot_size(void) { return RATES_ECB_SNAPSHOT_SIZE; }

#endif
