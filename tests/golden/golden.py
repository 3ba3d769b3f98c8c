#!/usr/bin/env python3
"""Golden output tests: every output of `causeway` on fixed fixture traces, byte for byte.

  golden.py check BUILD_DIR FIXTURE   produce FIXTURE's outputs and diff them with expected/
  golden.py regenerate BUILD_DIR      rewrite expected/ for every fixture

tests/golden/README.md lists the fixtures and outputs, and what is normalised (normalise() below
is the one place) and why.
"""

import json
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCE_ROOT = HERE.parent.parent
EXPECTED = HERE / "expected"

# Every fixture (write_fixture() writes its trace DB) with the two windows, since the trace's
# start, that `compare` and compare_traces set side by side: its halves where it has calls in both.
FIXTURES = {
    # The DataLoader-contended trace of analysis_synthetic_trace, 400 calls (CPU-CONTENDED).
    "dataloader": {"halves": ("0ms..20ms", "20ms..40ms")},
    # The small traces of causeway-golden-trace, one verdict class each.
    "gpu-bound": {"halves": ("0s..1s", "1s..2s")},
    "healthy": {"halves": ("0s..1s", "1s..2s")},
    "host-bound": {"halves": ("0s..1s", "1s..2s")},
    "lossy": {"halves": ("0s..1s", "1s..2s")},
    "empty": {"halves": ("0s..1ms", "0s..1ms")},
    "transfer-bound": {"halves": ("0s..1s", "1s..2s")},
    "allocation-churn": {"halves": ("0s..1s", "1s..2s")},
    "cold-start": {"halves": ("0ms..850ms", "850ms..900ms")},
    "lock-contended": {"halves": ("0s..1s", "1s..2s")},
    "input-disk-timer": {"halves": ("0s..1s", "1s..2s")},
    # The MCP tests' realistic trace: stacks, wakeups, page allocations, data-quality counters
    # and a hostile process name.
    "mcp-fixture": {"halves": ("0s..3s", "3s..6s")},
    # tests/fixtures/ingero/small.sql through `causeway import --from ingero`.
    "ingero": {"halves": ("0s..10s", "0s..10s")},
}

RUN_SQL = (
    "SELECT o.name AS op, o.api, count(*) AS calls, sum(c.dur_ns) AS total_ns "
    "FROM cuda_call c JOIN cuda_op o ON o.id = c.op_id GROUP BY o.id ORDER BY total_ns DESC, op"
)


def normalise(text):
    """The one place where what varies between runs is made equal (README.md says why).

    The fixtures are written by the test itself with fixed contents, into a fixed folder, and
    every command names them relatively from there, so no path, temp folder or wall-clock time
    reaches the outputs. What is left is the time the server took to run a query: run_sql's
    `elapsed_ns`.
    """
    return re.sub(r'("elapsed_ns": )[0-9]+', r"\1<elapsed>", text)


class Tools:
    """The paths of the built programs under BUILD_DIR."""

    def __init__(self, build_dir):
        build = Path(build_dir).resolve()
        self.causeway = build / "cli" / "causeway"
        self.synthetic = build / "tests" / "analysis" / "analysis_synthetic_trace"
        self.golden_trace = build / "tests" / "golden" / "causeway-golden-trace"
        self.mcp_fixture = build / "tests" / "server" / "causeway-mcp-fixture"
        for program in (self.causeway, self.synthetic, self.golden_trace, self.mcp_fixture):
            if not program.exists():
                sys.exit(f"golden: {program} is missing: build the project first "
                         f"(cmake --build {build_dir})")


def decode(data):
    # Every byte kept as printed (no newline translation; invalid UTF-8 survives a round trip).
    return data.decode("utf-8", "surrogateescape")


def run(command, cwd, stdin=None):
    done = subprocess.run([str(part) for part in command], cwd=cwd,
                          input=None if stdin is None else stdin.encode(),
                          capture_output=True, check=False)
    done.stdout = decode(done.stdout)
    done.stderr = decode(done.stderr)
    return done


def read_file(path):
    return decode(path.read_bytes())


def run_ok(command, cwd):
    done = run(command, cwd)
    if done.returncode != 0:
        sys.exit(f"golden: {' '.join(map(str, command))} failed ({done.returncode}):\n"
                 f"{done.stdout}{done.stderr}")
    return done


def write_fixture(tools, name, folder):
    """Writes NAME.db into folder; returns what writing it printed that belongs to the outputs."""
    db = f"{name}.db"
    if name == "dataloader":
        run_ok([tools.synthetic, db, 400], folder)
    elif name == "mcp-fixture":
        run_ok([tools.mcp_fixture, db], folder)
    elif name == "ingero":
        source = folder / "ingero-source.db"
        with sqlite3.connect(source) as connection:
            connection.executescript(read_file(SOURCE_ROOT / "tests/fixtures/ingero/small.sql"))
        connection.close()
        return {"import.txt": run_ok([tools.causeway, "import", "--from", "ingero",
                                      source.name, db], folder).stdout}
    else:
        run_ok([tools.golden_trace, name, db], folder)
    return {}


def pretty_json(value):
    """A JSON value as indented text with sorted keys, so a change shows as a readable diff."""
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def cli_outputs(tools, name, folder):
    db = f"{name}.db"
    before, after = FIXTURES[name]["halves"]
    commands = {
        "explain.txt": ["explain", "--db", db],
        "explain-verbose.txt": ["explain", "--verbose", "--db", db],
        "explain.json": ["explain", "--json", "--db", db],
        "stats.txt": ["stats", "--db", db],
        "stats.json": ["stats", "--json", "--db", db],
        "compare.txt": ["compare", "--window-before", before, "--window-after", after, db, db],
        "compare.json": ["compare", "--json", "--window-before", before, "--window-after", after,
                         db, db],
    }
    outputs = {}
    exits = []
    for file, arguments in commands.items():
        done = run([tools.causeway, *arguments], folder)
        # Exact bytes as printed: the refactor must keep them (the JSON is already indented).
        outputs[file] = done.stdout
        exits.append(f"causeway {' '.join(arguments)}: exit {done.returncode}\n"
                     + "".join(f"  stderr: {line}\n" for line in done.stderr.splitlines()))
    outputs["exit_codes.txt"] = "".join(exits)
    return outputs


def tool_calls(name):
    """The tools/call requests of the MCP session: every tool of the catalogue but get_check."""
    before, after = FIXTURES[name]["halves"]
    return {
        "get_causal_chains": {},
        "get_trace_stats": {},
        "get_per_process_breakdown": {},
        "get_timeline": {"buckets": 8},
        "get_stacks": {},
        "run_sql": {"sql": RUN_SQL},
        "compare_traces": {"before": name, "after": name, "window_before": before,
                           "window_after": after},
    }


def mcp_outputs(tools, name, folder):
    """One `causeway mcp` session over stdio: initialize, then every tool, then one stateless
    (2026-07-28) call; answers are matched to requests by id (the server answers in parallel)."""
    requests = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "causeway-golden", "version": "1"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    calls = tool_calls(name)
    for number, (tool, arguments) in enumerate(calls.items(), start=1):
        requests.append({"jsonrpc": "2.0", "id": number, "method": "tools/call",
                         "params": {"name": tool, "arguments": arguments}})
    stateless_id = len(calls) + 1
    requests.append({"jsonrpc": "2.0", "id": stateless_id, "method": "tools/call",
                     "params": {"name": "get_causal_chains", "arguments": {},
                                "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
                                          "io.modelcontextprotocol/clientCapabilities": {}}}})
    stdin = "".join(json.dumps(request) + "\n" for request in requests)
    done = run([tools.causeway, "mcp", "--db", f"{name}.db"], folder, stdin)
    if done.returncode != 0:
        sys.exit(f"golden: causeway mcp exited {done.returncode}:\n{done.stderr}")
    answers = {}
    for line in done.stdout.splitlines():
        answer = json.loads(line)
        answers[answer["id"]] = answer
    outputs = {}
    for number, tool in enumerate(calls, start=1):
        answer = answers.get(number, {"missing": f"no answer to request {number}"})
        result = answer.get("result")
        if result is None or "structuredContent" not in result:
            # An error, or a tool error without structured content: the whole answer is the output.
            outputs[f"mcp/{tool}.json"] = pretty_json(answer)
            continue
        outputs[f"mcp/{tool}.json"] = pretty_json(result["structuredContent"])
        outputs[f"mcp/{tool}.txt"] = "".join(
            item.get("text", json.dumps(item, sort_keys=True)) for item in result["content"])
        if result.get("isError"):
            outputs[f"mcp/{tool}.txt"] += "\n[isError]\n"
    # The stateless era's envelope around the same answer: whole, with its resultType.
    outputs["mcp/stateless_get_causal_chains.json"] = pretty_json(
        answers.get(stateless_id, {"missing": "no answer to the stateless call"}))
    return outputs


def produce(tools, name, folder):
    """Every output of one fixture, normalised: {relative file name: text}."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    outputs = write_fixture(tools, name, folder)
    outputs.update(cli_outputs(tools, name, folder))
    outputs.update(mcp_outputs(tools, name, folder))
    return {file: normalise(text) for file, text in outputs.items()}


def write_outputs(outputs, folder):
    if folder.exists():
        shutil.rmtree(folder)
    for file, text in outputs.items():
        path = folder / file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8", "surrogateescape"))


def check(build_dir, name):
    tools = Tools(build_dir)
    work = Path(build_dir).resolve() / "tests" / "golden" / "work" / name
    outputs = produce(tools, name, work / "run")
    actual = work / "actual"
    write_outputs(outputs, actual)
    expected = EXPECTED / name
    expected_files = sorted(str(p.relative_to(expected)) for p in expected.rglob("*") if p.is_file())
    failures = []
    for file in sorted(set(expected_files) | set(outputs)):
        if file not in outputs:
            failures.append(f"{file}: expected but no longer produced")
        elif file not in expected_files:
            failures.append(f"{file}: produced but has no expected file")
        elif read_file(expected / file) != outputs[file]:
            diff = subprocess.run(["diff", "-u", str(expected / file), str(actual / file)],
                                  capture_output=True, text=True, check=False).stdout
            failures.append(f"{file} differs:\n{diff}")
    if failures:
        print("\n".join(failures))
        print(f"golden: {len(failures)} of {len(outputs)} outputs of fixture '{name}' changed. "
              f"If the change is intended, run tests/golden/regenerate.sh {build_dir} and commit "
              "tests/golden/expected/.")
        return 1
    print(f"golden: fixture '{name}': {len(outputs)} outputs as expected")
    return 0


def regenerate(build_dir):
    tools = Tools(build_dir)
    for name in FIXTURES:
        work = Path(build_dir).resolve() / "tests" / "golden" / "work" / name
        outputs = produce(tools, name, work / "run")
        write_outputs(outputs, EXPECTED / name)
        print(f"golden: wrote {len(outputs)} outputs of fixture '{name}'")
    return 0


def main(argv):
    if len(argv) == 4 and argv[1] == "check" and argv[3] in FIXTURES:
        return check(argv[2], argv[3])
    if len(argv) == 3 and argv[1] == "regenerate":
        return regenerate(argv[2])
    sys.exit("usage: golden.py check BUILD_DIR FIXTURE | golden.py regenerate BUILD_DIR\n"
             f"fixtures: {' '.join(FIXTURES)}")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
