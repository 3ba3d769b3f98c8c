#include "server/transport/http_request_parser.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>

namespace causeway::server {
namespace {

// A chunk-size line ("1a2b;name=value"): the size and any chunk extension.
constexpr std::size_t kMaxChunkLineBytes = 1024;
// Hex digits of a chunk size: 15 are already 2^60 bytes, past any body limit.
constexpr std::size_t kMaxChunkSizeDigits = 15;

bool is_token_char(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool is_token(std::string_view text) {
    return !text.empty() && std::all_of(text.begin(), text.end(), is_token_char);
}

bool is_control(char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\t') || byte == 0x7f;
}

std::string lowercase(std::string_view text) {
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// The end of the head (just past the blank line) in `head`, or npos; `scanned` is where the next
// search resumes, so a head arriving a byte at a time is scanned once.
std::size_t find_head_end(const std::string& head, std::size_t& scanned) {
    for (std::size_t i = scanned; i < head.size(); ++i) {
        if (head[i] != '\n') {
            continue;
        }
        if (i + 1 < head.size() && head[i + 1] == '\n') {
            return i + 2;
        }
        if (i + 2 < head.size() && head[i + 1] == '\r' && head[i + 2] == '\n') {
            return i + 3;
        }
        if (i + 2 >= head.size()) {
            scanned = i;  // the blank line may still come
            return std::string::npos;
        }
    }
    scanned = head.size();
    return std::string::npos;
}

}  // namespace

std::size_t HttpRequestParser::feed(std::string_view input) {
    switch (state_) {
        case State::kHead:
            return feed_head(input);
        case State::kBody:
            return feed_body(input);
        case State::kComplete:
        case State::kFailed:
            break;
    }
    return 0;
}

bool HttpRequestParser::expects_continue() const {
    return state_ == State::kBody &&
           equals_ignoring_case(request_.header("Expect"), "100-continue");
}

void HttpRequestParser::reset() {
    *this = HttpRequestParser(limits_);
}

void HttpRequestParser::fail(int status, std::string message) {
    state_ = State::kFailed;
    failure_ = HttpFailure{status, std::move(message)};
}

std::size_t HttpRequestParser::feed_head(std::string_view input) {
    std::size_t used = 0;
    if (!started_) {
        // Blank lines before a request line are ignored (RFC 9112, section 2.2).
        while (used < input.size() && (input[used] == '\r' || input[used] == '\n')) {
            ++used;
        }
        if (used == input.size()) {
            return used;
        }
        started_ = true;
    }
    const std::size_t before = head_.size();
    const std::size_t take = std::min(input.size() - used, limits_.max_head_bytes - before);
    head_.append(input.substr(used, take));
    const std::size_t end = find_head_end(head_, head_scanned_);
    if (end == std::string::npos) {
        if (head_.size() >= limits_.max_head_bytes) {
            fail(431, fmt::format("the request line and headers pass {} bytes; send fewer or "
                                  "shorter headers",
                                  limits_.max_head_bytes));
        }
        return used + take;
    }
    head_.resize(end);
    parse_head(head_);
    return used + (end - before);
}

void HttpRequestParser::parse_head(std::string_view head) {
    std::vector<std::string_view> lines;
    while (!head.empty()) {
        const std::size_t newline = head.find('\n');
        std::string_view line = head.substr(0, newline);
        head.remove_prefix(newline + 1);
        if (!line.empty() && line.back() == '\r') {
            line.remove_suffix(1);
        }
        if (line.find('\r') != std::string_view::npos) {
            return fail(400, "a bare carriage return inside the request head");
        }
        lines.push_back(line);
    }
    // The request line: METHOD SP TARGET SP HTTP/1.x
    const std::string_view request_line = lines.front();
    const std::size_t first = request_line.find(' ');
    const std::size_t second =
        first == std::string_view::npos ? first : request_line.find(' ', first + 1);
    if (second == std::string_view::npos ||
        request_line.find(' ', second + 1) != std::string_view::npos) {
        return fail(400, "the request line is not METHOD TARGET HTTP/1.1");
    }
    const std::string_view method = request_line.substr(0, first);
    const std::string_view target = request_line.substr(first + 1, second - first - 1);
    const std::string_view version = request_line.substr(second + 1);
    if (!is_token(method) || target.empty() ||
        std::any_of(target.begin(), target.end(),
                    [](char c) { return is_control(c) || c == '\t'; })) {
        return fail(400, "the request line has a malformed method or target");
    }
    if (version == "HTTP/1.1" || version == "HTTP/1.0") {
        request_.minor_version = version.back() - '0';
    } else if (version.size() == 8 && version.substr(0, 5) == "HTTP/") {
        return fail(505, "only HTTP/1.1 (and 1.0) are spoken here");
    } else {
        return fail(400, "the request line does not end with HTTP/1.1");
    }
    request_.method = std::string(method);
    request_.target = std::string(target);
    request_.path = std::string(target.substr(0, target.find('?')));

    std::string content_length;
    std::string transfer_encoding;
    for (std::size_t i = 1; i < lines.size() && !lines[i].empty(); ++i) {
        const std::string_view line = lines[i];
        if (line.front() == ' ' || line.front() == '\t') {
            return fail(400, "folded header lines are not accepted");
        }
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos || !is_token(line.substr(0, colon))) {
            return fail(400, "a header line is not NAME: VALUE");
        }
        const std::string_view value = trim(line.substr(colon + 1));
        if (std::any_of(value.begin(), value.end(), is_control)) {
            return fail(400, "a header value holds a control character");
        }
        if (request_.headers.size() == limits_.max_headers) {
            return fail(431, fmt::format("more than {} headers", limits_.max_headers));
        }
        request_.headers.push_back({std::string(line.substr(0, colon)), std::string(value)});
        const HttpHeader& header = request_.headers.back();
        // Two Hosts (RFC 9112: 400) or two Origins: which one the origin check reads would
        // decide whether a rebinding page passes it.
        for (const char* single : {"Host", "Origin"}) {
            if (equals_ignoring_case(header.name, single) &&
                std::count_if(request_.headers.begin(), request_.headers.end(),
                              [&](const HttpHeader& h) {
                                  return equals_ignoring_case(h.name, single);
                              }) > 1) {
                return fail(400, fmt::format("more than one {} header", single));
            }
        }
        if (equals_ignoring_case(header.name, "Content-Length")) {
            if (!content_length.empty() && content_length != header.value) {
                return fail(400, "two different Content-Length headers");
            }
            content_length = header.value;
        } else if (equals_ignoring_case(header.name, "Transfer-Encoding")) {
            if (!transfer_encoding.empty()) {
                return fail(501, "only one Transfer-Encoding, chunked, is supported");
            }
            transfer_encoding = lowercase(header.value);
        }
    }
    if (!transfer_encoding.empty()) {
        if (!content_length.empty()) {
            return fail(400, "both Content-Length and Transfer-Encoding: send one of them");
        }
        if (transfer_encoding != "chunked") {
            return fail(501, "the only Transfer-Encoding supported is chunked");
        }
        framing_ = Framing::kChunkSize;
        state_ = State::kBody;
        return;
    }
    if (content_length.empty()) {
        state_ = State::kComplete;  // a request without a body
        return;
    }
    if (content_length.size() > 18 || !std::all_of(content_length.begin(), content_length.end(),
                                                   [](char c) { return c >= '0' && c <= '9'; })) {
        return fail(400, "Content-Length is not a number of bytes");
    }
    const std::size_t length = std::stoull(content_length);
    if (length > limits_.max_body_bytes) {
        return fail(413, fmt::format("the request body of {} bytes is over the limit of {} bytes",
                                     length, limits_.max_body_bytes));
    }
    remaining_ = length;
    framing_ = Framing::kLength;
    state_ = length == 0 ? State::kComplete : State::kBody;
    request_.body.reserve(length);
}

bool HttpRequestParser::read_line(std::string_view input, std::size_t& used, std::size_t max_bytes,
                                  int too_long_status) {
    const std::size_t newline = input.find('\n', used);
    const std::size_t end = newline == std::string_view::npos ? input.size() : newline;
    line_.append(input.substr(used, end - used));
    used = newline == std::string_view::npos ? input.size() : newline + 1;
    if (line_.size() > max_bytes + 1) {  // + 1: the carriage return
        fail(too_long_status, max_bytes == 0 ? "a chunk's data does not end where its size says"
                                             : "a line of the chunked body is too long");
        return false;
    }
    if (newline == std::string_view::npos) {
        return false;
    }
    if (!line_.empty() && line_.back() == '\r') {
        line_.pop_back();
    }
    return true;
}

void HttpRequestParser::parse_chunk_size() {
    const std::size_t digits =
        std::min(line_.find_first_not_of("0123456789abcdefABCDEF"), line_.size());
    const std::string_view rest = trim(std::string_view(line_).substr(digits));
    if (digits == 0 || (!rest.empty() && rest.front() != ';')) {
        return fail(400, "a chunk does not start with its size in hex");
    }
    const std::size_t decoded = request_.body.size();
    const std::size_t size = digits > kMaxChunkSizeDigits
                                 ? limits_.max_body_bytes + 1
                                 : std::stoull(line_.substr(0, digits), nullptr, 16);
    if (size > limits_.max_body_bytes - decoded) {
        return fail(413, fmt::format("the chunked request body passes the limit of {} bytes",
                                     limits_.max_body_bytes));
    }
    remaining_ = size;
    framing_ = size == 0 ? Framing::kTrailers : Framing::kChunkData;
}

std::size_t HttpRequestParser::feed_body(std::string_view input) {
    std::size_t used = 0;
    while (used < input.size() && state_ == State::kBody) {
        switch (framing_) {
            case Framing::kLength:
            case Framing::kChunkData: {
                const std::size_t take = std::min(remaining_, input.size() - used);
                request_.body.append(input.substr(used, take));
                used += take;
                remaining_ -= take;
                if (remaining_ == 0) {
                    state_ = framing_ == Framing::kLength ? State::kComplete : state_;
                    framing_ = framing_ == Framing::kLength ? framing_ : Framing::kChunkDataEnd;
                }
                break;
            }
            case Framing::kChunkSize:
                if (read_line(input, used, kMaxChunkLineBytes, 400)) {
                    parse_chunk_size();
                    line_.clear();
                }
                break;
            case Framing::kChunkDataEnd:
                if (read_line(input, used, 0, 400)) {
                    if (!line_.empty()) {
                        fail(400, "a chunk's data does not end where its size says");
                    }
                    framing_ = Framing::kChunkSize;
                    line_.clear();
                }
                break;
            case Framing::kTrailers:
                if (read_line(input, used, limits_.max_head_bytes, 431)) {
                    trailer_bytes_ += line_.size() + 2;
                    if (trailer_bytes_ > limits_.max_head_bytes) {
                        fail(431, "the trailers of the chunked body are too long");
                    } else if (line_.empty()) {
                        state_ = State::kComplete;
                    }
                    line_.clear();
                }
                break;
            case Framing::kNone:
                state_ = State::kComplete;
                break;
        }
    }
    return used;
}

}  // namespace causeway::server
