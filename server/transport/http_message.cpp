#include "server/transport/http_message.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace causeway::server {
namespace {

const char* reason_phrase(int status) {
    switch (status) {
        case 100:
            return "Continue";
        case 200:
            return "OK";
        case 202:
            return "Accepted";
        case 204:
            return "No Content";
        case 400:
            return "Bad Request";
        case 401:
            return "Unauthorized";
        case 403:
            return "Forbidden";
        case 404:
            return "Not Found";
        case 405:
            return "Method Not Allowed";
        case 406:
            return "Not Acceptable";
        case 408:
            return "Request Timeout";
        case 413:
            return "Payload Too Large";
        case 415:
            return "Unsupported Media Type";
        case 431:
            return "Request Header Fields Too Large";
        case 500:
            return "Internal Server Error";
        case 501:
            return "Not Implemented";
        case 503:
            return "Service Unavailable";
        case 505:
            return "HTTP Version Not Supported";
        default:
            return "Unknown";
    }
}

std::string head_lines(const HttpResponse& response, bool keep_alive) {
    std::string head =
        fmt::format("HTTP/1.1 {} {}\r\n", response.status, reason_phrase(response.status));
    for (const auto& header : response.headers) {
        head += fmt::format("{}: {}\r\n", header.name, header.value);
    }
    if (!response.content_type.empty()) {
        head += fmt::format("Content-Type: {}\r\n", response.content_type);
    }
    head += keep_alive ? "Connection: keep-alive\r\n" : "Connection: close\r\n";
    return head;
}

}  // namespace

bool equals_ignoring_case(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) ==
                      std::tolower(static_cast<unsigned char>(y));
           });
}

std::string HttpRequest::header(std::string_view name) const {
    for (const auto& header : headers) {
        if (equals_ignoring_case(header.name, name)) {
            return header.value;
        }
    }
    return {};
}

bool HttpRequest::has_header(std::string_view name) const {
    return std::any_of(headers.begin(), headers.end(), [&](const HttpHeader& header) {
        return equals_ignoring_case(header.name, name);
    });
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
        text.remove_suffix(1);
    }
    return text;
}

bool HttpRequest::keep_alive() const {
    // Connection is a list of tokens ("close, TE"), possibly over several header lines.
    auto says = [&](std::string_view wanted) {
        for (const HttpHeader& header : headers) {
            if (!equals_ignoring_case(header.name, "Connection")) {
                continue;
            }
            std::string_view list = header.value;
            while (!list.empty()) {
                const std::size_t comma = list.find(',');
                if (equals_ignoring_case(trim(list.substr(0, comma)), wanted)) {
                    return true;
                }
                list =
                    comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
            }
        }
        return false;
    };
    return minor_version >= 1 ? !says("close") : says("keep-alive");
}

std::string serialize_response(const HttpResponse& response, bool keep_alive) {
    std::string bytes = head_lines(response, keep_alive);
    if (response.status != 204 && response.status != 100) {
        bytes += fmt::format("Content-Length: {}\r\n", response.body.size());
    }
    bytes += "\r\n";
    bytes += response.body;
    return bytes;
}

std::string serialize_stream_head(const HttpResponse& head, bool keep_alive, bool chunked) {
    return chunked ? head_lines(head, keep_alive) + "Transfer-Encoding: chunked\r\n\r\n"
                   : head_lines(head, false) + "\r\n";
}

std::string serialize_chunk(std::string_view data) {
    return fmt::format("{:x}\r\n{}\r\n", data.size(), data);
}

}  // namespace causeway::server
