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
