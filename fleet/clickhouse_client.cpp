#include "fleet/clickhouse_client.hpp"

#include <httplib.h>

#include <cstdlib>

namespace causeway::fleet {
namespace {

// A push of a large trace sends batches of a few MB; a fleet query over 100M calls reads for
// seconds. Both fit well inside these; a dead server is seen at connect.
constexpr time_t kConnectTimeoutS = 10;
constexpr time_t kReadTimeoutS = 600;
// How much of a statement an error message repeats.
constexpr std::size_t kQuotedStatementChars = 120;

std::string env_or_empty(const char* name) {
    const char* value = std::getenv(name);
    return value == nullptr ? std::string() : std::string(value);
}

std::string statement_head(const std::string& sql) {
    std::string head = sql.substr(0, kQuotedStatementChars);
    for (char& c : head) {
        if (c == '\n') {
            c = ' ';
        }
    }
    return sql.size() > kQuotedStatementChars ? head + "..." : head;
}

}  // namespace

struct ClickHouseClient::Connection {
    explicit Connection(const std::string& url) : client(url) {}
    httplib::Client client;
};

ClickHouseClient::ClickHouseClient(ClickHouseClient&&) noexcept = default;
ClickHouseClient& ClickHouseClient::operator=(ClickHouseClient&&) noexcept = default;
ClickHouseClient::~ClickHouseClient() = default;

Result<ClickHouseClient> ClickHouseClient::open(const std::string& url, bool distributed_sync) {
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
    client.connection_ = std::make_unique<Connection>(base);
    if (!client.connection_->client.is_valid()) {
        return Error{"--clickhouse " + url + ": not a URL this build can connect to"};
    }
    client.connection_->client.set_connection_timeout(kConnectTimeoutS);
    client.connection_->client.set_read_timeout(kReadTimeoutS);
    client.connection_->client.set_write_timeout(kReadTimeoutS);
    std::string user = env_or_empty("CLICKHOUSE_USER");
    if (!user.empty()) {
        client.connection_->client.set_basic_auth(user, env_or_empty("CLICKHOUSE_PASSWORD"));
    }
    return client;
}

Result<std::string> ClickHouseClient::post(const std::string& sql_in_url, const std::string& body,
                                           const std::string& what) const {
    std::string path = "/?";
    if (distributed_sync_) {
        path += "insert_distributed_sync=1&";
    }
    if (!sql_in_url.empty()) {
        path += "query=" + httplib::detail::encode_query_param(sql_in_url);
    }
    auto response = connection_->client.Post(path, body, "text/plain; charset=UTF-8");
    if (!response) {
        return Error{"cannot reach ClickHouse at " + url_ + " (" +
                     httplib::to_string(response.error()) + ") while running `" + what +
                     "`: is the server up, and is this its HTTP port?"};
    }
    if (response->status != 200) {
        std::string reason = response->body;
        while (!reason.empty() && (reason.back() == '\n' || reason.back() == ' ')) {
            reason.pop_back();
        }
        if (response->status == 401 || response->status == 403 ||
            reason.find("Authentication failed") != std::string::npos) {
            reason += " (set CLICKHOUSE_USER and CLICKHOUSE_PASSWORD in the environment)";
        }
        return Error{"ClickHouse at " + url_ + " refused `" + what + "` (HTTP " +
                     std::to_string(response->status) + "): " + reason};
    }
    return std::move(response->body);
}

Result<std::string> ClickHouseClient::query(const std::string& sql) const {
    return post("", sql, statement_head(sql));
}

Status ClickHouseClient::insert_row_binary(const std::string& table, const std::string& columns,
                                           const std::string& rows) const {
    std::string sql = "INSERT INTO " + table + " (" + columns + ") FORMAT RowBinary";
    auto sent = post(sql, rows, statement_head(sql));
    if (!sent) {
        return sent.error();
    }
    return Ok{};
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
