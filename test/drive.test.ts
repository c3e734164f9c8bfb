// Drive (src/instrument/driveTargets.ts, src/guest/runtime/drive.ts, src/emit/drivenCalls.ts):
// after the snippet, every function, method, getter, setter and constructor it defines that
// nothing called is called once, in source order, with learnt arguments; the completed program
// makes the same calls where its top level can reach them.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { runSnippet } from '../src/engine/runSnippet.ts';
import type { RunResult } from '../src/core/runResult.ts';

const DIR = mkdtempSync(join(tmpdir(), 'snipexec-drive-'));
after(() => rmSync(DIR, { recursive: true, force: true }));

/** Runs the completed program under plain node (this one, Node ≥ 24): its stdout. */
function runProgram(r: RunResult, name: string): string {
  const file = join(DIR, `${name}.cjs`);
  writeFileSync(file, r.program ?? '');
  return execFileSync(process.execPath, [file], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

const targets = (r: RunResult) => (r.drives ?? []).map((d) => `${d.target}:${d.outcome}`);

test('drive: top-level functions, bound function expressions and arrows nothing called are called once, after the snippet, with learnt arguments, in the program too; --no-drive runs the code as written', async () => {
  const code = [
    'function greet(user) {',
    "  console.log('Hello ' + user.name.toUpperCase());",
    '}',
    'const twice = (n) => {',
    '  return n * 2;',
    '};',
    'var area = function (w, h) {',
    '  return w * h;',
    '};',
    'function used() {',
    "  console.log('used');",
    '}',
    'used();',
  ].join('\n');
  const on = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(on.lines.uncovered, [], JSON.stringify(on.errors));
  assert.deepEqual(targets(on), ['greet:returned', 'twice:returned', 'area:returned']);
  assert.equal(on.drives?.[2]?.args.length, 2);
  assert.equal(on.stdout, 'used\nHello NAME\n', 'used() runs once; greet is called after the snippet');
  assert.ok(on.injections.some((i) => i.element === 'greet#arg0' && i.kind === 'argument'));
  assert.match(on.program ?? '', /__snipexec_afterTimers\(\(\) => \{ \/\/ ---- called by snipexec: declared, never called ----\nconst __snipexec_made = \{\};\nfunction __snipexec_drive_call\(call\) [^\n]*\n__snipexec_drive_call\(\(\) => greet\(_greet_arg0\)\);\n__snipexec_drive_call\(\(\) => twice\(_twice_arg0\)\);\n__snipexec_drive_call\(\(\) => area\(_area_arg0, _area_arg1\)\);\n\}\);/);
  assert.equal(runProgram(on, 'functions'), on.stdout);
  const off = await runSnippet(code, { mode: 'trace', drive: false });
  assert.deepEqual(off.lines.uncovered, [2, 5, 8]);
  assert.equal(off.drives, undefined);
});

test('drive: in a function body that returns at its top level, the program calls from a finally', async () => {
  const r = await runSnippet('function helper(x) {\n  return x + 1;\n}\nreturn 1;', { mode: 'trace' });
  assert.deepEqual(r.lines.uncovered, []);
  assert.match(r.program ?? '', /finally \{ if \(!__snipexec_threw\) __snipexec_afterTimers\(\(\) => \{ const __snipexec_made = \{\}; function __snipexec_drive_call\(call\) [^\n]* __snipexec_drive_call\(\(\) => helper\(_helper_arg0\)\); \}\); \}/);
  const again = await runSnippet(r.program ?? '', { mode: 'none', drive: false });
  assert.equal(again.fullyExecuted, true, JSON.stringify(again.errors));
});

test('drive: a class is constructed with learnt arguments, then its methods, getters, setters and static methods are called, on one instance', async () => {
  const code = [
    'class Account {',
    '  constructor(owner) {',
    "    console.log('new', owner.name);",
    '    this.owner = owner;',
    '  }',
    '  deposit(amount) {',
    '    return amount.toFixed(2);',
    '  }',
    '  get label() {',
    "    return 'acct:' + this.owner.name;",
    '  }',
    '  set limit(v) {',
    '    this.max = v + 1;',
    '  }',
    '  static create(o) {',
    '    return o;',
    '  }',
    '}',
  ].join('\n');
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(r.lines.uncovered, [], JSON.stringify(r.errors));
  assert.deepEqual(targets(r), ['Account:returned', 'Account.deposit:returned', 'Account.label:returned', 'Account.limit:returned', 'Account.create:returned']);
  assert.equal(r.stdout, 'new name\n', 'the methods are called on the instance the constructor made');
  assert.equal(runProgram(r, 'class'), r.stdout);
});

test('drive: prototype methods are called on an instance of their constructor, which is driven with new', async () => {
  const code = [
    'function Game(name) {',
    '  this.name = name;',
    '}',
    'Game.prototype.restart = function () {',
    "  console.log('restart ' + this.name.toUpperCase());",
    '};',
  ].join('\n');
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(r.lines.uncovered, [], JSON.stringify(r.errors));
  assert.deepEqual(targets(r), ['Game:returned', 'Game.prototype.restart:returned']);
  assert.match(r.stdout, /^restart [A-Z]+\n$/);
  assert.equal(runProgram(r, 'prototype'), r.stdout);
});

test('drive: methods of object literals and exported functions are called on their object', async () => {
  const code = [
    'const TestObj = {',
    '  a: 1,',
    '  b(x) {',
    '    return x * this.a;',
    '  },',
    '  c: function (y) {',
    '    return y.length;',
    '  },',
    '};',
    'module.exports = {',
    '  run(job) {',
    '    return job.id;',
    '  },',
    '};',
    'exports.stop = function (job) {',
    '  return job.id;',
    '};',
  ].join('\n');
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(r.lines.uncovered, [], JSON.stringify(r.errors));
  assert.deepEqual(targets(r), ['TestObj.b:returned', 'TestObj.c:returned', 'module.exports.run:returned', 'exports.stop:returned']);
  runProgram(r, 'objects');
});

test('drive: a nested helper and a function returned and never called run, outermost first; the program registers and calls them too', async () => {
  const code = [
    'function outer(a) {',
    '  function inner(b) {',
    '    return b + 1;',
    '  }',
    '  return a;',
    '}',
    'function makeHandler(prefix) {',
    '  return function (msg) {',
    "    console.log('prefix' + msg.text);",
    '  };',
    '}',
  ].join('\n');
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(r.lines.uncovered, [], JSON.stringify(r.errors));
  assert.deepEqual(targets(r), ['outer:returned', 'outer.inner:returned', 'makeHandler:returned', 'makeHandler.<anonymous>@8:returned']);
  assert.match(r.stdout, /^prefix.+\n$/);
  assert.equal(runProgram(r, 'nested'), r.stdout);
  // Registered where they are made, on the lines they are on.
  assert.match(r.program ?? '', /\nfunction outer\(a\) \{__snipexec_drive\.fr\(1, inner\);\n  function inner\(b\) \{\n/);
  assert.match(r.program ?? '', /\nfunction makeHandler\(prefix\) \{\n  return __snipexec_drive\.fr\(3, function \(msg\) \{\n/);
});

test('drive: the members of a class made in a function are driven, in the program too', async () => {
  const code = [
    'function make() {',
    '  class Box {',
    '    constructor(v) {',
    "      console.log('box');",
    '      this.v = v;',
    '    }',
    '    get size() {',
    '      return String(this.v).length;',
    '    }',
    '  }',
    '  return 1;',
    '}',
  ].join('\n');
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(r.lines.uncovered, [], JSON.stringify(r.errors));
  assert.deepEqual(targets(r), ['make:returned', 'make.Box:returned', 'make.Box.size:returned']);
  assert.equal(r.stdout, 'box\n', 'the getter runs on the instance the constructor made');
  assert.equal(runProgram(r, 'class-in-function'), r.stdout);
});

test('drive: a plain function stays plain: a lost-this bug is still reported, and the next target still runs', async () => {
  const code = [
    "'use strict';",
    'function show() {',
    '  return this.name.toUpperCase();',
    '}',
    'function next(x) {',
    '  return x + 1;',
    '}',
  ].join('\n');
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(targets(r), ['show:threw', 'next:returned']);
  assert.deepEqual(r.lines.uncovered, [3], 'the line that threw did not complete');
  const error = r.errors.find((e) => e.drive === 'show');
  assert.equal(error?.type, 'TypeError');
  assert.match(error?.message ?? '', /Cannot read properties of undefined \(reading 'name'\)/);
  assert.equal(r.status, 'stopped');
});

test('drive: an async function is awaited for its outcome; --call-uncalled is an alias of the default', async () => {
  const code = 'async function executeQuery(db) {\n  const rows = await db.query(1);\n  return rows.length;\n}';
  const r = await runSnippet(code, { mode: 'trace', drive: false, callUncalled: true });
  assert.deepEqual(r.lines.uncovered, [], JSON.stringify(r.errors));
  assert.deepEqual(targets(r), ['executeQuery:returned']);
});

test('drive: a function the snippet called is not driven again', async () => {
  const r = await runSnippet("function used() {\n  console.log('used');\n}\nused();", { mode: 'trace' });
  assert.equal(r.stdout, 'used\n');
  assert.equal(r.drives, undefined);
});

test('drive: in the program, a prototype method whose owner was bound again is called through the registry, and a snippet that binds Promise is no trouble', async () => {
  const code = [
    'let Promise = 1;',
    'var User = function () {};',
    'User.prototype.test = function () {',
    "  console.log('test ran');",
    '};',
    'var User = { other: true };',
  ].join('\n');
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(r.lines.uncovered, [], JSON.stringify(r.errors));
  assert.equal(r.stdout, 'test ran\n');
  assert.match(r.program ?? '', /__snipexec_drive\.call\(/);
  assert.equal(runProgram(r, 'detached'), r.stdout);
});

test('drive: a labelled function declaration (`value: function f() {…}`, sloppy code) is driven, as f is declared around the label', async () => {
  const r = await runSnippet("value: function area(w, h) {\n  console.log('area', w * h);\n}", { mode: 'trace' });
  assert.deepEqual(r.drives?.map((d) => d.target), ['area']);
  assert.deepEqual(r.lines.uncovered, []);
});

test('drive: a constructor function by convention (capitalised, sets members of this) is driven with new, as its callers call it; others are called', async () => {
  const code = [
    "'use strict';",
    'function AppError(message, config) {',
    '  this.message = message;',
    '  console.log("AppError", this instanceof AppError);',
    '}',
    'var Point = function (x) {',
    '  this.x = x;',
    '  console.log("Point", this instanceof Point);',
    '};',
    'function Format(x) {',
    '  console.log("Format", new.target === undefined);',
    '}',
    'function describe(x) {',
    '  console.log("describe", this === undefined);',
    '}',
  ].join('\n');
  const r = await runSnippet(code, { scenarios: 1 });
  assert.deepEqual(targets(r), ['AppError:returned', 'Point:returned', 'Format:returned', 'describe:returned']);
  assert.equal(r.stdout, 'AppError true\nPoint true\nFormat true\ndescribe true\n');
  assert.deepEqual(r.errors, []);
});

test('drive: exit() inside a driven call ends that call only (each driven call is a caller of its own): the next target is driven; the program does the same', async () => {
  const code = [
    'function stop(code) {',
    "  console.log('stopping');",
    '  process.exit(2);',
    '}',
    'function later(n) {',
    "  console.log('later ' + (n * 2));",
    '}',
  ].join('\n');
  const r = await runSnippet(code, { mode: 'trace' });
  assert.deepEqual(targets(r), ['stop:exited', 'later:returned']);
  assert.match(r.stdout, /^stopping\nlater /);
  assert.equal(runProgram(r, 'exit'), r.stdout);
});
