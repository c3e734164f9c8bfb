import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { definition, startScriptedLlm } from './llmServer.ts';

const EVAL = fileURLToPath(new URL('../eval/runEval.ts', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'snipexec-eval-cache-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

/** `npm run eval` as a user runs it, without waiting synchronously (the scripted server lives in this process). */
function runEval(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--no-node-snapshot', EVAL, ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

interface Row { id: string; elapsedMs: number; llmCalls: { calls: number; cached: number; elements: number; promptTokensCounted: number }; [k: string]: unknown }
const rows = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Row);
/** A row without what may differ between a run and its replay: the time, and whether replies came from the endpoint or the cache. */
const measured = ({ elapsedMs: _e, llmCalls: _l, ...rest }: Row) => rest;

test('eval: a re-run with the response cache and no endpoint reproduces the llm rows at 0 calls', async () => {
  const server = await startScriptedLlm((req) => (req.kind === 'classifier' ? { reply: 'object' } : { reply: definition('ELEMENT = { id: 1, name: "Ada", items: [1, 2] };') }));
  const cache = join(tmp, 'cache');
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(OPENAI_|SNIPEXEC_MODEL)/.test(k)));
  const args = (out: string) => ['--modes', 'llm', '--datasets', 'handwritten-dom', '--limit', '3', '--no-diff', '--concurrency', '1', '--out', out, '--llm-cache', cache, '--baseline', join(tmp, 'none.json')];
  let first;
  try {
    first = await runEval(args(join(tmp, 'first')), { ...base, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: 'test-key', SNIPEXEC_MODEL: 'scripted' });
  } finally {
    await server.close();
  }
  assert.equal(first.code, 0, first.stderr);
  const second = await runEval(args(join(tmp, 'second')), base);
  assert.equal(second.code, 0, second.stderr);

  const a = rows(join(tmp, 'first', 'handwritten-dom.llm.jsonl'));
  const b = rows(join(tmp, 'second', 'handwritten-dom.llm.jsonl'));
  assert.equal(a.length, 3);
  const calls = a.reduce((n, r) => n + r.llmCalls.calls, 0);
  assert.ok(calls > 0, 'the first run asked the endpoint');
  assert.deepEqual(b.map(measured), a.map(measured), 'the same rows');
  assert.deepEqual(b.map((r) => r.llmCalls.calls), [0, 0, 0], 'no request reached an endpoint');
  assert.equal(b.reduce((n, r) => n + r.llmCalls.cached, 0), calls + a.reduce((n, r) => n + r.llmCalls.cached, 0), 'every request answered from the cache');
  assert.deepEqual(b.map((r) => r.llmCalls.promptTokensCounted), a.map((r) => r.llmCalls.promptTokensCounted));
  const table = readFileSync(join(tmp, 'second', 'table.md'), 'utf8');
  assert.match(table, /replayed from the response cache/);
  assert.match(table, /llm: \d+ LLM requests, \d+ prompt tokens per element asked/);
});
