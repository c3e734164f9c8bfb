import path from 'path-browserify';
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { Buffer } from '../node/shims/globalBuffer.ts';
import { asCallerError, isNodeError } from '../shared/callerErrors.ts';
import { argAs } from '../shared/probeArgs.ts';
import { contentOf, extensionOf, fallbackContent, listingOf, type FileContent } from './missingFiles.ts';

/** What an fs call does with each path argument it takes. */
type Access =
  | 'read' //     reads a file: a missing one is created with learnt content
  | 'stat' //     looks a path up: a missing one with an extension is created as a read would
  | 'dir' //      lists a directory: a missing one is created with the learnt listing
  | 'write' //    replaces or removes a file: its learnt content is forgotten
  | 'append' //   appends to a file: a missing one is created with only what is appended, as Node does
  | 'none';

/**
 * The calls that touch a path, with what they do to each path argument; `probe` when a probe may
 * stand for the result; `data` when the argument after the paths is a file's content (a string or bytes).
 */
const CALLS: Readonly<Record<string, { readonly access: readonly Access[]; readonly probe?: boolean; readonly data?: boolean }>> = {
  readFile: { access: ['read'], probe: true },
  readdir: { access: ['dir'], probe: true },
  open: { access: ['read'] },
  createReadStream: { access: ['read'] },
  exists: { access: ['stat'] },
  stat: { access: ['stat'] },
  lstat: { access: ['stat'] },
  access: { access: ['stat'] },
  realpath: { access: ['stat'] },
  opendir: { access: ['dir'] },
  copyFile: { access: ['read', 'write'] },
  rename: { access: ['write', 'write'] },
  writeFile: { access: ['write'], data: true },
  appendFile: { access: ['append'], data: true },
  truncate: { access: ['write'] },
  unlink: { access: ['write'] },
  rm: { access: ['write'] },
  rmdir: { access: ['write'] },
  createWriteStream: { access: ['write'] },
  mkdir: { access: ['none'] },
  mkdtemp: { access: ['none'] },
  readlink: { access: ['none'] },
  chmod: { access: ['none'] },
  chown: { access: ['none'] },
  utimes: { access: ['none'] },
  symlink: { access: ['none', 'write'] },
  link: { access: ['read', 'write'] },
  cp: { access: ['read', 'write'] },
  watch: { access: ['none'] },
};

type Fn = (...args: unknown[]) => unknown;
type Volume = Record<string, Fn>;

/**
 * The memfs volume as the snippet's file system: a path it reads that nobody wrote is created
 * first, with the content the value generator gives (see missingFiles.ts). In trace mode's
 * learning run `readFile*` and `readdir*` hand the snippet the recording proxy itself, so its use
 * (`JSON.parse`, `.split('\n')`) is learnt; the file then holds fallback content for other calls.
 */
export class LearntFileSystem {
  readonly #host: EnvironmentHost;
  readonly #vol: Volume;
  /** Files that hold a stand-in while a probe stands for their content. */
  readonly #probes = new Map<string, unknown>();
  /** Files a learnt listing named: they exist, and get their content on the first read. */
  readonly #placeholders = new Set<string>();
  readonly #probeListings = new Map<string, unknown>();
  /** Paths the snippet wrote, removed or renamed: what is (not) there is its doing, never learnt. */
  readonly #touched = new Set<string>();
  /** Called with each probe handed out for a file's content (see shared/learnJsonParse.ts). */
  readonly #onContentProbe: (probe: unknown) => void;

  constructor(host: EnvironmentHost, vol: Volume, onContentProbe: (probe: unknown) => void = () => undefined) {
    this.#host = host;
    this.#vol = vol;
    this.#onContentProbe = onContentProbe;
  }

  /** A path argument as an absolute path, or undefined for a descriptor or a FileHandle. */
  absolute(arg: unknown): string | undefined {
    let p: string | undefined;
    if (typeof arg === 'string') p = arg;
    else if (arg instanceof Uint8Array) p = Buffer.from(arg).toString('utf8');
    else if (arg && typeof arg === 'object' && (arg as { protocol?: unknown }).protocol === 'file:') p = decodeURIComponent(String((arg as { pathname?: unknown }).pathname));
    return p === undefined ? undefined : path.resolve(p);
  }

  #write(file: string, content: string | Uint8Array): void {
    this.#vol.mkdirSync(path.dirname(file), { recursive: true });
    this.#vol.writeFileSync(file, content);
  }

  #fill(file: string): void {
    const content: FileContent | undefined = contentOf(this.#host, file);
    if (content === undefined) return; // it stays missing: reading it fails with ENOENT, as Node's would
    if (typeof content === 'object' && !(content instanceof Uint8Array)) {
      this.#probes.set(file, content.probe);
      this.#write(file, fallbackContent(file));
    } else this.#write(file, content);
  }

  #exists(file: string): boolean {
    return this.#vol.existsSync(file) as boolean;
  }

  /** Whether the snippet touched the path or a directory above it (a missing file there stays missing). */
  #touchedBySnippet(file: string): boolean {
    for (let p = file; ; p = path.dirname(p)) {
      if (this.#touched.has(p)) return true;
      if (p === '/') return false;
    }
  }

  /** A missing path the value generator may fill: nobody removed it, nobody wrote it. */
  #learnable(file: string): boolean {
    return !this.#exists(file) && !this.#touchedBySnippet(file);
  }

  /** Readies one path argument for a call; returns the probe that stands for the call's result, if any. */
  prepare(access: Access, arg: unknown): { probe: unknown } | undefined {
    const file = this.absolute(arg);
    if (file === undefined) return undefined;
    switch (access) {
      case 'read':
        if (this.#placeholders.delete(file)) this.#fill(file);
        else if (this.#learnable(file)) this.#fill(file);
        if (!this.#probes.has(file)) return undefined;
        this.#onContentProbe(this.#probes.get(file));
        return { probe: this.#probes.get(file) };
      case 'stat':
        if (this.#placeholders.delete(file)) this.#fill(file);
        else if (this.#learnable(file) && extensionOf(file) !== '') this.#fill(file);
        return undefined;
      case 'dir':
        if (this.#probeListings.has(file)) return { probe: this.#probeListings.get(file) };
        if (!this.#learnable(file)) return undefined;
        return this.#list(file);
      case 'append':
        if (this.#placeholders.delete(file)) this.#fill(file);
        this.#probes.delete(file);
        this.#touched.add(file);
        return undefined;
      case 'write':
        this.#probes.delete(file);
        this.#placeholders.delete(file);
        this.#touched.add(file);
        return undefined;
      case 'none':
        return undefined;
    }
  }

  #list(dir: string): { probe: unknown } | undefined {
    const listing = listingOf(this.#host, dir);
    this.#vol.mkdirSync(dir, { recursive: true });
    if (!Array.isArray(listing)) {
      this.#probeListings.set(dir, listing.probe);
      return { probe: listing.probe };
    }
    for (const name of listing) {
      const file = path.join(dir, name);
      this.#vol.writeFileSync(file, '');
      this.#placeholders.add(file);
    }
    return undefined;
  }

  /** Wraps fs's sync, callback and stream calls (`readFileSync`, `readFile`, `createReadStream`, …). */
  wrapFs(fs: Record<string, unknown>): void {
    for (const [name, call] of Object.entries(CALLS)) {
      for (const [key, style] of [[`${name}Sync`, 'sync'], [name, name.startsWith('create') ? 'sync' : 'callback']] as const) {
        const raw = fs[key];
        if (typeof raw !== 'function') continue;
        fs[key] = this.#wrap(raw as Fn, name, call.access, call.probe === true, style, call.data === true);
      }
    }
  }

  /** Wraps `fs.promises` (and `fs/promises`), whose calls go to the volume directly. */
  wrapPromises(promises: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = { ...promises };
    for (const [name, call] of Object.entries(CALLS)) {
      const raw = promises[name];
      if (typeof raw === 'function') out[name] = this.#wrap(raw as Fn, name, call.access, call.probe === true, 'promise', call.data === true);
    }
    return out;
  }

  #wrap(raw: Fn, name: string, access: readonly Access[], probes: boolean, style: 'sync' | 'callback' | 'promise', data = false): Fn {
    const self = this;
    const isProbe = (v: unknown) => self.#host.isProbe(v);
    const wrapped = function (this: unknown, ...given: unknown[]) {
      // a probe where a path (or the content written) goes is used as the string it is, and learnt as one
      const args = given.map((a, i) => (i < access.length || (data && i === access.length) ? argAs(isProbe, 'string', a) : a));
      if (style === 'callback') argAs(isProbe, 'function', args[args.length - 1]);
      let stand: { probe: unknown } | undefined;
      (name === 'open' ? [openAccess(args[1])] : access).forEach((a, i) => {
        const r = self.prepare(a, args[i]);
        if (i === 0) stand = r;
      });
      if (probes && stand) {
        const value = stand.probe;
        if (style === 'sync') return value;
        if (style === 'promise') return Promise.resolve(value);
        const cb = args[args.length - 1];
        if (typeof cb === 'function') queueMicrotask(() => (cb as Fn)(null, value));
        return undefined;
      }
      try {
        return raw.apply(this, args);
      } catch (e) {
        // Node's own error for a wrong call (`writeFile` without a callback, a path that is not a string) is the caller's
        throw isNodeError(e) ? asCallerError(e, wrapped) : e;
      }
    };
    return wrapped;
  }
}

/** What `open(path, flags)` does to the path: 'r' and 'r+' read it, 'w' writes it, 'a' appends to it. */
function openAccess(flags: unknown): Access {
  const text = typeof flags === 'string' ? flags : 'r';
  return text.startsWith('a') ? 'append' : text.startsWith('w') ? 'write' : 'read';
}
