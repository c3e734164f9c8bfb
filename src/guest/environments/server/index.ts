/**
 * The server environment: Express, Koa, Fastify and Node's `http` server, with nothing listening.
 * After the snippet, a driver makes one request per route it registered (see drivers.ts).
 */
import type { EnvironmentHost } from '../../../protocol/environment.ts';
import { driveAll } from './drivers.ts';
import { createApplication } from './express/application.ts';
import { expressModule } from './express/index.ts';
import { bodyParserModule, cors, passThrough } from './express/middleware.ts';
import { createRouter } from './express/router.ts';
import { withLearntGaps } from '../shared/learnGaps.ts';
import { httpModule } from './httpModule.ts';
import { afterSnippet, bindHost } from './serverHost.ts';

/** Defines the modules and the free globals (`app`, `router`, `express` …) of snippets about servers. */
export function setup(host: EnvironmentHost): void {
  bindHost(host);
  const express = expressModule();
  const valueOf = (id: string, reason: string) => host.valueOf(id, reason);
  host.defineModule('express', express);
  // Node's members the models lack (http.validateHeaderName, https.Agent options …) are learnt from usage
  host.defineModule('http', withLearntGaps(httpModule('http'), 'require("http")', 'http', valueOf));
  host.defineModule('https', withLearntGaps(httpModule('https'), 'require("https")', 'https', valueOf));
  host.defineModule('body-parser', bodyParserModule());
  host.defineModule('cors', cors);
  host.defineModule('cookie-parser', passThrough('cookieParser'));
  host.defineModule('express-session', passThrough('session'));
  host.defineModule('morgan', passThrough('logger'));
  host.defineModule('helmet', passThrough('helmet'));
  host.defineModule('compression', passThrough('compression'));
  // The app of a snippet that leaves out `const app = express()`, as answers on Stack Overflow do.
  host.defineGlobal('express', express);
  host.defineGlobal('app', createApplication());
  host.defineGlobal('server', createApplication());
  host.defineGlobal('router', createRouter());
  afterSnippet('server', driveAll);
}

