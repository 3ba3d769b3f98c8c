#pragma once
// The two ClickHouse tables that are not copies of trace tables.
//
// causeway_v5_push: one row per push attempt state change; the row with the largest version_ns
// of a (job, node) is that node's current state (ReplacingMergeTree keeps only it after merges;
// readers take argMax so they never depend on a merge having run).
//   job         String  the training job
//   node        String  the node within the job
//   rank        Int64   the node's rank in the job (--rank), -1 when not given
//   push_id     String  the recording's identity
//   attempt     UInt64  the attempt (ns since the Unix epoch at its start)
//   complete    UInt8   1 once every row of the attempt is stored; 0 while it is being written
//   version_ns  UInt64  orders the state changes (attempt, then attempt + 1 when complete)
//   rows_stored UInt64  rows the attempt stored (0 while incomplete)
//   host        String  session.host of the recording
//   source      String  the trace DB path it was pushed from
//
// causeway_v5_node_cause: the node's diagnosis, one row per causal chain, computed by the
// analysis library at push time so that the fleet query only sums them.
//   job, node, push_id, attempt  as above
//   chain_index   UInt64  the chain's rank in the node's diagnosis (0 = the largest)
//   cause         String  root-cause class (INPUT-BOUND, CPU-CONTENDED, ...)
//   root_cause    String  the chain's root cause in one sentence
//   lost_ns       Int64   loop time the chain cost (ns)
//   verdict       String  the node's verdict (the same on every row of a node)
//   actor_kind    String  the chain's actor kind (dataloader_workers, gil_holder, ...); '' for a
//                         node without chains
//   actor         String  the actor's name (a process, thread, cgroup, 'GPU')
//   container_runtime, container_id, pod_uid, pod_qos   String
//                         the container and Kubernetes pod of the actor's processes where their
//                         cgroup path names them (analysis/model/container_identity.hpp); ''
//                         otherwise

#include <string>

namespace causeway::fleet {

std::string push_table();
std::string node_cause_table();

// SELECT job, node, push_id, attempt, rank of the complete pushes of `job`: the rows a reader may
// see. Pushes still being written, and attempts a later one replaced, are not in it.
std::string visible_pushes_sql(const std::string& job);
// A WHERE condition that keeps only rows of the visible pushes of `job` (GLOBAL IN, so that a
// Distributed table evaluates the push table once, on the server the query came to).
std::string visible_rows_condition(const std::string& job);

}  // namespace causeway::fleet
