// `snipexec diff` on a change to an error handler: the calls whose failure reaches it throw values
// that are no ordinary Error (a string, undefined, an Error whose stack is read-only), and the
// handler's TypeError on one counts where the base version let the value out or returned.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { catchHandlers } from '../src/diff/catchHandlers.ts';
import { evidenceText } from '../src/diff/formatDiff.ts';
import { reproduction } from '../src/diff/reproduction.ts';
import { renderDefinitions } from '../src/engine/renderDefinitions.ts';
import { runDiff, type DiffReport } from '../src/diff/runDiff.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { gitRepo } from './helpers.ts';

async function change(file: string, before: string, after: string, options: { edgeBudget?: number; reproductions?: boolean } = {}): Promise<{ report: DiffReport; dir: string }> {
  const dir = gitRepo({ [file]: before });
  writeFileSync(join(dir, file), after);
  return { report: await runDiff({ cwd: dir, ...options }), dir };
}

const LOAD_BEFORE = `'use strict';
const client = require('api-client');

function load(id) {
  try {
    return client.fetch('/items/' + id).body;
  } catch (e) {
    const status = e && e.response ? e.response.status : 0;
    return { failed: true, status };
  }
}

function later(id) {
  return client.get('/items/' + id).then((r) => r.data, (err) => {
    return { failed: true, status: err && err.response ? err.response.status : 0 };
  });
}

module.exports = { load, later };
`;
const LOAD_AFTER = LOAD_BEFORE
  .replace('const status = e && e.response ? e.response.status : 0;', 'const status = e.response.status;')
  .replace('status: err && err.response ? err.response.status : 0', 'status: err.response.status');

test('catchHandlers: a catch clause, a .then rejection handler and a .catch callback the change touches, with what reaches them', () => {
  const code = `function f(a, b) {
  try {
    return g(a).h;
  } catch (e) {
    return e.message;
  }
}
function p(x) {
  return q(x)
    .then(ok, (err) => err.code)
    .catch((e) => {
      return 0;
    });
}
`;
  const parsed = parseSnippet(code, 'js');
  const shown = (changed: number[]) => catchHandlers(parsed, new Set(changed)).map((h) => ({ lines: [h.start, h.end], reachFrom: h.reachFrom, via: h.via, callees: h.callees, params: h.params, functionLine: h.functionLine }));
  assert.deepEqual(shown([5, 10]), [
    { lines: [4, 6], reachFrom: [2, 4], via: 'throw', callees: ['g'], params: [0], functionLine: 1 },
    { lines: [10, 10], reachFrom: [9, 9], via: 'rejection', callees: ['q'], params: [0], functionLine: 8 },
  ]);
  assert.deepEqual(shown([3]), [], 'a change in the try block alone leaves its handler as it was');
  assert.deepEqual(shown([12]), [{ lines: [11, 13], reachFrom: [9, 10], via: 'rejection', callees: ['q', 'then'], params: [0], functionLine: 8 }], 'the .catch callback: the whole chain before it reaches it');
});

test('diff: a catch handler that reads e.response.status unguarded fails on a string thrown where the base returned: a thrown-value edge finding, for a try block and a promise chain', async () => {
  const { report } = await change('load.js', LOAD_BEFORE, LOAD_AFTER);
  const found = report.findings.map((f) => [f.line, f.message, f.evidence.edge?.element, f.evidence.base]);
  assert.deepEqual(found.filter((f) => f[1] === "Cannot read properties of undefined (reading 'status')"), [
    // The error exploration made the call fail with, given a string; the chain's callee replaced by one that rejects.
    [8, "Cannot read properties of undefined (reading 'status')", 'require("api-client").fetch()!', 'returned'],
    [15, "Cannot read properties of undefined (reading 'status')", 'require("api-client").get', 'returned'],
  ]);
  const f = report.findings.find((x) => x.line === 15)!;
  assert.equal(f.evidence.edge?.source, "function get() { return Promise.reject('example'); }");
  assert.match(evidenceText(f), /with require\("api-client"\)\.get = function get\(\) \{ return Promise\.reject\('example'\); \}; the base version returned/);
});

test('diff: a package called as a function in a try block: the error exploration made it fail with is given the thrown values', async () => {
  const before = `'use strict';
const request = require('req-lib');
module.exports.load = async function load(id) {
  try {
    return await request('/items/' + id);
  } catch (e) {
    return { failed: true, status: e && e.response ? e.response.status : 0 };
  }
};
`;
  const after = before.replace('e && e.response ? e.response.status : 0', 'e.response.status');
  const { report } = await change('req.js', before, after);
  assert.deepEqual(report.findings.map((f) => [f.line, f.message, f.evidence.edge?.element, f.evidence.edge?.source, f.evidence.base]).filter((f) => f[3] === "'example'"), [
    [7, "Cannot read properties of undefined (reading 'status')", 'require("req-lib")()!', "'example'", 'returned'],
  ]);
});

// The base lets a thrown value out unchanged; the change writes to its stack and fails where it is read-only.
const STACK_BEFORE = `'use strict';
const store = require('store-client');

async function save(item) {
  try {
    return await store.put(item);
  } catch (err) {
    try {
      err.stack += '\\n    at save';
    } catch (e) {
      // a read-only stack
    }
    throw err;
  }
}

module.exports = { save };
`;
const STACK_AFTER = STACK_BEFORE.replace(`    try {
      err.stack += '\\n    at save';
    } catch (e) {
      // a read-only stack
    }
`, `    err.stack += '\\n    at save';
`);

test('diff: a handler that writes a read-only stack, where the base rethrew the error: evidence base rethrew, and the reproduction expects the thrown value on the base', async () => {
  const { report, dir } = await change('save.js', STACK_BEFORE, STACK_AFTER, { reproductions: true });
  const f = report.findings.find((x) => x.message.startsWith("Cannot assign to read only property 'stack'"));
  assert.ok(f, JSON.stringify(report.findings.map((x) => x.message)));
  assert.equal(f.line, 8);
  assert.equal(f.evidence.base, 'rethrew');
  assert.match(evidenceText(f), /the base version let the thrown value out unchanged/);
  const file = join(dir, 'repro.test.cjs');
  writeFileSync(file, f.reproduction!);
  writeFileSync(join(dir, 'base-save.js'), STACK_BEFORE);
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = (extra: NodeJS.ProcessEnv) => spawnSync(process.execPath, ['--test', file], { cwd: dir, encoding: 'utf8', env: { ...env, ...extra } });
  const changed = run({});
  assert.equal(changed.status, 1, changed.stdout);
  assert.match(changed.stdout, /Cannot assign to read only property 'stack'/);
  const base = run({ SNIPEXEC_TARGET: join(dir, 'base-save.js') });
  assert.equal(base.status, 0, base.stdout);
});

test('diff: a change outside any handler spends no edge on thrown values: the dropped guard is found within a budget thrown values would use up', async () => {
  const before = `'use strict';
const client = require('api-client');

function load(id, name) {
  const key = name ? name.trim() : '';
  try {
    return client.fetch(key + id);
  } catch (e) {
    return { failed: true, status: e && e.response ? e.response.status : 0 };
  }
}

module.exports = { load };
`;
  const after = before.replace("const key = name ? name.trim() : '';", 'const key = name.trim();');
  const { report } = await change('load.js', before, after, { edgeBudget: 5 });
  assert.deepEqual(report.findings.map((f) => [f.line, f.message, f.evidence.edge?.source]), [[5, "Cannot read properties of undefined (reading 'trim')", 'undefined'], [5, "Cannot read properties of null (reading 'trim')", 'null']].slice(0, report.findings.length));
  assert.ok(report.findings.length > 0);
});

test('reproduction: a package the repository\'s files import that is not installed (and the run did not learn) loads a stand-in: the reproduction replays without node_modules', () => {
  const dir = gitRepo({
    'format.mjs': "import FormData, { isFormData } from 'form-data-missing';\nexport function kind(x) { return typeof x; }\nexport function form(x) { return isFormData(x) ? new FormData() : x; }\n",
    'main.mjs': "import { kind } from './format.mjs';\nconst none = undefined;\nexport const label = kind(none) + (none ? none.name : '');\n",
    'base-main.mjs': "import { kind } from './format.mjs';\nconst none = undefined;\nexport const label = kind(none) + (none ? none.name : '');\n",
  });
  writeFileSync(join(dir, 'main.mjs'), "import { kind } from './format.mjs';\nconst none = undefined;\nexport const label = kind(none) + none.name;\n");
  const source = reproduction({ file: 'main.mjs', esm: true, type: 'TypeError', message: "Cannot read properties of undefined (reading 'name')", line: 3, fragment: '(top level)', rendered: renderDefinitions(new Map()), targets: [], drive: undefined, callText: undefined });
  assert.ok(source);
  const file = join(dir, 'repro.test.cjs');
  writeFileSync(file, source);
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const run = (extra: NodeJS.ProcessEnv) => spawnSync(process.execPath, ['--test', file], { cwd: dir, encoding: 'utf8', env: { ...env, ...extra } });
  const changed = run({});
  assert.equal(changed.status, 1, changed.stdout);
  assert.match(changed.stdout, /Cannot read properties of undefined \(reading 'name'\)/);
  const base = run({ SNIPEXEC_TARGET: join(dir, 'base-main.mjs') });
  assert.equal(base.status, 0, base.stdout);
});

const PROMISED_BEFORE = `'use strict';
function promised(func) {
  return function (input) {
    var result = func.apply(this, arguments);
    return result.then(function (value) {
      return { ok: true, value: value };
    }).catch(function (err) {
      return { ok: false, message: err && err.message ? err.message : String(err) };
    });
  };
}

module.exports = { promised };
`;
const PROMISED_AFTER = PROMISED_BEFORE.replace('message: err && err.message ? err.message : String(err)', 'message: err.message');

test('catchHandlers: a chain on a local whose value a parameter\'s call gave (`var result = func.apply(this, args); result.then(ok).catch(fn)`): that parameter is called where its rejection reaches the handler', () => {
  const handlers = catchHandlers(parseSnippet(PROMISED_AFTER), new Set([8]));
  assert.deepEqual(handlers.map((h) => ({ via: h.via, callees: h.callees, calledParams: h.calledParams })), [{ via: 'rejection', callees: ['then', 'func'], calledParams: [{ functionLine: 2, index: 0 }] }]);
  const early = "function run(make) {\n  var job = make();\n  try {\n    return job.go();\n  } catch (e) {\n    return e.message;\n  }\n}\n";
  assert.deepEqual(catchHandlers(parseSnippet(early), new Set([6])).map((h) => ({ callees: h.callees, calledParams: h.calledParams })), [{ callees: ['go'], calledParams: [] }], 'a try block\'s local assigned before it: its call\'s throw reaches no catch clause of the block');
});

test('diff: a function a caller passes, whose result a changed promise handler receives, returns Promise.reject(undefined): the handler reading err.message fails where the base returned', async () => {
  const { report } = await change('promised.js', PROMISED_BEFORE, PROMISED_AFTER);
  const found = report.findings.filter((f) => f.line === 8).map((f) => [f.message, f.evidence.edge?.element, f.evidence.edge?.source, f.evidence.base]);
  assert.deepEqual(found[0], ["Cannot read properties of undefined (reading 'message')", 'promised#arg0', 'function () { return Promise.reject(undefined); }', 'returned']);
});
