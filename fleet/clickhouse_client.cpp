#include "fleet/clickhouse_client.hpp"

#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>

namespace causeway::fleet {
namespace {

// A dead server is seen at connect.
constexpr time_t kConnectTimeoutS = 10;
// How much of a statement, and of the server's error answer, an error message repeats.
constexpr std::size_t kQuotedStatementChars = 120;
constexpr std::size_t kQuotedErrorChars = 2000;

std::string env_or_empty(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

// The first `chars` of `text` on one line, control bytes and bytes outside ASCII as '?': an error
// answer is the server's text, and may be anything.
std::string printable_head(const std::string& text, std::size_t chars) {
    std::string head = text.substr(0, chars);
    for (char& c : head) {
        const auto byte = static_cast<unsigned char>(c);
        c = c == '\n' || c == '\t' ? ' ' : byte < 0x20 || byte >= 0x7F ? '?' : c;
    }
    return text.size() > chars ? head + "..." : head;
}

std::string statement_head(const std::string& sql) {
    return printable_head(sql, kQuotedStatementChars);
}

}  // namespace

// How every request reaches the server. Each request gets an httplib client of its own, made
// from these (a few microseconds): one client object cannot send two requests at once, and a
// push sends several.
struct ClickHouseClient::Connection {
    std::string url;
    time_t connect_timeout_s = 0;
    time_t io_timeout_s = 0;  // per read and per write; the deadline bounds the whole request
    std::string user;
    std::string password;
    std::atomic<std::uint64_t> insert_bytes{0};

    httplib::Client client() const {
        httplib::Client made(url);
        made.set_connection_timeout(connect_timeout_s);
        made.set_read_timeout(io_timeout_s);
        made.set_write_timeout(io_timeout_s);
        if (!user.empty()) {
            made.set_basic_auth(user, password);
        }
        return made;
    }
};

ClickHouseClient::ClickHouseClient(ClickHouseClient&&) noexcept = default;
ClickHouseClient& ClickHouseClient::operator=(ClickHouseClient&&) noexcept = default;
ClickHouseClient::~ClickHouseClient() = default;

Result<ClickHouseClient> ClickHouseClient::open(const std::string& url, bool distributed_sync,
                                                ClickHouseLimits limits) {
    std::string base = url;
    while (!base.empty() && base.back() == '/') {
        base.pop_back();
    }
    bool has_scheme = base.rfind("http://", 0) == 0 || base.rfind("https://", 0) == 0;
    if (!has_scheme || base.find('/', base.find("//") + 2) != std::string::npos) {
        return Error{"--clickhouse " + url +
                     ": expected the server's HTTP interface as http://HOST:PORT (port 8123 by "
                     "default), with no path"};
    }
    ClickHouseClient client;
    client.url_ = base;
    client.distributed_sync_ = distributed_sync;
    client.limits_ = limits;
    if (!httplib::Client(base).is_valid()) {
        return Error{"--clickhouse " + url + ": not a URL this build can connect to"};
    }
    client.connection_ = std::make_unique<Connection>();
    Connection& connection = *client.connection_;
    connection.url = base;
    // Per read and per write; the whole request is bounded by the deadline (post()).
    connection.io_timeout_s = static_cast<time_t>(limits.deadline.count());
    connection.connect_timeout_s = std::min(kConnectTimeoutS, connection.io_timeout_s);
    connection.user = env_or_empty("CLICKHOUSE_USER");
    connection.password = env_or_empty("CLICKHOUSE_PASSWORD");
    return client;
}

Result<std::string> ClickHouseClient::post(const std::string& sql_in_url, std::string& body,
                                           const std::string& what, BodyEncoding encoding) const {
    std::string path = "/?";
    if (distributed_sync_) {
        path += "insert_distributed_sync=1&";
    }
    if (!sql_in_url.empty()) {
        path += "query=" + percent_encode(sql_in_url);
    }
    httplib::Request request;
    request.method = "POST";
    request.path = path;
    request.headers = {{"Content-Type", "text/plain; charset=UTF-8"}};
    if (encoding != BodyEncoding::kIdentity) {
        request.headers.emplace("Content-Encoding", content_encoding(encoding));
    }
    request.body = std::move(body);
    // The answer is read here, so that a trickling or endless one is cut off: the library's
    // timeouts restart at every byte, and it keeps any body whole.
    const auto deadline = std::chrono::steady_clock::now() + limits_.deadline;
    std::string answer;
    bool past_deadline = false;
    bool too_long = false;
    request.content_receiver = [&](const char* data, std::size_t length, std::uint64_t,
                                   std::uint64_t) {
        past_deadline = std::chrono::steady_clock::now() > deadline;
        too_long = answer.size() + length > limits_.max_answer_bytes;
        if (past_deadline || too_long) {
            return false;
        }
        answer.append(data, length);
        return true;
    };
    auto response = connection_->client().send(request);
    body = std::move(request.body);
    past_deadline = past_deadline || std::chrono::steady_clock::now() > deadline;
    if (past_deadline) {
        return Error{"ClickHouse at " + url_ + " did not answer `" + what + "` within " +
                     std::to_string(limits_.deadline.count()) +
                     " s (the server stalls or trickles; a longer wait: --clickhouse-timeout)"};
    }
    if (too_long) {
        return Error{"ClickHouse at " + url_ + " answered `" + what + "` with more than " +
                     std::to_string(limits_.max_answer_bytes) +
                     " bytes: not an answer this client asked for"};
    }
    if (!response) {
        return Error{"cannot reach ClickHouse at " + url_ + " (" +
                     httplib::to_string(response.error()) + ") while running `" + what +
                     "`: is the server up, and is this its HTTP port?"};
    }
    if (response->status != 200) {
        std::string reason = printable_head(answer, kQuotedErrorChars);
        while (!reason.empty() && reason.back() == ' ') {
            reason.pop_back();
        }
        if (response->status == 401 || response->status == 403 ||
            reason.find("Authentication failed") != std::string::npos) {
            reason += " (set CLICKHOUSE_USER and CLICKHOUSE_PASSWORD in the environment)";
        }
        return Error{"ClickHouse at " + url_ + " refused `" + what + "` (HTTP " +
                     std::to_string(response->status) + "): " + reason};
    }
    return answer;
}

Result<std::string> ClickHouseClient::query(const std::string& sql) const {
    std::string body = sql;
    return post("", body, statement_head(sql));
}

Status ClickHouseClient::insert(const std::string& table, const std::string& columns,
                                const char* format, std::string& rows) const {
    std::string sql = "INSERT INTO " + table + " (" + columns + ") FORMAT " + format;
    // Uncompressed, the rows are the body as they are: a batch is tens of megabytes.
    const bool as_is = insert_encoding_ == BodyEncoding::kIdentity;
    std::string encoded = as_is ? std::string() : encode_body(rows, insert_encoding_);
    std::string& body = as_is ? rows : encoded;
    auto sent = post(sql, body, statement_head(sql), insert_encoding_);
    if (!sent) {
        return sent.error();
    }
    connection_->insert_bytes += body.size();
    return Ok{};
}

Result<BodyEncoding> ClickHouseClient::readable_encoding() const {
    for (BodyEncoding encoding : {BodyEncoding::kZstd, BodyEncoding::kGzip}) {
        const std::string what = std::string("SELECT 1 (as ") + content_encoding(encoding) + ")";
        std::string body = encode_body("SELECT 1", encoding);
        auto answer = post("", body, what, encoding);
        if (answer) {
            return encoding;
        }
        if (answer.error().message.find("Unknown Content-Encoding") == std::string::npos) {
            return answer.error();
        }
    }
    return BodyEncoding::kIdentity;
}

bool ClickHouseClient::on_loopback() const {
    std::string host = url_.substr(url_.find("//") + 2);
    host = host.substr(0, host.find(host.front() == '[' ? ']' : ':'));
    return host == "localhost" || host == "[::1" || host.rfind("127.", 0) == 0;
}

std::uint64_t ClickHouseClient::insert_bytes_sent() const {
    return connection_->insert_bytes;
}

std::string percent_encode(std::string_view text) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string encoded;
    encoded.reserve(text.size());
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        const bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
                                (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
                                c == '~';
        if (unreserved) {
            encoded += c;
        } else {
            encoded += '%';
            encoded += kHex[byte >> 4];
            encoded += kHex[byte & 0x0f];
        }
    }
    return encoded;
}

std::string quote(const std::string& text) {
    std::string quoted = "'";
    for (char c : text) {
        if (c == '\'' || c == '\\') {
            quoted += '\\';
        }
        quoted += c;
    }
    return quoted + "'";
}

}  // namespace causeway::fleet
