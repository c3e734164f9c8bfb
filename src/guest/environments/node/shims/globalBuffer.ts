// `buffer` for the environments built on `node` (node-fs, node-crypto): the Buffer the node environment made
// global, so `Buffer.isBuffer(fs.readFileSync(p))` holds. Read when their bundle is evaluated: after the node
// environment's setup, before the snippet runs (which may replace the global).
export const Buffer: BufferConstructor = (globalThis as unknown as { Buffer: BufferConstructor }).Buffer;
