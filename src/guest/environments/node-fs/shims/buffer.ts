// `buffer` for memfs: the Buffer the node environment made global, so `Buffer.isBuffer(fs.readFileSync(p))` holds.
// Read when this bundle is evaluated: after the node environment's setup, before the snippet runs.
export const Buffer: BufferConstructor = (globalThis as unknown as { Buffer: BufferConstructor }).Buffer;
