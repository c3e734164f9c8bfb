import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { UnusableProgram } from '../src/core/errors.ts';
import { CHILD_NOTICES } from '../src/record/childNotice.ts';
import type { CallRecord, CallTrace } from '../src/record/callTrace.ts';
import { recordProgram } from '../src/record/recordProgram.ts';
import { readTrace } from '../src/testgen/readTrace.ts';

const FIXTURES = fileURLToPath(new URL('./fixtures/record/', import.meta.url));
const PROBE = join(FIXTURES, 'probes', 'recordProbe.ts');
const work = mkdtempSync(join(tmpdir(), 'snipexec-record-'));
after(() => rmSync(work, { recursive: true, force: true }));

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Copies a fixture program's folder to a scratch folder, so the trace is written there. */
function copyFixture(name: string): string {
  const dir = join(work, name);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return dir;
}

function run(argv: string[], cwd: string, env: NodeJS.ProcessEnv): Run {
  const r = spawnSync(process.execPath, argv, { cwd, env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the program with plain node, then records it as `snipexec record` does (recordProbe.ts), from the same folder with the same environment. */
function plainAndRecorded(fixture: string, program: string, args: string[] = [], env: NodeJS.ProcessEnv = process.env) {
  const dir = copyFixture(fixture);
  const plain = run([program, ...args], dir, env);
  const recorded = run([PROBE, program, ...args], dir, env);
  const tracePath = join(dir, `${program}.trace.json`);
  const text = readFileSync(tracePath, 'utf8');
  return { plain, recorded, text, trace: readTrace(tracePath) };
}

function only(trace: CallTrace, qualname: string): CallRecord[] {
  return trace.calls.filter((c) => c.qualname === qualname);
}

test('record: the shop quickstart gives 2 calls with the parent link, and the output of a plain run', { timeout: 90_000 }, () => {
  const { plain, recorded, trace, text } = plainAndRecorded('shop', 'shop.js');
  assert.deepEqual(recorded, plain);
  assert.equal(plain.stdout, 'total: 22.95\n');
  assert.equal(trace.program, 'shop.js');
  assert.equal(trace.exitCode, 0);
  assert.equal(trace.calls.length, 2);
  const [total, applyDiscount] = trace.calls;
  assert.deepEqual(total, {
    callId: 1, parentCallId: null, module: 'shop.js', qualname: 'total', kind: 'function', line: 6,
    args: { items: { serialization: 'json', value: [{ price: 10, qty: 2 }, { price: 5.5, qty: 1 }] }, pct: { serialization: 'json', value: 10 } },
    returnValue: 22.95, returnSerialization: 'json',
  });
  assert.deepEqual(applyDiscount, {
    callId: 2, parentCallId: 1, module: 'shop.js', qualname: 'applyDiscount', kind: 'function', line: 2,
    args: { price: { serialization: 'json', value: 25.5 }, pct: { serialization: 'json', value: 10 } },
    returnValue: 22.95, returnSerialization: 'json',
  });
  // A header, one call per line in the order they ended, the functions reachable through a path at exit, an end line (callTrace.ts layout).
  assert.deepEqual(text.split('\n').map((line) => (line === '' ? '' : Object.keys(JSON.parse(line))[0])), ['format', 'callId', 'callId', 'reach', 'end', '']);
  assert.deepEqual(trace.reach?.map((r) => [r.qualname, r.root, r.path.join('.')]), [['applyDiscount', 'shop.js', 'applyDiscount'], ['total', 'shop.js', 'total']]);
});

test('record: a multi-file program (ESM, TypeScript, CommonJS): class, static, program-defined error, async, a child called twice', { timeout: 90_000 }, () => {
  const { plain, recorded, trace } = plainAndRecorded('store', 'main.js');
  assert.deepEqual(recorded, plain);
  const [fromList] = only(trace, 'Inventory.fromList');
  assert.equal(fromList?.kind, 'static');
  assert.equal(fromList?.module, 'inventory.ts');
  assert.equal(fromList?.this, undefined);
  assert.deepEqual(fromList?.returnValue, { class: 'Inventory', value: { stock: { serialization: 'json', value: { apple: 5, pear: 2 } } } });
  const orders = only(trace, 'placeOrder');
  assert.deepEqual(orders.map((c) => [c.kind, c.module, c.returnValue, c.exception]), [
    ['async', 'main.js', 1.75, undefined],
    ['async', 'main.js', undefined, { name: 'OutOfStock', module: 'errors.js', message: 'out of stock: apple' }],
  ]);
  const takes = only(trace, 'Inventory.take');
  assert.equal(takes.length, 3);
  // The children of an async call made after its await name it as their parent.
  assert.deepEqual(takes.map((c) => c.parentCallId), [orders[0]?.callId, orders[0]?.callId, orders[1]?.callId]);
  assert.deepEqual(takes[0]?.this, { serialization: 'instance', class: 'Inventory', value: { stock: { serialization: 'json', value: { apple: 5, pear: 2 } } } });
  assert.equal(takes[0]?.kind, 'method');
  assert.deepEqual(takes[2]?.exception, { name: 'OutOfStock', module: 'errors.js', message: 'out of stock: apple' });
  const prices = only(trace, 'unitPrice');
  assert.deepEqual(prices.map((c) => [c.module, c.parentCallId, c.args.sku?.value, c.returnValue]), [
    ['pricing.cjs', orders[0]?.callId, 'apple', 0.5],
    ['pricing.cjs', orders[0]?.callId, 'pear', 0.75],
  ]);
  assert.deepEqual(trace.calls.map((c) => c.callId), trace.calls.map((_, i) => i + 1), 'in the order calls started');
});

test('record: a secret-named environment variable\'s value, and a key the LLM rules find, never reach the trace', { timeout: 90_000 }, () => {
  const secret = 's3cr3t-Value-42';
  const env = { ...process.env, SERVICE_API_TOKEN: secret };
  const { plain, recorded, text, trace } = plainAndRecorded('secret', 'secret.cjs', [secret], env);
  assert.deepEqual(recorded, plain);
  assert.equal(plain.status, 0, plain.stderr);
  assert.ok(!text.includes(secret), 'the env secret is in the trace');
  assert.ok(!text.includes('AKIAIOSFODNN7EXAMPLE'), 'the AWS-shaped key is in the trace');
  const redacted = { serialization: 'repr', value: '<redacted:env>', redacted: true };
  assert.deepEqual(only(trace, 'authHeader')[0]?.args.token, redacted);
  assert.equal(only(trace, 'authHeader')[0]?.returnSerialization, 'repr');
  assert.equal(only(trace, 'request')[0]?.returnSerialization, 'repr', 'a secret nested in a returned object');
  assert.deepEqual(only(trace, 'keyLength').map((c) => c.args.key), [redacted, redacted]);
  assert.deepEqual(trace.argv, ['<redacted:env>']);
  // PWD holds no secret: the working directory may appear.
  assert.deepEqual(only(trace, 'request')[0]?.args.url, { serialization: 'json', value: 'https://example.test/items' });
});

test('record: an uncaught error keeps its output and exit code, and the trace holds what ran', { timeout: 90_000 }, () => {
  const { plain, recorded, trace } = plainAndRecorded('crash', 'throws.cjs');
  assert.deepEqual(recorded, plain);
  assert.equal(plain.status, 1);
  assert.match(plain.stderr, /throws\.cjs:4\n.*throw new TypeError/);
  assert.equal(trace.exitCode, 1);
  assert.deepEqual(trace.calls.map((c) => [c.qualname, c.parentCallId, c.returnValue ?? c.exception?.message]), [
    ['sum', null, 3], ['parseAmount', 1, 1], ['parseAmount', 1, 2],
    ['trySum', null, -1], ['sum', 4, 'not a number: x'], ['parseAmount', 5, 'not a number: x'],
    ['sum', null, 'not a number: oops'], ['parseAmount', 7, 3], ['parseAmount', 7, 'not a number: oops'],
  ]);
  assert.deepEqual(only(trace, 'parseAmount').at(-1)?.exception, { name: 'TypeError', message: 'not a number: oops' });
});

test('record: a program that exits 3 keeps its code and output; the trace says 3', { timeout: 90_000 }, () => {
  const { plain, recorded, trace } = plainAndRecorded('crash', 'exit3.mjs');
  assert.deepEqual(recorded, plain);
  assert.equal(plain.status, 3);
  assert.equal(trace.exitCode, 3);
  assert.deepEqual(trace.calls.map((c) => [c.qualname, c.returnValue]), [['fail', 9]]);
});

test('record: argv, execArgv, environment and output are those of plain node; sibling imports are recorded', { timeout: 90_000 }, () => {
  const args = ['a', '-b', '--c=d', '--', 'e f'];
  const { plain, recorded, trace } = plainAndRecorded('argv', 'echo.mjs', args);
  assert.deepEqual(recorded, plain);
  // The program sees the SNIPEXEC_* variables the test process has (.ci/run sets one), no more.
  const inherited = Object.keys(process.env).filter((k) => k.startsWith('SNIPEXEC'));
  assert.deepEqual(JSON.parse(plain.stdout), { args, self: true, execArgv: [], snipexecEnv: inherited, main: true, described: 'a:1 -b:2 --c=d:5 --:2 e f:3' });
  assert.deepEqual(trace.argv, args);
  const described = trace.calls.filter((c) => c.module === 'describe.mjs');
  assert.deepEqual(described[0]?.returnValue, 'a:1 -b:2 --c=d:5 --:2 e f:3');
  // The map callback, called by Array.prototype.map, names describe as its parent.
  assert.deepEqual(described.slice(1).map((c) => [c.qualname, c.parentCallId, c.returnValue]), args.map((a) => ['<anonymous>@2', described[0]?.callId, `${a}:${a.length}`]));
  // The filter callback over the environment's names is a program function too.
  const filters = trace.calls.filter((c) => c.module === 'echo.mjs');
  assert.equal(filters.length, Object.keys(process.env).length);
  assert.ok(filters.every((c) => c.qualname === '<anonymous>@9' && c.kind === 'arrow'));
});

test('record: every kind of function and the statements the instrumentation rewrites keep working', { timeout: 90_000 }, () => {
  const { plain, recorded, trace } = plainAndRecorded('kinds', 'kinds.mjs');
  assert.deepEqual(recorded, plain);
  assert.equal(plain.status, 0, plain.stderr);
  assert.deepEqual(trace.calls.map((c) => `${c.callId}<${c.parentCallId ?? '-'} ${c.qualname}:${c.kind}${c.this ? ':this' : ''}`), [
    '1<- Account.open:static', '2<1 Account.constructor:constructor', '3<- Account.total:setter:this', '4<- Account.total:getter:this', '5<- Account.entries:generator:this',
    '6<- Account.deposit:async:this', '7<6 Account.onChange:arrow', '8<7 Account.#note:method:this', '9<- api.twice:function', '10<- api.answer:getter',
    '11<- api.empty:function', '12<- withDefaults:function', '13<- withDefaults:function', '14<- pick:arrow', '15<- pickFn:function',
    '16<- asObject:arrow', '17<- strict:function', '18<- bare:function', '19<- bare:function', '20<- recurse:function', '21<20 recurse:function',
    '22<21 recurse:function', '23<22 recurse:function', '24<- tryBare:function', '25<- promised:function', '26<- consume:async',
    '27<- ticks:generator', '28<26 api.twice:function',
  ]);
  const byId = (id: number) => trace.calls[id - 1];
  // A constructor's result is the object it built, as its body ended (its arrow field is a function, named as the program function it is).
  assert.deepEqual(byId(2)?.args, { balance: { serialization: 'json', value: 10 } });
  assert.deepEqual(byId(2)?.returnValue, { class: 'Account', value: { owner: { serialization: 'json', value: 'ann' }, onChange: { serialization: 'function', value: 'onChange', function: { module: 'kinds.mjs', qualname: 'Account.onChange' } }, balance: { serialization: 'json', value: 10 } } });
  assert.deepEqual(byId(13)?.args, { a: { serialization: 'json', value: 1 }, b: { serialization: 'json', value: 5 }, rest: { serialization: 'json', value: [6, 7] } });
  assert.deepEqual(byId(14)?.args.arg0, { serialization: 'repr', value: 'destructured parameter of an arrow function' });
  assert.deepEqual(byId(15)?.args.arg0, { serialization: 'json', value: { name: 'p' } });
  assert.equal(byId(18)?.returnSerialization, 'undefined');
  assert.deepEqual([byId(25)?.returnSerialization, byId(26)?.returnValue], ['repr', 105]);
});

test('record: a missing program or one that is not JavaScript or TypeScript is UnusableProgram', async () => {
  await assert.rejects(recordProgram(join(work, 'nope.js')), (e) => e instanceof UnusableProgram && /no such program file/.test(e.message));
  await assert.rejects(recordProgram(join(FIXTURES, 'shop', 'package.json')), (e) => e instanceof UnusableProgram && /not JavaScript or TypeScript/.test(e.message));
});

test('record: fork()ed children and worker threads run unrecorded, and one stderr line per kind says so', { timeout: 90_000 }, () => {
  const { plain, recorded, trace } = plainAndRecorded('children', 'children.cjs');
  assert.equal(plain.status, 0, plain.stderr);
  assert.deepEqual({ ...recorded, stderr: '' }, { ...plain, stderr: '' });
  assert.equal(plain.stdout, 'child 9\nchild 9\nworker 42 4\n');
  assert.equal(recorded.stderr, `${plain.stderr}${CHILD_NOTICES.fork}\n${CHILD_NOTICES.worker}\n`);
  // Only the parent's own call: the children's square(3) is not in the trace.
  assert.deepEqual(trace.calls.map((c) => [c.qualname, c.returnValue]).filter(([q]) => q === 'square'), [['square', 4]]);
});
