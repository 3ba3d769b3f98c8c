// causeway: explains a trace DB (CLI) and serves it to AI assistants (MCP). Never needs root.
#include <cstdio>
#include <exception>

#include "cli/commands.hpp"
#include "cli/heap_setup.hpp"

int main(int argc, char** argv) {
    causeway::cli::keep_large_blocks_in_heap();
    CLI::App app{"causeway: why is my GPU waiting, and what do I change?"};
    app.set_version_flag("--version", std::string("causeway ") + CAUSEWAY_VERSION);
    app.require_subcommand(1);
    int exit_code = 0;
    causeway::cli::add_mcp_command(app, exit_code);
    causeway::cli::add_import_command(app, exit_code);
    causeway::cli::add_export_command(app, exit_code);
    causeway::cli::add_push_command(app, exit_code);
    causeway::cli::add_fleet_command(app, exit_code);
    causeway::cli::add_explain_command(app, exit_code);
    causeway::cli::add_stats_command(app, exit_code);
    causeway::cli::add_query_command(app, exit_code);
    causeway::cli::add_check_command(app, exit_code);
    causeway::cli::add_compare_command(app, exit_code);
    (void)exit_code;
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "causeway: %s\n", e.what());
        return 1;
    }
    return exit_code;
}
