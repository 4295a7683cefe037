#ifndef CNUMBERFORMAT_H
#define CNUMBERFORMAT_H

#include <stddef.h>

/// `value` as C's `printf` writes `%.*f` (`conversion` 'f') or `%.*e` ('e') with `places`
/// digits after the point, into `buffer` of `size` bytes; what `snprintf` returns. Called
/// from Swift with plain arguments: Swift's `withVaList` packs each `CVarArg` after casting
/// it to a protocol at run time, and each first cast scans every conformance in the binary.
int rates_format_double(char *buffer, size_t size, char conversion, int places, double value);

#endif
