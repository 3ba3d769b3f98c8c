// causeway-schemas DIR: writes the input and output JSON Schemas of every tool the server can
// serve into DIR (schemas/tools/ in the tree; the unit test tests/schemas/ writes them into a
// temporary folder and compares), from the registry that serves them: the input schema from the
// tool's input struct, the output schema from its answer's describe() in report/shapes/.
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "server/methods/catalog.hpp"

namespace {

// Writes `schema` to `path`; false (with a message) when it cannot.
bool write_schema(const std::filesystem::path& path, const nlohmann::ordered_json& schema) {
    std::ofstream out(path);
    out << schema.dump(2) << '\n';
    if (!out) {
        std::fprintf(stderr,
                     "causeway-schemas: cannot write %s: check that its folder exists and is "
                     "writable\n",
                     path.c_str());
        return false;
    }
    std::printf("%s\n", path.c_str());
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr,
                     "usage: causeway-schemas DIR (writes DIR/<tool>.input.json and "
                     "DIR/<tool>.output.json)\n");
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    // With a ClickHouse URL the catalog also holds get_fleet_overview; building the catalog
    // never connects to it.
    const auto catalog = causeway::server::make_causeway_catalog("http://clickhouse.invalid:8123");
    for (const auto& tool : catalog.tools) {
        if (!write_schema(dir / (tool.name + ".input.json"), tool.input_schema) ||
            !write_schema(dir / (tool.name + ".output.json"), tool.output_schema)) {
            return 1;
        }
    }
    return 0;
}
