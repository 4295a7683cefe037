#include "CNumberFormat.h"

#include <stdio.h>

int rates_format_double(char *buffer, size_t size, char conversion, int places, double value) {
  if (conversion == 'e') {
    return snprintf(buffer, size, "%.*e", places, value);
  }
  return snprintf(buffer, size, "%.*f", places, value);
}
