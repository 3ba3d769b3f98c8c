// INSERT bodies compressed for the wire: each encoding decodes back to the very bytes, in the
// format its Content-Encoding names (gzip's header, zstd's frame), and --compression's names.
#include "fleet/body_encoding.hpp"

#include <zlib.h>
#include <zstd.h>

#include <catch2/catch.hpp>

#include <string>

#include "fleet/clickhouse_client.hpp"

using causeway::fleet::BodyEncoding;
using causeway::fleet::ClickHouseClient;
using causeway::fleet::encode_body;
using causeway::fleet::encoding_name;
using causeway::fleet::encoding_named;

namespace {

// Rows as a push writes them: an owner repeated on every row, then the row's own values.
std::string rows_like_a_push() {
    std::string rows;
    for (int i = 0; i < 50'000; ++i) {
        rows += "job-a node-7 0123456789abcdef";
        rows += std::to_string(i * 7919 % 100003);
        rows += '\0';
    }
    return rows;
}

std::string gunzip(const std::string& body) {
    z_stream stream{};
    REQUIRE(inflateInit2(&stream, 15 + 16) == Z_OK);  // a gzip stream, not a bare zlib one
    std::string out(body.size() * 40 + 64, '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
    stream.avail_in = static_cast<uInt>(body.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int done = inflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    inflateEnd(&stream);
    REQUIRE(done == Z_STREAM_END);
    return out;
}

std::string unzstd(const std::string& body) {
    const auto size = ZSTD_getFrameContentSize(body.data(), body.size());
    REQUIRE(size != ZSTD_CONTENTSIZE_ERROR);
    REQUIRE(size != ZSTD_CONTENTSIZE_UNKNOWN);
    std::string out(size, '\0');
    const std::size_t written = ZSTD_decompress(out.data(), out.size(), body.data(), body.size());
    REQUIRE(ZSTD_isError(written) == 0);
    out.resize(written);
    return out;
}

}  // namespace

TEST_CASE("a compressed body decodes to the same bytes, several times smaller",
          "[fleet][compression]") {
    const std::string rows = rows_like_a_push();
    const std::string gzipped = encode_body(rows, BodyEncoding::kGzip);
    CHECK(gunzip(gzipped) == rows);
    CHECK(gzipped.size() * 4 < rows.size());
    const std::string zstded = encode_body(rows, BodyEncoding::kZstd);
    CHECK(unzstd(zstded) == rows);
    CHECK(zstded.size() * 4 < rows.size());
    CHECK(encode_body(rows, BodyEncoding::kIdentity) == rows);
    CHECK(gunzip(encode_body("", BodyEncoding::kGzip)).empty());
    CHECK(unzstd(encode_body("", BodyEncoding::kZstd)).empty());
}

TEST_CASE("the names that --compression takes are each encoding's, and nothing else",
          "[fleet][compression]") {
    for (BodyEncoding e : {BodyEncoding::kIdentity, BodyEncoding::kGzip, BodyEncoding::kZstd}) {
        CHECK(encoding_named(encoding_name(e)) == e);
    }
    CHECK(encoding_named("none") == BodyEncoding::kIdentity);
    CHECK_FALSE(encoding_named("brotli"));
    CHECK_FALSE(encoding_named(""));
}

TEST_CASE("a server on this machine is on loopback, one elsewhere is not", "[fleet][compression]") {
    for (const char* url : {"http://127.0.0.1:8123", "http://127.1.2.3:9000/",
                            "http://localhost:8123", "http://localhost", "http://[::1]:8123"}) {
        INFO(url);
        CHECK(ClickHouseClient::open(url, false)->on_loopback());
    }
    for (const char* url : {"http://10.0.0.5:8123", "http://localhost.example.com:8123",
                            "http://clickhouse:8123", "http://[2001:db8::1]:8123"}) {
        INFO(url);
        CHECK_FALSE(ClickHouseClient::open(url, false)->on_loopback());
    }
}
