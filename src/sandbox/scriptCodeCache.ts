import ivm from 'isolated-vm';

/** How the compilations through code caches went in this process. */
export interface CodeCacheCounts {
  /** Compiled without a cache, producing one. */
  produced: number;
  /** Compiled from the cache. */
  fromCache: number;
  /** The cache was refused by V8 (compiled again, producing one). */
  rejected: number;
  /** Produced again from the isolate of a finished run. */
  refreshed: number;
  /** Read from disk, kept there by an earlier process (KeptCodeCache); counted in fromCache or rejected too when compiled with. */
  loaded?: number;
}

/** Where a code cache is kept between processes: src/sandbox/snapshotDiskCache.ts (codeCacheKeeper). */
export interface KeptCodeCache {
  /** The cache kept for this code, when there is one whole. */
  read(code: string): ivm.ExternalCopy<ArrayBuffer> | undefined;
  /** Keeps the cache just produced for this code; a cache that cannot be written keeps nothing, silently. */
  write(code: string, cache: ivm.ExternalCopy<ArrayBuffer>): void;
}

/** A compiled script, with what isolated-vm sets on it when asked for V8's code cache (its typings leave these out). */
type CachingScript = ivm.Script & ivm.CachedDataResult & { readonly cachedDataRejected?: boolean };

/**
 * V8's code cache of one script (the runtime, an environment's bundle) for the isolates made from
 * one startup snapshot: a code cache is only accepted by isolates made from the snapshot it was
 * produced under, so each snapshot keeps its own.
 *
 * V8 compiles a function when it is first called, so the cache produced at compilation holds only
 * the script's top level, and every run would compile the functions it calls again. After the
 * 1st, 2nd, 4th, 8th, … run that finished, `refresh` compiles the script once more in that run's
 * isolate: V8's compilation cache hands back the script whose functions the run compiled, and the
 * code cache produced from it holds them too. It holds the script's bytecode only: nothing the
 * snippet did reaches it.
 */
export class ScriptCodeCache {
  private cache: ivm.ExternalCopy<ArrayBuffer> | undefined;
  private finished = 0;
  private readonly filename: string;
  private readonly counts: CodeCacheCounts;
  private readonly kept: KeptCodeCache | undefined;
  /** The code whose kept cache was looked for (once per code: a script of one filename may change between runs). */
  private lookedFor: string | undefined;

  /** `kept`: where the cache is read from before the first compilation and written to when produced (none: this process only). */
  constructor(filename: string, counts: CodeCacheCounts, kept?: KeptCodeCache) {
    this.filename = filename;
    this.counts = counts;
    this.kept = kept;
  }

  /** The cache's size in bytes (0 when none was produced yet). */
  get bytes(): number {
    return this.cache ? (this.cache.copy() as ArrayBuffer).byteLength : 0;
  }

  /** Compiles `code` in `isolate`, from the cache when there is one. Throws what compileScriptSync throws. */
  compile(isolate: ivm.Isolate, code: string): ivm.Script {
    if (!this.cache && this.kept && this.lookedFor !== code) {
      this.lookedFor = code;
      this.cache = this.kept.read(code);
      if (this.cache) this.counts.loaded = (this.counts.loaded ?? 0) + 1;
    }
    if (this.cache) {
      const script = isolate.compileScriptSync(code, { filename: this.filename, cachedData: this.cache }) as CachingScript;
      if (!script.cachedDataRejected) {
        this.counts.fromCache++;
        return script;
      }
      this.counts.rejected++;
      script.release();
    }
    const script = isolate.compileScriptSync(code, { filename: this.filename, produceCachedData: true }) as CachingScript;
    if (script.cachedData) {
      this.cache = script.cachedData;
      this.counts.produced++;
      this.kept?.write(code, script.cachedData);
    }
    return script;
  }

  /**
   * Counts a run that finished in `isolate`, which compiled `code` through this cache, and on
   * the 1st, 2nd, 4th, … such run produces the cache again from it. A failure (the isolate near
   * its memory limit) keeps the cache there is.
   */
  refresh(isolate: ivm.Isolate, code: string): void {
    const runs = ++this.finished;
    if ((runs & (runs - 1)) !== 0 || isolate.isDisposed) return;
    try {
      const script = isolate.compileScriptSync(code, { filename: this.filename, produceCachedData: true }) as CachingScript;
      if (script.cachedData) {
        this.cache = script.cachedData;
        this.counts.refreshed++;
        this.kept?.write(code, script.cachedData);
      }
      script.release();
    } catch {
      // The cache there is stays.
    }
  }
}
