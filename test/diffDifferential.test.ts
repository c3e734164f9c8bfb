// `snipexec diff` as differential execution: the changed file and its base version run on the same
// values (docs/guide/diff.md). Each case is a change as a commit makes it.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { EDGE_BUDGET } from '../src/diff/edgeValues.ts';
import { evidenceText } from '../src/diff/formatDiff.ts';
import { runDiff, type DiffReport } from '../src/diff/runDiff.ts';
import { cli, gitRepo, replayed } from './helpers.ts';

/** A repository with `before` committed as `file` and `after` in the working tree: the diff's report. */
async function change(file: string, before: string, after: string, options: { edgeBudget?: number; reproductions?: boolean } = {}): Promise<{ report: DiffReport; dir: string }> {
  const dir = gitRepo({ [file]: before });
  writeFileSync(join(dir, file), after);
  return { report: await runDiff({ cwd: dir, ...options }), dir };
}

const found = (r: DiffReport) => r.findings.map((f) => [f.line, f.type, f.message, f.how]);

// qs-style: the change drops the guard for a missing string and a missing options object.
const PARSE_BEFORE = `'use strict';
var utils = require('./utils');
var defaults = { delimiter: '&' };

function parseValues(str, options) {
  var parts = str.split(options.delimiter);
  return parts.length;
}

module.exports = function parse(str, opts) {
  var options = opts ? utils.assign({}, defaults, opts) : defaults;
  if (str === '' || str === null || typeof str === 'undefined') return {};
  return parseValues(str, options);
};
`;
const PARSE_AFTER = PARSE_BEFORE.replace("  if (str === '' || str === null || typeof str === 'undefined') return {};\n", "  if (str === '') return {};\n");

test('diff: a dropped guard is found with an edge value the base version handled; the finding names the call and the base outcome', async () => {
  const { report } = await change('parse.js', PARSE_BEFORE, PARSE_AFTER);
  assert.deepEqual(found(report), [
    [6, 'TypeError', "Cannot read properties of undefined (reading 'split')", 'edge'],
    [6, 'TypeError', "Cannot read properties of null (reading 'split')", 'edge'],
  ]);
  const f = report.findings.find((x) => x.message.includes('undefined'))!;
  assert.equal(f.function, 'parse', 'reported in the changed function, at the line that throws');
  assert.deepEqual(f.evidence.edge, { element: 'module.exports#arg0', source: 'undefined' });
  assert.match(f.evidence.call ?? '', /^module\.exports\(undefined, /);
  assert.equal(f.evidence.base, 'returned');
  assert.ok(report.edges > 0 && report.edges <= EDGE_BUDGET);
});

test('diff: --edges 0 tries the learnt values only: the dropped guard is not found, and no edge scenario ran', async () => {
  const { report } = await change('parse.js', PARSE_BEFORE, PARSE_AFTER, { edgeBudget: 0 });
  assert.deepEqual(found(report), []);
  assert.equal(report.edges, 0);
});

test('diff: the edge budget is a count: at most N edge scenarios per changed file', async () => {
  const { report } = await change('parse.js', PARSE_BEFORE, PARSE_AFTER, { edgeBudget: 3 });
  assert.equal(report.edges, 3);
});

test('diff: an edge value the base version merely passed along (no branch took it) is no finding', async () => {
  const before = 'function show(user) {\n  return user.profile.name;\n}\nmodule.exports = show;\n';
  const { report } = await change('show.js', before, before.replace('user.profile.name;', 'user.profile.name.toUpperCase();'));
  assert.deepEqual(found(report), []);
  assert.ok(report.edges > 0, 'edge values were tried');
});

// underscore-style: the change drops the guard of a list entry on the branch taken without `values`.
const OBJECT_BEFORE = `exports.object = function (list, values) {
  var result = {};
  for (var i = 0, l = list.length; i < l; i++) {
    if (values) {
      result[list[i]] = values[i];
    } else {
      var pair = list[i];
      if (pair != null) {
        result[pair[0]] = pair[1];
      }
    }
  }
  return result;
};
`;
const OBJECT_AFTER = OBJECT_BEFORE.replace(/      var pair = list\[i\];\n      if \(pair != null\) \{\n        result\[pair\[0\]\] = pair\[1\];\n      \}\n/, '      result[list[i][0]] = list[i][1];\n');

test('diff: two edge values at once: one that opens the changed branch (no `values`), then one on top of it (a null entry)', async () => {
  assert.notEqual(OBJECT_AFTER, OBJECT_BEFORE);
  const { report } = await change('object.js', OBJECT_BEFORE, OBJECT_AFTER);
  const f = report.findings.find((x) => x.line === 7 && x.message === "Cannot read properties of null (reading '0')");
  assert.ok(f, JSON.stringify(found(report)));
  assert.equal(f.how, 'edge');
  assert.deepEqual(f.evidence.with?.map((w) => w.element), ['exports.object#arg1'], 'the edge value that opened the branch is named');
  assert.match(f.evidence.edge?.element ?? '', /^exports\.object#arg0/);
  assert.match(evidenceText(f), /with exports\.object#arg1 = (undefined|null) and exports\.object#arg0/);
});

// qs-style: the base version tests \`options\` for absence in another function; the change reads it unguarded.
const MERGE_BEFORE = `exports.arrayToObject = function (source, options) {
  var obj = options && options.plainObjects ? Object.create(null) : {};
  for (var i = 0; i < source.length; ++i) obj[i] = source[i];
  return obj;
};

exports.merge = function (target, source, options) {
  if (typeof source !== 'object') {
    target[source] = true;
    return target;
  }
  return Object.assign(target, source);
};
`;
const MERGE_AFTER = MERGE_BEFORE.replace('    target[source] = true;\n', '    if (options.plainObjects || source !== "__proto__") {\n      target[source] = true;\n    }\n');

test('diff: an edge `undefined` the base version never branched on counts where the base tests the same parameter for absence elsewhere', async () => {
  assert.notEqual(MERGE_AFTER, MERGE_BEFORE);
  const { report } = await change('utils.js', MERGE_BEFORE, MERGE_AFTER);
  assert.ok(report.findings.some((f) => f.line === 9 && f.message === "Cannot read properties of undefined (reading 'plainObjects')" && f.how === 'edge'), JSON.stringify(found(report)));
  // Without the base's belief (no `options &&` anywhere), the same change is no finding: the base merely ignored options.
  const unguarded = MERGE_BEFORE.replace('options && options.plainObjects', 'false');
  const { report: plain } = await change('utils.js', unguarded, MERGE_AFTER.replace('options && options.plainObjects', 'false'));
  assert.deepEqual(found(plain).filter((f) => f[0] === 9), []);
});

test('diff: an empty list needs no guard in the base version: the changed line that fails on it is a finding', async () => {
  const before = "exports.head = function (list) {\n  var first = list.slice(0, 1)[0];\n  return String(first).toUpperCase();\n};\n";
  const after = "exports.head = function (list) {\n  return list[0].toUpperCase();\n};\n";
  const { report } = await change('head.js', before, after);
  const f = report.findings.find((x) => x.line === 2 && x.message === "Cannot read properties of undefined (reading 'toUpperCase')");
  assert.ok(f, JSON.stringify(found(report)));
  assert.deepEqual(f.evidence.edge, { element: 'exports.head#arg0', source: '[]' });
});

// ws-style: a method the change no longer guards against the state a sibling method leaves.
const RECEIVER_BEFORE = `function Receiver() {
  this.state = { opcode: 1 };
  this.dead = false;
}
Receiver.prototype.cleanup = function () {
  this.dead = true;
  this.state = null;
};
Receiver.prototype.endPacket = function () {
  if (this.dead) return 0;
  return this.state.opcode;
};
module.exports = Receiver;
`;
const RECEIVER_AFTER = RECEIVER_BEFORE.replace('  if (this.dead) return 0;\n', '');

test('diff: a sibling method that writes a field the changed method reads is called first on the same instance', async () => {
  assert.notEqual(RECEIVER_AFTER, RECEIVER_BEFORE);
  const { report, dir } = await change('receiver.js', RECEIVER_BEFORE, RECEIVER_AFTER, { reproductions: true });
  assert.deepEqual(found(report), [[10, 'TypeError', "Cannot read properties of null (reading 'opcode')", 'learnt']]);
  assert.equal(report.findings[0]!.function, 'Receiver.prototype.endPacket');
  // Its reproduction calls cleanup() first on the same instance, as drive did.
  const replay = replayed(dir, 'receiver.js', RECEIVER_BEFORE, report.findings[0]!.reproduction!);
  assert.ok(replay.failsOnChanged && replay.passesOnBase, replay.output);
  assert.match(replay.output, /Cannot read properties of null \(reading 'opcode'\)/);
  // A sibling that writes nothing the changed method reads is not what made the state: without `cleanup`, nothing is found.
  const noCleanup = (text: string) => text.replace(/Receiver\.prototype\.cleanup = function \(\) \{\n  this\.dead = true;\n  this\.state = null;\n\};\n/, 'Receiver.prototype.cleanup = function () {\n  return null;\n};\n');
  const { report: quiet } = await change('receiver.js', noCleanup(RECEIVER_BEFORE), noCleanup(RECEIVER_AFTER));
  assert.deepEqual(found(quiet), []);
});

test('diff: a changed function the module\'s own load calls is still driven, with the arguments past its parameters it reads through `arguments`', async () => {
  const before = [
    'var _ = {};',
    '_.extend = function (obj) {',
    '  if (obj == null) return obj;',
    '  for (var i = 1; i < arguments.length; i++) {',
    '    var source = arguments[i];',
    '    for (var key in source) obj[key] = source[key];',
    '  }',
    '  return obj;',
    '};',
    '_.extend(_, { VERSION: 1 });',
    'module.exports = _;',
    '',
  ].join('\n');
  const after = before.replace('  if (obj == null) return obj;\n', '');
  const { report } = await change('under.js', before, after);
  assert.ok(report.findings.some((f) => f.line === 5 && /^Cannot set properties of null \(setting '.+'\)$/.test(f.message) && f.function === '_.extend'), JSON.stringify(found(report)));
});

test('diff: a function the changed function returns is called as its callers call it: its error with an edge value counts', async () => {
  const before = [
    'exports.wrapHelper = function (helper, transform) {',
    "  if (typeof helper !== 'function') return helper;",
    '  return function wrapper() {',
    '    return helper.apply(this, transform(arguments));',
    '  };',
    '};',
    '',
  ].join('\n');
  const after = before.replace("  if (typeof helper !== 'function') return helper;\n", '');
  const { report } = await change('wrap.js', before, after);
  assert.ok(report.findings.some((f) => f.line === 3 && f.message === "Cannot read properties of undefined (reading 'apply')"), JSON.stringify(found(report)));
});

test('diff: a whole argument left out, which the base version read and coped with, counts without a branch; one the base never read is a new requirement, no finding', async () => {
  const before = [
    'var cache = {};',
    'exports.load = function load(name) {',
    '  if (cache[name] === undefined) cache[name] = { abbr: String(name) };',
    '  return cache[name];',
    '};',
    '',
  ].join('\n');
  // moment-style: a new helper the changed function calls with its argument.
  const after = before.replace('var cache = {};\n', "var cache = {};\nfunction sane(name) {\n  return name.match(/^[a-z]+/) != null;\n}\n").replace('  if (cache[name] === undefined) cache', '  if (cache[name] === undefined && sane(name)) cache');
  const { report } = await change('locales.js', before, after);
  assert.ok(report.findings.some((f) => f.line === 3 && f.message === "Cannot read properties of undefined (reading 'match')" && f.how === 'edge'), JSON.stringify(found(report)));
  // The base version never read `req`: a caller that leaves it out met no code of the base's, so the changed version's use is a new requirement.
  const handler = 'exports.handler = function handler(req, res) {\n  res.send("ok");\n};\n';
  const { report: quiet } = await change('handler.js', handler, handler.replace('  res.send("ok");', '  const id = Number(req.params.id);\n  res.send(String(id));'));
  assert.deepEqual(found(quiet), []);
});

test('diff: the module is real: a same-file helper through exports, a module-level regex and table run as written', async () => {
  const before = [
    "'use strict';",
    'var WORD = /^[a-z]+$/;',
    "var NAMES = { a: 'alpha', b: 'beta' };",
    'exports.isWord = function (s) { return WORD.test(s); };',
    'exports.label = function (key) {',
    '  if (!exports.isWord(key)) return null;',
    '  return NAMES[key].toUpperCase();',
    '};',
    '',
  ].join('\n');
  // Clean: the helper is the file's own, the regex real; a learnt `isWord` or `{}` for WORD would throw.
  const clean = await change('label.js', before, before.replace('return NAMES[key].toUpperCase();', "return (NAMES[key] || '').toUpperCase();"));
  assert.deepEqual(found(clean.report), []);
  // Buggy: the table lookup loses its fallback for a key the real table lacks, which the real regex admits.
  const buggy = await change('label.js', before.replace('return NAMES[key].toUpperCase();', "return (NAMES[key] || key).toUpperCase();"), before);
  assert.deepEqual(found(buggy.report).map(([line, type]) => [line, type]), [[7, 'TypeError']]);
});

test('diff: a change inside a callback drives the named function around it, which reaches the callback', async () => {
  const before = [
    'function total(items) {',
    '  return items.reduce(function (sum, item) {',
    '    return sum + item.price;',
    '  }, 0);',
    '}',
    'module.exports = total;',
    '',
  ].join('\n');
  const { report } = await change('total.js', before, before.replace('return sum + item.price;', 'return sum + item.price.amount.value;'));
  assert.deepEqual(report.fragments.map((f) => [f.function, f.startLine, f.endLine]), [['total', 1, 5]]);
});

test('diff: a removed declaration the change still uses is a ReferenceError at the use, with V8\'s message', async () => {
  const before = "var moment = require('moment');\nfunction stamp(d) {\n  return moment(d).format('YYYY');\n}\nmodule.exports = stamp;\n";
  const { report } = await change('stamp.js', before, before.replace("var moment = require('moment');\n", ''));
  assert.deepEqual(found(report), [[2, 'ReferenceError', 'moment is not defined', 'removed']]);
  // A free name both versions leave undefined stays injected: no finding.
  const both = "function f(x) {\n  return lib.parse(x);\n}\nmodule.exports = f;\n";
  assert.deepEqual(found((await change('f.js', both, both.replace('lib.parse(x)', 'lib.parse(x, 1)'))).report), []);
});

test('diff: --repro writes a node:test file that fails with the finding\'s error under plain node against the changed file and passes against the base', async () => {
  const dir = gitRepo({ 'parse.js': PARSE_BEFORE });
  writeFileSync(join(dir, 'parse.js'), PARSE_AFTER);
  const r = cli(['diff', '--json', '--repro', 'repro'], undefined, 120_000, process.env, dir);
  assert.equal(r.code, 1, r.stdout + r.stderr);
  const finding = (JSON.parse(r.stdout) as DiffReport).findings.find((f) => f.message.includes('undefined'));
  assert.ok(finding?.reproduction, 'the finding names its reproduction');
  // Outside this test runner: a child that inherits NODE_TEST_CONTEXT reports to it instead of failing.
  const { NODE_TEST_CONTEXT: _, ...outside } = process.env;
  const run = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, ['--test', finding.reproduction!], { cwd: dir, encoding: 'utf8', env: { ...outside, ...env } });
  const changed = run({});
  assert.equal(changed.status, 1);
  assert.match(changed.stdout, /TypeError: Cannot read properties of undefined \(reading 'split'\)/);
  writeFileSync(join(dir, 'base.js'), PARSE_BEFORE);
  const base = run({ SNIPEXEC_TARGET: 'base.js' });
  assert.equal(base.status, 0, base.stdout);
  assert.match(readFileSync(join(dir, finding.reproduction!), 'utf8'), /^\/\/ snipexec diff: reproduces TypeError/);
});

test('diff: a nested function drive calls on its own, out of the context its parent gives it, is no evidence: its error on learnt values is not a finding', async () => {
  const before = [
    'function compile(template) {',
    '  function render(context) {',
    '    return template.name;',
    '  }',
    '  render.partials = {};',
    '  return render;',
    '}',
    'module.exports = compile;',
    '',
  ].join('\n');
  // `this` is the template's only when compile's callers call render as a method; drive calls it plainly.
  const { report } = await change('compile.js', before, before.replace('    return template.name;', '    return template.name + this.partials.length;'));
  assert.deepEqual(found(report), []);
  assert.ok(report.runs > 0);
});

test('diff: a misspelt name in a module is an undeclared ReferenceError, and its reproduction leaves the name undeclared: it fails on the changed file and passes on the base', async () => {
  const before = "'use strict';\nconst PARTS = ['a', 'b'];\nconst JOINED = PARTS.join('-');\nmodule.exports = { JOINED };\n";
  const { report, dir } = await change('tokens.js', before, before.replace("PARTS.join('-')", "PART.join('-')"), { reproductions: true });
  assert.deepEqual(found(report), [[3, 'ReferenceError', 'PART is not defined', 'undeclared']]);
  const file = join(dir, 'repro.test.cjs');
  writeFileSync(file, report.findings[0]!.reproduction!);
  writeFileSync(join(dir, 'base.js'), before);
  const { NODE_TEST_CONTEXT: _, ...outside } = process.env;
  const run = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, ['--test', file], { cwd: dir, encoding: 'utf8', env: { ...outside, ...env } });
  const changed = run({});
  assert.equal(changed.status, 1);
  assert.match(changed.stdout, /ReferenceError: PART is not defined/);
  assert.equal(run({ SNIPEXEC_TARGET: 'base.js' }).status, 0);
});

test('diff: a global the base tested for presence, used by the change with no test, is an unguarded ReferenceError; its reproduction deletes the global, fails on the changed file and passes on the base', async () => {
  // chalk's browser supports-color dropped `'navigator' in globalThis`: Node < 21 and some workers have no navigator.
  const before = [
    'const level = (() => {',
    "  if (!('navigator' in globalThis)) {",
    '    return 0;',
    '  }',
    '  return /Chrome/.test(navigator.userAgent) ? 1 : 0;',
    '})();',
    'module.exports = { level };',
    '',
  ].join('\n');
  const after = before.replace("  if (!('navigator' in globalThis)) {\n    return 0;\n  }\n", '');
  const { report, dir } = await change('colors.js', before, after, { reproductions: true });
  assert.deepEqual(found(report), [[2, 'ReferenceError', 'navigator is not defined', 'unguarded']]);
  const replay = replayed(dir, 'colors.js', before, report.findings[0]!.reproduction!);
  assert.ok(replay.failsOnChanged, replay.output);
  assert.match(replay.output, /ReferenceError: navigator is not defined/);
  assert.ok(replay.passesOnBase);
  // The change keeps a test of it (here `typeof`): no finding.
  const guarded = after.replace('  return /Chrome/', "  if (typeof navigator === 'undefined') return 0;\n  return /Chrome/");
  assert.deepEqual(found((await change('colors.js', before, guarded)).report), []);
});

test('diff: a function inside an IIFE is replayed through the exports: its reproduction fails on the changed file and passes on the base', async () => {
  const before = [
    '(function () {',
    '  var _ = {};',
    '  _.first = function (list) {',
    '    if (list == null) return undefined;',
    '    return list[0];',
    '  };',
    "  if (typeof module !== 'undefined') module.exports = _;",
    '}.call(this));',
    '',
  ].join('\n');
  const after = before.replace('    if (list == null) return undefined;\n', '');
  const { report, dir } = await change('under.js', before, after, { reproductions: true });
  const finding = report.findings.find((f) => f.line === 4 && f.message === "Cannot read properties of null (reading '0')");
  assert.ok(finding?.reproduction, JSON.stringify(report.findings.map((f) => [f.line, f.message, f.reproduction !== undefined])));
  assert.match(finding.reproduction, /is not reachable from the exports/);
  const file = join(dir, 'repro.test.cjs');
  writeFileSync(file, finding.reproduction);
  writeFileSync(join(dir, 'base.js'), before);
  const { NODE_TEST_CONTEXT: _, ...outside } = process.env;
  const run = (env: NodeJS.ProcessEnv) => spawnSync(process.execPath, ['--test', file], { cwd: dir, encoding: 'utf8', env: { ...outside, ...env } });
  const changed = run({});
  assert.equal(changed.status, 1, changed.stdout);
  assert.match(changed.stdout, /TypeError: Cannot read properties of null \(reading '0'\)/);
  assert.equal(run({ SNIPEXEC_TARGET: 'base.js' }).status, 0);
});

test('diff: a reproduction gives the repository\'s other files the learnt packages too, as the run did (none is installed)', async () => {
  const dir = gitRepo({ 'utils.js': "var pad = require('left-pad-not-installed');\nexports.label = function (s) { return pad(String(s), 4); };\n", 'main.js': "var utils = require('./utils');\nexports.show = function (opts) {\n  if (!opts) return '';\n  return utils.label(opts.name).trim();\n};\n" });
  const before = "var utils = require('./utils');\nexports.show = function (opts) {\n  if (!opts) return '';\n  return utils.label(opts.name).trim();\n};\n";
  writeFileSync(join(dir, 'main.js'), before.replace("  if (!opts) return '';\n", ''));
  const report = await runDiff({ cwd: dir, reproductions: true });
  const f = report.findings.find((x) => x.message === "Cannot read properties of undefined (reading 'name')");
  assert.ok(f?.reproduction, JSON.stringify(found(report)));
  const replay = replayed(dir, 'main.js', before, f.reproduction);
  assert.ok(replay.failsOnChanged && replay.passesOnBase, replay.output);
  assert.doesNotMatch(replay.output, /Cannot find module/);
});

test('diff: runDiff validates its options: an edge budget or seed that is not a whole number in range is InvalidOptions', async () => {
  const dir = gitRepo({ 'a.js': 'module.exports = 1;\n' });
  await assert.rejects(runDiff({ cwd: dir, edgeBudget: -1 }), (e: Error & { code?: string }) => e.code === 'INVALID_OPTIONS' && /edgeBudget/.test(e.message));
  await assert.rejects(runDiff({ cwd: dir, edgeBudget: 1.5 }), (e: Error & { code?: string }) => e.code === 'INVALID_OPTIONS');
  await assert.rejects(runDiff({ cwd: dir, seed: -3 }), (e: Error & { code?: string }) => e.code === 'INVALID_OPTIONS' && /seed/.test(e.message));
});

// ws-style: a mixin's method (an object literal's, copied onto a class's prototype elsewhere) calls
// a method of `this` the mixin itself lacks; drive calls it on the mixin.
test('diff: a mixin method that calls a method of this its object lacks is no evidence when drive calls it on the object', async () => {
  const before = "'use strict';\nconst kept = [];\nconst EventTarget = {\n  addEventListener(type, handler) {\n    kept.push([type, handler]);\n  }\n};\nmodule.exports = { EventTarget };\n";
  const after = before.replace('    kept.push([type, handler]);\n', '    for (const l of this.listeners(type)) if (l === handler) return;\n    kept.push([type, handler]);\n');
  const { report } = await change('event-target.js', before, after);
  assert.deepEqual(found(report), []);
  assert.ok(report.fragments.some((f) => f.function === 'addEventListener'), 'the changed method was driven');
});

// async-style: the change leaves a name undeclared; a run goes on past it only because a value was
// injected for it, so what fails after it (an edge value meeting the injected keys) is no finding.
test('diff: after a name the change leaves undeclared, the run is not the changed code\'s: only the ReferenceError is found', async () => {
  const before = [
    "'use strict';",
    'function keyIterator(o) { var ks = o ? Object.keys(o) : []; var i = 0; return function () { return i < ks.length ? ks[i++] : null; }; }',
    'exports.eachOf = function eachOf(object, iterator) {',
    '  var nextKey = keyIterator(object);',
    '  var key;',
    '  while ((key = nextKey()) != null) {',
    '    iterator(object[key], key);',
    '  }',
    '};',
    '',
  ].join('\n');
  const { report } = await change('each.js', before, before.replace('keyIterator(object);', 'keyIterator(obj);'));
  assert.deepEqual(found(report), [[4, 'ReferenceError', 'obj is not defined', 'undeclared']]);
});
