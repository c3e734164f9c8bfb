// Real APIs of the environments given a missing value (trace mode's recording proxy in the learning
// run): the value is learnt as what the API's parameter takes (a string path or chunk, a handler
// function), so the measured run does not end in the environment. And when the snippet itself
// passes a wrong value, the error is the one Node (or Express) gives, blamed on the snippet.
import assert from 'node:assert/strict';
import { blamesSnippet, completes, injected, testSnippets, type SnippetCase } from './helpers.ts';

const CASES: readonly SnippetCase[] = [
  {
    name: 'Buffer.from(chunk, encoding): chunk is learnt as a string (the buffer package no longer allocates for the proxy)',
    code: 'var len = Buffer.from(chunk, encoding).length;\nconsole.log(len);\n',
    check: (r) => {
      completes(r, ['node']);
      assert.match(injected(r, 'chunk') ?? '', /^var chunk = "[^"]+";$/);
      assert.match(r.stdout, /^[1-9]\d*\n$/);
    },
  },
  {
    name: 'path.join(config.src, …): a missing path part is learnt as a string',
    code: "const path = require('path');\nconst config = require('./build.config');\nconsole.log(path.join(config.src, 'templates').endsWith('/templates'));\n",
    check: (r) => {
      completes(r, ['node']);
      assert.match(injected(r, 'require("./build.config").src') ?? '', /= "[^"]+";$/);
      assert.equal(r.stdout, 'true\n');
    },
  },
  {
    name: 'fs.readdir(images, cb): the missing directory is learnt as a string path, and its listing is learnt',
    code: "const fs = require('fs');\nfs.readdir(images, (err, files) => {\n  files.forEach((file) => console.log(typeof file));\n});\n",
    check: (r) => {
      completes(r, ['node', 'node-fs']);
      assert.equal(injected(r, 'images'), 'var images = "images";');
      assert.deepEqual(r.lines.uncovered, []);
    },
  },
  {
    name: 'fs.writeFile without a callback: Node\'s ERR_INVALID_ARG_TYPE, blamed on the snippet',
    code: "const fs = require('fs');\nconsole.log('before');\nfs.writeFile('/tmp/out.txt', 'data');\nconsole.log('after');\n",
    check: (r) => blamesSnippet(r, 'TypeError', 'The "cb" argument must be of type function. Received undefined', 3),
  },
  {
    name: 'util.promisify(db.get): the method is learnt as something callable, as promisify requires',
    code: "const util = require('util');\nconst db = require('./db');\nconst get = util.promisify(db.get);\nconsole.log(typeof get);\n",
    check: (r) => {
      completes(r, ['node']);
      assert.equal(r.stdout, 'function\n');
    },
  },
  {
    name: 'path.join(null): Node\'s ERR_INVALID_ARG_TYPE, blamed on the snippet',
    code: "const path = require('path');\nconst p = path.join(null);\nconsole.log(p);\n",
    check: (r) => blamesSnippet(r, 'TypeError', 'The "path" argument must be of type string. Received null', 2),
  },
  {
    name: 'process.stdout.write from a console.log the snippet replaced writes out, as Node\'s file descriptor does (no recursion)',
    code: "const out = process.stdout;\nconsole.log = function (d) { out.write('> ' + d + '\\n'); };\nconsole.log('hi');\n",
    check: (r) => {
      completes(r, ['node']);
      assert.equal(r.stdout, '> hi\n');
    },
  },
  {
    name: 'app.put(path, model.put): a handler nothing calls is still learnt as something callable, as Express requires',
    code: "const express = require('express');\nconst app = express();\napp.use(require('body-parser'));\napp.put('/api/model/:model', model.put);\nconsole.log('registered');\n",
    check: (r) => {
      completes(r, ['server']);
      assert.equal(r.stdout, 'registered\n');
    },
  },
  {
    name: 'app.get(path, 42): Express\'s own error, blamed on the snippet at its line',
    code: "const app = require('express')();\nconsole.log('before');\napp.get('/', 42);\n",
    check: (r) => blamesSnippet(r, 'TypeError', 'Route.get() requires a callback function but got a [object Number]', 3),
  },
];

testSnippets('probe arguments', CASES);
