#!/usr/bin/env -S node --no-node-snapshot
'use strict';
// CommonJS, so that `--version` and a too-old Node cost no ES module loader: they print from here,
// within a few milliseconds of Node's own start. Everything else imports the CLI (an ES module).
const { existsSync } = require('node:fs');
const { pathToFileURL } = require('node:url');
const { join, sep } = require('node:path');
const checkNode = require('./checkNode.cjs');

// Node strips no types under node_modules: installed, snipexec runs its build (`npm run build`, the .js beside each .ts); in its clone, the sources themselves.
const built = __dirname.includes(`${sep}node_modules${sep}`) || !process.features.typescript;
const main = join(__dirname, '..', 'src', 'cli', built ? 'main.js' : 'main.ts');
const problem = checkNode.nodeProblem(process.version, 'run `npx snipexec`');
if (problem !== undefined) {
  process.stderr.write(`${problem}\n`);
  process.exitCode = 2;
} else if (process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V')) {
  // The version alone loads no CLI (commander prints the same for `-V` among other flags).
  process.stdout.write(`${require('../package.json').version}\n`);
} else if (!existsSync(main)) {
  process.stderr.write(`snipexec: ${main} is missing: this copy of snipexec was not built (run \`npm run build\` in it)\n`);
  process.exitCode = 2;
} else {
  // V8's code cache of every module snipexec loads (and, in the clone, their stripped types), kept
  // between runs: a CLI start compiles nothing it compiled before.
  require('node:module').enableCompileCache?.();
  import(pathToFileURL(main).href).catch((error) => {
    process.stderr.write(`snipexec: could not load the CLI: ${error && error.stack ? error.stack : String(error)}\n`);
    process.exitCode = 3;
  });
}
