/**
 * Trace mode learns a file's content from how the snippet uses it, through the recording proxy
 * `readFileSync` hands out in the learning run. `JSON.parse(content)` would turn the proxy into
 * the text of its name and throw; instead it hands the proxy back, so what the snippet does with
 * the parsed value (`config.port + 1`) is learnt on the content itself, which then becomes the
 * JSON text of that shape (missingFiles.ts). Installed only once a proxy has been handed out: a
 * run without proxies (every measured run) keeps the context's own JSON.parse.
 */
export function learnJsonParse(G: typeof globalThis): (probe: unknown) => void {
  const contents = new WeakSet<object>();
  let installed = false;
  return (probe) => {
    if ((typeof probe !== 'object' && typeof probe !== 'function') || probe === null) return;
    contents.add(probe);
    if (installed) return;
    installed = true;
    const json = G.JSON;
    const parse = json.parse;
    const handBack = {
      parse(text: string, reviver?: (this: unknown, key: string, value: unknown) => unknown): unknown {
        if ((typeof text === 'object' || typeof text === 'function') && text !== null && contents.has(text)) return text;
        return Reflect.apply(parse, json, [text, reviver]);
      },
    }.parse;
    Object.defineProperty(json, 'parse', { value: handBack, writable: true, configurable: true, enumerable: false });
  };
}
