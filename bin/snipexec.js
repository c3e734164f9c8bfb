#!/usr/bin/env -S node --no-node-snapshot
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import checkNode from './checkNode.cjs';

// Node strips no types under node_modules: installed, snipexec runs its build (`npm run build`, the .js beside each .ts); in its clone, the sources themselves.
const built = import.meta.url.includes('/node_modules/') || !process.features.typescript;
const main = new URL(built ? '../src/cli/main.js' : '../src/cli/main.ts', import.meta.url);
const problem = checkNode.nodeProblem(process.version, 'run `npx snipexec`');
if (problem !== undefined) {
  process.stderr.write(`${problem}\n`);
  process.exitCode = 2;
} else if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  // The version alone loads no CLI (commander prints the same for `-V` among other flags).
  const { readFileSync } = await import('node:fs');
  process.stdout.write(`${JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version}\n`);
} else if (!existsSync(main)) {
  process.stderr.write(`snipexec: ${fileURLToPath(main)} is missing: this copy of snipexec was not built (run \`npm run build\` in it)\n`);
  process.exitCode = 2;
} else {
  // V8's code cache of every module snipexec loads (and, in the clone, their stripped types), kept
  // between runs: a CLI start compiles nothing it compiled before.
  (await import('node:module')).enableCompileCache?.();
  await import(main.href);
}
