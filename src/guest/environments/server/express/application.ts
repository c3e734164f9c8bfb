/**
 * `express()`: an app is a request handler with a router, settings, events, and `listen`, which
 * calls back and listens nowhere.
 */
import { EventEmitter } from 'events';
import { Server } from '../nodeHttp.ts';
import { raiseLater } from '../serverHost.ts';
import type { PathSpec } from '../pathPattern.ts';
import { trackRouter } from './driveExpress.ts';
import { addRoutingMethods } from './router.ts';
import { handleRequest, routerStates, type Handler, type RouterState } from './routing.ts';

type App = Handler & Record<string, unknown>;

const EMITTER_METHODS = ['on', 'once', 'off', 'emit', 'addListener', 'removeListener', 'removeAllListeners', 'listeners', 'listenerCount', 'prependListener'] as const;

/** A new Express application. */
export function createApplication(): App {
  const state: RouterState = { stack: [], params: new Map(), mergeParams: false };
  const emitter = new EventEmitter();
  const settings: Record<string, unknown> = { env: 'development', 'x-powered-by': true, etag: 'weak', 'query parser': 'extended', 'subdomain offset': 2, 'trust proxy': false, views: '/views', 'jsonp callback name': 'callback' };
  const app = function app(req: unknown, res: unknown, next: unknown) {
    ((app as App).handle as Handler)(req, res, next);
  } as App;
  routerStates.set(app, state);
  for (const name of EMITTER_METHODS) {
    app[name] = (...args: unknown[]) => {
      const r = (emitter[name] as (...a: unknown[]) => unknown).apply(emitter, args);
      return r === emitter ? app : r;
    };
  }
  app.settings = settings;
  app.locals = { settings };
  app.mountpath = '/';
  app.stack = state.stack;
  app._router = { stack: state.stack, params: state.params };
  app.router = app._router;
  app.set = (...args: unknown[]) => {
    if (args.length < 2) return settings[String(args[0])];
    settings[String(args[0])] = args[1];
    return app;
  };
  app.enable = (name: string) => { settings[name] = true; return app; };
  app.disable = (name: string) => { settings[name] = false; return app; };
  app.enabled = (name: string) => Boolean(settings[name]);
  app.disabled = (name: string) => !settings[name];
  app.engine = () => app;
  app.path = () => '';
  app.render = (view: unknown, options: unknown, cb: unknown) => {
    const done = typeof options === 'function' ? options : cb;
    if (typeof done === 'function') done(null, `<html><body>${String(view)}</body></html>`);
  };
  app.handle = (req: unknown, res: unknown, next: unknown) => {
    const out = typeof next === 'function' ? (next as (e?: unknown) => void) : finalHandler(res);
    handleRequest(state, req, res, out);
  };
  app.listen = (...args: unknown[]) => new Server(app).listen(...args);
  addRoutingMethods(app, state, 'app', (name) => settings[name], (child: Handler, path: PathSpec) => {
    const sub = child as App;
    sub.mountpath = path;
    sub.parent = app;
    if (typeof sub.emit === 'function') (sub.emit as (e: string, a: unknown) => void)('mount', app);
  });
  trackRouter(app, app);
  return app;
}

// A request the snippet itself hands the app: an error nothing handled is the snippet's.
function finalHandler(res: unknown): (err?: unknown) => void {
  return (err) => {
    if (err !== undefined && err !== null && err !== false) {
      raiseLater(err);
      return;
    }
    const r = res as { headersSent?: boolean; statusCode?: number; end?: (b?: string) => void };
    if (r.headersSent) return;
    r.statusCode = 404;
    r.end?.('Not Found');
  };
}
