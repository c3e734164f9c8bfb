import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from '../src/cli/program.ts';
import { CONFIG_ROWS, configSchema } from '../src/cli/configKeys.ts';
import { batchOptionsSchema, recordLimitsSchema, runOptionsSchema } from '../src/core/options.ts';
import { generateTestsOptionsSchema } from '../src/testgen/generateTests.ts';
import { generateReference, objectShape } from '../scripts/generateReference.ts';

// The CLI and config references are generated from the code (`npm run docs`): the files must be
// what the generator writes now, and the generator must name every flag and every config key.
// The error codes are declared in several modules, so error-codes.md is written by hand and checked here.
const ROOT = resolve(import.meta.dirname, '..');
const generated = generateReference();

test('docs reference: docs/reference/cli.md, config.md and options.md are what `npm run docs` writes (run it after changing a flag or a config key)', () => {
  assert.deepEqual(Object.keys(generated).sort(), ['docs/reference/cli.md', 'docs/reference/config.md', 'docs/reference/options.md']);
  for (const [path, text] of Object.entries(generated)) {
    const onDisk = readFileSync(resolve(ROOT, path), 'utf8').split('\n');
    const expected = text.split('\n');
    const first = expected.findIndex((line, i) => onDisk[i] !== line);
    if (first !== -1 || onDisk.length !== expected.length) {
      const at = first === -1 ? expected.length : first;
      assert.fail(`${path} is stale (run npm run docs): line ${at + 1} is\n  ${onDisk[at] ?? '(none)'}\nand should be\n  ${expected[at] ?? '(none)'}`);
    }
  }
});

/** Text as a table cell shows it: pipes and angle brackets escaped. */
const asCell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|').replace(/</g, '&lt;');

/** Every command of the program, depth first, walked here apart from the generator's own walk. */
function allCommands(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(allCommands)];
}

test('docs reference: every long flag of every command is in cli.md, in that command\'s section', () => {
  const cli = generated['docs/reference/cli.md']!;
  const sections = new Map(cli.split(/^## /m).slice(1).map((s) => [s.slice(0, s.indexOf('\n')).trim(), s]));
  const program = buildProgram();
  let flags = 0;
  for (const command of allCommands(program)) {
    const name = command === program ? 'snipexec' : `snipexec ${command.name()}`;
    const section = sections.get(name);
    assert.ok(section !== undefined, `cli.md has a section for ${name}`);
    for (const option of command.options) {
      assert.ok(option.long !== undefined, `${name}: ${option.flags} has a long flag`);
      assert.ok(section.includes(`\`${option.flags}\``), `${name}: ${option.long} is documented`);
      if (option.description !== '') assert.ok(section.includes(asCell(option.description.slice(0, 30))), `${name}: ${option.long} has its help text`);
      flags += 1;
    }
  }
  assert.ok(flags > 60, `walked ${flags} flags`);
});

/** Asserts that every field of `schema` has its row in `doc`, with the start of its description. */
function assertEveryKey(doc: string, schema: unknown, what: string): void {
  const keys = Object.entries(objectShape(schema));
  assert.ok(keys.length > 1, `${what}: ${keys.length} keys`);
  for (const [key, field] of keys) {
    assert.match(doc, new RegExp(`^\\| \`${key}\` \\|`, 'm'), `${what}: key ${key}`);
    const description = (field as { description?: string }).description;
    if (description !== undefined) assert.ok(doc.includes(asCell(description.slice(0, 30))), `${what}: ${key} has its description`);
  }
}

test('docs reference: every config key is in config.md, and every library option in options.md, with its description', () => {
  assertEveryKey(generated['docs/reference/config.md']!, configSchema, 'config.md');
  assert.ok(Object.keys(objectShape(configSchema)).length > 30);
  for (const row of CONFIG_ROWS.filter((r) => r.field !== r.key)) {
    assert.match(generated['docs/reference/config.md']!, new RegExp(`^\\| \`${row.key}\` \\| [^|]* \\| \`${row.field}\` \\|`, 'm'), `config.md: ${row.key} names its alias ${row.field}`);
  }
  for (const schema of [runOptionsSchema, batchOptionsSchema, recordLimitsSchema, generateTestsOptionsSchema]) assertEveryKey(generated['docs/reference/options.md']!, schema, 'options.md');
});

/** Every `.ts` file of src/, declarations left out. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

test('docs reference: error-codes.md lists every code a SnipexecError is raised with in src/, with its class, and no other', () => {
  const raised = new Map<string, string>();
  for (const file of sourceFiles(resolve(ROOT, 'src'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/class (\w+) extends SnipexecError \{[\s\S]*?super\(\s*'([A-Z][A-Z_]+)'/g)) raised.set(m[2]!, m[1]!);
    for (const m of text.matchAll(/new SnipexecError\(\s*'([A-Z][A-Z_]+)'/g)) raised.set(m[1]!, 'SnipexecError');
  }
  assert.ok(raised.size >= 15, `${raised.size} codes found in src/`);
  const doc = readFileSync(resolve(ROOT, 'docs/reference/error-codes.md'), 'utf8');
  const rows = new Map([...doc.matchAll(/^\| `([A-Z][A-Z_]+)` \| `(\w+)` \|/gm)].map((m) => [m[1]!, m[2]!]));
  for (const [code, cls] of raised) assert.equal(rows.get(code), cls, `error-codes.md has a row for ${code} (${cls})`);
  for (const code of rows.keys()) assert.ok(raised.has(code), `error-codes.md lists ${code}, which nothing in src/ raises`);
});
