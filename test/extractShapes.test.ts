import assert from 'node:assert/strict';
import { test } from 'node:test';
import vm from 'node:vm';
import { extractDefinition, type DefinitionForm, type ExtractTarget } from '../src/values/llm/extractDefinition.ts';
import { selected } from './helpers.ts';

/**
 * The ways a model answers "define the element", each with what must be extracted from it, or
 * why it is rejected. Accepted sources are evaluated here in a fresh node:vm context (the replies
 * are this file's own harmless code), the refs given as `parts`, and `probe` run against the value `v`.
 */
interface Shape {
  readonly name: string;
  readonly reply: string;
  readonly target: ExtractTarget;
  /** Accepted: the form, and optionally the source, refs, category, the value's probe and the code tried. */
  readonly form?: DefinitionForm;
  readonly source?: string | RegExp;
  readonly refs?: readonly string[];
  readonly category?: string;
  readonly parts?: readonly string[];
  readonly probe?: string;
  readonly equals?: unknown;
  /** Rejected: why. */
  readonly error?: RegExp;
  /** The code the extraction says it tried (both outcomes). */
  readonly code?: string;
}

const fence = (code: string, lang = 'js') => `\`\`\`${lang}\n${code}\n\`\`\``;
const global = (name: string): ExtractTarget => ({ element: name, name, kind: 'global' });
const module = (spec: string): ExtractTarget => ({ element: `require(${JSON.stringify(spec)})`, name: spec, kind: 'module' });
const member = (element: string): ExtractTarget => ({ element, name: element.replace(/^.*[.[]"?|"?\]$/g, ''), kind: 'member' });
const SPLIT = global('splitPair');
const SPLIT_FN = "function splitPair(s) { return s.split('-'); }";
const SPLIT_PROBE = { probe: "v('a-b')", equals: ['a', 'b'] };
const USAGE = "const [first, second] = splitPair('left-right');\nconsole.log(first, second);";

const SHAPES: Shape[] = [
  // The issue's own cases.
  { name: 'a function declaration without ELEMENT (issue 15)', reply: fence(SPLIT_FN), target: SPLIT, form: 'declaration', source: /^function splitPair\(s\) \{/, category: 'function', ...SPLIT_PROBE, code: SPLIT_FN },
  { name: 'const for a module element', reply: fence("const fs = { readFileSync: (p) => 'text of ' + p };"), target: module('fs'), form: 'declaration', category: 'object', probe: "v.readFileSync('a')", equals: 'text of a' },
  { name: 'an assignment to the member path', reply: fence('app.get = function (path, handler) { return path; };'), target: member('app.get'), form: 'path', category: 'function', probe: "v('/x')", equals: '/x' },
  { name: 'module.exports for a module element', reply: fence('function express() { return { listen: () => 1 }; }\nexpress.json = () => (req, res, next) => next();\nmodule.exports = express;'), target: module('express'), form: 'exports', category: 'function', probe: '[typeof v.json, v().listen()]', equals: ['function', 1] },
  { name: 'no fence, only code', reply: SPLIT_FN, target: SPLIT, form: 'declaration', ...SPLIT_PROBE, code: SPLIT_FN },
  { name: 'no fence, prose before and after the code', reply: `Sure! Here is the definition:\n\n${SPLIT_FN}\n\nThis splits the text on the dash.`, target: SPLIT, form: 'declaration', ...SPLIT_PROBE, code: SPLIT_FN },
  { name: 'a fence left open at the end (max_tokens)', reply: `Here it is:\n\`\`\`js\n${SPLIT_FN}\n`, target: SPLIT, form: 'declaration', ...SPLIT_PROBE, code: SPLIT_FN },
  { name: 'a definition, then an example usage block: the usage is not taken', reply: `${fence(SPLIT_FN)}\n\nExample usage:\n${fence(USAGE)}`, target: SPLIT, form: 'declaration', ...SPLIT_PROBE, code: SPLIT_FN },
  { name: 'the usage block first, then the definition', reply: `You would call it like this:\n${fence(USAGE)}\nwith:\n${fence(SPLIT_FN)}`, target: SPLIT, form: 'declaration', ...SPLIT_PROBE, code: SPLIT_FN },
  { name: 'prose after the closing fence', reply: `${fence(SPLIT_FN)}\nThe function returns both halves; \`\`\` is a fence.`, target: SPLIT, form: 'declaration', ...SPLIT_PROBE },
  { name: 'a <think> section with code in it is ignored', reply: `<think>\nMaybe:\n${fence('ELEMENT = () => 42;')}\nno, split it.\n</think>\n${fence(SPLIT_FN)}`, target: SPLIT, form: 'declaration', ...SPLIT_PROBE, code: SPLIT_FN },
  { name: 'a reply whose only code is inside <think>', reply: `<think>${fence(SPLIT_FN)}</think>\nI am not sure.`, target: SPLIT, error: /no fenced code block outside its <think> section; reply with one ```js block that defines `splitPair`/, code: '' },
  { name: 'a closing </think> without its opening tag drops the reasoning', reply: `${fence('ELEMENT = () => 42;')}\nhmm</think>\n${fence(SPLIT_FN)}`, target: SPLIT, form: 'declaration', ...SPLIT_PROBE },
  { name: 'several defining blocks: the last one wins', reply: `First try:\n${fence('const splitPair = (s) => [s];')}\nBetter:\n${fence(SPLIT_FN)}`, target: SPLIT, form: 'declaration', ...SPLIT_PROBE, code: SPLIT_FN },
  { name: 'an ELEMENT block beats a later declaration block', reply: `${fence(`${SPLIT_FN}\nELEMENT = splitPair;`)}\n${fence('function splitPair() { return []; }')}`, target: SPLIT, form: 'ELEMENT', ...SPLIT_PROBE },
  { name: 'a TypeScript block: types erased', reply: fence('function splitPair(s: string): [string, string] {\n  const [a, b] = s.split(\'-\') as [string, string];\n  return [a, b];\n}', 'ts'), target: SPLIT, form: 'declaration', source: /^function splitPair\(s\) \{/, ...SPLIT_PROBE },
  // The prompt's own format keeps working.
  { name: 'the three steps with ELEMENT', reply: fence(`// 1. require/import\n// (nothing needed)\n// 2. define\n${SPLIT_FN}\n// 3. assign\nELEMENT = splitPair;`), target: SPLIT, form: 'ELEMENT', category: 'function', source: /^function splitPair\(s\) \{/, ...SPLIT_PROBE },
  { name: 'ELEMENT = a declared name, with helpers: the name is returned', reply: fence("const SEP = '-';\nfunction splitPair(s) { return s.split(SEP); }\nELEMENT = splitPair;"), target: SPLIT, form: 'ELEMENT', source: /^\(\(\) => \{\n {2}const SEP = '-';[\s\S]*return splitPair;\n\}\)\(\)$/, ...SPLIT_PROBE },
  { name: 'a lone ELEMENT assignment stays an expression', reply: fence('ELEMENT = [1, 2];'), target: global('pair'), form: 'ELEMENT', source: '[1, 2]', category: 'array' },
  { name: 'ELEMENT assigned in a branch', reply: fence("let mode = 'a';\nif (mode === 'a') ELEMENT = 1; else ELEMENT = 2;"), target: global('flag'), form: 'ELEMENT', source: /^\(\(\) => \{\n {2}let ELEMENT;\n {2}let mode = 'a';[\s\S]*return ELEMENT;\n\}\)\(\)$/, probe: 'v', equals: 1 },
  // Declarations of the element's own name.
  { name: 'a const arrow function stays an expression', reply: fence("const splitPair = (s) => s.split('-');"), target: SPLIT, form: 'declaration', source: "s => s.split('-')", category: 'function' },
  { name: 'a var of a number', reply: fence('var retries = 3;'), target: global('retries'), form: 'declaration', source: '3', category: 'number' },
  { name: 'an async function', reply: fence("async function fetchUser(id) { return { id, name: 'Ada' }; }"), target: global('fetchUser'), form: 'declaration', source: /^async function fetchUser\(id\)/, category: 'function' },
  { name: 'a class', reply: fence('class Point {\n  constructor(x) { this.x = x; }\n  twice() { return this.x * 2; }\n}'), target: global('Point'), form: 'declaration', category: 'class', probe: 'new v(2).twice()', equals: 4 },
  { name: 'a declaration that refers to itself is wrapped', reply: fence('const counter = { n: 0, next() { return ++counter.n; } };'), target: global('counter'), form: 'declaration', source: /return counter;\n\}\)\(\)$/, probe: '[v.next(), v.next()]', equals: [1, 2] },
  { name: 'a module element under its dashed name', reply: fence('const dateFns = { format: (d) => "2024-01-01" };'), target: module('date-fns'), form: 'declaration', probe: 'v.format(0)', equals: '2024-01-01' },
  { name: 'a member declared under its key', reply: fence('function json(body) { return JSON.stringify(body); }'), target: member('res.json'), form: 'declaration', probe: 'v({ a: 1 })', equals: '{"a":1}' },
  // Member paths, this, holders.
  { name: 'a member path under an undeclared root gets a stand-in', reply: fence('app.routes = [];\napp.get = function (path) { app.routes.push(path); return app.routes.length; };'), target: member('app.get'), form: 'path', source: /const app = \{\};/, probe: "[v('/a'), v('/b')]", equals: [1, 2] },
  { name: 'a member with a key that is no identifier', reply: fence("headers['content-type'] = 'text/html';"), target: member('headers["content-type"]'), form: 'path', source: "'text/html'" },
  { name: 'a module member through the name the module is bound to', reply: fence("fs.readFileSync = () => 'x';"), target: member('require("fs").readFileSync'), form: 'path', probe: 'v()', equals: 'x' },
  { name: 'the receiver, by assigning its members', reply: fence('this.items = [];\nthis.add = function (x) { this.items.push(x); return this.items.length; };'), target: { element: 'this', name: 'this', kind: 'receiver' }, form: 'members', probe: '[v.add(1), v.add(2), v.items]', equals: [1, 2, [1, 2]] },
  { name: 'a member of this', reply: fence("this.title = 'Home';"), target: { element: 'this.title', name: 'title', kind: 'member' }, form: 'path', source: "'Home'" },
  { name: 'an object holding the member', reply: fence('const app = {\n  get(path, handler) { return path; },\n};'), target: member('app.get'), form: 'holder', probe: "v('/h')", equals: '/h' },
  // Modules, CommonJS and ES.
  { name: 'CommonJS exports.x assignments', reply: fence("exports.parse = (s) => s.split(',');\nexports.version = '1.0';"), target: module('csv'), form: 'exports', probe: "[v.parse('a,b'), v.version]", equals: [['a', 'b'], '1.0'] },
  { name: 'export default of a named function', reply: fence("export default function express() { return 'app'; }\nexport const version = 5;"), target: module('express'), form: 'exports', category: 'function', probe: 'v()', equals: 'app' },
  { name: 'named ES exports only become the module object', reply: fence("export function readFileSync() { return 'data'; }\nexport const sep = '/';"), target: module('node:fs'), form: 'named-exports', probe: '[v.readFileSync(), v.sep]', equals: ['data', '/'] },
  { name: 'a module that requires itself is rejected', reply: fence("const fs = require('fs');\nfs.extra = 1;\nmodule.exports = fs;"), target: module('node:fs'), error: /the code requires `fs`, the module it is asked to define; write that module's code yourself/ },
  { name: 'require of the element\'s module name for a global is a ref, not a collision', reply: fence("const fs = require('fs');"), target: global('fs'), form: 'declaration', source: '$0', refs: ['require("fs")'], parts: ['({ sep: "/" })'], probe: 'v.sep', equals: '/' },
  { name: 'imports become refs', reply: fence("import { EventEmitter } from 'events';\nclass Bus extends EventEmitter {}"), target: global('Bus'), form: 'declaration', refs: ['require("events")'], parts: ['({ EventEmitter: class { on() { return "on"; } } })'], probe: 'new v().on()', equals: 'on' },
  { name: 'module.exports of a global\'s declaration is dropped', reply: fence(`${SPLIT_FN}\nmodule.exports = { splitPair };`), target: SPLIT, form: 'declaration', source: /^function splitPair/, ...SPLIT_PROBE },
  // Lone values.
  { name: 'a call\'s result as a lone object literal', reply: fence("{ name: 'Ada', age: 36 }"), target: { element: 'getUser()', name: 'getUser()', kind: 'return' }, form: 'value', probe: 'v.name', equals: 'Ada' },
  { name: 'a lone arrow function', reply: fence("(s) => s.split('-')"), target: SPLIT, form: 'value', ...SPLIT_PROBE },
  { name: 'a JSON block for a response body', reply: fence('{"items": [1, 2]}', 'json'), target: { element: 'response.json()', name: 'response.json()', kind: 'environment' }, form: 'value', probe: 'v.items', equals: [1, 2] },
  // What is kept of a block.
  { name: 'usage in the same block is dropped: console, calls, the snippet copied back', reply: fence(`${SPLIT_FN}\nconsole.log(splitPair('a-b'));\nsplitPair('x-y');\n${USAGE}\nrender(first);`), target: SPLIT, form: 'declaration', source: /^function splitPair\(s\) \{\n {2}return s\.split\('-'\);\n\}$/, ...SPLIT_PROBE },
  { name: 'helpers and setup the element needs are kept', reply: fence("const SEP = '-';\nfunction cut(s) { return s.split(SEP); }\nconst splitPair = (s) => cut(s);\nObject.defineProperty(Array.prototype, 'second', { value() { return this[1]; }, configurable: true });"), target: SPLIT, form: 'declaration', source: /const SEP = '-';[\s\S]*function cut[\s\S]*defineProperty/, probe: "v('a-b').second()", equals: 'b' },
  { name: 'the model\'s own $0 does not hide a ref', reply: fence("const $0 = 'mine';\nconst path = require('path');\nconst join = (a, b) => $0 + path.sep + a + b;"), target: global('join'), form: 'declaration', refs: ['require("path")'], parts: ["({ sep: '/' })"], probe: "v('a', 'b')", equals: 'mine/ab' },
  // Language tags.
  ...['js', 'javascript', 'jsx', 'mjs', 'typescript', ''].map((lang): Shape => ({ name: `the language tag \`${lang || 'none'}\``, reply: `Code:\n${fence(SPLIT_FN, lang)}`, target: SPLIT, form: 'declaration', ...SPLIT_PROBE })),
  { name: 'a shell block is not code to take', reply: `${fence('npm install split-pair', 'sh')}\n${fence(SPLIT_FN)}`, target: SPLIT, form: 'declaration', ...SPLIT_PROBE },
  { name: 'CRLF line endings', reply: `Here:\r\n\`\`\`js\r\n${SPLIT_FN}\r\n\`\`\`\r\n`, target: SPLIT, form: 'declaration', ...SPLIT_PROBE },
  { name: 'a fence indented in a list item', reply: `1. Define it:\n   \`\`\`js\n   ${SPLIT_FN}\n   \`\`\``, target: SPLIT, form: 'declaration', ...SPLIT_PROBE },
  // Rejections: one sentence that says what to do.
  { name: 'prose only', reply: 'Sure, here it is: splitPair splits a string on the dash.', target: SPLIT, error: /^the reply has no fenced code block and its text is not code; reply with one ```js block that defines `splitPair`$/, code: '' },
  { name: 'only a shell block', reply: fence('npm install split-pair', 'sh'), target: SPLIT, error: /no fenced code block/, code: '' },
  { name: 'a block that never defines the element', reply: fence(USAGE), target: SPLIT, error: /^the code never assigns ELEMENT nor defines `splitPair`; declare it \(`function splitPair\(…\) \{…\}` or `const splitPair = …;`\) or end with `ELEMENT = …;`$/, code: USAGE },
  { name: 'a module never defined', reply: fence('const x = 1;'), target: module('express'), error: /nor defines the module `express`; write the module yourself and end with `module\.exports = …;`/ },
  { name: 'a member never defined', reply: fence('const x = 1;'), target: member('app.get'), error: /nor defines `app\.get`; assign it \(`app\.get = …;`\)/ },
  { name: 'the function declared where its result is asked for', reply: fence("function greet(n) { return 'Hi ' + n; }"), target: { element: 'greet()', name: 'greet()', kind: 'return' }, error: /^the code defines the function `greet`, but the element is the value `greet\(\)` returns; end with `ELEMENT = …;` giving that value$/ },
  { name: 'a syntax error shows the block tried', reply: `${fence("function splitPair(s) { return s.split('-');")}\n${fence(USAGE)}`, target: SPLIT, error: /^SyntaxError: Unexpected token \(1:/, code: "function splitPair(s) { return s.split('-');" },
  { name: 'a fence left open in the middle of the code', reply: "```js\nfunction splitPair(s) {\n  return s.split('-", target: SPLIT, error: /^SyntaxError/ },
  { name: 'top-level await', reply: fence("const data = await fetch('x');\nconst splitPair = () => data;"), target: SPLIT, error: /top-level await; it must run synchronously/ },
  { name: 'a lone value that awaits', reply: fence("+await fetch('x')"), target: SPLIT, error: /top-level await/ },
  { name: 'code too long', reply: fence(`const splitPair = ${JSON.stringify('x'.repeat(20_100))};`), target: SPLIT, error: /characters long; keep it under 20000/ },
];

for (const c of selected(SHAPES)) {
  test(`extract shapes: ${c.name}`, () => {
    const r = extractDefinition(c.reply, c.target);
    if (c.code !== undefined) assert.equal(r.code, c.code);
    if (c.error) {
      assert.equal(r.ok, false, JSON.stringify(r));
      if (!r.ok) assert.match(r.error, c.error);
      return;
    }
    assert.ok(r.ok, JSON.stringify(r));
    assert.equal(r.form, c.form, r.source);
    if (typeof c.source === 'string') assert.equal(r.source, c.source);
    else if (c.source) assert.match(r.source, c.source);
    assert.deepEqual(r.refs, c.refs ?? []);
    if (c.category !== undefined) assert.equal(r.category, c.category);
    const value = evaluate(r.source, c.parts ?? [], c.probe ?? 'typeof v');
    if (c.probe !== undefined) assert.deepEqual(value, c.equals);
  });
}

/** Evaluates a source as the isolate does (refs as `$i` parameters) in a fresh context, then the probe on its value; the result comes back as JSON. */
function evaluate(source: string, parts: readonly string[], probe: string): unknown {
  const context = vm.createContext({});
  const params = parts.map((_, i) => `$${i}`).join(', ');
  vm.runInContext(`var v = (function (${params}) { return (${source}\n); })(${parts.join(', ')});`, context, { timeout: 1000 });
  return JSON.parse(String(vm.runInContext(`JSON.stringify(${probe})`, context, { timeout: 1000 })));
}
