// Builds the function-body dataset (LExecutor's protocol) from five npm packages pinned by version:
// 200 bodies from each, sampled with a fixed seed. Their code is fetched with `npm pack` at build
// time and never committed.
// Usage: npm run datasets [-- --from DIR] [--out FILE] [--per-package N] [--seed N]
//   --from DIR   read NAME-VERSION.tgz tarballs from DIR instead of fetching them (offline builds)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { emptyStats, functionBodies, seededSample, type FunctionBody } from './functionBodies.ts';

/** The packages, their pinned versions, and which of their files count as the package's code. */
export const PACKAGES = [
  { name: 'express', version: '5.3.0', include: /^lib\/.*\.js$/ },
  { name: 'lodash', version: '4.18.1', include: /^[a-zA-Z_][\w]*\.js$/, exclude: /^(lodash|core|fp|index)(\.min)?\.js$/ },
  { name: 'axios', version: '1.21.1', include: /^lib\/.*\.js$/ },
  { name: 'moment', version: '2.31.0', include: /^src\/lib\/.*\.js$/ },
  { name: 'eslint', version: '10.15.0', include: /^lib\/rules\/.*\.js$/, exclude: /^lib\/rules\/(index|utils\/)/ },
] as const;

const here = new URL('.', import.meta.url).pathname;
const { values } = parseArgs({
  options: {
    from: { type: 'string' },
    out: { type: 'string', default: join(here, 'generated', 'functions.jsonl') },
    'per-package': { type: 'string', default: '200' },
    seed: { type: 'string', default: '20250' },
  },
});
const perPackage = Number(values['per-package']);
const seed = Number(values.seed);
const work = mkdtempSync(join(tmpdir(), 'snipexec-functions-'));
try {
  const rows: FunctionBody[] = [];
  const report: Record<string, unknown> = {};
  for (const pkg of PACKAGES) {
    const tarball = values.from ? join(values.from, `${pkg.name}-${pkg.version}.tgz`) : fetchTarball(pkg.name, pkg.version, work);
    if (!existsSync(tarball)) throw new Error(`${tarball} does not exist`);
    const dir = join(work, pkg.name);
    mkdirSync(dir);
    execFileSync('tar', ['xzf', tarball, '-C', dir]);
    const root = join(dir, 'package');
    const stats = emptyStats();
    const candidates: FunctionBody[] = [];
    for (const file of listFiles(root)) {
      const rel = relative(root, file);
      if (!pkg.include.test(rel) || ('exclude' in pkg && pkg.exclude.test(rel))) continue;
      candidates.push(...functionBodies(readFileSync(file, 'utf8'), `${pkg.name}@${pkg.version}`, rel, stats));
    }
    candidates.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const sample = seededSample(candidates, perPackage, seed);
    rows.push(...sample);
    report[pkg.name] = { version: pkg.version, ...stats, candidates: candidates.length, sampled: sample.length };
  }
  mkdirSync(join(values.out, '..'), { recursive: true });
  writeFileSync(values.out, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  writeFileSync(values.out.replace(/\.jsonl$/, '.meta.json'), JSON.stringify({ seed, perPackage, minBodyLines: 3, packages: report }, null, 2) + '\n');
  console.log(JSON.stringify({ out: values.out, snippets: rows.length, packages: report }, null, 2));
} finally {
  rmSync(work, { recursive: true, force: true });
}

function fetchTarball(name: string, version: string, dir: string): string {
  execFileSync('npm', ['pack', `${name}@${version}`, '--silent', '--pack-destination', dir], { stdio: ['ignore', 'ignore', 'inherit'] });
  return join(dir, `${name}-${version}.tgz`);
}

function listFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = join(dir, entry);
    if (entry === 'node_modules') continue;
    if (statSync(full).isDirectory()) out.push(...listFiles(full));
    else if (entry.endsWith('.js')) out.push(full);
  }
  return out.sort();
}
