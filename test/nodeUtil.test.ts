import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import ivm from 'isolated-vm';
import { NODE_UTIL_GLOBAL } from '../src/protocol/runtime.ts';
import { nodeUtilScript, withoutUnreadPrimordials } from '../src/sandbox/nodeUtil.ts';

/**
 * Node's util in the startup snapshot (src/sandbox/nodeUtil.ts) without the primordials it never
 * reads: it prints every value as the whole bundle does, and each context made from the snapshot
 * is smaller.
 */
const BUNDLE = readFileSync(createRequire(import.meta.url).resolve('node-inspect-extracted'), 'utf8');

/** The snapshot script of the bundle as the package ships it. */
function wholeScript(): ivm.SnapshotScriptInfo {
  const code = `globalThis.${NODE_UTIL_GLOBAL} = (function () { const URL = class URL {}, module = { exports: {} }, exports = module.exports;\n${BUNDLE}\n;return module.exports; })();`;
  return { code, filename: 'snipexec:node-util' };
}

/** Values of every kind util.inspect has a path for, the lazily loaded ones included (hexSlice, pathToFileURL). */
const PRINTED = `
const u = globalThis.${NODE_UTIL_GLOBAL};
class Point { constructor() { this.x = 1; this.y = { z: [1, 2, { deep: { deeper: { deepest: 1 } } }] }; } get sum() { return 3; } }
const circular = { name: 'c' }; circular.self = circular;
const err = new TypeError('bad'); err.stack = 'TypeError: bad\\n    at f (/home/u/project/a.js:1:2)\\n    at g (node:internal/x:3:4)\\n    at file:///home/u/b.mjs:5:6'; err.code = 'E_X';
const agg = new AggregateError([new Error('one'), new RangeError('two')], 'many');
const nullProto = Object.create(null); nullProto.a = 1;
const values = [
  1, -0, 1.5, NaN, 12345678901234567890n, 'str', 'it\\'s "quoted"', Symbol('s'), undefined, null, true,
  [1, , 3], new Array(150).fill(7), 'x'.repeat(20000), { a: 1, [Symbol('k')]: 2, 'b-c': 3 }, nullProto, new Point(), circular,
  new Map([[1, { a: 1 }], ['k', [2]]]), new Set([1, 'two', [3]]), new Map([[1, 2]]).entries(), new Set([5]).values(), [1, 2][Symbol.iterator](),
  new WeakMap(), new WeakSet(), Promise.resolve(4), new Promise(() => {}), Promise.reject(new Error('r')).catch(() => {}) && 0,
  new Uint8Array([1, 2, 3]), new Float64Array(3), new ArrayBuffer(8), new SharedArrayBuffer(4), new DataView(new ArrayBuffer(4)),
  new Date(0), new Date(NaN), /re(g)ex/gi, err, agg, new Error('plain'), Object.assign(new Error('cause'), { cause: err }),
  function named() {}, () => {}, async function asy() {}, function* gen() {}, class K extends Point {}, Math.max, Object.assign(function f() {}, { prop: 1 }),
  new Proxy({ t: 1 }, {}), new Proxy(function p() {}, {}), new Number(3), new String('boxed'), new Boolean(false), Object(Symbol('b')), Object(5n),
  (function () { return arguments; })(1, 2), { get g() { return 1; }, set s(v) {} }, Object.freeze({ frozen: true }), globalThis.Math, JSON,
  { [Symbol.toStringTag]: 'Tagged', v: 1 }, Object.defineProperty({}, 'hidden', { value: 1, enumerable: false }), new (class extends Map {})([[1, 1]]),
];
const options = [{}, { depth: 0 }, { depth: Infinity, compact: false }, { showHidden: true }, { showProxy: true }, { getters: true }, { sorted: true, breakLength: 40 }, { maxArrayLength: 2, maxStringLength: 5 }, { numericSeparator: true }, { colors: true }];
const out = [];
for (const v of values) for (const o of options) out.push(u.inspect(v, o));
out.push(u.formatWithOptions({}, '%s %d %i %f %j %o %O %c %%', 'a', 42.5, 42.5, '1.5', { j: 1 }, { o: [1] }, { O: 1 }, 'css'));
out.push(u.formatWithOptions({}, 'no specifiers', 1, 'two', { three: 3 }, [4], new Error('five').message));
out.push(u.formatWithOptions({ depth: 1 }, { a: { b: { c: {} } } }, Symbol('x'), 7n));
JSON.stringify(out);
`;

/** What PRINTED prints, in a context of an isolate made from a snapshot of `script`; and how many bytes such a context holds. */
function printedWith(script: ivm.SnapshotScriptInfo): { printed: string[]; contextBytes: number } {
  const isolate = new ivm.Isolate({ memoryLimit: 64, snapshot: ivm.Isolate.createSnapshot([script]) });
  try {
    const warm = isolate.createContextSync();
    const before = isolate.getHeapStatisticsSync().used_heap_size;
    const context = isolate.createContextSync();
    const contextBytes = isolate.getHeapStatisticsSync().used_heap_size - before;
    warm.release();
    return { printed: JSON.parse(context.evalSync(PRINTED) as string) as string[], contextBytes };
  } finally {
    isolate.dispose();
  }
}

test('node util: the primordials the bundle never reads are left out of the installed version', () => {
  const trimmed = withoutUnreadPrimordials(BUNDLE);
  assert.notEqual(trimmed, BUNDLE, 'the bundle ends its primordials module as expected (if not, see src/sandbox/nodeUtil.ts)');
  assert.equal(trimmed.length - BUNDLE.length > 0, true);
  assert.ok(nodeUtilScript().code.includes(trimmed));
});

test('node util: a bundle of another shape comes back unchanged', () => {
  const other = BUNDLE.replace(/\.exports=([\w$]+)\}/g, '.exports=$1;}');
  assert.equal(withoutUnreadPrimordials(other), other);
});

test('node util: without the unread primordials it prints every kind of value the same, and each context is smaller', () => {
  const whole = printedWith(wholeScript());
  const trimmed = printedWith(nodeUtilScript());
  assert.ok(whole.printed.length > 600, String(whole.printed.length));
  assert.deepEqual(trimmed.printed, whole.printed);
  // The hex dump of a buffer and file paths in a stack are printed by modules the bundle loads on first use.
  assert.ok(whole.printed.some((s) => s.includes('[Uint8Contents]: <00 00 00 00 00 00 00 00>')));
  assert.ok(whole.printed.some((s) => s.includes('/home/u/project/a.js:1:2')));
  assert.ok(whole.contextBytes - trimmed.contextBytes > 20_000, `${whole.contextBytes} → ${trimmed.contextBytes} bytes per context`);
});
