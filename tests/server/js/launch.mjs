// Starting `causeway mcp` for the client tests: writes fixture traces with the fixture program
// and starts the HTTP server on a free port, reading the URL it prints on stderr.
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function parseArgs(argv) {
  const args = {};
  for (let i = 2; i < argv.length; i += 2) {
    args[argv[i].replace(/^--/, '')] = argv[i + 1];
  }
  for (const required of ['causeway', 'fixture', 'schemas']) {
    if (!args[required]) {
      throw new Error(`missing --${required}; usage: --causeway BIN --fixture BIN --schemas DIR`);
    }
  }
  return args;
}

// A folder holding two fixture traces, run.db and other.db.
export function writeFixtures(fixtureProgram) {
  const dir = mkdtempSync(join(tmpdir(), 'causeway-mcp-'));
  for (const name of ['run', 'other']) {
    execFileSync(fixtureProgram, [join(dir, `${name}.db`)]);
  }
  return dir;
}

export function outputSchema(schemasDir, tool) {
  return JSON.parse(readFileSync(join(schemasDir, `${tool}.output.json`), 'utf8'));
}

// Starts `causeway mcp --db DB... --http 127.0.0.1:0`; resolves to {url, child} once listening.
export function startHttpServer(causeway, dbArgs, env = {}) {
  const child = spawn(causeway, ['mcp', ...dbArgs, '--http', '127.0.0.1:0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, ...env },
  });
  return new Promise((resolve, reject) => {
    let stderr = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${stderr}`)), 15000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk.toString();
      const match = stderr.match(/(http:\/\/127\.0\.0\.1:\d+\/mcp)/);
      if (match) {
        clearTimeout(timer);
        resolve({ url: match[1], child });
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}: ${stderr}`)));
  });
}

// One call of each tool on the fixture traces, answered without error.
export const TOOL_CALLS = {
  get_trace_stats: { trace: 'run' },
  get_causal_chains: { trace: 'run', limit: 3 },
  get_per_process_breakdown: { trace: 'run', limit: 10 },
  get_stacks: { trace: 'run' },
  get_timeline: { trace: 'run', buckets: 20 },
  run_sql: { trace: 'run', sql: 'SELECT pid, comm FROM process ORDER BY pid', limit: 5 },
  get_check: {},
  compare_traces: { before: 'run', after: 'run', limit: 5 },
};

// Named checks run one after another; report() prints them and returns the exit status.
export function makeChecks() {
  const results = [];
  return {
    async check(name, body) {
      try {
        await body();
        results.push({ name, ok: true });
      } catch (error) {
        results.push({ name, ok: false, error: error.stack ?? String(error) });
      }
    },
    report(label) {
      for (const c of results) {
        console.log(`${c.ok ? 'PASS' : 'FAIL'} ${label} ${c.name}${c.ok ? '' : `\n${c.error}`}`);
      }
      const failed = results.filter((c) => !c.ok).length;
      console.log(`${results.length - failed}/${results.length} checks passed ${label}`);
      return failed === 0 ? 0 : 1;
    },
  };
}
