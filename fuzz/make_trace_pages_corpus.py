#!/usr/bin/env python3
# Writes the seed corpus of the trace_pages fuzz target (fuzz/corpus/trace_pages/): small valid
# trace DBs of 512-byte pages (so that a few hundred calls make a b-tree of several levels) in the
# shapes the page reader handles: a plain trace, several levels, deleted rows (free blocks), a
# column added with ALTER TABLE ... DEFAULT and kept short by VACUUM, rowids and values at the
# ends of int64. Run: python3 fuzz/make_trace_pages_corpus.py (then commit the files).
import os, sqlite3

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = open(os.path.join(HERE, "..", "schemas", "trace.sql")).read()
OUT = os.path.join(HERE, "corpus", "trace_pages")
INT64_MAX = 2**63 - 1


def trace(name, calls, edit=None):
    path = os.path.join(OUT, name)
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = 512")
    db.executescript(SCHEMA)
    db.execute(
        "INSERT INTO session (id, host, kernel, cpu_count, collector_version, collector_flags, "
        "offcpu_floor_ns, page_bucket_ns, start_mono_ns, start_wall_ns, stop_ns, command_line) "
        "VALUES (1, 'fuzz', '6.18.0', 2, 'seed', '', 50000, 100000000, 0, 0, ?, 'python train.py')",
        (calls * 1_000_000 + 1_000_000,))
    db.execute("INSERT INTO process (id, pid, comm, in_tree, start_ns) VALUES (1, 100, 'python', 1, 0)")
    db.execute("INSERT INTO process (id, pid, comm, in_tree) VALUES (2, 500, 'hog', 0)")
    db.execute("INSERT INTO thread (id, tid, process_id, comm) VALUES (1, 100, 1, 'python')")
    db.execute("INSERT INTO thread (id, tid, process_id, comm) VALUES (2, 500, 2, 'hog')")
    for i in range(calls):
        copy = i % 3 == 0
        db.execute(
            "INSERT INTO cuda_call (thread_id, op_id, ts_ns, dur_ns, bytes, copy_kind, host_pinned, "
            "stream_id, ret, stack_id) VALUES (1, ?, ?, ?, ?, ?, ?, NULL, ?, NULL)",
            (7 if copy else 9, i * 1_000_000, 20_000 + i % 500,
             4096 * i if copy else None, 1 if copy else None, i % 2 if copy else None,
             2 if i % 50 == 0 else 0))
        if i % 10 == 0:
            db.execute(
                "INSERT INTO offcpu (thread_id, ts_ns, dur_ns, reason, runq_wait_ns, cpu, "
                "next_thread_id) VALUES (1, ?, 300000, 0, 300000, 0, 2)", (i * 1_000_000 + 500_000,))
    db.commit()
    if edit:
        db.executescript(edit)
        db.commit()
    db.execute("VACUUM")
    db.close()


os.makedirs(OUT, exist_ok=True)
trace("plain.db", 20)
trace("levels.db", 600)
trace("deleted_rows.db", 400, "DELETE FROM cuda_call WHERE rowid % 3 = 0;")
trace("added_column.db", 300,
      "CREATE TABLE old AS SELECT rowid AS rid, thread_id, op_id, ts_ns, dur_ns, bytes, "
      "copy_kind, host_pinned, stream_id, stack_id FROM cuda_call; DROP TABLE cuda_call; "
      "CREATE TABLE cuda_call (thread_id INTEGER NOT NULL, op_id INTEGER NOT NULL, ts_ns INTEGER "
      "NOT NULL, dur_ns INTEGER NOT NULL, bytes INTEGER, copy_kind INTEGER, host_pinned INTEGER, "
      "stream_id INTEGER, stack_id INTEGER); INSERT INTO cuda_call (rowid, thread_id, op_id, "
      "ts_ns, dur_ns, bytes, copy_kind, host_pinned, stream_id, stack_id) SELECT rid, thread_id, "
      "op_id, ts_ns, dur_ns, bytes, copy_kind, host_pinned, stream_id, stack_id FROM old; "
      "DROP TABLE old; ALTER TABLE cuda_call ADD COLUMN ret INTEGER NOT NULL DEFAULT -3;")
trace("extremes.db", 100,
      f"UPDATE cuda_call SET rowid = {INT64_MAX} WHERE rowid = 100; "
      f"UPDATE cuda_call SET rowid = {-INT64_MAX - 1} WHERE rowid = 1; "
      f"UPDATE cuda_call SET dur_ns = {INT64_MAX} WHERE rowid = 50; "
      f"UPDATE cuda_call SET bytes = {INT64_MAX} WHERE rowid = 51; "
      f"UPDATE offcpu SET dur_ns = {INT64_MAX} WHERE rowid = 2;")
for name in sorted(os.listdir(OUT)):
    print(name, os.path.getsize(os.path.join(OUT, name)), "bytes")
