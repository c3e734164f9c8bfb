// `snipexec diff` on a change that reads a member of a required module's value unguarded, where
// the base version tested that value: a package's export may be `false`, `null` or `undefined`
// (supports-color's is `false` without a colour terminal), and those are edge values of it.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { testedModuleValues } from '../src/diff/moduleEdges.ts';
import { nullishBeliefs } from '../src/diff/nullishBeliefs.ts';
import { runDiff } from '../src/diff/runDiff.ts';
import { parseSnippet } from '../src/parse/parseSnippet.ts';
import { gitRepo } from './helpers.ts';

const BEFORE = `'use strict';
const probe = require('terminal-probe');
const settings = require('app-settings').display;

function label() {
  const name = probe ? probe.name : 'plain';
  return name.toUpperCase();
}

function width() {
  return settings && settings.width > 0 ? settings.width : 80;
}

module.exports = { label, width };
`;
const AFTER = BEFORE.replace("  const name = probe ? probe.name : 'plain';\n", '').replace('name.toUpperCase()', 'probe.name.toUpperCase()');

test('testedModuleValues: the module elements the base tests for truthiness or absence, through the names bound to require() and its members', () => {
  const parsed = parseSnippet(BEFORE);
  assert.deepEqual(testedModuleValues(parsed, nullishBeliefs(parsed)).sort(), ['require("app-settings").display', 'require("terminal-probe")']);
  assert.deepEqual(testedModuleValues(parseSnippet("const fs = require('fs');\nmodule.exports = () => fs.readFileSync('x');\n"), new Set(['fs'])), ['require("fs")'], 'a belief on the bound name');
  assert.deepEqual(testedModuleValues(parseSnippet("const fs = require('fs');\nmodule.exports = () => fs.readFileSync('x');\n"), new Set()), [], 'no test, no element');
});

test('diff: a module value the base tested, read unguarded by the change, given false, null and undefined: a TypeError where the base took the other branch', async () => {
  const dir = gitRepo({ 'label.js': BEFORE });
  writeFileSync(join(dir, 'label.js'), AFTER);
  const report = await runDiff({ cwd: dir });
  const found = report.findings.filter((f) => f.evidence.edge?.element === 'require("terminal-probe")').map((f) => [f.line, f.message, f.evidence.edge?.source]);
  assert.deepEqual(found.find((f) => f[2] === 'false'), [6, "Cannot read properties of undefined (reading 'toUpperCase')", 'false'], JSON.stringify(found));
  assert.ok(found.some((f) => f[2] === 'null' && f[1] === "Cannot read properties of null (reading 'name')"), JSON.stringify(found));
});
