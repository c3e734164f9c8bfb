// `snipexec diff` drives a method or getter of an object the file names on the object its callers
// make: one inheriting from the owner, with the fields of `this` the callers set learnt
// (src/diff/receiverFields.ts, drive's callersReceiver).
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { runDiff, type DiffReport } from '../src/diff/runDiff.ts';
import { gitRepo, replayed } from './helpers.ts';

/** Whether a reproduction fails on the changed file and passes on the base. */
const replays = (r: { failsOnChanged: boolean; passesOnBase: boolean; output: string }) => r.failsOnChanged && r.passesOnBase || assert.fail(r.output);

/** A repository with `before` committed as `file` and `after` in the working tree: the diff's report. */
async function change(file: string, before: string, after: string): Promise<{ report: DiffReport; dir: string }> {
  const dir = gitRepo({ [file]: before });
  writeFileSync(join(dir, file), after);
  return { report: await runDiff({ cwd: dir, reproductions: true }), dir };
}

const found = (r: DiffReport) => r.findings.map((f) => [f.line, f.type, f.message]);

// An exported prototype-like object, as express's response: its methods read `this.app`, which the
// app (another file) sets on `Object.create(res)`; `this.send` is the object's own.
const RES_BEFORE = `'use strict';
var res = module.exports = {};

res.send = function (body) {
  this.body = body;
  return this;
};

res.json = function (obj) {
  var app = this.app;
  var spaces = app.get('json spaces');
  var body = JSON.stringify(obj, null, spaces);
  if (body === undefined) body = '';
  return this.send(body.trim());
};
`;

test('diff: a method of an exported object reading this.app is driven on a receiver callers make; the dropped guard is found and replays', async () => {
  const after = RES_BEFORE.replace("  if (body === undefined) body = '';\n", '');
  const { report, dir } = await change('res.js', RES_BEFORE, after);
  assert.deepEqual(found(report), [[13, 'TypeError', "Cannot read properties of undefined (reading 'trim')"]]);
  const f = report.findings[0]!;
  assert.equal(f.evidence.base, 'returned');
  assert.ok(f.reproduction, 'it has a reproduction');
  assert.ok(replays(replayed(dir, 'res.js', RES_BEFORE, f.reproduction!)));
});

test('diff: a field of this only the changed version reads (a typo, this.ap) is not learnt: its error is still found', async () => {
  const after = RES_BEFORE.replace('var app = this.app;', 'var app = this.ap;');
  const { report } = await change('res.js', RES_BEFORE, after);
  assert.deepEqual(found(report), [[11, 'TypeError', "Cannot read properties of undefined (reading 'get')"]]);
});

test('diff: an edge value of a learnt field of this that the base version fails on as well is no finding', async () => {
  const before = RES_BEFORE.replace('  var app = this.app;\n', "  var app = this.app;\n  var name = this.req.query.name;\n");
  const after = before.replace('return this.send(body.trim());', 'return this.send(body.trim() + name);');
  const { report } = await change('res.js', before, after);
  assert.deepEqual(found(report), []);
});

// express's request: getters defined with __defineGetter__ read this.app and, through the object's
// own `this.get`, this.headers.
const REQ_BEFORE = `'use strict';
var req = module.exports = {};

req.get = function (name) {
  return this.headers[name.toLowerCase()];
};

req.__defineGetter__('host', function () {
  var trust = this.app.get('trust proxy');
  var host = trust && this.get('X-Forwarded-Host');
  host = host || this.get('Host');
  if (!host) return;
  return host.split(':')[0];
});
`;

test('diff: a getter defined with __defineGetter__ is driven on a receiver callers make; the dropped guard is found and replays', async () => {
  const after = REQ_BEFORE.replace('  if (!host) return;\n', '');
  const { report, dir } = await change('req.js', REQ_BEFORE, after);
  assert.deepEqual(found(report).filter(([line]) => line === 12).slice(0, 1), [[12, 'TypeError', "Cannot read properties of undefined (reading 'split')"]]);
  const f = report.findings.find((x) => x.line === 12)!;
  assert.ok(f.reproduction, 'it has a reproduction');
  assert.ok(replays(replayed(dir, 'req.js', REQ_BEFORE, f.reproduction!)));
});

test('diff: an object extending an outside class (`{ __proto__: Store.prototype }`) is driven on an instance its constructor made with learnt arguments: the inherited methods find their state; found and replays', async () => {
  const store = 'class Store {\n  constructor(options) {\n    this.map = new Map();\n    this.limit = options.limit;\n  }\n  put(key, value) {\n    this.map.set(key, value);\n  }\n}\nmodule.exports = Store;\n';
  const before = `'use strict';
var Store = require('./store');
var res = module.exports = { __proto__: Store.prototype };

res.save = function (obj) {
  var key = this.app.get('key');
  var body = JSON.stringify(obj);
  if (body === undefined) body = '';
  this.put(key, body.trim());
};
`;
  const after = before.replace("  if (body === undefined) body = '';\n", '');
  const dir = gitRepo({ 'res.js': before, 'store.js': store });
  writeFileSync(join(dir, 'res.js'), after);
  const report = await runDiff({ cwd: dir, reproductions: true });
  assert.deepEqual(found(report), [[8, 'TypeError', "Cannot read properties of undefined (reading 'trim')"]]);
  assert.ok(replays(replayed(dir, 'res.js', before, report.findings[0]!.reproduction!)));
});

test('diff: a mixin whose methods call a method of this it lacks (this.listeners) gets no learnt method: a dropped guard there is drive\'s artefact, no finding', async () => {
  const before = `'use strict';
const Target = {
  add(type, handler, options) {
    for (const l of this.listeners(type)) {
      if (l.handler === handler) return;
    }
    const once = options && options.once;
    return { type, handler, once };
  },
};
module.exports = Target;
`;
  const after = before.replace('const once = options && options.once;', 'const once = options.once;');
  const { report } = await change('target.js', before, after);
  assert.deepEqual(found(report), []);
});

test('diff: a getter defined with Object.defineProperty is driven on a receiver callers make; the dropped guard is found and replays', async () => {
  const before = REQ_BEFORE.replace("req.__defineGetter__('host', function () {", "Object.defineProperty(req, 'host', {\n  get() {").replace('  return host.split(\':\')[0];\n});', "  return host.split(':')[0];\n  },\n});");
  const after = before.replace('  if (!host) return;\n', '');
  const { report, dir } = await change('req.js', before, after);
  const f = report.findings.find((x) => x.message === "Cannot read properties of undefined (reading 'split')");
  assert.ok(f, 'found');
  assert.ok(replays(replayed(dir, 'req.js', before, f.reproduction!)));
});
