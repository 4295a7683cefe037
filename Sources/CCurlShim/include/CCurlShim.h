// The few libcurl declarations `rates` needs, written by hand: no libcurl
// development header or package is required. libcurl.so.4 itself is loaded at
// run time with dlopen (see Sources/RateCore/HTTP/CurlLibrary.swift).
//
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call
// through a function pointer; the helpers below make each call with one fixed
// argument type. Every value here is part of libcurl's stable ABI (curl.h).
#ifndef RATES_CCURLSHIM_H
#define RATES_CCURLSHIM_H

#include <stddef.h>
#include <stdint.h>

/// CURLcode values `rates` tells apart.
enum {
  RATES_CURLE_OK = 0,
  RATES_CURLE_UNSUPPORTED_PROTOCOL = 1,
  RATES_CURLE_URL_MALFORMAT = 3,
  RATES_CURLE_COULDNT_RESOLVE_PROXY = 5,
  RATES_CURLE_COULDNT_RESOLVE_HOST = 6,
  RATES_CURLE_COULDNT_CONNECT = 7,
  RATES_CURLE_WEIRD_SERVER_REPLY = 8,
  RATES_CURLE_HTTP2 = 16,
  RATES_CURLE_PARTIAL_FILE = 18,
  RATES_CURLE_WRITE_ERROR = 23,
  RATES_CURLE_OPERATION_TIMEDOUT = 28,
  RATES_CURLE_SSL_CONNECT_ERROR = 35,
  RATES_CURLE_ABORTED_BY_CALLBACK = 42,
  RATES_CURLE_UNKNOWN_OPTION = 48,
  RATES_CURLE_GOT_NOTHING = 52,
  RATES_CURLE_SEND_ERROR = 55,
  RATES_CURLE_RECV_ERROR = 56,
  RATES_CURLE_PEER_FAILED_VERIFICATION = 60,
  RATES_CURLE_BAD_CONTENT_ENCODING = 61,
  RATES_CURLE_FILESIZE_EXCEEDED = 63,
  RATES_CURLE_HTTP2_STREAM = 92,
};

/// CURLoption values (CURLOPTTYPE_LONG 0, OBJECTPOINT 10000,
/// FUNCTIONPOINT 20000, OFF_T 30000, plus the option number).
enum {
  RATES_CURLOPT_WRITEDATA = 10001,
  RATES_CURLOPT_URL = 10002,
  RATES_CURLOPT_WRITEFUNCTION = 20011,
  RATES_CURLOPT_HTTPHEADER = 10023,
  RATES_CURLOPT_HEADERDATA = 10029,
  RATES_CURLOPT_CUSTOMREQUEST = 10036,
  RATES_CURLOPT_NOPROGRESS = 43,
  RATES_CURLOPT_NOBODY = 44,
  RATES_CURLOPT_FOLLOWLOCATION = 52,
  RATES_CURLOPT_XFERINFODATA = 10057,
  RATES_CURLOPT_HEADERFUNCTION = 20079,
  RATES_CURLOPT_HTTPGET = 80,
  RATES_CURLOPT_NOSIGNAL = 99,
  RATES_CURLOPT_ACCEPT_ENCODING = 10102,
  RATES_CURLOPT_MAXFILESIZE_LARGE = 30117,
  RATES_CURLOPT_TIMEOUT_MS = 155,
  RATES_CURLOPT_CONNECTTIMEOUT_MS = 156,
  RATES_CURLOPT_PROTOCOLS = 181,
  RATES_CURLOPT_REDIR_PROTOCOLS = 182,
  RATES_CURLOPT_XFERINFOFUNCTION = 20219,
  RATES_CURLOPT_PROTOCOLS_STR = 10318,
  RATES_CURLOPT_REDIR_PROTOCOLS_STR = 10319,
};

/// CURLINFO_RESPONSE_CODE (CURLINFO_LONG 0x200000 + 2).
enum { RATES_CURLINFO_RESPONSE_CODE = 0x200002 };

/// CURL_GLOBAL_ALL; CURLPROTO_HTTP | CURLPROTO_HTTPS.
enum { RATES_CURL_GLOBAL_ALL = 3, RATES_CURLPROTO_HTTP_HTTPS = 3 };

/// Any libcurl function, as dlsym finds it; the helpers below cast it back.
typedef void (*rates_curl_function)(void);

/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION callbacks.
typedef size_t (*rates_curl_data_callback)(char *data, size_t size, size_t count, void *user);

/// CURLOPT_XFERINFOFUNCTION callback; a non-zero result aborts the transfer.
typedef int (*rates_curl_xferinfo_callback)(
  void *user, int64_t download_total, int64_t download_now, int64_t upload_total,
  int64_t upload_now);

/// `curl_easy_setopt(handle, option, (long)value)` through `setopt`, the
/// address of curl_easy_setopt.
int rates_curl_setopt_long(rates_curl_function setopt, void *handle, int option, long value);

/// `curl_easy_setopt(handle, option, (curl_off_t)value)`.
int rates_curl_setopt_off(rates_curl_function setopt, void *handle, int option, int64_t value);

/// `curl_easy_setopt(handle, option, pointer)` for strings, lists and user data.
int rates_curl_setopt_pointer(rates_curl_function setopt, void *handle, int option, const void *pointer);

/// `curl_easy_setopt(handle, option, callback)` for write and header callbacks.
int rates_curl_setopt_data_callback(
  rates_curl_function setopt, void *handle, int option, rates_curl_data_callback callback);

/// `curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback)`.
int rates_curl_setopt_xferinfo_callback(
  rates_curl_function setopt, void *handle, int option, rates_curl_xferinfo_callback callback);

/// `curl_easy_getinfo(handle, info, &value)` for a `long` result.
int rates_curl_getinfo_long(rates_curl_function getinfo, void *handle, int info, long *value);

#endif
