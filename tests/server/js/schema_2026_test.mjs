// Every answer `causeway mcp` gives under the stateless revision 2026-07-28 is validated against
// the JSON Schema published with that revision (tests/server/mcp-schema/2026-07-28/schema.json):
// server/discover, tools/list, tools/call of every tool (answers and tool failures), the
// prompts, the resources (each one read), completion, the notifications a request asks for
// (progress, log messages), and the errors: parse error, invalid request, unknown method,
// invalid params, unsupported revision, unknown resource. The requests sent are validated too,
// so the test speaks the revision as published.
// Usage: node schema_2026_test.mjs --causeway BIN --fixture BIN --schemas DIR --mcp-schema FILE
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parseArgs, writeFixtures, TOOL_CALLS, makeChecks } from './launch.mjs';

const args = parseArgs(process.argv);
assert.ok(args['mcp-schema'], 'missing --mcp-schema FILE');
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(JSON.parse(readFileSync(args['mcp-schema'], 'utf8')), 'mcp');
const validators = new Map();
function validate(definition, value) {
  if (!validators.has(definition)) {
    validators.set(definition, ajv.compile({ $ref: `mcp#/$defs/${definition}` }));
  }
  const check = validators.get(definition);
  assert.ok(check(value), `${definition}: ${JSON.stringify(check.errors)}\n${JSON.stringify(value).slice(0, 600)}`);
}

// A folder of two traces and one *.db that is not a trace (skipped, named in the instructions).
const fixtures = writeFixtures(args.fixture);
writeFileSync(join(fixtures, 'notes.db'), 'not a database\n');
const server = spawn(args.causeway, ['mcp', '--db', fixtures], { stdio: ['pipe', 'pipe', 'inherit'] });
const died = (code) => {
  console.log(`FAIL causeway mcp exited (${code}) before the checks were done`);
  process.exit(1);
};
server.on('exit', died);
server.stdin.on('error', () => {}); // a dead server is reported by 'exit'
const waiting = new Map();
const notifications = [];
createInterface({ input: server.stdout }).on('line', (line) => {
  const message = JSON.parse(line);
  if (message.method) {
    notifications.push(message);
  } else if (waiting.has(message.id ?? null)) {
    waiting.get(message.id ?? null)(message);
    waiting.delete(message.id ?? null);
  }
});

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'schema-test', version: '1.0.0' },
};
let nextId = 0;
// Sends one line; resolves to the response with `id` (null: the one without an id).
function exchange(line, id) {
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    server.stdin.write(`${line}\n`);
  });
}
async function request(method, params = {}, requestDefinition = null) {
  const id = ++nextId;
  const message = { jsonrpc: '2.0', id, method, params: { ...params, _meta: { ...META, ...(params._meta ?? {}) } } };
  if (requestDefinition) validate(requestDefinition, message);
  return exchange(JSON.stringify(message), id);
}

const { check, report } = makeChecks();

try {
  await check('server/discover', async () => {
    const answer = await request('server/discover', {}, 'DiscoverRequest');
    validate('DiscoverResultResponse', answer);
    assert.ok(answer.result.supportedVersions.includes('2026-07-28'));
    assert.match(answer.result.instructions, /notes\.db/);
  });
  await check('tools/list', async () => validate('ListToolsResultResponse', await request('tools/list', {}, 'ListToolsRequest')));
  for (const [name, toolArgs] of Object.entries(TOOL_CALLS)) {
    await check(`tools/call ${name}`, async () => {
      const answer = await request('tools/call', { name, arguments: toolArgs }, 'CallToolRequest');
      validate('CallToolResultResponse', answer);
      assert.notEqual(answer.result.isError, true, JSON.stringify(answer.result.content));
    });
  }
  await check('tools/call failing inside the tool (isError)', async () => {
    const answer = await request('tools/call', { name: 'run_sql', arguments: { sql: 'DROP TABLE process' } }, 'CallToolRequest');
    validate('CallToolResultResponse', answer);
    assert.equal(answer.result.isError, true);
  });
  await check('notifications a request asks for: progress and log messages', async () => {
    notifications.length = 0;
    const answer = await request('tools/call', {
      name: 'get_causal_chains',
      arguments: { trace: 'other' },
      _meta: { progressToken: 'p1', 'io.modelcontextprotocol/logLevel': 'debug' },
    }, 'CallToolRequest');
    validate('CallToolResultResponse', answer);
    assert.ok(notifications.length >= 2, 'progress notifications arrived');
    for (const note of notifications) {
      validate(note.method === 'notifications/progress' ? 'ProgressNotification' : 'LoggingMessageNotification', note);
    }
  });
  await check('prompts/list and prompts/get', async () => {
    validate('ListPromptsResultResponse', await request('prompts/list', {}, 'ListPromptsRequest'));
    validate('GetPromptResultResponse', await request('prompts/get',
      { name: 'investigate', arguments: { focus: 'dataloader', trace: 'run', window: '1s..2s' } }, 'GetPromptRequest'));
  });
  await check('resources: list, templates, every resource read', async () => {
    const listed = await request('resources/list', {}, 'ListResourcesRequest');
    validate('ListResourcesResultResponse', listed);
    validate('ListResourceTemplatesResultResponse', await request('resources/templates/list', {}, 'ListResourceTemplatesRequest'));
    assert.ok(listed.result.resources.length >= 4);
    for (const resource of listed.result.resources) {
      validate('ReadResourceResultResponse', await request('resources/read', { uri: resource.uri }, 'ReadResourceRequest'));
    }
  });
  await check('completion/complete', async () => {
    validate('CompleteResultResponse', await request('completion/complete',
      { ref: { type: 'ref/prompt', name: 'investigate' }, argument: { name: 'trace', value: 'o' } }, 'CompleteRequest'));
  });
  await check('errors: unknown method, invalid params, unknown resource', async () => {
    const unknown = await request('no/such/method');
    validate('JSONRPCErrorResponse', unknown);
    validate('MethodNotFoundError', unknown.error);
    const invalid = await request('tools/call', { name: 'get_causal_chains', arguments: { limit: 'five' } });
    validate('JSONRPCErrorResponse', invalid);
    validate('InvalidParamsError', invalid.error);
    const missing = await request('resources/read', { uri: 'causeway://traces/none/summary' });
    validate('JSONRPCErrorResponse', missing);
    assert.equal(missing.error.code, -32002);
  });
  await check('errors: unsupported revision', async () => {
    const answer = await request('tools/list', { _meta: { 'io.modelcontextprotocol/protocolVersion': '2030-01-01' } });
    validate('UnsupportedProtocolVersionError', answer);
  });
  await check('errors: parse error and invalid request carry no id', async () => {
    const parse = await exchange('{"jsonrpc": "2.0", "id": ', null);
    validate('JSONRPCErrorResponse', parse);
    validate('ParseError', parse.error);
    const notRequest = await exchange('[]', null);
    validate('JSONRPCErrorResponse', notRequest);
    validate('InvalidRequestError', notRequest.error);
  });
} finally {
  server.off('exit', died);
  server.stdin.end();
}

process.exit(report('against the 2026-07-28 schema'));
