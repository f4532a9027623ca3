// SHA-256 (OpenSSL's libcrypto): content hashes where a collision must not be craftable (the result cache).
#pragma once

#include <string>
#include <string_view>

namespace lint::source {

/// SHA-256 of `bytes`, in lowercase hex.
std::string sha256_hex(std::string_view bytes);

}  // namespace lint::source
