// The server environment in trace mode, end to end: what a request or a response is made of is
// learnt from how the snippet uses it (an HTTP body it JSON.parses becomes JSON of that shape, a
// plain handler's request line comes from its comparisons), and an error the snippet's listener
// throws when the environment emits an event is the snippet's uncaught error, as Node prints it.
import assert from 'node:assert/strict';
import { blamesSnippet, completes, testSnippets, type SnippetCase } from './helpers.ts';

const CASES: readonly SnippetCase[] = [
  {
    name: 'https.get: a body the end listener JSON.parses is learnt as JSON with the members read',
    code: [
      "const https = require('https');",
      "https.get('https://example.com/api', (res) => {",
      "  let body = '';",
      '  res.on(\'data\', (chunk) => { body += chunk; });',
      "  res.on('end', () => {",
      '    const data = JSON.parse(body);',
      "    console.log(typeof data.name, Array.isArray(data.items));",
      '  });',
      '});',
      '',
    ].join('\n'),
    check: (r) => {
      completes(r, ['server']);
      assert.equal(r.stdout, 'string true\n');
      assert.deepEqual(r.lines.uncovered, []);
    },
  },
  {
    name: 'https.get: a Buffer chunk JSON.parsed as it is is learnt as JSON too',
    code: "require('https').get('https://example.com/x', (res) => {\n  res.on('data', (d) => { console.log(JSON.parse(d).ok === undefined); });\n});\n",
    check: (r) => {
      completes(r, ['server']);
      assert.equal(r.stdout, 'false\n');
    },
  },
  {
    name: 'http.createServer: the request line is learnt from the handler\'s comparisons, and a body it JSON.parses as JSON',
    code: [
      "const http = require('http');",
      'http.createServer((req, res) => {',
      "  if (req.url === '/upload' && req.method === 'POST') {",
      "    let body = '';",
      "    req.on('data', (c) => { body += c; });",
      "    req.on('end', () => { console.log('upload', typeof JSON.parse(body).name); res.end('ok'); });",
      '  } else {',
      "    res.end('no');",
      '  }',
      '}).listen(3000);',
      '',
    ].join('\n'),
    check: (r) => {
      completes(r, ['server']);
      assert.equal(r.stdout, 'upload string\n');
    },
  },
  {
    name: 'http.createServer: with nothing learnt, the request is GET of an origin-form path',
    code: "require('http').createServer((req, res) => { console.log(req.method, req.url); res.end(); }).listen(3000);\n",
    check: (r) => {
      completes(r, ['server']);
      assert.equal(r.stdout, 'GET /\n');
    },
  },
  {
    name: 'a TypeError in a response\'s end listener (emitted by the environment after a tick) is the snippet\'s uncaught error',
    code: "require('http').get('http://example.com/', (res) => {\n  res.on('data', () => {});\n  res.on('end', () => { null.x; });\n});\n",
    check: (r) => blamesSnippet(r, 'TypeError', "Cannot read properties of null (reading 'x')", 3),
  },
  {
    name: 'a SyntaxError of JSON.parse in an end listener is the snippet\'s uncaught error, not an internal error',
    code: "require('http').get('http://example.com/', (res) => {\n  res.on('end', () => { JSON.parse('{'); });\n  res.resume();\n});\n",
    check: (r) => blamesSnippet(r, 'SyntaxError', "Expected property name or '}' in JSON at position 1 (line 1 column 2)", 2),
  },
];

testSnippets('server learning', CASES);
