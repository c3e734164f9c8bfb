/**
 * The registry of environments: what each provides, so an environment is loaded only when the
 * snippet names something it provides. Each environment's guest code lives in
 * src/guest/environments/<name>/index.ts and exports `setup(host)` (src/protocol/environment.ts).
 */

export interface EnvironmentSpec {
  readonly name: string;
  /** The guest entry module, relative to src/guest/environments/. */
  readonly entry: string;
  /** Free global names of the snippet that select this environment. */
  readonly globals: readonly string[];
  /** `require`/`import` specifiers it provides (`node:` prefixes are stripped before matching). */
  readonly modules: readonly string[];
  /** Environments loaded before it, which it builds on. */
  readonly needs: readonly string[];
  /** What it models and what it does not, for docs/internals/environments.md and `--help`. */
  readonly summary: string;
  /** Build-time replacements for its bundle (esbuild `define`). */
  readonly define?: Readonly<Record<string, string>>;
  /** Build-time module substitutions for its bundle (esbuild `alias`): `node:stream` → a shim, `buffer` → the global Buffer. */
  readonly alias?: Readonly<Record<string, string>>;
}

/** Every environment, in load order (one an environment needs comes before it). */
export const ENVIRONMENTS: readonly EnvironmentSpec[] = [
  {
    name: 'node',
    entry: 'node/index.ts',
    globals: ['process', 'Buffer', '__dirname', '__filename', 'module', 'exports', 'global'],
    modules: ['process', 'path', 'path/posix', 'events', 'util', 'url', 'querystring', 'buffer', 'string_decoder', 'os', 'child_process', 'net', 'timers', 'timers/promises'],
    needs: [],
    summary: "Node's globals (process with learnt env values, Buffer, __dirname, module/exports) and its light built-ins from the packages bundlers use (path, events, util, url, querystring, buffer, string_decoder); os, child_process and net modelled: nothing runs, nothing connects",
    define: { 'process.env.NODE_DEBUG': 'undefined' },
    alias: { qs: './src/guest/environments/node/shims/qs.ts' },
  },
  {
    name: 'node-fs',
    entry: 'node-fs/index.ts',
    globals: [],
    modules: ['fs', 'fs/promises'],
    needs: ['node'],
    summary: 'fs and fs/promises over an in-memory volume (memfs) in /app; a file the snippet reads and did not write is created with learnt content (JSON that parses for .json); no host file is ever read or written',
    alias: {
      buffer: './src/guest/environments/node/shims/globalBuffer.ts',
      'node:buffer': './src/guest/environments/node/shims/globalBuffer.ts',
      'node:url': './src/guest/environments/node-fs/shims/url.ts',
      'node:stream': './src/guest/environments/node-fs/shims/stream.ts',
      'node:path': 'path-browserify',
      'node:events': 'events',
      '@jsonjoy.com/fs-snapshot': './src/guest/environments/node-fs/shims/empty.ts',
      '@jsonjoy.com/fs-print': './src/guest/environments/node-fs/shims/empty.ts',
    },
  },
  {
    name: 'node-crypto',
    entry: 'node-crypto/index.ts',
    globals: [],
    modules: ['crypto'],
    needs: ['node'],
    summary: 'crypto: createHash/createHmac (md5, sha1, sha2, sha3) and pbkdf2 from @noble/hashes; randomUUID, randomBytes and randomInt from the run\'s seeded Math.random, so runs repeat; no ciphers, signatures or keys',
  },
  {
    name: 'node-assert',
    entry: 'node-assert/index.ts',
    globals: [],
    modules: ['assert', 'assert/strict'],
    needs: ['node'],
    summary: 'assert and assert/strict from the assert package (Node\'s assert for bundlers)',
    define: { 'process.env.NODE_DEBUG': 'undefined' },
  },
  {
    name: 'browser',
    entry: 'browser/index.ts',
    globals: [
      'window', 'document', 'self', 'localStorage', 'sessionStorage', 'Storage', 'location', 'history', 'navigator', 'screen',
      'fetch', 'XMLHttpRequest', 'Headers', 'Request', 'Response', 'AbortController', 'AbortSignal', 'FormData',
      'Event', 'CustomEvent', 'UIEvent', 'MouseEvent', 'PointerEvent', 'KeyboardEvent', 'InputEvent', 'FocusEvent', 'SubmitEvent', 'TouchEvent', 'WheelEvent', 'DragEvent', 'MessageEvent', 'PopStateEvent', 'HashChangeEvent', 'StorageEvent', 'ProgressEvent', 'EventTarget',
      'Node', 'Element', 'HTMLElement', 'HTMLInputElement', 'HTMLFormElement', 'HTMLButtonElement', 'HTMLSelectElement', 'HTMLTextAreaElement', 'HTMLAnchorElement', 'HTMLDivElement', 'HTMLImageElement', 'HTMLCanvasElement', 'HTMLTemplateElement', 'Text', 'DocumentFragment', 'NodeList', 'DOMParser', 'MutationObserver', 'IntersectionObserver', 'ResizeObserver', 'customElements', 'Image',
      'alert', 'confirm', 'prompt', 'requestAnimationFrame', 'cancelAnimationFrame', 'requestIdleCallback', 'getComputedStyle', 'matchMedia', 'getSelection',
      'addEventListener', 'removeEventListener', 'dispatchEvent', 'scrollTo', 'scrollBy', 'scrollX', 'scrollY', 'pageXOffset', 'pageYOffset', 'innerWidth', 'innerHeight', 'devicePixelRatio',
      'onload', 'onresize', 'onscroll', 'onhashchange', 'onpopstate', 'onbeforeunload', 'onkeydown', 'onclick',
    ],
    modules: [],
    needs: [],
    summary: 'a real DOM (linkedom) with the global object as the window: every element the snippet queries exists (inputs and selects carry learnt values, an empty element its learnt text, and its data-*, aria-*, href, src, title and alt attributes when read) with the relatives the snippet reads of it (siblings, children, closest ancestor), and an element guessed from its id or class becomes what its usage says (a table for insertRow, a canvas for getContext, a form, a checkbox); the table API as the standard defines it; a canvas whose 2d context keeps its state and draws nothing (getImageData is blank, measureText estimates from the font size; webgl contexts are null), localStorage/sessionStorage in memory, location/history at http://localhost/, navigator, fetch/XMLHttpRequest answering with learnt JSON; after the snippet its listeners fire once each, in registration order, with real events. No layout, no CSS, no navigation, no network',
  },
  {
    name: 'jquery',
    entry: 'jquery/index.ts',
    globals: ['$', 'jQuery'],
    modules: ['jquery'],
    needs: ['browser'],
    // jQuery 3's module builds itself on a global `window` with a document; with none it exports its factory, which setup calls
    define: { window: 'undefined' },
    summary: "the real jQuery 3.7.1 (the last 3.x: answers written for jQuery 1 to 3 find $.trim, $.isArray, $.parseJSON, .bind and .delegate, which jQuery 4 removed) on the browser environment's DOM: selectors, traversal, attributes, classes, .val, .each, .toggle/.show/.hide, animations on the virtual clock; handlers fire with jQuery events when the browser environment fires listeners (a delegated handler at an element matching its selector, made under the delegating element); $.ajax/$.get/$.getJSON/$.post/$.getScript complete through the modelled fetch with learnt data. :visible judged from display and the hidden attribute (no layout: sizes and offsets are 0)",
  },
  {
    name: 'react',
    entry: 'react/index.ts',
    globals: ['React', 'ReactDOM', 'createRoot', 'useState', 'useEffect', 'useLayoutEffect', 'useRef', 'useMemo', 'useCallback', 'useContext', 'useReducer', 'useId', 'useTransition', 'useDeferredValue', 'useSyncExternalStore', 'useImperativeHandle', 'createContext'],
    modules: ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime', 'react/jsx-dev-runtime'],
    needs: ['browser'],
    summary: "the real React 19 and react-dom (production builds) on the browser environment's DOM: React, ReactDOM (createRoot, and the render/hydrate/unmountComponentAtNode of React 17, synchronous), the hooks as bare globals; JSX lowered to React.createElement; the scheduler on the virtual clock, so effects run after the commit and a state setter re-renders. After the snippet, the top-level function components nothing rendered are rendered with learnt props, then each onClick/onChange/onSubmit/… handler React shows fires once (typing first, submitting last). Hooks called where no component renders (a component's body on its own) get a stand-in: the initial state, setters that store, a dispatch that runs the reducer, effects run once after the snippet; nothing re-renders. Not modelled: class components and expression-bodied arrow components nothing rendered (not seen as top-level functions), Suspense data, server components, layout; only common minified React errors get their full message",
    define: { 'process.env.NODE_ENV': '"production"' },
  },
  {
    name: 'server',
    entry: 'server/index.ts',
    globals: ['app', 'router', 'server', 'express'],
    modules: ['express', 'http', 'https', 'body-parser', 'cors', 'cookie-parser', 'express-session', 'morgan', 'helmet', 'compression'],
    needs: [],
    summary: "Express-style servers with nothing listening (express(), Router, the free app and router of answers that leave them out, body-parser, cors) and http.createServer; after the snippet each route gets one request of its method through the middleware before it, with :id-like parameters as numeric strings and query, body, headers and cookies learnt per route; responses are recorded, never sent",
  },
];

/** What a snippet names: its free (undeclared) global names and the module specifiers it loads. */
export interface SnippetNames {
  readonly globals: readonly string[];
  readonly modules: readonly string[];
}

/** The environments a snippet needs, with the ones they need, in load order. */
export function environmentsFor(names: SnippetNames, registry: readonly EnvironmentSpec[] = ENVIRONMENTS): EnvironmentSpec[] {
  const globals = new Set(names.globals);
  const modules = new Set(names.modules.map((m) => m.replace(/^node:/, '')));
  const wanted = new Set<string>();
  const byName = new Map(registry.map((e) => [e.name, e]));
  const want = (e: EnvironmentSpec) => {
    if (wanted.has(e.name)) return;
    wanted.add(e.name);
    for (const n of e.needs) {
      const dep = byName.get(n);
      if (dep) want(dep);
    }
  };
  for (const e of registry) if (e.globals.some((g) => globals.has(g)) || e.modules.some((m) => modules.has(m))) want(e);
  return registry.filter((e) => wanted.has(e.name));
}
