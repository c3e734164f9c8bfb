// The production npm dependencies of a checkout, installed as a user's project has them
// (evalDiffHistory.ts --install): npm installs once per repository and dependency set into a cache
// folder, and each checkout gets a copy of its node_modules, hard-linked where the file system allows.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What `--install` did for a case: npm ran (`installed`), the cache had it (`cached`), npm failed (its first error line), or nothing to install. */
export type InstallOutcome =
  | { readonly status: 'installed' | 'cached'; readonly packages: number; readonly key: string }
  | { readonly status: 'failed'; readonly error: string; readonly key: string }
  | { readonly status: 'none'; readonly reason: string };

/** How long one `npm install` may take before it counts as failed. */
export const INSTALL_TIMEOUT_MS = 300_000;

const NPM_ARGS = ['install', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--no-package-lock', '--legacy-peer-deps'];
/** The manifest fields an install of production dependencies reads: the rest (scripts, devDependencies, version) changes nothing it installs. */
const INSTALLED_FIELDS = ['dependencies', 'optionalDependencies', 'bundleDependencies', 'bundledDependencies', 'overrides', 'resolutions'] as const;
const READY = 'installed.json';

// A failed install of one dependency set is not tried again by the same process: the next case of the repository runs without packages at once.
const failures = new Map<string, string>();

/**
 * The manifest npm is given: the checkout's package.json reduced to what decides the production
 * install, under a fixed name (a project named like one of its dependencies must not shadow it).
 * Its hash keys the cache, so commits that change only scripts or the version share one install.
 */
export function installManifest(packageJson: string): { manifest: string; key: string } {
  const json = JSON.parse(packageJson) as Record<string, unknown>;
  const kept: Record<string, unknown> = { name: 'snipexec-eval-deps', version: '0.0.0', private: true };
  for (const field of INSTALLED_FIELDS) if (json[field] !== undefined) kept[field] = json[field];
  const manifest = JSON.stringify(kept, null, 2) + '\n';
  return { manifest, key: createHash('sha256').update(manifest).digest('hex').slice(0, 16) };
}

/**
 * Installs the production dependencies of the package.json at `checkout` (cached under
 * `cacheRoot/<owner>+<name>/<key>/node_modules`) and copies them to `checkout/node_modules`,
 * hidden from git (`.git/info/exclude`). A copy, not a symbolic link: packages resolve from their
 * real path, and from the cache folder the lookup up the tree would reach the node_modules of the
 * tree holding it (snipexec's own: its `url` shim stood in for the built-in a package required). Never throws for npm's sake: a failed or timed-out
 * install is an outcome, and the case runs without packages.
 */
export function installDependencies(checkout: string, repo: string, cacheRoot: string, timeoutMs = INSTALL_TIMEOUT_MS): InstallOutcome {
  const packageJson = join(checkout, 'package.json');
  if (!existsSync(packageJson)) return { status: 'none', reason: 'no package.json at the checkout\'s root' };
  if (existsSync(join(checkout, 'node_modules'))) return { status: 'none', reason: 'the checkout has a node_modules of its own' };
  let manifest: { manifest: string; key: string };
  try {
    manifest = installManifest(readFileSync(packageJson, 'utf8'));
  } catch (error) {
    return { status: 'none', reason: `its package.json does not parse: ${error instanceof Error ? error.message : String(error)}` };
  }
  const { key } = manifest;
  const repoDir = join(cacheRoot, repo.replace('/', '+'));
  const dir = join(repoDir, key);
  const failed = failures.get(dir);
  if (failed !== undefined) return { status: 'failed', error: failed, key };
  let status: 'installed' | 'cached' = 'cached';
  if (!existsSync(join(dir, READY))) {
    const error = install(repoDir, dir, manifest.manifest, timeoutMs);
    if (error !== undefined) {
      failures.set(dir, error);
      return { status: 'failed', error, key };
    }
    status = 'installed';
  }
  const modules = join(dir, 'node_modules');
  try {
    copyTree(modules, join(checkout, 'node_modules'));
    mkdirSync(join(checkout, '.git', 'info'), { recursive: true });
    appendFileSync(join(checkout, '.git', 'info', 'exclude'), '\n/node_modules\n');
    return { status, packages: countPackages(modules), key };
  } catch (error) {
    rmSync(join(checkout, 'node_modules'), { recursive: true, force: true });
    return { status: 'failed', error: `copying the installed packages failed: ${error instanceof Error ? error.message : String(error)}`, key };
  }
}

/** Runs npm in a staging folder renamed to `dir` once it succeeded; the first line of npm's error otherwise. */
function install(repoDir: string, dir: string, manifest: string, timeoutMs: number): string | undefined {
  mkdirSync(repoDir, { recursive: true });
  const staging = mkdtempSync(join(repoDir, '.staging-'));
  try {
    writeFileSync(join(staging, 'package.json'), manifest);
    const npm = spawnSync('npm', NPM_ARGS, {
      cwd: staging, encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024,
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_loglevel: 'error' },
    });
    if (npm.error !== undefined) return (npm.error as NodeJS.ErrnoException).code === 'ETIMEDOUT' ? `npm install timed out after ${timeoutMs / 1000} s` : npm.error.message;
    if (npm.status !== 0) return firstError(npm.stderr) ?? `npm install exited with ${npm.status ?? npm.signal}`;
    mkdirSync(join(staging, 'node_modules'), { recursive: true }); // no dependencies: an empty folder
    writeFileSync(join(staging, READY), JSON.stringify({ installedAt: new Date().toISOString(), args: NPM_ARGS }) + '\n');
    rmSync(dir, { recursive: true, force: true });
    renameSync(staging, dir);
    return undefined;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** `from` copied to `to`: hard links where both lie on one file system (instant, no space), else a plain copy. */
function copyTree(from: string, to: string): void {
  try {
    execFileSync('cp', ['-al', from, to], { stdio: 'ignore' });
  } catch {
    rmSync(to, { recursive: true, force: true });
    cpSync(from, to, { recursive: true, verbatimSymlinks: true });
  }
}

/** npm's first error line, without its `npm error` / `npm ERR!` prefix and code lines. */
function firstError(stderr: string): string | undefined {
  const lines = stderr.split('\n').map((l) => /^npm (?:error|ERR!)\s*(.*)$/.exec(l)?.[1]?.trim()).filter((l): l is string => l !== undefined && l !== '');
  return lines.find((l) => !/^code\s/.test(l) && !/^errno\s/.test(l)) ?? lines[0];
}

/** The packages installed at the top of a node_modules folder (`@scope/name` counts once). */
function countPackages(modules: string): number {
  let n = 0;
  for (const e of readdirSync(modules, { withFileTypes: true })) {
    if (e.name.startsWith('.') || !e.isDirectory()) continue;
    n += e.name.startsWith('@') ? readdirSync(join(modules, e.name)).length : 1;
  }
  return n;
}
