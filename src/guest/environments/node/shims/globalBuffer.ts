// `buffer` for the environments built on `node` (node-fs, node-crypto): the Buffer the node environment made
// global, so `Buffer.isBuffer(fs.readFileSync(p))` holds. Taken by their setup (takeGlobalBuffer), after the
// node environment's setup and before the snippet runs (which may replace the global), not when their
// bundle is evaluated: that may be in the startup snapshot, before any setup ran.

const STATIC_METHODS = ['from', 'of', 'alloc', 'allocUnsafe', 'allocUnsafeSlow', 'isBuffer', 'isEncoding', 'byteLength', 'concat', 'compare', 'copyBytesFrom'] as const;

/**
 * The node environment's Buffer, once takeGlobalBuffer ran. Before that, a stand-in whose static
 * methods call the Buffer taken later (a module that keeps `Buffer.from` at evaluation, as
 * @jsonjoy.com/fs-node-builtins does, calls the real one), or take the global one when called first.
 */
export let Buffer: BufferConstructor = standIn();

/** Takes the global Buffer (the node environment's): call from setup(host), with host.global. */
export function takeGlobalBuffer(global: object): void {
  Buffer = (global as { Buffer: BufferConstructor }).Buffer;
}

function standIn(): BufferConstructor {
  const methods: Record<string, unknown> = Object.create(null);
  const self = methods as unknown as BufferConstructor;
  for (const name of STATIC_METHODS) {
    methods[name] = function (...args: unknown[]): unknown {
      // Used while the bundle is evaluated (node-fs's memfs makes an empty Buffer then): the global one, as before setup.
      if (Buffer === self) takeGlobalBuffer(globalThis);
      return Reflect.apply((Buffer as unknown as Record<string, (...a: unknown[]) => unknown>)[name] as (...a: unknown[]) => unknown, Buffer, args);
    };
  }
  return self;
}
