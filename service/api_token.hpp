// API token check of `ionflow serve --api-token`: does an HTTP Authorization header carry the
// service's bearer token (RFC 6750 section 2.1: `Authorization: Bearer <token>`; the scheme
// name is case-insensitive, RFC 7235 section 2.1)?
// The token comparison takes time that depends only on the expected token's length, not on
// where a guess first differs, so response times do not reveal the token byte by byte.
// Thread-safety: pure functions.
#pragma once

#include <string_view>

namespace ionflow {

// True iff a and b are equal; runs over every byte of `expected` whatever `given` is.
bool constant_time_equal(std::string_view given, std::string_view expected);

// True iff `authorization` (the header's value, "" if absent) is "Bearer <expected_token>".
// REQUIRES: expected_token is not empty.
bool bearer_token_matches(std::string_view authorization, std::string_view expected_token);

}  // namespace ionflow
