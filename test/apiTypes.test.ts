import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runSnippet } from '../src/index.ts';
import { renderApiTypeTable, TABLE_FILE } from '../src/values/apiTypes/generateApiTypes.ts';
import { apiMember, fixedOnPath, instanceCategory, platformValue, reveals, type RevealedCategory } from '../src/values/apiTypes/platformTypes.ts';
import type { Category } from '../src/core/categories.ts';
import { cli, selected } from './helpers.ts';

test('the committed API type table is what `npm run gen-api-types` writes from the installed declaration files', { timeout: 120_000 }, () => {
  assert.equal(readFileSync(TABLE_FILE, 'utf8'), renderApiTypeTable(), 'run `npm run gen-api-types` and commit src/values/apiTypes/apiTypeTable.ts');
});

/** Entries of the table: what the platform says a member is when read or called. */
const MEMBERS = [
  { name: 'length', read: ['number'], readFixed: true, of: ['string', 'array', 'function'] },
  { name: 'size', read: ['number'], readFixed: true, of: ['Map', 'Set'] },
  { name: 'byteLength', read: ['number'], readFixed: true, of: [] },
  { name: 'forEach', call: ['undefined'], callFixed: true, of: ['array', 'Map', 'Set'] },
  { name: 'preventDefault', call: ['undefined'], callFixed: true, of: [] },
  { name: 'addEventListener', call: ['undefined'], callFixed: true, of: ['element'] },
  { name: 'setAttribute', call: ['undefined'], callFixed: true, of: ['element'] },
  { name: 'push', call: ['number'], callFixed: false, of: ['array'] }, // a Node stream's push returns a boolean
  { name: 'querySelector', call: ['element', 'null'], callFixed: true, of: ['element'] },
  { name: 'padStart', call: ['string'], callFixed: true, of: ['string'] },
  { name: 'then', call: ['promise'], callFixed: true, of: ['promise'] },
] as const;

for (const m of MEMBERS) {
  test(`API types: ${m.name}`, () => {
    const entry = apiMember(m.name);
    assert.ok(entry, `${m.name} is in the table`);
    if ('read' in m) assert.deepEqual([entry.read, entry.readFixed], [m.read, m.readFixed]);
    if ('call' in m) assert.deepEqual([entry.call, entry.callFixed], [m.call, m.callFixed]);
    assert.deepEqual([...entry.of].sort(), [...m.of].sort());
  });
}

/** The value the platform gives an element, by its access path: forced ones win over how the snippet uses it. */
const VALUES: readonly { id: string; value: { category: Category; forced: boolean } | undefined }[] = [
  { id: 'items.length', value: { category: 'number', forced: true } },
  { id: 'a.b["size"]', value: { category: 'number', forced: true } },
  { id: 'arr.forEach()', value: { category: 'undefined', forced: true } },
  { id: 'btn.on#cb1#arg0.preventDefault()', value: { category: 'undefined', forced: true } },
  { id: 'el.addEventListener()', value: { category: 'undefined', forced: true } },
  { id: 'root.querySelector()', value: { category: 'element', forced: false } },
  { id: 'list.push()', value: undefined }, // a number for arrays, a boolean for Node streams: not fixed
  { id: 's.split()', value: { category: 'array', forced: false } },
  { id: 'user.name', value: undefined }, // a string the platform types, but data objects nest objects there
  { id: 'axios.delete()', value: undefined }, // Map's boolean, but not what most of the platform says
  { id: 'logger.error()', value: undefined }, // console's is void, but the core has no such method
  { id: 'items', value: undefined },
  { id: 'await x.json()', value: undefined },
];

for (const v of VALUES) {
  test(`platform value: ${v.id}`, () => {
    assert.deepEqual(platformValue(v.id), v.value);
  });
}

const REVEALS: readonly { category: RevealedCategory; methods?: string[]; reads?: string[]; expected: boolean }[] = [
  { category: 'string', methods: ['padStart'], expected: true },
  { category: 'string', methods: ['substr'], expected: true }, // deprecated, still on every string
  { category: 'string', methods: ['slice'], expected: false }, // arrays have it too
  { category: 'array', methods: ['forEach'], expected: true },
  { category: 'array', methods: ['map'], expected: true },
  { category: 'number', methods: ['toFixed'], expected: true },
  { category: 'Date', methods: ['getTime'], expected: true },
  { category: 'promise', methods: ['then'], expected: true },
  { category: 'element', reads: ['innerHTML'], expected: true },
  { category: 'element', methods: ['setAttribute'], expected: true },
  { category: 'element', reads: ['id', 'title'], expected: false }, // data objects have those too
  { category: 'string', reads: ['link'], expected: false }, // a method read, not called
  { category: 'element', reads: ['length'], expected: false },
];

for (const r of REVEALS) {
  test(`reveals ${r.category}: ${[...(r.methods ?? []).map((m) => `${m}()`), ...(r.reads ?? [])].join(', ')}`, () => {
    assert.equal(reveals(r.category, r.methods, r.reads), r.expected);
  });
}

test('instanceof targets name their category', () => {
  assert.deepEqual(['TypeError', 'DOMException', 'HTMLInputElement', 'Map', 'Array', 'Promise', 'Object', 'NoSuchThing'].map(instanceCategory), ['Error', 'Error', 'element', 'Map', 'array', 'promise', 'object', undefined]);
});

/** Whose error it is: a culprit path through a type the platform fixes is the snippet's. */
const PATHS: readonly { name: string; culprit: string; defs: Record<string, Category>; fixed: boolean }[] = [
  { name: 'the real length of an injected array', culprit: 'items.length.padStart', defs: { items: 'array' }, fixed: true },
  { name: 'an injected number for a length', culprit: 'items.length.padStart', defs: { items: 'object', 'items.length': 'number' }, fixed: true },
  { name: 'a length some provider made a string', culprit: 'items.length.padStart', defs: { items: 'object', 'items.length': 'string' }, fixed: false },
  { name: 'the result of preventDefault', culprit: 'e.preventDefault()', defs: { e: 'object', 'e.preventDefault': 'function', 'e.preventDefault()': 'undefined' }, fixed: true },
  { name: 'a member of a data object', culprit: 'user.profile.name', defs: { user: 'object' }, fixed: false },
  { name: 'a length above the nearest definition', culprit: 'a.length.b.c', defs: { 'a.length.b': 'object' }, fixed: false },
];

for (const p of PATHS) {
  test(`fixed by the platform: ${p.name}`, () => {
    assert.equal(fixedOnPath(p.culprit, (id) => p.defs[id]), p.fixed);
  });
}

/** Trace mode through runSnippet: the values the snippet sees, and the error that follows when the snippet expects otherwise. */
const RUNS: readonly { name: string; code: string; out: string; error?: string }[] = [
  { name: 'a length is a number', code: 'const count = items.length;\nconsole.log(typeof count);', out: 'number\n' },
  { name: 'forEach returns undefined', code: 'const r = arr.forEach(f);\nconsole.log(typeof r);\nconsole.log(r.length);', out: 'undefined\n', error: "Cannot read properties of undefined (reading 'length')" },
  { name: 'preventDefault returns undefined', code: 'const r = e.preventDefault();\nconsole.log(typeof r);\nconsole.log(r.done);', out: 'undefined\n', error: "Cannot read properties of undefined (reading 'done')" },
  { name: 'size and byteLength are numbers on an object', code: 'console.log(typeof box.size, typeof box.byteLength, box.label.trim().length > 0);', out: 'number number true\n' },
  { name: 'querySelector gives an element', code: "const el = root.querySelector('#a');\nconsole.log(typeof el.getAttribute);", out: 'function\n' },
];

for (const c of selected(RUNS)) {
  test(`trace: ${c.name}`, { timeout: 60_000 }, async () => {
    const r = await runSnippet(c.code, { mode: 'trace' });
    assert.equal(r.stdout, c.out, JSON.stringify(r.injections));
    // The snippet's own error: the platform's value stands, it is not refined into what the snippet wanted.
    assert.deepEqual(r.errors.map((e) => [e.message, e.attribution]), c.error === undefined ? [] : [[c.error, 'snippet']]);
  });
}

test('trace: count.padStart on a length is the snippet\'s TypeError, not refined into a string', { timeout: 60_000 }, async () => {
  const r = await runSnippet("const count = items.length;\nconsole.log(count.padStart(3, '0'));", { mode: 'trace' });
  assert.equal(r.status, 'stopped');
  assert.deepEqual(r.errors.map((e) => [e.type, e.message, e.line, e.attribution, e.culprit]), [['TypeError', 'count.padStart is not a function', 2, 'snippet', undefined]]);
  // items stays the array it was: refining it could not change what a length is.
  assert.deepEqual(r.injections.map((i) => [i.element, i.category, i.attempts]), [['items', 'array', 1]]);
});

const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

test('diff: a change that makes count a length reports count.padStart is not a function', { timeout: 180_000 }, () => {
  const before = "function label(items) {\n  const count = String(items.length);\n  return count.padStart(3, '0');\n}\n";
  const dir = mkdtempSync(join(tmpdir(), 'snipexec-apitypes-'));
  dirs.push(dir);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'ignore' });
  git('init', '-q');
  git('config', 'user.email', 'test@example.invalid');
  git('config', 'user.name', 'test');
  writeFileSync(join(dir, 'label.js'), before);
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  writeFileSync(join(dir, 'label.js'), before.replace('String(items.length)', 'items.length'));
  const r = cli(['diff', '--json'], undefined, 170_000, process.env, dir);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const report = JSON.parse(r.stdout) as { findings: { file: string; line: number; type: string; message: string; function: string }[] };
  assert.deepEqual(report.findings.map((f) => [f.file, f.line, f.type, f.message, f.function]), [['label.js', 3, 'TypeError', 'count.padStart is not a function', 'label']]);
});
