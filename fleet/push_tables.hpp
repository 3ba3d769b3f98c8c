#pragma once
// The ClickHouse tables that are not copies of trace tables: the pushes, and the summaries of each
// node that the fleet reads instead of its calls.
//
// causeway_v6_push: one row per push attempt state change; the row with the largest version_ns
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
// causeway_v6_node_cause: the node's diagnosis, one row per causal chain, computed by the
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
//   speedup       Float64 the chain's predicted speed-up of the loop when its cause is removed
//                         (0: not predicted, or pushed by a causeway that did not store it)
//   device_twice_as_fast UInt8  1 when speedup is for a device twice as fast (GPU-BOUND)
//
// causeway_v6_node_rank: the NCCL ranks the node's processes held, one row per rank and
// communicator (analysis/measure/rank_series.hpp), for aligning them with other nodes' ranks.
//   job, node, push_id, attempt  as above
//   comm_size, comm_order  Int64  the communicator: its size, and its order among the process's
//                                 communicators of that size (the same on every rank)
//   rank          Int64   the rank
//   pid           Int64   its process
//   collectives   UInt64  collectives it issued on the communicator
//   last_call     String  its process's last CUDA or NCCL call ('' when none)
//   stuck_at      String  where its thread was after that call ("file:line in function"; '')
//
// causeway_v6_node_collective: one row per collective of each of those ranks.
//   job, node, push_id, attempt, comm_size, comm_order, rank  as causeway_v6_node_rank
//   number        UInt64  0-based, in the communicator's order
//   arrival_ns    Int64   its entry, on the node's wall clock (ns since the Unix epoch)
//   left_ns       Int64   the end of the synchronisation that followed it, on the same clock;
//                         -1 when none did
//
// causeway_v6_node_thread: one row per thread of the node that made CUDA calls, summed by the
// push from the calls it sent and written once the server is confirmed to hold them all, so that
// the fleet's loop rates read a row per thread instead of every call.
//   job, node, push_id, attempt  as above
//   thread_id     Int64   the thread
//   calls         UInt64  its CUDA calls
//   first_ts_ns   Int64   the start of its first call (the trace's monotonic clock)
//   last_end_ns   Int64   the end of its last call

#include <string>

namespace causeway::fleet {

std::string push_table();
std::string node_cause_table();
std::string node_rank_table();
std::string node_collective_table();
std::string node_thread_table();

// SELECT job, node, push_id, attempt, rank of the complete pushes of `job`: the rows a reader may
// see. Pushes still being written, and attempts a later one replaced, are not in it.
std::string visible_pushes_sql(const std::string& job);
// A WHERE condition that keeps only rows of the visible pushes of `job` (GLOBAL IN, so that a
// Distributed table evaluates the push table once, on the server the query came to).
std::string visible_rows_condition(const std::string& job);

}  // namespace causeway::fleet
