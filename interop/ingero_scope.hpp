#pragma once
// Which part of an Ingero DB an import reads: the whole file, or one node of a multi-node
// recording (events carry a `node` column there). Builds the SQL pieces every query shares.

#include <optional>
#include <string>

#include "tracedb/sqlite.hpp"

namespace causeway::interop {

struct IngeroScope {
    bool has_node_column = false;
    std::optional<std::string> node{};  // only this node's events; all of them when absent

    // The node of an events row, as a SELECT expression ('' in single-node files).
    std::string node_expr() const { return has_node_column ? "node" : "''"; }
    // A WHERE condition restricting events to the scope ("1" when it is the whole file).
    std::string events_filter() const { return node ? "node = :node" : "1"; }
    // Binds :node in a statement built with events_filter().
    void bind(tracedb::Statement& stmt) const {
        int index = sqlite3_bind_parameter_index(stmt.get(), ":node");
        if (node && index > 0) {
            stmt.bind(index, *node);
        }
    }
};

}  // namespace causeway::interop
