// A real MCP client, the official TypeScript SDK, against `causeway mcp` over stdio and over
// Streamable HTTP: lists the tools, calls all eight on the fixture traces, validates every
// structuredContent against the tool's outputSchema (the files in schemas/tools/, which must be
// what the server announces), gets the investigate prompt, reads the resources, completes
// arguments, and checks bad arguments and tool failures.
// Usage: node sdk_client_test.mjs --causeway BIN --fixture BIN --schemas DIR --transport stdio|http
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import Ajv2020 from 'ajv/dist/2020.js';
import { parseArgs, writeFixtures, outputSchema, startHttpServer, TOOL_CALLS, makeChecks } from './launch.mjs';

const args = parseArgs(process.argv);
const transportKind = args.transport ?? 'stdio';
const fixtures = writeFixtures(args.fixture);
const { check, report } = makeChecks();

let server;
let transport;
if (transportKind === 'stdio') {
  transport = new StdioClientTransport({
    command: args.causeway,
    args: ['mcp', '--db', join(fixtures, 'run.db'), '--db', join(fixtures, 'other.db')],
    stderr: 'inherit',
  });
} else {
  server = await startHttpServer(args.causeway, ['--db', fixtures]);
  transport = new StreamableHTTPClientTransport(new URL(server.url));
}

const client = new Client({ name: 'causeway-sdk-test', version: '1.0.0' });
const ajv = new Ajv2020({ strict: false, allErrors: true });
try {
  await client.connect(transport);

  await check('server info and capabilities', async () => {
    assert.equal(client.getServerVersion().name, 'causeway');
    const caps = client.getServerCapabilities();
    for (const cap of ['tools', 'prompts', 'resources', 'logging', 'completions']) {
      assert.ok(caps[cap], `capability ${cap}`);
    }
  });

  await check('ping', async () => assert.deepEqual(await client.ping(), {}));

  let tools = [];
  await check('tools/list: eight read-only tools whose outputSchema is the schema file', async () => {
    tools = (await client.listTools()).tools;
    assert.deepEqual(tools.map((t) => t.name).sort(), Object.keys(TOOL_CALLS).sort());
    for (const tool of tools) {
      assert.equal(tool.annotations.readOnlyHint, true, tool.name);
      assert.equal(tool.annotations.openWorldHint, false, tool.name);
      assert.deepEqual(tool.outputSchema, outputSchema(args.schemas, tool.name), tool.name);
    }
  });

  for (const [name, toolArgs] of Object.entries(TOOL_CALLS)) {
    await check(`tools/call ${name}: structuredContent matches the outputSchema`, async () => {
      const result = await client.callTool({ name, arguments: toolArgs });
      assert.notEqual(result.isError, true, JSON.stringify(result.content));
      const validate = ajv.compile(outputSchema(args.schemas, name));
      assert.ok(validate(result.structuredContent), JSON.stringify(validate.errors));
      assert.equal(result.content[0].type, 'text');
      assert.ok(result.content[0].text.length > 0);
      assert.ok(JSON.stringify(result).length < 100000, 'answer bounded');
    });
  }

  await check('tools/call picks the other trace by name', async () => {
    const result = await client.callTool({ name: 'run_sql', arguments: { trace: 'other', sql: 'SELECT count(*) AS n FROM process' } });
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
  });

  await check('tools/call with progress notifications', async () => {
    // Counted at the transport: the SDK hands notifications to handlers a microtask late, so a
    // response read in the same chunk (stdio, a fast tool) can retire the onprogress callback
    // before the progress it follows is delivered.
    const onmessage = transport.onmessage;
    const progress = [];
    transport.onmessage = (message, extra) => {
      if (message.method === 'notifications/progress') progress.push(message.params);
      onmessage(message, extra);
    };
    try {
      const result = await client.callTool({ name: 'get_causal_chains', arguments: { trace: 'other' } }, undefined, {
        onprogress: () => {},
      });
      assert.notEqual(result.isError, true);
    } finally {
      transport.onmessage = onmessage;
    }
    assert.ok(progress.length >= 2, `progress notifications received: ${JSON.stringify(progress)}`);
    assert.equal(progress.at(-1).progress, progress.at(-1).total);
  });

  await check('bad arguments are JSON-RPC -32602', async () => {
    await assert.rejects(
      client.callTool({ name: 'get_causal_chains', arguments: { limit: 'many' } }),
      (error) => error instanceof McpError && error.code === -32602,
    );
  });

  await check('a failure inside a tool is isError with a message', async () => {
    const result = await client.callTool({ name: 'run_sql', arguments: { trace: 'run', sql: 'DROP TABLE process' } });
    assert.equal(result.isError, true);
    assert.ok(result.content[0].text.length > 0);
  });

  await check('hostile process names arrive sanitised', async () => {
    const result = await client.callTool({ name: 'run_sql', arguments: { trace: 'run', sql: 'SELECT comm, cmdline FROM process WHERE pid = 777' } });
    const text = JSON.stringify(result);
    assert.ok(!text.includes('\u202e') && !text.includes('\\u0007') && !text.includes('\u0007'), text);
  });

  await check('prompts: list and get investigate', async () => {
    const prompts = (await client.listPrompts()).prompts;
    assert.deepEqual(prompts.map((p) => p.name), ['investigate']);
    const prompt = await client.getPrompt({ name: 'investigate', arguments: { focus: 'dataloader', trace: 'run' } });
    const text = prompt.messages[0].content.text;
    assert.match(text, /get_causal_chains/);
    assert.match(text, /Never invent numbers/);
  });

  await check('completion of prompt arguments', async () => {
    const result = await client.complete({ ref: { type: 'ref/prompt', name: 'investigate' }, argument: { name: 'trace', value: 'o' } });
    assert.deepEqual(result.completion.values, ['other']);
  });

  await check('resources: schema and per-trace summaries', async () => {
    const resources = (await client.listResources()).resources.map((r) => r.uri);
    assert.ok(resources.includes('causeway://schema/trace.sql'));
    assert.ok(resources.includes('causeway://traces/other/summary'));
    const schema = await client.readResource({ uri: 'causeway://schema/trace.sql' });
    assert.match(schema.contents[0].text, /CREATE TABLE cuda_call/);
    const summary = await client.readResource({ uri: 'causeway://traces/run/summary' });
    assert.equal(typeof JSON.parse(summary.contents[0].text), 'object');
  });

  await check('logging/setLevel', async () => assert.deepEqual(await client.setLoggingLevel('warning'), {}));
} finally {
  await client.close().catch(() => {});
  server?.child.kill('SIGTERM');
}

process.exit(report(`over ${transportKind}`));
