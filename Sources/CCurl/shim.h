// libcurl (OpenSSL flavour, Debian libcurl4-openssl-dev): HTTP with TLS and AWS SigV4 for object
// storage (Sources/Storage). curl_easy_setopt and curl_easy_getinfo are variadic, which Swift
// cannot call: each argument type gets a typed wrapper here.
#ifndef REVUE_CCURL_SHIM_H
#define REVUE_CCURL_SHIM_H

#include <curl/curl.h>

/// A read, write or header callback (CURLOPT_READFUNCTION, WRITEFUNCTION, HEADERFUNCTION).
typedef size_t (*revue_curl_data_callback)(char *buffer, size_t size, size_t count, void *context);

static inline CURLcode revue_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode revue_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}
/// libcurl copies string options (since 7.17), so the Swift string need not outlive the call.
static inline CURLcode revue_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode revue_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode revue_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode revue_curl_setopt_callback(CURL *handle, CURLoption option, revue_curl_data_callback value) {
    return curl_easy_setopt(handle, option, value);
}
static inline CURLcode revue_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}
/// CURL_GLOBAL_DEFAULT is a macro.
static inline long revue_curl_global_default(void) { return CURL_GLOBAL_DEFAULT; }
/// CURL_SSLVERSION_TLSv1_2 is an anonymous enum constant: at least TLS 1.2.
static inline long revue_curl_sslversion_tls12(void) { return CURL_SSLVERSION_TLSv1_2; }
/// CURLVERSION_NOW is a macro.
static inline curl_version_info_data *revue_curl_version_info(void) { return curl_version_info(CURLVERSION_NOW); }
/// CURL_READFUNC_ABORT is a macro.
static inline size_t revue_curl_readfunc_abort(void) { return CURL_READFUNC_ABORT; }

#endif
