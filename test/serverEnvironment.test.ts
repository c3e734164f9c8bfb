import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runWithEnvironments } from './environmentHarness.ts';

interface Case {
  readonly name: string;
  readonly code: string;
  readonly logs: readonly string[];
  /** Values the stand-in generator gives, by element id. */
  readonly values?: Record<string, unknown>;
  /** The uncaught error, `Name: message`. */
  readonly error?: string;
}

const CASES: readonly Case[] = [
  {
    name: 'express route: :id is a numeric string, so parseInt is not NaN',
    code: `const express = require('express'); const app = express();
      app.get('/users/:id', (req, res) => {
        const id = parseInt(req.params.id);
        if (isNaN(id)) return res.status(400).send('bad');
        console.log('id', id, typeof req.params.id);
        res.json({ id });
      });`,
    logs: ['id 1 string'],
  },
  {
    name: 'the free app of a snippet that leaves out express(), with other parameters plausible words',
    code: `app.get('/posts/:slug/comments/:commentId', (req, res) => { console.log(req.params.slug, req.params.commentId, req.method, req.path); res.send('ok'); });`,
    logs: ['hello-world 1 GET /posts/hello-world/comments/1'],
  },
  {
    name: 'middleware chain in registration order, next() moving on, once per route',
    code: `const app = require('express')();
      app.use((req, res, next) => { console.log('log', req.method, req.url); next(); });
      app.use(require('express').json());
      app.get('/a', (req, res, next) => { console.log('a1'); next(); }, (req, res) => { console.log('a2'); res.end(); });
      app.post('/b', (req, res) => { console.log('b'); res.sendStatus(201); });`,
    logs: ['log GET /a', 'a1', 'a2', 'log POST /b', 'b'],
  },
  {
    name: 'router mounted under a prefix: baseUrl, path and mergeParams',
    code: `const express = require('express'); const app = express();
      const users = express.Router({ mergeParams: true });
      users.get('/:id', (req, res) => { console.log(req.baseUrl, req.path, req.originalUrl, req.params.org, req.params.id); res.json({}); });
      app.use('/orgs/:org/users', users);`,
    logs: ['/orgs/org/users /1 /orgs/org/users/1 org 1'],
  },
  {
    name: 'a router mounted nowhere (module.exports = router) is driven on its own; the free router too',
    code: `router.get('/health', (req, res) => { console.log('health'); res.send('ok'); });`,
    logs: ['health'],
  },
  {
    name: 'res.status(404).json() chains and returns the response',
    code: `const app = require('express')();
      app.get('/items/:id', (req, res) => { const r = res.status(404).json({ error: 'not found' }); console.log(r === res, res.statusCode, res.headersSent, res.get('Content-Type')); });`,
    logs: ['true 404 true application/json; charset=utf-8'],
  },
  {
    name: 'sending twice throws as Express does',
    code: `const app = require('express')();
      app.get('/', (req, res) => { res.status(400).send('bad'); res.json({ ok: true }); });`,
    logs: [],
    error: 'Error: Cannot set headers after they are sent to the client',
  },
  {
    name: 'query, body and headers come from the generator, per route; {} when it has none',
    code: `const app = require('express')();
      app.post('/users', (req, res) => { console.log(req.body.name, req.get('X-Token'), req.headers.host, JSON.stringify(req.query)); res.status(201).json(req.body); });`,
    values: { 'POST /users req.body': { name: 'Ada' }, 'POST /users req.headers': { 'X-Token': 't1' } },
    logs: ['Ada t1 localhost:3000 {}'],
  },
  {
    name: 'next(err) reaches the error middleware (four parameters), skipping the rest',
    code: `const app = require('express')();
      app.get('/fail', (req, res, next) => { next(new Error('boom')); }, (req, res) => console.log('skipped'));
      app.use((err, req, res, next) => { console.log('handled', err.message); res.status(500).send('x'); });`,
    logs: ['handled boom'],
  },
  {
    name: 'a throw in a handler with no error middleware is the snippet\'s error',
    code: `const app = require('express')();
      app.get('/', (req, res) => { req.body.missing.x; });`,
    logs: [],
    error: "TypeError: Cannot read properties of undefined (reading 'x')",
  },
  {
    name: 'async handlers are awaited, one request after another',
    code: `const app = require('express')();
      app.get('/one', async (req, res) => { await null; console.log('one'); res.end(); });
      app.get('/two', async (req, res) => { console.log('two'); res.end(); });`,
    logs: ['one', 'two'],
  },
  {
    name: 'app.route, app.param, all and next("route")',
    code: `const app = require('express')();
      app.param('id', (req, res, next, id) => { console.log('param', id); next(); });
      app.route('/book/:id').get((req, res) => { console.log('get book'); res.end(); }).put((req, res) => { console.log('put book'); res.end(); });
      app.all('/any', (req, res, next) => { console.log('all', req.method); next('route'); });`,
    logs: ['param 1', 'get book', 'param 1', 'put book', 'all GET'],
  },
  {
    name: 'listen calls back; middleware of an app without routes runs once; res.redirect is recorded',
    code: `const app = require('express')();
      app.use((req, res) => { res.redirect('/login'); console.log('redirect', res.statusCode, res.get('Location')); });
      const s = app.listen(3000, () => console.log('listening', s.address().port));`,
    logs: ['listening 3000', 'redirect 302 /login'],
  },
  {
    name: 'error middleware never reached is called with an error',
    code: `const app = require('express')();
      app.use(function (err, req, res, next) { console.log('error handler', err.message); res.status(500).end(); });`,
    logs: ['error handler Something went wrong'],
  },
  {
    name: 'cors and body-parser as middleware',
    code: `const app = require('express')(); const cors = require('cors'); const bodyParser = require('body-parser');
      app.use(cors()); app.use(bodyParser.json()); app.use(bodyParser.urlencoded({ extended: true }));
      app.get('/', (req, res) => { console.log(res.getHeader('Access-Control-Allow-Origin')); res.end(); });`,
    logs: ['*'],
  },
  {
    name: 'a handler that is not a function throws when registered, as Express does',
    code: `const app = require('express')(); app.get('/', undefined);`,
    logs: [],
    error: 'TypeError: Route.get() requires a callback function but got a [object Undefined]',
  },
  {
    name: 'http.createServer handler runs with an IncomingMessage and a ServerResponse',
    code: `const http = require('http');
      const server = http.createServer((req, res) => {
        let body = '';
        req.on('data', (c) => { body += c; });
        req.on('end', () => { console.log('end', JSON.stringify(body)); });
        console.log(req.method, req.url, typeof req.headers);
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('Hello');
        console.log(res.statusCode, res.getHeader('content-type'), res.writableEnded);
      });
      server.listen(8080, () => console.log('listening'));`,
    logs: ['listening', 'GET / object', '200 text/plain true', 'end ""'],
  },
  {
    name: 'http.createServer(app) drives the app, not a GET / of its own',
    code: `const app = require('express')(); const http = require('http');
      app.get('/x', (req, res) => { console.log('x'); res.end(); });
      http.createServer(app).listen(3000);`,
    logs: ['x'],
  },
  {
    name: 'http.request: the callback gets a response with the learnt status, headers and body, streamed as data then end',
    code: `const http = require('http');
      const req = http.request({ host: 'example.com', path: '/api', method: 'POST' }, (res) => {
        let body = ''; res.setEncoding('utf8');
        res.on('data', (c) => { body += c; }); res.on('end', () => console.log(res.statusCode, res.headers['x-id'], JSON.parse(body).ok));
      });
      req.on('error', (e) => console.log('error', e)); req.write('{}'); req.end(); console.log(req.method, req.path);`,
    values: { 'http response.statusCode': 201, 'http response.headers': { 'x-id': 'h1' }, 'http response.body': { ok: true } },
    logs: ['POST /api', '201 h1 true'],
  },
  {
    name: 'https.get(url, cb) ends at once; with nothing learnt the status is 200 and the body empty',
    code: `const https = require('https');
      https.get('https://example.com/x?y=1', (res) => { const parts = []; res.on('data', (d) => parts.push(d)); res.on('end', () => console.log(res.statusCode, parts.length)); }).on('error', () => {});`,
    logs: ['200 0'],
  },
];

for (const c of CASES) {
  test(`server environment: ${c.name}`, async () => {
    const result = await runWithEnvironments(['server'], c.code, { values: c.values ?? {} });
    assert.deepEqual(result.logs, c.logs);
    assert.equal(result.error?.text, c.error);
  });
}
