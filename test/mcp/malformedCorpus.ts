import { isErrorAnswer, openSession, rawRequest } from './httpClient';
import { prng } from '../support/prng';

/**
 * A generated corpus of malformed JSON-RPC requests for the MCP endpoint: bad JSON, wrong types,
 * huge strings, unknown methods, missing ids, bad batches and header abuse. Deterministic (seeded),
 * so a failure names a case that can be replayed.
 */

interface CorpusCase {
  category: 'bad-json' | 'wrong-types' | 'huge-strings' | 'unknown-methods' | 'missing-ids' | 'batches' | 'headers';
  description: string;
  body: string | Buffer;
  /** Send inside the test's open session (with its headers) rather than without one. */
  inSession: boolean;
  /** Extra headers, overriding the session's. */
  headers?: Record<string, string>;
}

const TOOLS = [
  'whoami',
  'list_processes',
  'get_process_status',
  'spawn_process',
  'spawn_agent',
  'send_input',
  'wait_for_pattern',
  'search_output',
  'scratchpad_write',
  'close_process',
];

/** Arguments that must each be rejected by the tool's schema (nothing may run). */
const BAD_ARGUMENTS: Array<[string, unknown]> = [
  ['spawn_process', { kind: 'daemon', argv: ['sh'] }],
  ['spawn_process', { kind: 'command', argv: 'sh -c id' }],
  ['spawn_process', { kind: 'command', argv: [1, 2] }],
  ['spawn_process', { kind: 'command', argv: [] }],
  ['spawn_process', { kind: 'command', shell: '' }],
  ['spawn_process', { kind: 'command', shell: 'id', cols: 0 }],
  ['spawn_process', { kind: 'command', shell: 'id', rows: 10_000 }],
  ['spawn_process', { kind: 'command', shell: 'id', env: { A: 1 } }],
  ['spawn_process', { kind: 'command', shell: 'id', unexpected: true }],
  ['spawn_process', { kind: 'command', shell: 'id', ready: { readyPatterns: ['('] } }],
  ['spawn_process', { kind: 'command', shell: 'id', ready: { port: 70000 } }],
  ['spawn_agent', { agent: 42 }],
  ['spawn_agent', { agent: '' }],
  ['spawn_agent', { agent: 'claude', argv: 'claude' }],
  ['get_process_status', { process_id: 5 }],
  ['get_process_status', { process_id: '' }],
  ['get_process_status', {}],
  ['send_input', { process_id: 'p_000000', kind: 'shout', text: 'x' }],
  ['send_input', { process_id: 'p_000000', kind: 'text', text: 1 }],
  ['send_input', { process_id: 'p_000000', kind: 'key', key: 'x'.repeat(41) }],
  ['send_input', { process_id: 'p_000000', kind: 'text', text: 'x', wait_ms: -1 }],
  ['wait_for_pattern', { process_id: 'p_000000', pattern: 42 }],
  ['wait_for_pattern', { process_id: 'p_000000', pattern: 'x', timeout_seconds: 'soon' }],
  ['wait_for_pattern', { process_id: 'p_000000', pattern: 'x', timeout_seconds: 1e9 }],
  ['wait_for_pattern', { process_id: 'p_000000', pattern: 'x', from: 'yesterday' }],
  ['search_output', { process_id: 'p_000000', pattern: '' }],
  ['search_output', { process_id: 'p_000000', pattern: 'x', limit: 0 }],
  ['get_process_output', { process_id: 'p_000000', max_bytes: -1 }],
  ['get_process_output', { process_id: 'p_000000', mode: 'pixels' }],
  ['get_process_raw_output', { process_id: 'p_000000', since_offset: 1.5 }],
  ['scratchpad_write', { name: '../../etc/passwd', content: 'x' }],
  ['scratchpad_write', { name: 'ok', content: 42 }],
  ['scratchpad_write', { name: 'ok', content: 'x', expected_revision: -1 }],
  ['scratchpad_read', { name: '' }],
  ['list_processes', { kind: 'all' }],
  ['close_process', { process_id: ['p_000000'] }],
  ['request_human_attention', { reason: '' }],
  ['restart_process', { process_id: 'p_000000', ready_timeout: 0 }],
  ['stop_process', { process_id: 'p_000000', signal: 'SIGSEGV' }],
];

export function generateCorpus(seed = 5): CorpusCase[] {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const cases: CorpusCase[] = [];
  let nextId = 1;
  const id = () => nextId++;
  const valid = () =>
    JSON.stringify({
      jsonrpc: '2.0',
      id: id(),
      method: 'tools/call',
      params: { name: pick(TOOLS), arguments: { process_id: 'p_000000' } },
    });

  // Bad JSON: truncations, random bytes, near-JSON, invalid UTF-8.
  for (let i = 0; i < 150; i++) {
    const text = valid();
    cases.push({
      category: 'bad-json',
      description: `truncated at ${i}`,
      body: text.slice(0, 1 + Math.floor(random() * (text.length - 2))),
      inSession: random() < 0.7,
    });
  }
  const nearJson = [
    '{',
    '[',
    '}',
    'nul',
    'undefined',
    'NaN',
    "{'jsonrpc':'2.0'}",
    '{"jsonrpc":"2.0",}',
    '{"a":1}{"b":2}',
    '\ufeff{"jsonrpc":"2.0","id":1,"method":"ping"',
    '"\\x41"',
    '{"jsonrpc":"2.0","id":1,"method":"ping",,}',
    ' ',
    '',
  ];
  for (const [i, text] of nearJson.entries())
    cases.push({ category: 'bad-json', description: `near-json ${i}`, body: text, inSession: i % 2 === 0 });
  for (let i = 0; i < 40; i++) {
    const bytes = Buffer.alloc(1 + Math.floor(random() * 200));
    for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(random() * 256);
    bytes[0] = 0xff; // never accidentally valid JSON
    cases.push({ category: 'bad-json', description: `random bytes ${i}`, body: bytes, inSession: true });
  }

  // Wrong types in the envelope and in params.
  const envelopes: unknown[] = [
    { jsonrpc: '1.0', id: 1, method: 'ping' },
    { jsonrpc: 2, id: 1, method: 'ping' },
    { id: 1, method: 'ping' },
    { jsonrpc: '2.0', id: {}, method: 'ping' },
    { jsonrpc: '2.0', id: [], method: 'ping' },
    { jsonrpc: '2.0', id: true, method: 'ping' },
    { jsonrpc: '2.0', id: null, method: 'ping' },
    { jsonrpc: '2.0', id: 1, method: 123 },
    { jsonrpc: '2.0', id: 1, method: null },
    { jsonrpc: '2.0', id: 1, method: ['tools/list'] },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: 'whoami' },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: 42 },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 42 } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: {} },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: 'x' } },
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: [] } },
    { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 5 } },
    { jsonrpc: '2.0', id: 1, result: {} },
    { jsonrpc: '2.0', id: 1, error: { code: 'x' } },
    42,
    'tools/list',
    null,
    true,
  ];
  for (let round = 0; round < 6; round++) {
    for (const [i, envelope] of envelopes.entries()) {
      const message =
        envelope && typeof envelope === 'object' && 'id' in envelope
          ? { ...envelope, id: typeof envelope.id === 'number' ? id() : envelope.id }
          : envelope;
      cases.push({
        category: 'wrong-types',
        description: `envelope ${i} round ${round}`,
        body: JSON.stringify(message),
        inSession: round % 3 !== 0,
      });
    }
  }
  for (let round = 0; round < 4; round++) {
    for (const [name, args] of BAD_ARGUMENTS) {
      cases.push({
        category: 'wrong-types',
        description: `${name} ${JSON.stringify(args).slice(0, 60)}`,
        body: JSON.stringify({ jsonrpc: '2.0', id: id(), method: 'tools/call', params: { name, arguments: args } }),
        inSession: true,
      });
    }
  }

  // Huge strings.
  const sizes = [10_000, 100_000, 500_000, 1_500_000];
  for (let i = 0; i < 40; i++) {
    const huge = 'A'.repeat(pick(sizes));
    const variants = [
      { jsonrpc: '2.0', id: id(), method: huge },
      { jsonrpc: '2.0', id: id(), method: 'tools/call', params: { name: huge, arguments: {} } },
      { jsonrpc: '2.0', id: id(), method: 'tools/call', params: { name: 'get_process_status', arguments: { process_id: huge } } },
      {
        jsonrpc: '2.0',
        id: id(),
        method: 'tools/call',
        params: { name: 'search_output', arguments: { process_id: 'p_000000', pattern: huge } },
      },
      { jsonrpc: '2.0', id: id(), method: 'tools/call', params: { name: 'scratchpad_write', arguments: { name: huge, content: 'x' } } },
      { jsonrpc: '2.0', id: huge, method: 'tools/call', params: { name: 'get_process_status', arguments: { process_id: huge } } },
    ];
    cases.push({
      category: 'huge-strings',
      description: `huge ${i}`,
      body: JSON.stringify(variants[i % variants.length]),
      inSession: true,
    });
  }
  for (let i = 0; i < 10; i++) {
    cases.push({
      category: 'huge-strings',
      description: `over the body cap ${i}`,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: id(),
        method: 'tools/call',
        params: { name: 'scratchpad_write', arguments: { name: 'big', content: 'B'.repeat(3 * 1024 * 1024) } },
      }),
      inSession: i % 2 === 0,
    });
  }

  // Unknown methods (and known ones the server does not offer).
  const unknown = [
    'foo',
    'tools/cal',
    'tools/execute',
    'resources/list',
    'resources/read',
    'prompts/list',
    'prompts/get',
    'completion/complete',
    'sampling/createMessage',
    'logging/setLevel',
    '$/cancelRequest',
    'rpc.discover',
    'TOOLS/LIST',
    'tools/list/',
    '../tools/list',
    'initialize',
  ];
  for (let i = 0; i < 200; i++) {
    const method =
      i < unknown.length ? unknown[i] : `${pick(['x', 'tools', 'admin', 'system'])}/${Math.floor(random() * 1e9).toString(36)}`;
    cases.push({
      category: 'unknown-methods',
      description: method,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: id(),
        method,
        params: method === 'initialize' ? { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } : {},
      }),
      inSession: i % 10 !== 0,
    });
  }

  // Requests without an id (they would be notifications nobody answers).
  const idless = ['tools/call', 'tools/list', 'ping', 'initialize', 'resources/list', 'spawn_process'];
  for (let i = 0; i < 150; i++) {
    const method = idless[i % idless.length];
    const params =
      method === 'tools/call' ? { name: pick(TOOLS), arguments: { kind: 'command', shell: 'touch /tmp/should-not-exist' } } : {};
    cases.push({
      category: 'missing-ids',
      description: `${method} without id`,
      body: JSON.stringify({ jsonrpc: '2.0', method, params }),
      inSession: i % 3 !== 0,
    });
  }

  // Batches.
  const batches: unknown[] = [
    [],
    [[]],
    [1, 2, 3],
    [{ jsonrpc: '2.0', method: 'tools/call', params: { name: 'spawn_process', arguments: { kind: 'command', shell: 'id' } } }],
    [
      { jsonrpc: '2.0', id: 'a', method: 'nope' },
      { jsonrpc: '2.0', id: 'b', method: 'nope/again' },
    ],
    [{ jsonrpc: '2.0', id: 'c', method: 'tools/call', params: { name: 'spawn_process', arguments: { kind: 'bogus' } } }],
    Array.from({ length: 500 }, (_, i) => ({ jsonrpc: '2.0', id: `big${i}`, method: 'ping' })),
  ];
  for (let round = 0; round < 8; round++) {
    for (const [i, batch] of batches.entries())
      cases.push({
        category: 'batches',
        description: `batch ${i} round ${round}`,
        body: JSON.stringify(batch),
        inSession: round % 2 === 0,
      });
  }

  // Header abuse on otherwise valid requests.
  const headerCases: Array<[string, Record<string, string>]> = [
    ['unknown session', { 'Mcp-Session-Id': 'not-a-session' }],
    ['empty session', { 'Mcp-Session-Id': '' }],
    ['unsupported protocol version', { 'Mcp-Protocol-Version': '1999-01-01' }],
    ['text/plain body', { 'Content-Type': 'text/plain' }],
    ['no Accept for SSE', { Accept: 'application/json' }],
  ];
  for (let round = 0; round < 10; round++) {
    for (const [description, headers] of headerCases) {
      cases.push({
        category: 'headers',
        description: `${description} ${round}`,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: id(),
          method: 'tools/call',
          params: { name: 'spawn_process', arguments: { kind: 'command', shell: 'id' } },
        }),
        inSession: true,
        headers,
      });
    }
  }
  return cases;
}

interface McpCorpusRun {
  failures: string[];
  byCategory: Record<string, number>;
  /** The session the corpus ran in (still open, to prove it still serves). */
  session: Record<string, string>;
}

/** Sends every case to the endpoint in order; a failure is a case not answered with an error. */
export async function runMcpCorpus(url: string, token: string, corpus: CorpusCase[] = generateCorpus()): Promise<McpCorpusRun> {
  const session = await openSession(url, token);
  const auth = { Authorization: `Bearer ${token}` };
  const failures: string[] = [];
  const byCategory: Record<string, number> = {};
  for (const [index, c] of corpus.entries()) {
    const headers = { ...(c.inSession ? session : auth), ...c.headers };
    const res = await rawRequest(url, { headers, body: c.body });
    byCategory[c.category] = (byCategory[c.category] ?? 0) + 1;
    const answered = res.status >= 400 ? res.messages.length > 0 && res.messages.every((m) => m.error !== undefined) : isErrorAnswer(res);
    if (!answered) failures.push(`#${index} ${c.category} ${c.description}: ${res.status} ${res.body.slice(0, 200)}`);
  }
  return { failures, byCategory, session };
}
