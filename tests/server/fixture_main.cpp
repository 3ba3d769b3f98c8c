// Writes the MCP test fixture trace to the path given (used by the Node client tests).
#include <cstdio>

#include "tests/server/fixture_trace.hpp"

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUT.db\n", argv[0]);
        return 2;
    }
    if (auto written = causeway::testing::write_fixture_trace(argv[1]); !written) {
        std::fprintf(stderr, "%s\n", written.error().message.c_str());
        return 1;
    }
    return 0;
}
