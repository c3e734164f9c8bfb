import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runBatch } from '../src/batch/runBatch.ts';
import { runSnippet } from '../src/engine/runSnippet.ts';
import type { RunResult } from '../src/core/runResult.ts';
import pino from 'pino';
import { TraceStore } from '../src/engine/traceStore.ts';
import { LlmEnvironment } from '../src/llm/llmSession.ts';
import { parseLlmOptions } from '../src/llm/llmOptions.ts';
import { llmClassifier } from '../src/values/llm/llmProvider.ts';
import type { ValueRequest } from '../src/values/types.ts';
import { cli } from './helpers.ts';
import { definition, elementOf, scriptedEnvironment, startScriptedLlm, type Script } from './llmServer.ts';

const GREET = "const s = greet('Ada');\nconsole.log(s.toUpperCase());";
const RIGHT = definition("ELEMENT = (name) => 'Hello, ' + name;");
const tmp = mkdtempSync(join(tmpdir(), 'snipexec-llm-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

async function withServer(script: Script, body: (url: string, requests: Awaited<ReturnType<typeof startScriptedLlm>>['requests']) => Promise<void>) {
  const server = await startScriptedLlm(script);
  try {
    await body(server.url, server.requests);
  } finally {
    await server.close();
  }
}

const generatorFor = (requests: { kind: string; prompt: string }[], element: string) => requests.filter((r) => r.kind === 'generator' && elementOf(r.prompt) === element);

test('llm: wrong, then right: attempts 2, and the second request carries the error and the wrong code', async () => {
  let greetAsks = 0;
  await withServer(
    (req) => (elementOf(req.prompt) === 'greet' ? { reply: greetAsks++ === 0 ? definition('ELEMENT = 42;') : RIGHT } : { reply: definition('ELEMENT = {};') }),
    async (url, requests) => {
      const r = await runSnippet(GREET, { mode: 'llm' }, { llm: scriptedEnvironment(url) });
      assert.equal(r.status, 'completed', JSON.stringify(r.errors));
      assert.equal(r.stdout, 'HELLO, ADA\n');
      const greet = r.injections.find((i) => i.element === 'greet');
      assert.equal(greet?.provider, 'llm');
      assert.equal(greet?.attempts, 2);
      const asks = generatorFor(requests, 'greet');
      assert.equal(asks.length, 2);
      assert.match(asks[0]!.prompt, /Define `greet`/);
      assert.match(asks[0]!.prompt, />> 1 \| const s = greet\('Ada'\);/, 'the whole snippet, failing line marked');
      assert.match(asks[0]!.prompt, /`greet`: called with \("Ada"\)/, 'the recorded usage trace');
      assert.match(asks[1]!.prompt, /Fix the definition of `greet`/);
      assert.match(asks[1]!.prompt, /\nELEMENT = 42;\n/, 'the wrong code, as the model wrote it');
      assert.match(asks[1]!.prompt, /is not a function/, 'the error text');
      assert.equal(r.llmCalls.calls, requests.length);
      assert.ok(r.llmCalls.promptTokens > 0 && r.llmCalls.completionTokens > 0);
    },
  );
});

/** A value request for a called global, as the definition book makes one. */
function classifierRequest(snippet: string, element: string): ValueRequest {
  return {
    element, kind: 'global', name: element, usage: { called: 1 }, site: undefined, snippet, line: 1, message: `${element} is not defined`,
    attempt: 6, history: [], rejected: [], trace: undefined, traces: new TraceStore(), mayProbe: false, definitions: () => [], fallbacks: 0,
  };
}

const PROSE = 'I would need more context about the rest of your project to say what this should be. Could you share more of the code?';
const SPLIT = "const parts = splitPair('left-right');\nconsole.log(parts[0].toUpperCase(), parts[1].length);\nconst total = items.reduce((n, x) => n + x.price, 0);\nconsole.log(total.toFixed(2));";

const SPLIT_PAIR = "const [a, b] = splitPair('left-right');\nconsole.log(a.toUpperCase(), b.length);";

for (const [name, reply] of [
  ['in a fence', "```js\nfunction splitPair(s) { return s.split('-'); }\n```"],
  ['with no fence and no ELEMENT', "function splitPair(s) { return s.split('-'); }"],
] as const) {
  test(`llm: a natural reply (a declaration of the element's own name, ${name}) is accepted at attempt 1`, async () => {
    await withServer(
      () => ({ reply }),
      async (url, requests) => {
        const r = await runSnippet(SPLIT_PAIR, { mode: 'llm' }, { llm: scriptedEnvironment(url) });
        assert.equal(r.status, 'completed', JSON.stringify(r.errors));
        assert.equal(r.stdout, 'LEFT 5\n');
        const def = r.injections.find((i) => i.element === 'splitPair');
        assert.equal(def?.provider, 'llm');
        assert.equal(def?.attempts, 1);
        assert.equal(generatorFor(requests, 'splitPair').length, 1);
      },
    );
  });
}

test('llm: `const splitPair = 42;` and then the right function: attempts 2, and the second request carries the runtime error and that code', async () => {
  let asks = 0;
  await withServer(
    () => ({ reply: asks++ === 0 ? '```js\nconst splitPair = 42;\n```' : "```js\nfunction splitPair(s) { return s.split('-'); }\n```" }),
    async (url, requests) => {
      const r = await runSnippet(SPLIT_PAIR, { mode: 'llm' }, { llm: scriptedEnvironment(url) });
      assert.equal(r.status, 'completed', JSON.stringify(r.errors));
      assert.equal(r.stdout, 'LEFT 5\n');
      assert.equal(r.injections.find((i) => i.element === 'splitPair')?.attempts, 2);
      const fix = generatorFor(requests, 'splitPair')[1]!.prompt;
      assert.match(fix, /is not a function/);
      assert.match(fix, /const splitPair = 42;/, 'the code as the model wrote it');
    },
  );
});

test('llm: a server that only answers prose: at most 5 generator requests and 1 classifier request per element, then the trace-learnt value, and trace mode\'s coverage', async () => {
  await withServer(
    () => ({ reply: PROSE }),
    async (url, requests) => {
      const r = await runSnippet(SPLIT, { mode: 'llm' }, { llm: scriptedEnvironment(url) });
      const trace = await runSnippet(SPLIT, { mode: 'trace' });
      assert.equal(r.status, 'completed', JSON.stringify(r.errors));
      assert.equal(r.degraded, undefined, 'the endpoint answered: nothing degraded');
      const asked = new Set(requests.map((q) => elementOf(q.prompt)).filter((e) => e !== undefined));
      assert.ok(asked.has('splitPair') && asked.has('items'), [...asked].join(', '));
      for (const element of asked) {
        assert.ok(generatorFor(requests, element!).length <= 5, `${element}: ${generatorFor(requests, element!).length} generator requests`);
        assert.ok(requests.filter((q) => q.kind === 'classifier' && q.prompt.includes(`\`${element}\``)).length <= 1, `${element}: one classifier request at most`);
      }
      for (const element of ['splitPair', 'items']) {
        const i = r.injections.find((x) => x.element === element);
        assert.equal(i?.provider, 'trace-fallback', element);
        assert.equal(i?.attempts, 5, element);
        assert.equal(i?.source, trace.injections.find((x) => x.element === element)?.source, `${element}: the value trace mode learnt`);
      }
      assert.ok(r.lines.covered >= trace.lines.covered, `llm ${r.lines.covered} lines, trace ${trace.lines.covered}`);
      assert.match(r.stdout, /^EXAMPLE \d+\n1\.00\n$/, 'the learnt values ran: a string for toUpperCase, a number for toFixed');
    },
  );
});

test('llm: a definition that throws while it is evaluated is an attempt, fed back with its error', async () => {
  let asks = 0;
  const throwing = definition("const cfg = JSON.parse('{not json');\nELEMENT = (n) => cfg.greeting + n;");
  await withServer(
    (req) => (elementOf(req.prompt) === 'greet' ? { reply: asks++ === 0 ? throwing : RIGHT } : { reply: definition('ELEMENT = {};') }),
    async (url, requests) => {
      const r = await runSnippet(GREET, { mode: 'llm' }, { llm: scriptedEnvironment(url) });
      assert.equal(r.stdout, 'HELLO, ADA\n', JSON.stringify(r.errors));
      assert.equal(r.injections.find((i) => i.element === 'greet')?.attempts, 2);
      assert.ok(r.errors.every((e) => e.attribution !== 'snippet'), 'the definition\'s exception is not the snippet\'s');
      assert.match(generatorFor(requests, 'greet')[1]!.prompt, /JSON[\s\S]*thrown while its definition ran/);
    },
  );
});

// The memory case gets a long check budget, so the memory limit comes first however slow the machine.
for (const [name, wrong, expected, checkTimeoutMs] of [
  ['loops forever while it is evaluated', definition('while (true) {}\nELEMENT = (name) => name;'), /did not finish within \d+ ms while it was checked/, 1_000],
  ['exhausts memory while it is evaluated', definition('const all = [];\nwhile (true) all.push(new Array(100000).fill(1));\nELEMENT = all;'), /exhausted the \d+ MB memory limit while it was checked/, 60_000],
] as const) {
  test(`llm: a definition that ${name} is one failed attempt; the snippet completes`, async () => {
    let asks = 0;
    await withServer(
      (req) => (elementOf(req.prompt) === 'greet' ? { reply: asks++ === 0 ? wrong : RIGHT } : { reply: definition('ELEMENT = {};') }),
      async (url, requests) => {
        const r = await runSnippet(GREET, { mode: 'llm', checkTimeoutMs }, { llm: scriptedEnvironment(url) });
        assert.equal(r.status, 'completed', JSON.stringify(r.errors));
        assert.equal(r.stdout, 'HELLO, ADA\n');
        const greet = r.injections.find((i) => i.element === 'greet');
        assert.equal(greet?.provider, 'llm');
        assert.equal(greet?.attempts, 2);
        const asks = generatorFor(requests, 'greet');
        assert.equal(asks.length, 2);
        assert.match(asks[1]!.prompt, expected);
      },
    );
  });
}

test('llm: a function that loops forever when the snippet calls it is one failed attempt; the snippet completes', async () => {
  let asks = 0;
  await withServer(
    (req) => (elementOf(req.prompt) === 'greet' ? { reply: asks++ === 0 ? definition('ELEMENT = (name) => { for (;;) {} };') : RIGHT } : { reply: definition('ELEMENT = {};') }),
    async (url, requests) => {
      // A run budget with room for a loaded CI machine: only the looping run uses it up.
      const r = await runSnippet(GREET, { mode: 'llm', timeoutMs: 2_000 }, { llm: scriptedEnvironment(url) });
      assert.equal(r.status, 'completed', JSON.stringify(r.errors));
      assert.equal(r.stdout, 'HELLO, ADA\n');
      assert.equal(r.fullyExecuted, true);
      const greet = r.injections.find((i) => i.element === 'greet');
      assert.equal(greet?.attempts, 2);
      assert.match(generatorFor(requests, 'greet')[1]!.prompt, /did not finish within its time limit with this definition in place/);
    },
  );
});

test('llm: the classifier is asked once per element; a reply that is not a category leaves the choice to the heuristic classifier', async () => {
  await withServer(
    (req) => (req.kind === 'classifier' ? { reply: 'I cannot tell from this snippet, sorry.' } : { reply: PROSE }),
    async (url, requests) => {
      const classifier = llmClassifier(scriptedEnvironment(url).session());
      const request = classifierRequest('widget();', 'widget');
      assert.deepEqual(await classifier.fallback(request), { category: 'function', by: 'heuristic' });
      assert.deepEqual(await classifier.fallback({ ...request, fallbacks: 1 }), { category: 'function', by: 'heuristic' });
      assert.equal(requests.filter((q) => q.kind === 'classifier').length, 1);
    },
  );
});

test('llm: malformed replies (no code block, bad syntax, no ELEMENT) are attempts, fed back at once', async () => {
  const replies = ['Sure! greet is a function that greets people.', definition('ELEMENT = (name) => {'), definition('const x = 1;'), RIGHT];
  let i = 0;
  await withServer(
    (req) => (elementOf(req.prompt) === 'greet' ? { reply: replies[Math.min(i++, replies.length - 1)]! } : { reply: definition('ELEMENT = {};') }),
    async (url, requests) => {
      const r = await runSnippet(GREET, { mode: 'llm' }, { llm: scriptedEnvironment(url) });
      assert.equal(r.stdout, 'HELLO, ADA\n', JSON.stringify(r.errors));
      assert.equal(r.injections.find((x) => x.element === 'greet')?.attempts, 4);
      const asks = generatorFor(requests, 'greet');
      assert.match(asks[1]!.prompt, /no fenced code block/);
      assert.match(asks[2]!.prompt, /SyntaxError/);
      assert.match(asks[3]!.prompt, /never assigns ELEMENT/);
    },
  );
});

test('llm: 503 and 429 (with Retry-After) are retried without spending attempts', async () => {
  let n = 0;
  await withServer(
    () => {
      n++;
      if (n === 1) return { status: 503 };
      if (n === 2) return { status: 429, headers: { 'retry-after': '1' } };
      return { reply: RIGHT };
    },
    async (url, requests) => {
      const r = await runSnippet('console.log(greet("Bo"));', { mode: 'llm' }, { llm: scriptedEnvironment(url) });
      assert.equal(r.stdout, 'Hello, Bo\n', JSON.stringify(r.errors));
      assert.equal(r.injections.find((x) => x.element === 'greet')?.attempts, 1);
      assert.equal(r.llmCalls.retries, 2);
      assert.equal(r.llmCalls.calls, 1);
      assert.equal(r.llmCalls.failed, 0);
      assert.deepEqual(r.llmCalls.errors, { 503: 1, 429: 1 }, 'every HTTP error, by status, retried ones included');
      assert.ok(requests[2]!.at - requests[1]!.at >= 950, 'Retry-After: 1 was honoured');
    },
  );
});

test('llm: a slow reply times out and is retried; a lying endpoint (not a completion) too', async () => {
  let n = 0;
  await withServer(
    () => {
      n++;
      if (n === 1) return { silent: true };
      if (n === 2) return { raw: '{"hello": "not a completion"}' };
      if (n === 3) return { hangUp: true };
      return { reply: RIGHT };
    },
    async (url) => {
      const r = await runSnippet('console.log(greet("Cy"));', { mode: 'llm' }, { llm: scriptedEnvironment(url, { requestTimeoutMs: 300 }) });
      assert.equal(r.stdout, 'Hello, Cy\n', JSON.stringify(r.errors));
      assert.equal(r.llmCalls.retries, 3);
      assert.deepEqual(r.llmCalls.errors, { timeout: 1, 'bad-response': 1, connection: 1 });
      assert.equal(r.injections.find((x) => x.element === 'greet')?.attempts, 1);
    },
  );
});

test('llm: a reply body over --llm-max-reply-bytes is read no further: a failed attempt, counted, and the next attempt runs', async () => {
  let n = 0;
  await withServer(
    (req) => (elementOf(req.prompt) === 'greet' && n++ === 0 ? { reply: definition(`ELEMENT = ${JSON.stringify('x'.repeat(3_000_000))};`) } : { reply: RIGHT }),
    async (url, requests) => {
      const before = process.memoryUsage().rss;
      const r = await runSnippet('console.log(greet("Di"));', { mode: 'llm' }, { llm: scriptedEnvironment(url, { maxReplyBytes: 64 * 1024 }) });
      assert.equal(r.stdout, 'Hello, Di\n', JSON.stringify(r.errors));
      assert.equal(r.injections.find((x) => x.element === 'greet')?.attempts, 2);
      assert.deepEqual(r.llmCalls.errors, { 'too-large': 1 });
      assert.equal(r.llmCalls.failed, 1);
      assert.equal(r.llmCalls.retries, 0, 'a reply too large is not asked for again as it was');
      assert.match(generatorFor(requests, 'greet')[1]!.prompt, /larger than 65536 bytes/);
      assert.ok(process.memoryUsage().rss - before < 200 * 1024 * 1024);
    },
  );
});

test('llm: every log line of a batch carries its snippet\'s id', async () => {
  await withServer(
    (req) => (req.kind === 'classifier' ? { reply: 'function' } : { reply: elementOf(req.prompt) === 'greet' ? RIGHT : definition('ELEMENT = {};') }),
    async (url) => {
      const logFile = join(tmp, 'ids.log');
      const dataset = join(tmp, 'ids.jsonl');
      writeFileSync(dataset, ['one', 'two', 'three'].map((id) => JSON.stringify({ id, code: GREET })).join('\n') + '\n');
      const logger = pino({ level: 'debug' }, pino.destination({ dest: logFile, sync: true }));
      const llm = new LlmEnvironment(parseLlmOptions({ baseURL: url, apiKey: 'k', model: 'scripted', retryMinDelayMs: 5 }), { env: {}, logger });
      await runBatch(dataset, { mode: 'llm' }, { concurrency: 3 }, undefined, { llm });
      const lines = readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { snippet?: string; msg: string });
      assert.ok(lines.filter((l) => l.msg === 'LLM exchange').length >= 3);
      assert.deepEqual(lines.filter((l) => l.snippet === undefined), [], 'no line without a snippet id');
      assert.deepEqual([...new Set(lines.map((l) => l.snippet))].sort(), ['one', 'three', 'two']);
    },
  );
});

/** The URL of a server that has been closed: nothing listens there any more. */
async function deadUrl(): Promise<string> {
  const server = await startScriptedLlm(() => ({ reply: RIGHT }));
  await server.close();
  return server.url;
}

/** What a degraded llm run must share with a `--mode trace` run of the same snippet. */
const measured = (r: RunResult) => ({ status: r.status, lines: r.lines, branches: r.branches, stdout: r.stdout, fullyExecuted: r.fullyExecuted });

/** Pins a run on an endpoint that failed: trace's values, named trace-fallback, from a measured run. */
async function assertTraceFallback(code: string, r: RunResult): Promise<void> {
  const trace = await runSnippet(code, { mode: 'trace' });
  assert.equal(r.degraded, 'llm-unavailable');
  assert.deepEqual(measured(r), measured(trace), 'the same run as --mode trace');
  assert.ok(r.injections.length > 0);
  assert.deepEqual(r.injections.filter((i) => i.provider === 'llm'), [], 'no value claims to be the model\'s');
  assert.deepEqual(r.injections.map((i) => [i.element, i.provider, i.source]), trace.injections.map((i) => [i.element, i.provider === 'trace' ? 'trace-fallback' : i.provider, i.source]));
  const error = r.errors.find((e) => e.attribution === 'provider');
  assert.equal(error?.type, 'LLM_UNAVAILABLE');
  assert.match(error?.message ?? '', /LLM endpoint http:\/\/127\.0\.0\.1:\d+\/v1 (failed|is unavailable)/);
}

const TWO = "const s = greet('Ada');\nconsole.log(s.toUpperCase());\nif (cfg.verbose) console.log(cfg.name.length);";

test('llm: a dead endpoint: every element takes the trace generator\'s value (trace-fallback), degraded, measured like --mode trace', async () => {
  const llm = scriptedEnvironment(await deadUrl(), { retries: 2 });
  for (const code of [GREET, TWO]) {
    const r = await runSnippet(code, { mode: 'llm' }, { llm });
    await assertTraceFallback(code, r);
    assert.equal(r.status, 'completed', JSON.stringify(r.errors));
    assert.equal(r.fullyExecuted, true);
  }
});

test('llm: a slow endpoint (every request past the timeout) degrades the same way', async () => {
  await withServer(
    () => ({ silent: true }),
    async (url, requests) => {
      const r = await runSnippet(TWO, { mode: 'llm' }, { llm: scriptedEnvironment(url, { requestTimeoutMs: 200, retries: 1 }) });
      assert.equal(requests.length, 2, 'one request and its retry, then the endpoint is given up on');
      await assertTraceFallback(TWO, r);
      assert.equal(r.llmCalls.calls, 0);
    },
  );
});

test('llm: an endpoint that dies after its first answer: the model\'s value stays llm, the rest are trace-fallback', async () => {
  await withServer(
    (req) => (elementOf(req.prompt) === 'greet' ? { reply: RIGHT } : { status: 503 }),
    async (url) => {
      const r = await runSnippet(TWO, { mode: 'llm' }, { llm: scriptedEnvironment(url, { retries: 0 }) });
      assert.equal(r.degraded, 'llm-unavailable');
      assert.equal(r.status, 'completed', JSON.stringify(r.errors));
      assert.match(r.stdout, /^HELLO, ADA\n\d+\n$/, 'the model\'s greet, then the length of the trace generator\'s cfg.name');
      const by = Object.fromEntries(r.injections.map((i) => [i.element, i.provider]));
      assert.equal(by.greet, 'llm');
      assert.equal(by.cfg, 'trace-fallback');
      assert.deepEqual(r.injections.filter((i) => i.provider === 'llm').map((i) => i.element), ['greet']);
    },
  );
});

test('llm: an endpoint that answers is not degraded', async () => {
  await withServer(
    (req) => (elementOf(req.prompt) === 'greet' ? { reply: RIGHT } : { reply: definition('ELEMENT = {};') }),
    async (url) => {
      const r = await runSnippet(GREET, { mode: 'llm' }, { llm: scriptedEnvironment(url) });
      assert.equal(r.degraded, undefined);
      assert.ok(!r.errors.some((e) => e.attribution === 'provider'));
    },
  );
});

test('llm: a batch against a dead endpoint goes on, and its summary counts the degraded snippets on their own line', async () => {
  const url = await deadUrl();
  const dataset = join(tmp, 'dead.jsonl');
  const items = [...['a', 'b', 'c'].map((id) => ({ id, code: GREET })), { id: 'whole', code: 'console.log(1 + 1);' }];
  writeFileSync(dataset, items.map((item) => JSON.stringify(item)).join('\n') + '\n');
  const out = join(tmp, 'dead-out.jsonl');
  const { summary } = await runBatch(dataset, { mode: 'llm' }, { out, concurrency: 2 }, undefined, { llm: scriptedEnvironment(url, { retries: 1 }) });
  assert.equal(summary.snippets, 4);
  assert.deepEqual(summary.statusCounts, { completed: 4 });
  assert.equal(summary.degraded, 3, 'the snippet that needed no value is not degraded');
  assert.equal(summary.llmCalls.calls, 0);
  assert.ok(summary.llmCalls.failed >= 1, 'the failed requests are counted');
  assert.ok((summary.llmCalls.errors.connection ?? 0) >= 2, `a request and its retry, refused: ${JSON.stringify(summary.llmCalls.errors)}`);
  const rows = readFileSync(out, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { id: string; degraded?: string });
  assert.deepEqual(rows.map((row) => [row.id, row.degraded]).sort(), [['a', 'llm-unavailable'], ['b', 'llm-unavailable'], ['c', 'llm-unavailable'], ['whole', undefined]]);

  const env = { ...process.env, OPENAI_BASE_URL: url, OPENAI_API_KEY: 'sk-test-000000000000000000000000', SNIPEXEC_MODEL: 'scripted' };
  const human = await cliAsync(['batch', dataset, '--mode', 'llm', '--llm-retries', '0', '--log-level', 'silent'], '', env);
  assert.equal(human.code, 0, human.stderr);
  assert.match(human.stdout, /^degraded +3$/m);
  const json = await cliAsync(['batch', dataset, '--mode', 'llm', '--llm-retries', '0', '--log-level', 'silent', '--json'], '', env);
  assert.equal((JSON.parse(json.stdout) as { degraded: number }).degraded, 3);
});

test('llm: secrets in the snippet and secret-named environment values never reach the endpoint', async () => {
  const envToken = 'tok_live_9f8e7d6c5b4a3f2e1d0c';
  const snippet = [
    "const accessKeyId = 'AKIAIOSFODNN7EXAMPLE';",
    `const auth = '${envToken}';`,
    "const db = 'postgres://admin:s3cr3tP4ss@db.internal:5432/app';",
    'const client = makeClient({ accessKeyId, auth, db });',
    'console.log(client.ready, accessKeyId.length);',
  ].join('\n');
  await withServer(
    () => ({ reply: definition('ELEMENT = (opts) => ({ ready: true, key: opts.accessKeyId });') }),
    async (url, requests) => {
      const r = await runSnippet(snippet, { mode: 'llm' }, { llm: scriptedEnvironment(url, {}, { MY_SERVICE_TOKEN: envToken, HOME: '/home/me' }) });
      assert.equal(r.stdout, 'true 20\n', JSON.stringify(r.errors));
      assert.ok(requests.length > 0);
      for (const q of requests) {
        assert.ok(!q.raw.includes('AKIAIOSFODNN7EXAMPLE'), 'AWS key sent');
        assert.ok(!q.raw.includes(envToken), 'environment secret sent');
        assert.ok(!q.raw.includes('s3cr3tP4ss'), 'connection-string password sent');
      }
      assert.match(requests[0]!.prompt, /REDACTED_AWS_KEY_1/);
      assert.match(requests[0]!.prompt, /postgres:\/\/admin:REDACTED_PASSWORD_1@db\.internal/);
    },
  );
});

test('llm: the response cache answers a re-run at no cost, with the same result', async () => {
  const cacheDir = join(tmp, 'cache');
  await withServer(
    (req) => (elementOf(req.prompt) === 'greet' ? { reply: RIGHT } : { reply: definition('ELEMENT = {};') }),
    async (url, requests) => {
      const first = await runSnippet(GREET, { mode: 'llm' }, { llm: scriptedEnvironment(url, { cacheDir }) });
      const sent = requests.length;
      assert.ok(sent > 0 && first.llmCalls.calls === sent);
      const again = await runSnippet(GREET, { mode: 'llm' }, { llm: scriptedEnvironment(url, { cacheDir }) });
      assert.equal(requests.length, sent, 'no request reached the endpoint');
      assert.equal(again.llmCalls.calls, 0);
      assert.equal(again.llmCalls.cached, sent);
      assert.deepEqual(again.injections, first.injections);
      assert.equal(again.stdout, first.stdout);
      assert.ok(readdirSync(cacheDir).length > 0);
    },
  );
});

test('llm: the per-snippet call cap stops requests; the offline trace generator fills the rest', async () => {
  await withServer(
    () => ({ reply: definition('ELEMENT = 42;') }),
    async (url, requests) => {
      const r = await runSnippet(GREET, { mode: 'llm' }, { llm: scriptedEnvironment(url, { maxCallsPerSnippet: 1 }) });
      assert.equal(requests.length, 1);
      assert.equal(r.llmCalls.capped, true);
      assert.equal(r.stdout.trim().length > 0, true);
      assert.equal(r.injections.find((i) => i.element === 'greet')?.provider, 'trace');
      assert.equal(r.status, 'completed', JSON.stringify(r.errors));
    },
  );
});

test('llm: LLM output runs only in the isolate, where no host module is reachable', async () => {
  const marker = join(tmp, 'pwned');
  const hostile = definition(`const cp = require('child_process');\ntry { cp.execSync('touch ${marker}'); } catch (e) {}\ntry { process.exit(7); } catch (e) {}\nELEMENT = (n) => 'Hi ' + n;`);
  await withServer(
    () => ({ reply: hostile }),
    async (url) => {
      const r = await runSnippet('console.log(greet("Di"));', { mode: 'llm' }, { llm: scriptedEnvironment(url) });
      assert.equal(existsSync(marker), false);
      assert.equal(r.stdout, 'Hi Di\n', JSON.stringify(r.errors));
    },
  );
});

test('llm: the CLI refuses --mode llm without an endpoint, before running anything', () => {
  const env = { ...process.env, OPENAI_BASE_URL: '', OPENAI_API_KEY: '', SNIPEXEC_MODEL: '' };
  const r = cli(['run', '--mode', 'llm', '-'], 'console.log(1);', 60_000, env);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /the LLM \(--mode llm, --ai\) needs an endpoint: set OPENAI_API_KEY .* or OPENAI_BASE_URL/);
  assert.equal(r.stdout, '');
  const noModel = cli(['run', '--mode', 'llm', '-'], 'console.log(1);', 60_000, { ...env, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' });
  assert.equal(noModel.code, 2);
  assert.match(noModel.stderr, /needs a model/);
});

test('llm: the CLI runs against the scripted endpoint and logs each exchange, redacted, to --log-file', async () => {
  await withServer(
    () => ({ reply: RIGHT }),
    async (url) => {
      const log = join(tmp, 'llm.log');
      const env = { ...process.env, OPENAI_BASE_URL: url, OPENAI_API_KEY: 'sk-test-000000000000000000000000', SNIPEXEC_MODEL: 'scripted' };
      const r = await cliAsync(['run', '--mode', 'llm', '--json', '--log-file', log, '-'], "const k = 'AKIAIOSFODNN7EXAMPLE';\nconsole.log(greet('Ed'), k.length);", env);
      assert.equal(r.code, 0, r.stderr);
      const json = JSON.parse(r.stdout) as { llmCalls: { calls: number }; stdout: string };
      assert.equal(json.stdout, 'Hello, Ed 20\n');
      assert.ok(json.llmCalls.calls >= 1);
      const { readFileSync } = await import('node:fs');
      const text = readFileSync(log, 'utf8');
      assert.match(text, /"msg":"LLM exchange"/);
      assert.match(text, /REDACTED_AWS_KEY_1/);
      assert.ok(!text.includes('AKIAIOSFODNN7EXAMPLE'));
    },
  );
});

/** The CLI in a child process, without blocking this process's event loop (the server lives here). */
async function cliAsync(args: string[], input: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const { spawn } = await import('node:child_process');
  const { BIN } = await import('./helpers.ts');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--no-node-snapshot', BIN, ...args], { env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}
