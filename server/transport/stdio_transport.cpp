#include "server/transport/stdio_transport.hpp"

#include <fmt/format.h>

#include <mutex>
#include <optional>
#include <string>

#include "server/rpc/json_rpc.hpp"
#include "server/rpc/sanitize.hpp"
#include "server/rpc/worker_pool.hpp"

namespace causeway::server {
namespace {

// Requests handled at once; more wait in the queue (a tool holds a CPU while it runs).
constexpr std::size_t kWorkers = 4;

class LineWriter {
  public:
    explicit LineWriter(std::FILE* out) : out_(out) {}
    void write(const json& message) {
        std::string line = to_wire(message);
        line += '\n';
        std::lock_guard lock(mutex_);
        std::fwrite(line.data(), 1, line.size(), out_);
        std::fflush(out_);
    }

  private:
    std::mutex mutex_;
    std::FILE* out_;
};

// Reads one line of at most kMaxStdioMessageBytes. Returns nothing at end of file; sets
// `too_long` (and skips the rest of the line) when the line is longer.
std::optional<std::string> read_line(std::FILE* in, bool& too_long) {
    std::string line;
    too_long = false;
    int c = 0;
    while ((c = std::fgetc(in)) != EOF && c != '\n') {
        if (line.size() < kMaxStdioMessageBytes) {
            line.push_back(static_cast<char>(c));
        } else {
            too_long = true;
        }
    }
    if (c == EOF && line.empty() && !too_long) {
        return std::nullopt;
    }
    return line;
}

bool is_notification(const json& message) {
    return message.is_object() && message.contains("method") && !message.contains("id");
}

}  // namespace

int serve_stdio(Dispatcher& dispatcher, std::FILE* in, std::FILE* out) {
    Session session;
    LineWriter writer(out);
    const Exchange exchange{session, [&writer](const json& note) { writer.write(note); },
                            std::nullopt};
    WorkerPool workers(kWorkers);
    bool too_long = false;
    while (auto line = read_line(in, too_long)) {
        if (too_long) {
            writer.write(make_error(
                nullptr, RpcError{error_code::kInvalidRequest,
                                  fmt::format("message longer than {} bytes; send smaller messages",
                                              kMaxStdioMessageBytes)}));
            continue;
        }
        if (line->find_first_not_of(" \t\r") == std::string::npos) {
            continue;  // blank lines between messages are harmless
        }
        auto message = parse_message_text(*line);
        if (!message) {
            writer.write(
                make_error(nullptr, RpcError{error_code::kParseError, message.error().message}));
        } else if (is_notification(message.value())) {
            dispatcher.handle(message.value(), exchange);  // e.g. cancel a running request now
        } else {
            workers.submit([&dispatcher, &exchange, &writer, request = std::move(message).value()] {
                if (auto response = dispatcher.handle(request, exchange)) {
                    writer.write(*response);
                }
            });
        }
    }
    return 0;  // the pool, destroyed first, finishes the requests still queued or running
}

}  // namespace causeway::server
