import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inputsPrompt, parseInputs, proposeInputs, signatureOf, type FunctionForInputs } from '../src/testgen/proposeInputs.ts';
import type { CallRecord } from '../src/record/callTrace.ts';
import { scriptedEnvironment, startScriptedLlm } from './llmServer.ts';

const call = (callId: number, items: unknown, pct: unknown, ret: unknown): CallRecord => ({
  callId, parentCallId: null, module: 'shop.js', qualname: 'total', kind: 'function', line: 5,
  args: { items: { serialization: 'json', value: items }, pct: { serialization: 'json', value: pct } },
  returnValue: ret, returnSerialization: 'json',
});
const TOTAL: FunctionForInputs = { qualname: 'total', kind: 'function', params: ['items', 'pct'], calls: [call(1, [{ price: 10 }], 10, 9)] };

test('proposeInputs: the signature has names only, and methods read as Class.prototype.m', () => {
  assert.equal(signatureOf(TOTAL), 'function total(items, pct)');
  assert.equal(signatureOf({ qualname: 'Cart.add', kind: 'method', params: ['item'] }), 'Cart.prototype.add(item)');
  assert.equal(signatureOf({ qualname: 'Cart.of', kind: 'static', params: ['items'] }), 'Cart.of(items) // static');
  assert.equal(signatureOf({ qualname: 'load', kind: 'async', params: [] }), 'async function load()');
});

test('proposeInputs: the prompt shows the recorded calls, with unrepresentable and redacted values as tags', () => {
  const secret: CallRecord = { ...call(2, [], 0, 0), args: { items: { serialization: 'repr', value: '<redacted:env>', redacted: true }, pct: { serialization: 'undefined' } } };
  const prompt = inputsPrompt({ ...TOTAL, calls: [...TOTAL.calls, secret] }, 3);
  assert.match(prompt, /^Signature: function total\(items, pct\)$/m);
  assert.match(prompt, /^- total\(\[\{"price":10\}\], 10\) -> 9$/m);
  assert.match(prompt, /^- total\("<redacted>", "<undefined>"\) -> 0$/m);
  assert.doesNotMatch(prompt, /redacted:env/);
});

const PARSE = [
  { name: 'a fenced array with prose around it', reply: 'Here are inputs:\n```json\n[[[], 0], [[{"price": 5}], 100]]\n```\nThese cover edges.', want: [[[], 0], [[{ price: 5 }], 100]] },
  { name: 'a bare array after prose with brackets in it', reply: 'Consider [edge] cases: [[[], 50]]', want: [[[], 50]] },
  { name: 'wrong lengths, duplicates and the recorded input are dropped', reply: '[[[], 1], [[], 1], [1], [[{"price":10}], 10], [[], 2, 3]]', want: [[[], 1]] },
  { name: 'no JSON at all', reply: 'I cannot help with that.', want: [] },
  { name: 'a string holding a bracket', reply: '[["]", 1]]', want: [[']', 1]] },
];
for (const c of PARSE) {
  test(`proposeInputs: parse ${c.name}`, () => {
    assert.deepEqual(parseInputs(c.reply, TOTAL, 5), c.want);
  });
}

test('proposeInputs: one parameter takes a flat array as one input per value; max caps what is kept', () => {
  const one = { params: ['s'], calls: [] };
  assert.deepEqual(parseInputs('["a", "", "a-b"]', one, 2), [['a'], ['']]);
});

test('proposeInputs: asks the scripted endpoint, sends no source text and no secret, and parses the reply', async () => {
  const server = await startScriptedLlm(() => ({ reply: '```json\n[[[], 0], [[{"price": 1}], 5]]\n```' }));
  try {
    const secret = 'ghp_' + 'a'.repeat(36);
    const fn: FunctionForInputs = { ...TOTAL, calls: [{ ...call(1, [{ price: 10, note: secret }], 10, 9) }] };
    const session = scriptedEnvironment(server.url, {}, { GITHUB_TOKEN: secret }).session();
    const inputs = await proposeInputs(session, fn, { max: 5 });
    assert.deepEqual(inputs, [[[], 0], [[{ price: 1 }], 5]]);
    assert.equal(server.requests.length, 1);
    const raw = server.requests[0]!.raw;
    assert.ok(!raw.includes(secret), 'the secret is redacted before it leaves');
    assert.ok(!/return|=>|\{\s*$/m.test(server.requests[0]!.prompt), 'no source text: the prompt holds the signature and calls only');
    assert.match(server.requests[0]!.prompt, /function total\(items, pct\)/);
  } finally {
    await server.close();
  }
});
