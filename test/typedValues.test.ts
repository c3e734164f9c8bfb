import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSnippet } from '../src/index.ts';
import type { Lang } from '../src/core/options.ts';
import { selected } from './helpers.ts';

/**
 * Values that respect what the snippet says: each snippet prints the runtime type of a value the
 * trace generator injects (`kind(v)`: `Object.prototype.toString`'s tag), and the table says which
 * type the snippet's annotation, JSDoc or names ask for. Run through the real sandbox.
 */
const KIND = 'const kind = (v) => Object.prototype.toString.call(v).slice(8, -1);\n';

const CASES: readonly { name: string; code: string; lang?: Lang; out: string; element?: string; category?: string }[] = [
  // TypeScript annotations
  { name: 'a declared function returns its declared type, not undefined', lang: 'ts', code: 'declare function formatMoney(n: number): string;\nconsole.log(kind(formatMoney(5)));', out: 'String' },
  { name: 'declare const', lang: 'ts', code: 'declare const retries: number;\nconsole.log(kind(retries));', out: 'Number' },
  { name: 'declare const of a boolean', lang: 'ts', code: 'declare const ready: boolean;\nconsole.log(kind(ready));', out: 'Boolean' },
  { name: 'an interface types the members of a variable\'s value', lang: 'ts', code: 'interface User { id: number; joined: Date; tags: string[] }\nconst u: User = getUser();\nconsole.log(kind(u.id), kind(u.joined), kind(u.tags));', out: 'Number Date Array' },
  { name: 'an interface\'s method gives its declared result', lang: 'ts', code: 'interface Api { fetchCount(): number; label: string }\ndeclare const api: Api;\nconsole.log(kind(api.fetchCount()), kind(api.label));', out: 'Number String' },
  { name: 'a type alias of an object', lang: 'ts', code: 'type Point = { x: number; label: string };\nconst p: Point = nearest();\nconsole.log(kind(p.label));', out: 'String' },
  { name: 'a driven function\'s parameter annotation', lang: 'ts', code: 'function total(price: number, v: string) {\n  console.log(kind(price), kind(v));\n}', out: 'Number String' },
  { name: 'a Promise\'s awaited type', lang: 'ts', code: 'declare function load(): Promise<boolean>;\nconst ok = await load();\nconsole.log(kind(ok));', out: 'Boolean' },
  { name: 'an as-assertion', lang: 'ts', code: 'const cfg = readConfig() as { level: string };\nconsole.log(kind(cfg.level));', out: 'String' },
  { name: 'a string enum', lang: 'ts', code: 'enum Color { Red = "red", Blue = "blue" }\nconst c: Color = pick();\nconsole.log(kind(c));', out: 'String' },
  { name: 'an annotation wins over a usage-only guess (tested: a flag)', lang: 'ts', code: 'function show(v: string) {\n  if (v) console.log(kind(v));\n}', out: 'String' },
  { name: 'an annotation wins over a usage-only guess (only length read: a string)', lang: 'ts', code: 'declare const rows: number[];\nconsole.log(kind(rows), rows.length > 0);', out: 'Array true' },
  { name: 'a declared result types what the function returns', lang: 'ts', code: 'function total(): number {\n  return cart.sum;\n}\nconsole.log(kind(total()));', out: 'Number' },
  { name: 'an async function\'s declared result types what its promise gives', lang: 'ts', code: 'async function title(): Promise<string> {\n  return page.heading;\n}\nconsole.log(kind(await title()));', out: 'String' },
  // JSDoc
  { name: 'JSDoc @returns', code: '/** @returns {boolean} */\nfunction ready() {\n  return state.flag;\n}\nconsole.log(kind(ready()));', out: 'Boolean' },
  { name: 'JSDoc @param', code: '/**\n * @param {string} a\n * @param {boolean} b\n */\nfunction f(a, b) {\n  console.log(kind(a), kind(b));\n}', out: 'String Boolean' },
  { name: 'JSDoc @type', code: '/** @type {number[]} */\nconst xs = loadAll();\nconsole.log(kind(xs), kind(xs[0]));', out: 'Array Number' },
  // A type nothing resolves (an imported or a library's): it asks for no category, and the name's guess does not apply.
  { name: 'a JSDoc type nothing resolves seeds nothing: a node is no DOM element', code: '/**\n * @param {ASTNode} node\n * @param {Token} prevNode\n */\nfunction f(node, prevNode) {\n  console.log(kind(node), kind(prevNode));\n}', out: 'Object Object', element: 'f#arg1', category: 'object' },
  { name: 'a TypeScript type nothing resolves seeds nothing', lang: 'ts', code: 'import type { ASTNode } from "./ast";\nfunction f(node: ASTNode, count: Counter) {\n  console.log(kind(node), kind(count));\n}', out: 'Object Object', element: 'f#arg0', category: 'object' },
  { name: 'a union member nothing resolves yields to one with a category', code: '/** @param {Token|string} node */\nfunction f(node) {\n  console.log(kind(node));\n}', out: 'String' },
  { name: 'a type parameter says nothing: the name still guesses', lang: 'ts', code: 'function f<T>(node: T, itemCount: T) {\n  console.log(kind(node), kind(itemCount));\n}', out: 'Object Number', element: 'f#arg0', category: 'element' },
  // Names
  { name: 'names of driven arguments', code: 'function f(isOpen, userId, itemCount, startDate, userName) {\n  console.log(kind(isOpen), kind(userId), kind(itemCount), kind(startDate), kind(userName));\n}', out: 'Boolean Number Number Date String' },
  { name: 'url and email names give a URL and an address', code: 'function send(url, email) {\n  console.log(url.startsWith("https://"), email.includes("@"));\n}', out: 'true true' },
  { name: 'a name guess loses to usage', code: 'function f(isReady) {\n  console.log(kind(isReady), isReady.toUpperCase().length > 0);\n}', out: 'String true' },
  // An input element
  { name: 'the value of an input element is a string', code: 'const age = document.getElementById("age").value;\nconsole.log(kind(age));', out: 'String', element: 'document.getElementById("age").value', category: 'string' },
  { name: 'the value of a queried element is a string', code: 'const q = document.querySelector("#q");\nconsole.log(kind(q.value));', out: 'String', element: 'document.querySelector("#q").value', category: 'string' },
];

for (const c of selected(CASES)) {
  test(`typed values: ${c.name}`, async () => {
    const r = await runSnippet(KIND + c.code, { mode: 'trace', ...(c.lang ? { lang: c.lang } : {}) });
    assert.equal(r.stdout.trim().split('\n').at(-1), c.out, `stdout ${JSON.stringify(r.stdout)}; injections ${JSON.stringify(r.injections.map((i) => [i.element, i.category]))}`);
    // The definition the result lists (and the emitted program runs), where the sandbox's environment has a value of its own.
    if (c.element) assert.equal(r.injections.find((i) => i.element === c.element)?.category, c.category);
  });
}

test('typed values: an injection reports the type the snippet declares for it', async () => {
  const r = await runSnippet('interface User { id: number; name: string }\nconst u: User = getUser();\nconsole.log(u.name);', { mode: 'trace', lang: 'ts' });
  const name = r.injections.find((i) => i.element === 'getUser().name');
  assert.deepEqual(name?.declared, { type: 'string', category: 'string' });
  assert.deepEqual(r.injections.find((i) => i.element === 'getUser()')?.declared, { type: 'User', category: 'object' });
});

test('typed values: a React prop given to useState and used as a number is a number, not a lazy initialiser', async () => {
  const code = 'import { useState } from "react";\nfunction Counter({ initial }) {\n  const [count, setCount] = useState(initial);\n  return <button onClick={() => setCount(count + 1)}>{count * 2}</button>;\n}';
  const r = await runSnippet(code, { mode: 'trace', lang: 'jsx' });
  assert.equal(r.injections.find((i) => i.element === 'Counter#props.initial')?.category, 'number', JSON.stringify(r.injections.map((i) => [i.element, i.category])));
});

// eslint's lines-between-class-members, cut down: with `maxLine` the declared number 1 and the mocked
// tokens all on line 1, the function recurses until the stack overflows; `{}` (what usage gives) ends it.
const ENDLESS = `const sourceCode = context.sourceCode;
/**
 * @param {Token} prevLastToken
 * @param {Token} nextFirstToken
 * @param {number} maxLine
 */
function findLastConsecutiveTokenAfter(prevLastToken, nextFirstToken, maxLine) {
  const after = sourceCode.getTokenAfter(prevLastToken, { includeComments: true });
  if (after !== nextFirstToken && after.loc.start.line - prevLastToken.loc.end.line <= maxLine) {
    return findLastConsecutiveTokenAfter(after, nextFirstToken, maxLine);
  }
  return prevLastToken;
}`;

test('typed values: a declared type whose value makes a run worse (an endless recursion) gives way to the value usage gives', async () => {
  const r = await runSnippet(ENDLESS, { mode: 'trace', scenarios: 1 });
  assert.ok(!r.lines.uncovered.includes(12), `line 12 is covered; uncovered ${JSON.stringify(r.lines.uncovered)}, errors ${JSON.stringify(r.errors)}`);
  assert.deepEqual(r.errors.filter((e) => e.type === 'RangeError'), []);
  const maxLine = r.injections.find((i) => i.element === 'findLastConsecutiveTokenAfter#arg2');
  assert.notEqual(maxLine?.category, 'number');
  assert.deepEqual(maxLine?.declared, { type: 'number', category: 'number', setAside: true });
});

test('typed values: a declared type stands when setting it aside covers no more (the run throws either way)', async () => {
  const r = await runSnippet(`${KIND}/** @param {number} amountDue */\nfunction f(amountDue) {\n  console.log(kind(amountDue));\n  throw new Error("not yet");\n}`, { mode: 'trace', scenarios: 1 });
  assert.equal(r.stdout.trim(), 'Number');
  assert.deepEqual(r.injections.find((i) => i.element === 'f#arg0')?.declared, { type: 'number', category: 'number' });
  assert.equal(r.drives?.find((d) => d.target === 'f')?.outcome, 'threw');
});
