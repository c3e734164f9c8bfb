// `url` for memfs: the URL class the node environment defined (memfs only tests `instanceof URL`).
export const URL: typeof globalThis.URL = globalThis.URL;
