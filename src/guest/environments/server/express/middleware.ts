/**
 * The middleware Express snippets mount from other packages and from express itself: body
 * parsers, static files, cors, cookie-parser, sessions, logging. The request's body, cookies and
 * session are already shaped from usage, so most of them only pass on; none writes to the console.
 */
type Middleware = (req: unknown, res: unknown, next: (err?: unknown) => void) => void;

/** A middleware factory whose middleware only calls `next()`. */
export function passThrough(name: string): (...options: unknown[]) => Middleware {
  const factory = (..._options: unknown[]): Middleware => {
    const mw: Middleware = (_req, _res, next) => next();
    Object.defineProperty(mw, 'name', { value: name });
    return mw;
  };
  Object.defineProperty(factory, 'name', { value: name });
  return factory;
}

/** `body-parser`: callable, with json, urlencoded, text and raw. */
export function bodyParserModule(): unknown {
  const bodyParser = passThrough('bodyParser') as ((...o: unknown[]) => Middleware) & Record<string, unknown>;
  bodyParser.json = passThrough('jsonParser');
  bodyParser.urlencoded = passThrough('urlencodedParser');
  bodyParser.text = passThrough('textParser');
  bodyParser.raw = passThrough('rawParser');
  return bodyParser;
}

/** `cors(options)`: sets Access-Control-Allow-Origin (the `origin` option when it is a string). */
export function cors(options?: unknown): Middleware {
  const origin = typeof options === 'object' && options !== null && typeof (options as { origin?: unknown }).origin === 'string' ? (options as { origin: string }).origin : '*';
  return function corsMiddleware(_req, res, next) {
    const r = res as { headersSent?: boolean; setHeader?: (k: string, v: string) => void };
    if (!r.headersSent) r.setHeader?.('Access-Control-Allow-Origin', origin);
    next();
  };
}
