#include "fleet/body_encoding.hpp"

#include <zlib.h>
#include <zstd.h>

#include <stdexcept>

namespace causeway::fleet {
namespace {

std::string gzip(std::string_view body) {
    z_stream stream{};
    // 15 window bits, +16: a gzip header and trailer, not a bare zlib stream.
    if (deflateInit2(&stream, Z_BEST_SPEED, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
        throw std::runtime_error("zlib cannot start a gzip stream");
    }
    std::string out(deflateBound(&stream, static_cast<uLong>(body.size())), '\0');
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
    stream.avail_in = static_cast<uInt>(body.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int done = deflate(&stream, Z_FINISH);
    const auto written = stream.total_out;
    deflateEnd(&stream);
    if (done != Z_STREAM_END) {
        throw std::runtime_error("zlib could not compress a batch");
    }
    out.resize(written);
    return out;
}

std::string zstd(std::string_view body) {
    std::string out(ZSTD_compressBound(body.size()), '\0');
    const std::size_t written = ZSTD_compress(out.data(), out.size(), body.data(), body.size(), 1);
    if (ZSTD_isError(written) != 0) {
        throw std::runtime_error(std::string("zstd could not compress a batch: ") +
                                 ZSTD_getErrorName(written));
    }
    out.resize(written);
    return out;
}

}  // namespace

const char* content_encoding(BodyEncoding encoding) {
    switch (encoding) {
        case BodyEncoding::kIdentity:
            break;
        case BodyEncoding::kGzip:
            return "gzip";
        case BodyEncoding::kZstd:
            return "zstd";
    }
    return "";
}

const char* encoding_name(BodyEncoding encoding) {
    return encoding == BodyEncoding::kIdentity ? "none" : content_encoding(encoding);
}

std::optional<BodyEncoding> encoding_named(std::string_view name) {
    for (BodyEncoding e : {BodyEncoding::kIdentity, BodyEncoding::kGzip, BodyEncoding::kZstd}) {
        if (name == encoding_name(e)) {
            return e;
        }
    }
    return std::nullopt;
}

std::string encode_body(std::string_view body, BodyEncoding encoding) {
    switch (encoding) {
        case BodyEncoding::kIdentity:
            break;
        case BodyEncoding::kGzip:
            return gzip(body);
        case BodyEncoding::kZstd:
            return zstd(body);
    }
    return std::string(body);
}

}  // namespace causeway::fleet
