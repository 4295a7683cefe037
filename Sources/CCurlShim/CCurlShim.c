// Fixed-argument calls to libcurl's variadic functions; see CCurlShim.h.
#include "CCurlShim.h"

typedef int (*rates_curl_variadic)(void *handle, int option, ...);

int rates_curl_setopt_long(rates_curl_function setopt, void *handle, int option, long value) {
  return ((rates_curl_variadic)setopt)(handle, option, value);
}

int rates_curl_setopt_off(rates_curl_function setopt, void *handle, int option, int64_t value) {
  return ((rates_curl_variadic)setopt)(handle, option, (long long)value);
}

int rates_curl_setopt_pointer(rates_curl_function setopt, void *handle, int option, const void *pointer) {
  return ((rates_curl_variadic)setopt)(handle, option, pointer);
}

int rates_curl_setopt_data_callback(
  rates_curl_function setopt, void *handle, int option, rates_curl_data_callback callback) {
  return ((rates_curl_variadic)setopt)(handle, option, callback);
}

int rates_curl_setopt_xferinfo_callback(
  rates_curl_function setopt, void *handle, int option, rates_curl_xferinfo_callback callback) {
  return ((rates_curl_variadic)setopt)(handle, option, callback);
}

int rates_curl_getinfo_long(rates_curl_function getinfo, void *handle, int info, long *value) {
  return ((rates_curl_variadic)getinfo)(handle, info, value);
}
