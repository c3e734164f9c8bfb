import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from '../src/cli/program.ts';
import { configSchema } from '../src/cli/loadConfig.ts';
import { generateReference, objectShape } from '../scripts/generateReference.ts';

// The CLI and config references are generated from the code (`npm run docs`): the files must be
// what the generator writes now, and the generator must name every flag and every config key.
const ROOT = resolve(import.meta.dirname, '..');
const generated = generateReference();

test('docs reference: docs/reference/cli.md and config.md are what `npm run docs` writes (run it after changing a flag or a config key)', () => {
  assert.deepEqual(Object.keys(generated).sort(), ['docs/reference/cli.md', 'docs/reference/config.md']);
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
      if (option.description !== '') assert.ok(section.includes(option.description.slice(0, 30).replace(/</g, '&lt;')), `${name}: ${option.long} has its help text`);
      flags += 1;
    }
  }
  assert.ok(flags > 60, `walked ${flags} flags`);
});

test('docs reference: every config key is in config.md, with its description', () => {
  const config = generated['docs/reference/config.md']!;
  const keys = Object.entries(objectShape(configSchema));
  assert.ok(keys.length > 30, `${keys.length} keys`);
  for (const [key, field] of keys) {
    assert.match(config, new RegExp(`^\\| \`${key}\` \\|`, 'm'), `config key ${key}`);
    const description = (field as { description?: string }).description;
    if (description !== undefined) assert.ok(config.includes(description.slice(0, 30)), `${key} has its description`);
  }
});
