#pragma once
// A ClickHouse server reached over its HTTP interface (the one every release since 2016 serves:
// POST /?query=..., data in the body). Credentials come from CLICKHOUSE_USER and
// CLICKHOUSE_PASSWORD in the environment, never from the command line, and travel as HTTP basic
// auth, which 18.16 and current releases both accept. Several threads may send requests through
// one client at once (each request is a connection of its own).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "base/result.hpp"
#include "fleet/body_encoding.hpp"

namespace causeway::fleet {

// What one request to the server may take. A server that stalls, trickles or answers without end
// is cut off at these, with an error that says which.
struct ClickHouseLimits {
    // Connect, send the statement and its data, and read the whole answer, within this.
    std::chrono::seconds deadline{300};
    // The most answer bytes kept (a trace read back for explain is the largest answer).
    std::size_t max_answer_bytes = std::size_t{4} << 30;
};

class ClickHouseClient {
  public:
    // Checks the URL's form only; the first query says whether the server answers.
    // `distributed_sync` makes an INSERT into a Distributed table return only once every shard
    // holds the rows, so that a push marked complete is complete on every shard.
    static Result<ClickHouseClient> open(const std::string& url, bool distributed_sync,
                                         ClickHouseLimits limits = {});
    ClickHouseClient(ClickHouseClient&&) noexcept;
    ClickHouseClient& operator=(ClickHouseClient&&) noexcept;
    ~ClickHouseClient();

    const std::string& url() const { return url_; }
    // Runs a statement or a SELECT (its FORMAT clause included) and returns the response body.
    Result<std::string> query(const std::string& sql) const;
    // INSERT INTO table (columns) FORMAT RowBinary (or Native: native_block.hpp) with `rows` as
    // the body, in the encoding compress_inserts() chose: one HTTP request.
    Status insert_row_binary(const std::string& table, const std::string& columns,
                             const std::string& rows) const {
        std::string body = rows;
        return insert(table, columns, "RowBinary", body);
    }
    // `blocks` is lent, not copied (a batch is tens of megabytes): the request holds it while it
    // is sent, and it comes back as it was.
    Status insert_native(const std::string& table, const std::string& columns,
                         std::string& blocks) const {
        return insert(table, columns, "Native", blocks);
    }

    // The best encoding of a body the server reads (zstd, else gzip), found by sending it one
    // small query in each.
    Result<BodyEncoding> readable_encoding() const;
    // Whether the server is on this machine (127.0.0.0/8, ::1, localhost): compressing costs CPU
    // that the server needs too, and saves no network.
    bool on_loopback() const;
    void compress_inserts(BodyEncoding encoding) { insert_encoding_ = encoding; }
    BodyEncoding insert_encoding() const { return insert_encoding_; }
    // Bytes of INSERT bodies put on the wire so far (compressed where they were).
    std::uint64_t insert_bytes_sent() const;

  private:
    ClickHouseClient() = default;
    Status insert(const std::string& table, const std::string& columns, const char* format,
                  std::string& rows) const;
    // `body` is lent to the request while it is sent, and comes back as it was.
    Result<std::string> post(const std::string& sql_in_url, std::string& body,
                             const std::string& what,
                             BodyEncoding encoding = BodyEncoding::kIdentity) const;

    struct Connection;
    std::string url_;
    bool distributed_sync_ = false;
    ClickHouseLimits limits_;
    BodyEncoding insert_encoding_ = BodyEncoding::kIdentity;
    std::unique_ptr<Connection> connection_;
};

// A string as a URL query value: every byte but RFC 3986's unreserved ones as %XX.
std::string percent_encode(std::string_view text);

// A string as a ClickHouse single-quoted literal.
std::string quote(const std::string& text);

}  // namespace causeway::fleet
