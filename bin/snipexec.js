#!/usr/bin/env -S node --no-node-snapshot
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(`snipexec needs Node.js 24 or later; this is ${process.version}. Run it through npx or npm scripts, which use the pinned node@24.\n`);
  process.exitCode = 2;
} else await import('../src/cli/main.ts');
