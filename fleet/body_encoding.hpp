#pragma once
// How an INSERT's body travels to ClickHouse: as it is, or compressed with an encoding the
// server reads (HTTP Content-Encoding). Every release reads gzip; zstd arrived later (18.16, the
// Debian server, refuses it with "Unknown Content-Encoding"), so the client asks the server which
// it reads (ClickHouseClient::readable_encoding). RowBinary of a trace repeats its owner columns
// on every row: compressed, a call takes a tenth of its bytes on the wire.

#include <optional>
#include <string>
#include <string_view>

namespace causeway::fleet {

enum class BodyEncoding { kIdentity, kGzip, kZstd };

// The Content-Encoding header's value: "gzip", "zstd"; empty for kIdentity.
const char* content_encoding(BodyEncoding encoding);
// "none", "gzip", "zstd": as --compression takes them.
const char* encoding_name(BodyEncoding encoding);
std::optional<BodyEncoding> encoding_named(std::string_view name);

// `body` in `encoding`, at the fastest level of each (a push is bound by CPU, not the network,
// on most links).
std::string encode_body(std::string_view body, BodyEncoding encoding);

}  // namespace causeway::fleet
