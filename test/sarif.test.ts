import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, test } from 'node:test';
import { lineHashes } from '../src/diff/lineHashes.ts';
import type { DiffReport, Finding } from '../src/diff/runDiff.ts';
import { toSarif } from '../src/diff/toSarif.ts';
import { sarifErrors, sarifSchema } from './sarifSchema.ts';

const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

interface Log {
  $schema: string;
  runs: {
    tool: { driver: { informationUri?: string; rules: { id: string; helpUri?: string }[] } };
    originalUriBaseIds: Record<string, { uri: string }>;
    invocations: { executionSuccessful: boolean; exitCode: number; startTimeUtc: string; endTimeUtc: string; toolExecutionNotifications?: { message: { text: string } }[] }[];
    results: { ruleId: string; ruleIndex: number; partialFingerprints: Record<string, string>; locations: { physicalLocation: { artifactLocation: { uri: string; uriBaseId: string }; region: { startLine: number } } }[] }[];
  }[];
}

const PAD = "function pad(count) {\n  return count.padStart(3, '0');\n}\n";

/** A repository root holding `files`, and a report of one finding in each `[file, line]`. */
function report(files: Record<string, string>, at: [string, number, string?][]): DiffReport {
  const root = mkdtempSync(join(tmpdir(), 'snipexec-sarif-'));
  dirs.push(root);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, '..'), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  const findings = at.map(([file, line, message]): Finding => ({
    file, line, column: 16, type: 'TypeError', message: message ?? 'count.padStart is not a function', function: 'pad', how: 'learnt', confidence: 0.9, context: [], evidence: { call: 'pad(7)', base: 'returned', definitions: [] },
  }));
  return {
    findings, root, startedAt: '2026-01-02T03:04:05.000Z', elapsedMs: 1500,
    fragments: [{ file: 'broken.js', function: '(file)', kind: 'top-level', startLine: 1, endLine: 1, changedLines: [1], status: 'syntax-error', lineCoverage: 0, error: 'Unexpected token (1:4)' }], runs: 0, edges: 0,
  };
}

const log = (r: DiffReport, homepage?: string) => toSarif(r, '1.2.3', homepage) as Log;

test('sarif: the log is valid against the OASIS SARIF 2.1.0 schema, with and without a home page, and the validator rejects a broken log', () => {
  const r = report({ 'src/pad.js': PAD, 'src/a b/é.ts': PAD }, [['src/pad.js', 2], ['src/a b/é.ts', 2]]);
  for (const homepage of [undefined, 'https://example.invalid/snipexec#readme']) assert.deepEqual(sarifErrors(log(r, homepage)), [], `home page ${homepage}`);
  assert.equal(log(r).$schema, sarifSchema.id, 'the log names the schema it is valid against');
  assert.notDeepEqual(sarifErrors({ version: '2.1.0', runs: [{ tool: { driver: {} } }] }), [], 'a driver without a name is invalid');
  const relativeHelp = log(r, 'https://example.invalid/snipexec');
  relativeHelp.runs[0]!.tool.driver.rules[0]!.helpUri = 'README.md#check-a-change-snipexec-diff';
  assert.match(sarifErrors(relativeHelp).join('\n'), /helpUri must match format "uri"/, 'SARIF takes no relative helpUri');
});

test('sarif: ruleIndex, %SRCROOT% locations, the home page and its README section, and the invocation', () => {
  const r = report({ 'src/pad.js': PAD, 'src/a b/é.ts': PAD }, [['src/pad.js', 2], ['src/a b/é.ts', 2]]);
  const run = log(r, 'https://example.invalid/snipexec#readme').runs[0]!;
  for (const result of run.results) assert.equal(run.tool.driver.rules[result.ruleIndex]!.id, result.ruleId);
  assert.deepEqual(run.results.map((x) => x.locations[0]!.physicalLocation.artifactLocation), [
    { uri: 'src/pad.js', uriBaseId: '%SRCROOT%' }, { uri: 'src/a%20b/%C3%A9.ts', uriBaseId: '%SRCROOT%' },
  ]);
  assert.equal(run.originalUriBaseIds['%SRCROOT%']!.uri, `${pathToFileURL(r.root).href}/`);
  assert.equal(run.tool.driver.informationUri, 'https://example.invalid/snipexec#readme');
  assert.equal(run.tool.driver.rules[0]!.helpUri, 'https://example.invalid/snipexec#check-a-change-snipexec-diff');
  const bare = log(r).runs[0]!;
  assert.equal(bare.tool.driver.informationUri, undefined);
  assert.equal(bare.tool.driver.rules[0]!.helpUri, undefined);
  const invocation = run.invocations[0]!;
  assert.deepEqual([invocation.executionSuccessful, invocation.exitCode, invocation.startTimeUtc, invocation.endTimeUtc], [true, 1, '2026-01-02T03:04:05.000Z', '2026-01-02T03:04:06.500Z']);
  assert.deepEqual(invocation.toolExecutionNotifications?.map((n) => n.message.text), ['broken.js: (file) was not checked: syntax-error: Unexpected token (1:4)']);
  assert.equal(log({ ...r, findings: [] }).runs[0]!.invocations[0]!.exitCode, 0);
});

test('sarif: the fingerprints stay when lines are added above the finding, and change with its line or its message', () => {
  const fingerprints = (source: string, line: number, message?: string) =>
    log(report({ 'pad.js': source }, [['pad.js', line, message]])).runs[0]!.results[0]!.partialFingerprints;
  const before = fingerprints(PAD, 2);
  assert.deepEqual(Object.keys(before).sort(), ['primaryLocationLineHash', 'snipexecFindingHash/v1']);
  assert.deepEqual(fingerprints(`// a comment\nimport x from 'x';\n\n${PAD}`, 5), before, 'moved down three lines');
  assert.deepEqual(fingerprints(PAD.replace('  return', '\treturn'), 2), before, 'indentation is not the finding');
  const otherLine = fingerprints(PAD.replace("'0'", "' '"), 2);
  assert.notEqual(otherLine.primaryLocationLineHash, before.primaryLocationLineHash);
  assert.notEqual(otherLine['snipexecFindingHash/v1'], before['snipexecFindingHash/v1']);
  const otherMessage = fingerprints(PAD, 2, 'count.padEnd is not a function');
  assert.equal(otherMessage.primaryLocationLineHash, before.primaryLocationLineHash, 'GitHub hashes the text only');
  assert.notEqual(otherMessage['snipexecFindingHash/v1'], before['snipexecFindingHash/v1']);
});

// Expected values from the test of GitHub's upload action (github/codeql-action, src/fingerprints.test.ts).
test("sarif: primaryLocationLineHash is the value GitHub's upload action computes", () => {
  assert.deepEqual(lineHashes(''), ['c129715d7a2bc9a3:1']);
  assert.deepEqual(lineHashes(' a\nb\n  \t\tc\n d'), ['271789c17abda88f:1', '54703d4cd895b18:1', '180aee12dab6264:1', 'a23a3dc5e078b07b:1']);
  const expected = ['e9496ae3ebfced30:1', 'fb7c023a8b9ccb3f:1', 'ce8ba1a563dcdaca:1', 'e20e36e16fcb0cc8:1', 'b3edc88f2938467e:1', 'c8e28b0b4002a3a0:1', 'c129715d7a2bc9a3:1'];
  for (const text of [' hello; \t\nworld!!!\n\n\n  \t\tGreetings\n End\n', ' hello; \t\r\nworld!!!\r\n\r\n\r\n  \t\tGreetings\r\n End\r\n', ' hello; \t\nworld!!!\r\r\r  \t\tGreetings\r End\r']) {
    assert.deepEqual(lineHashes(text), expected, JSON.stringify(text));
  }
  assert.deepEqual(lineHashes('Lorem ipsum dolor sit amet.\n'.repeat(10)).slice(5, 8), ['a7f2ff13bc495cf2:6', 'a7f2ff1481e87703:1', 'a9cf91f7bbf1862b:1']);
});
