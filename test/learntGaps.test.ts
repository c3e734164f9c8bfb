// Members the models of Express's req and res, Node's server request and response, and `process`
// lack, though the real objects (Express 5, Node 24) have them, are learnt from how the snippet
// uses them (trace mode), not undefined; a member the real object lacks too (Express 5 removed
// res.sendfile) stays undefined, so the snippet's error is still its own.
import assert from 'node:assert/strict';
import { completes, injected, testSnippets, type SnippetCase } from './helpers.ts';

const CASES: readonly SnippetCase[] = [
  {
    name: 'Express: req.headersDistinct and res.appendHeader are learnt, per route',
    code: [
      "const app = require('express')();",
      "app.get('/x', (req, res) => {",
      '  console.log(req.headersDistinct.accept.length > 0);',
      "  res.appendHeader('X-A', '1');",
      "  res.send('ok');",
      '});',
      '',
    ].join('\n'),
    check: (r) => {
      completes(r, ['server']);
      assert.equal(r.stdout, 'true\n');
      assert.match(injected(r, 'GET /x res.appendHeader') ?? '', /function/);
      assert.ok(injected(r, 'GET /x req.headersDistinct') !== undefined);
    },
  },
  {
    name: 'Express 5 has no res.sendfile: calling it is the snippet\'s TypeError, as in Express 5',
    code: "const app = require('express')();\napp.get('/f', (req, res) => {\n  res.sendfile('a.html');\n});\n",
    check: (r) => {
      assert.equal(r.status, 'stopped');
      assert.deepEqual(r.errors.map((e) => [e.type, e.message, e.attribution, e.line]), [['TypeError', 'res.sendfile is not a function', 'snippet', 3]]);
    },
  },
  {
    name: 'http.createServer: a ServerResponse member the model lacks (writeEarlyHints) is learnt',
    code: "require('http').createServer((req, res) => {\n  res.writeEarlyHints({ link: '</style.css>; rel=preload' });\n  res.end('ok');\n  console.log('done');\n}).listen(3000);\n",
    check: (r) => {
      completes(r, ['server']);
      assert.equal(r.stdout, 'done\n');
      assert.match(injected(r, 'http request res.writeEarlyHints') ?? '', /function/);
    },
  },
  {
    name: 'process: getActiveResourcesInfo() is learnt; a name process does not have stays undefined',
    code: 'const info = process.getActiveResourcesInfo();\nconsole.log(info.length >= 0, typeof process.notAProcessMember);\n',
    check: (r) => {
      completes(r, ['node']);
      assert.equal(r.stdout, 'true undefined\n');
      assert.match(injected(r, 'process.getActiveResourcesInfo') ?? '', /function/);
    },
  },
];

testSnippets('learnt gaps', CASES);
