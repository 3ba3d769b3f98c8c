#pragma once
// Every subcommand of `causeway` adds itself to the app here; main() only dispatches.
// A command's callback returns the process exit code through the `exit_code` it is given.

#include <CLI/CLI.hpp>

namespace causeway::cli {

void add_mcp_command(CLI::App& app, int& exit_code);
void add_import_command(CLI::App& app, int& exit_code);
void add_export_command(CLI::App& app, int& exit_code);
void add_push_command(CLI::App& app, int& exit_code);
void add_fleet_command(CLI::App& app, int& exit_code);

void add_explain_command(CLI::App& app, int& exit_code);
void add_stats_command(CLI::App& app, int& exit_code);
void add_query_command(CLI::App& app, int& exit_code);
void add_check_command(CLI::App& app, int& exit_code);
void add_compare_command(CLI::App& app, int& exit_code);

}  // namespace causeway::cli
