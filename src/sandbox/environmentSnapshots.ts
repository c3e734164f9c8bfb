import { writeFileAtomically } from '../core/writeFileAtomically.ts';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { cacheDir, type GuestBundle } from './bundleGuest.ts';
import { PROBE_SOURCE, probeEnvironments, type ProbeVerdict } from './environmentProbe.ts';
import type { RuntimeConfig } from './runtimeConfig.ts';
import { baseSnapshot, createStartupSnapshot, runtimeSource, type StartupSnapshot } from './runtimeBundle.ts';

/** How many environment sets keep a startup snapshot of their own (the least recently used goes first). */
export const MAX_SNAPSHOT_SETS = 8;

/** What makes a startup snapshot: ivm.Isolate.createSnapshot through createStartupSnapshot; tests give one that fails. */
export type CreateSnapshot = (environments: readonly GuestBundle[]) => StartupSnapshot;

export interface SnapshotOptions {
  /** The run's config: the probe starts the runtime with it, as the run does. */
  readonly config: RuntimeConfig;
  /** Where a set that cannot be snapshotted is noted, at debug level. */
  readonly log: Logger;
  readonly create?: CreateSnapshot;
  /** What decides which modules go in: probeEnvironments; tests count its calls. */
  readonly probe?: typeof probeEnvironments;
}

const sets = new Map<string, Promise<StartupSnapshot>>();

/**
 * The startup snapshot for a run loading these environments (the registry's, in load order): Node's
 * util and the modules of the ones that evaluate the same there as in a run (probeEnvironments),
 * made once per set (and kept on disk between processes: src/sandbox/snapshotDiskCache.ts), and
 * kept in memory for the last MAX_SNAPSHOT_SETS sets. The run then only
 * calls their setup(host). When no module qualifies, or the snapshot cannot be made, it is the base
 * snapshot: the environments load at run time, as without snapshots.
 */
export function environmentSnapshot(environments: readonly GuestBundle[], options: SnapshotOptions): Promise<StartupSnapshot> {
  if (environments.length === 0) return Promise.resolve(baseSnapshot());
  const key = setKey(environments);
  let entry = sets.get(key);
  if (entry) sets.delete(key); // moved to the most recently used end
  entry ??= makeSnapshot(environments, options);
  sets.set(key, entry);
  for (const oldest of sets.keys()) {
    if (sets.size <= MAX_SNAPSHOT_SETS) break;
    sets.delete(oldest);
  }
  return entry;
}

async function makeSnapshot(environments: readonly GuestBundle[], { config, log, create = createStartupSnapshot, probe = probeEnvironments }: SnapshotOptions): Promise<StartupSnapshot> {
  const names = environments.map((e) => e.name);
  let verdicts: ProbeVerdict[];
  try {
    const key = await verdictKey(environments, config);
    const known = readVerdicts(key, environments.length);
    verdicts = known ?? (await probe(environments, config));
    if (!known) writeVerdicts(key, verdicts);
  } catch (error) {
    log.debug({ environments: names, err: error }, 'startup snapshot: the probe failed; these environments load at run time');
    return baseSnapshot();
  }
  for (const v of verdicts) if (!v.snapshot) log.debug({ environment: v.name, reason: v.reason }, 'startup snapshot: this environment loads at run time');
  const chosen = environments.filter((_, i) => verdicts[i]?.snapshot === true);
  if (chosen.length === 0) return baseSnapshot();
  try {
    return create(chosen);
  } catch (error) {
    log.debug({ environments: chosen.map((e) => e.name), err: error }, 'startup snapshot: createSnapshot failed; these environments load at run time');
    return baseSnapshot();
  }
}

/** Each bundle's code hash: bundles are kept (bundleGuest), so a set's key costs no hashing after its first run. */
const codeHashes = new WeakMap<GuestBundle, string>();

function setKey(environments: readonly GuestBundle[]): string {
  return environments
    .map((e) => {
      let hash = codeHashes.get(e);
      if (hash === undefined) {
        hash = createHash('sha256').update(e.code).digest('hex');
        codeHashes.set(e, hash);
      }
      return `${e.name}:${hash}`;
    })
    .join('\n');
}

/** Forgets every set's snapshot in memory (not the verdicts nor the snapshots on disk): for tests. */
export function forgetSnapshots(): void {
  sets.clear();
}

/**
 * The probe's verdicts are kept on disk beside the bundles (the probe is most of a set's first
 * run in a process: it loads the set once as a run does). They depend only on the modules' code,
 * the runtime's and the probe's own: the key hashes them all, so a
 * change to any of them probes again.
 */
async function verdictKey(environments: readonly GuestBundle[], config: RuntimeConfig): Promise<string> {
  const hash = createHash('sha256').update(PROBE_SOURCE).update('\0').update(await runtimeSource());
  for (const e of environments) hash.update('\0').update(e.name).update('\0').update(e.code);
  return hash.digest('hex').slice(0, 32);
}

function verdictFile(key: string): string {
  return join(cacheDir(), `probe-${key}.json`);
}

function readVerdicts(key: string, count: number): ProbeVerdict[] | undefined {
  try {
    const verdicts = JSON.parse(readFileSync(verdictFile(key), 'utf8')) as unknown;
    if (!Array.isArray(verdicts) || verdicts.length !== count) return undefined;
    return verdicts.every((v) => typeof v === 'object' && v !== null && typeof (v as ProbeVerdict).name === 'string' && typeof (v as ProbeVerdict).snapshot === 'boolean') ? (verdicts as ProbeVerdict[]) : undefined;
  } catch {
    return undefined; // none yet, or one a crash left half-written: probe again
  }
}

function writeVerdicts(key: string, verdicts: readonly ProbeVerdict[]): void {
  try {
    writeFileAtomically(verdictFile(key), JSON.stringify(verdicts));
  } catch {
    // a read-only install: the next process probes again, which is only slower
  }
}
