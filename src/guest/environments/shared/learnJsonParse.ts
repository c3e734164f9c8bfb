/**
 * Trace mode learns a text the environment hands out (a file's content, an HTTP response's body)
 * from how the snippet uses it. `JSON.parse(text)` of a recording proxy, or of the text standing
 * for one, would throw ("Unexpected token"); instead it gives the proxy back, so what the snippet
 * does with the parsed value (`data.items[0].name`) is learnt on the text's element, which then
 * becomes the JSON text of that shape. Installed on the context's JSON only once a stand-in is
 * handed out: a run without proxies (every measured run) keeps the context's own JSON.parse.
 */

/** What JSON.parse gives back as the recording proxy it stands for. */
export interface JsonStandIns {
  /** `JSON.parse(probe)` gives the probe back. */
  probe(probe: unknown): void;
  /**
   * A text standing for `probe` (an HTTP body is text, not a proxy): `JSON.parse` of it, or of its
   * bytes (a Buffer chunk), gives the probe back. `id` names the element, which keeps texts apart.
   */
  text(probe: unknown, id: string): string;
}

/** Longest stand-in text compared byte by byte (a Buffer handed to JSON.parse). */
const MAX_TEXT = 300;

/** The ASCII text of a byte view, or undefined for anything else or anything longer than MAX_TEXT. */
function asciiOf(v: unknown): string | undefined {
  if (!ArrayBuffer.isView(v) || v.byteLength > MAX_TEXT) return undefined;
  const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return s;
}

/** The stand-ins of one run's context `G`; JSON.parse is replaced when the first is handed out. */
export function learnJsonParse(G: typeof globalThis): JsonStandIns {
  const probes = new WeakSet<object>();
  const texts = new Map<string, unknown>();
  let installed = false;
  const install = (): void => {
    if (installed) return;
    installed = true;
    const json = G.JSON;
    const parse = json.parse;
    const handBack = {
      parse(text: unknown, reviver?: (this: unknown, key: string, value: unknown) => unknown): unknown {
        if ((typeof text === 'object' || typeof text === 'function') && text !== null) {
          if (probes.has(text)) return text;
          const bytes = asciiOf(text);
          if (bytes !== undefined && texts.has(bytes)) return texts.get(bytes);
        } else if (typeof text === 'string' && texts.has(text)) return texts.get(text);
        return Reflect.apply(parse, json, [text, reviver]);
      },
    }.parse;
    Object.defineProperty(json, 'parse', { value: handBack, writable: true, configurable: true, enumerable: false });
  };
  return {
    probe(probe) {
      if ((typeof probe !== 'object' && typeof probe !== 'function') || probe === null) return;
      probes.add(probe);
      install();
    },
    text(probe, id) {
      // printable ASCII only, so the text is the same as a string and as the bytes of a Buffer
      const text = `[snipexec ${id.replace(/[^ -~]/g, '?').slice(0, MAX_TEXT - 12)}]`;
      texts.set(text, probe);
      install();
      return text;
    },
  };
}
