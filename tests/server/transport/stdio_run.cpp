#include "tests/server/transport/stdio_run.hpp"

#include <cstdio>
#include <cstdlib>
#include <stdexcept>

#include "server/transport/stdio_transport.hpp"

namespace causeway::testing {

std::string run_stdio(server::Dispatcher& dispatcher, std::string input) {
    if (input.empty()) {
        return {};  // fmemopen refuses an empty buffer; an empty stdin is answered by nothing
    }
    std::FILE* in = fmemopen(input.data(), input.size(), "r");
    char* written = nullptr;
    std::size_t written_bytes = 0;
    std::FILE* out = open_memstream(&written, &written_bytes);
    if (in == nullptr || out == nullptr) {
        throw std::runtime_error("cannot open in-memory streams for the stdio transport");
    }
    server::serve_stdio(dispatcher, in, out);
    std::fclose(in);
    std::fclose(out);
    std::string output(written, written_bytes);
    std::free(written);
    return output;
}

}  // namespace causeway::testing
