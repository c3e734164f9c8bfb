// The node environments (node, node-fs, node-crypto, node-assert): first through the harness
// (test/environmentHarness.ts: the bundles in a bare isolate, values by element id), where what a
// module gives is compared with what the real Node module of this process gives for the same
// expression; then end to end through runSnippet (trace mode unless said), where the registry's
// environments are selected by the names the snippet uses.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runWithNode } from '../src/emit/runWithNode.ts';
import { runSnippet } from '../src/index.ts';
import type { RunResult } from '../src/core/runResult.ts';
import { runWithEnvironments } from './environmentHarness.ts';
import { selected } from './helpers.ts';

const hostRequire = createRequire(import.meta.url);

// ---- 1. Modules as Node's: each expression is evaluated in the isolate and in this process --------------

interface SameAsNode {
  readonly name: string;
  /** The environment that provides the module. */
  readonly env: string;
  readonly module: string;
  /** The name the expressions use for the module. */
  readonly binding: string;
  readonly exprs: readonly string[];
}

const SAME_AS_NODE: readonly SameAsNode[] = [
  {
    name: 'path', env: 'node', module: 'path', binding: 'path',
    exprs: [
      "path.join('a', 'b')", "path.join('/a/b', '../c', './d')", "path.join()", "path.resolve('/foo/bar', './baz')", "path.resolve('/a', 'b', '../c')",
      "path.basename('/a/b/c.txt')", "path.basename('/a/b/c.txt', '.txt')", "path.extname('index.coffee.md')", "path.extname('.index')",
      "path.dirname('/a/b/c')", "path.normalize('/foo/bar//baz/asdf/quux/..')", "path.relative('/data/orandea/test/aaa', '/data/orandea/impl/bbb')",
      "path.parse('/home/user/dir/file.txt')", "path.format({ dir: '/home/user/dir', base: 'file.txt' })", "path.isAbsolute('./x')", "path.sep", "path.delimiter",
      "path.posix.join('a', 'b')",
    ],
  },
  {
    name: 'util.format and util.inspect', env: 'node', module: 'util', binding: 'util',
    exprs: [
      "util.format('%s has %d items', 'cart', 3)", "util.format('%j', { a: 1 })", "util.format('%o', [1])", "util.format('%O', { a: { b: { c: {} } } })",
      "util.format('%i %f %%', '42.5', '1.5')", "util.format('a', 'b', 1, { x: 1 })", "util.format('%s', null, undefined, 5n)",
      "util.inspect({ a: [1, 2, { b: new Map([[1, 2]]) }], s: 'str' })", "util.inspect('str')", "util.inspect(new Set([1, 'a']))",
      "util.inspect({ a: { b: { c: { d: 1 } } } })", "util.inspect({ a: { b: 1 } }, { depth: 0 })", "util.inspect([1, 2, 3], { compact: false })",
      "util.inspect(null)", "util.inspect(Symbol('s'))", "util.inspect(function foo() {})", "util.inspect(class A {})", "util.inspect(new Date(0))", "util.inspect(/re/g)",
      "util.inspect({ 'a-b': 1, [Symbol('k')]: 2 })", "util.inspect(Object.create(null))", "util.inspect(new Uint8Array(3))", "util.inspect([, 1])", "util.inspect(-0)", "util.inspect(10n)",
      "util.inspect(new Error('boom')).split('\\n')[0]", "util.isDeepStrictEqual({ a: [1] }, { a: [1] })", "util.isDeepStrictEqual([1], ['1'])",
      "util.types.isPromise(Promise.resolve())", "util.types.isDate(new Date())", "util.promisify.custom === Symbol.for('nodejs.util.promisify.custom')",
    ],
  },
  {
    name: 'URL and URLSearchParams (the WHATWG parser)', env: 'node', module: 'url', binding: 'url',
    exprs: [
      "new URL('https://user:pw@example.com:8080/p/a/t/h?query=string#hash').href",
      "(() => { const u = new URL('https://example.com/a?x=1&y=2'); return [u.host, u.hostname, u.port, u.pathname, u.search, u.hash, u.origin, u.protocol, u.searchParams.get('y')]; })()",
      "new URL('/foo', 'https://example.com/bar/baz').href", "new URL('../x', 'https://example.com/a/b/c').href", "new URL('//b.com/y', 'ftp://a.com/').href",
      "new URL('?q', 'foo://h/p/q').href", "new URL('#x', 'mailto:a@b').href", "new URL('', 'https://a.com/p?q#f').href", "new URL('http:x', 'http://a.com/b/c').href",
      "new URL('..', 'https://a.com/a/b/c').href", "new URL('x?y#z', 'https://a.com/p/').href",
      "new URL('https://example.com:443/').href", "new URL('HTTP://User@EXAMPLE.COM:0080/').href", "new URL('https://a.com/a b/ü?q=ü x#h h').href",
      "new URL('https://example.com/%7Efoo/..//bar/./baz').href", "new URL('https://a.com/a%2e/b/%2E%2e/c').pathname", "new URL('https://a.com\\\\x\\\\y').href",
      "new URL('https://a.com/a^b|c').pathname", "new URL(\"https://a.com/?a^b'c|{}\").search", "new URL('https://us er:p@ss@a.com/').href",
      "new URL('mailto:a@b.c').pathname", "new URL(\"foo:a b^'\").pathname", "new URL('data:text/plain,hello').pathname", "new URL('foo://H/A/../b').href",
      "new URL('non-spec:/.//p').href", "new URL('non-spec:/.//p').pathname", "new URL('blob:https://a.com/uuid').origin", "new URL('file:///tmp/x').href",
      "new URL('file://localhost/x').href", "new URL('http:/a.com/x').href", "new URL('sc://ñ.com').host", "new URL('https://bücher.com/').host",
      "new URL('http://[::1]:3000/x').hostname", "new URL('https://a.com?').href", "new URL('https://a.com#').href",
      "(() => { const u = new URL('https://example.com/'); u.searchParams.append('q', 'a b'); u.searchParams.set('n', '1'); return u.href; })()",
      "(() => { const u = new URL('https://example.com/?a=1'); u.pathname = '/x y'; return u.href; })()",
      "(() => { const u = new URL('https://a.com/p'); u.search = 'a=1 2'; u.hash = 'x y'; return u.href; })()",
      "(() => { const u = new URL('https://a.com/p'); u.host = 'b.com:81'; u.protocol = 'http'; return u.href; })()",
      "(() => { const u = new URL('https://a.com/p?x=1'); u.searchParams.delete('x'); return u.href; })()",
      "(() => { const u = new URL('https://a.com/p'); u.port = '443'; u.username = 'me'; return [u.href, u.port]; })()",
      "(() => { try { new URL('nope'); } catch (e) { return [e.name, e.code, e.message]; } })()", "URL.canParse('http://a b.com')", "URL.canParse('http://a.com:65536')",
      "Object.keys(new URL('https://a.com'))", "JSON.stringify(new URL('http://a.com'))", "String(new URL('https://a.com/x'))",
      "new URLSearchParams('a=1&b=2&a=3').getAll('a')", "new URLSearchParams({ a: '1', b: 'x y' }).toString()", "[...new URLSearchParams('b=2&a=1')]",
      "(() => { const p = new URLSearchParams('b=2&a=1'); p.sort(); return p.toString(); })()", "new URLSearchParams('a=%26&b=+').get('b')",
      "new URLSearchParams([['x', '1'], ['y', '2']]).toString()", "new URLSearchParams(\"q=~!*()'\").toString()", "new URLSearchParams('?a=1').get('a')",
      "url.parse('http://a.com:80/p?q=1#h').query", "url.parse('http://a.com/p?q=1&q=2', true).query", "url.format({ protocol: 'http', host: 'a.com', pathname: '/x', query: { a: 1 } })",
      "url.resolve('http://a.com/b/c', '../d')", "url.fileURLToPath('file:///app/x.js')", "url.pathToFileURL('/app/x y%.js').href",
      "url.format(new URL('https://a:b@c.com/x?y#z'), { auth: false, search: false })",
    ],
  },
  {
    name: 'querystring', env: 'node', module: 'querystring', binding: 'querystring',
    exprs: [
      "querystring.parse('a=1&b=2&a=3')", "querystring.parse('a=%20b&c&&=x&d=')", "querystring.parse('a+b=c+d')", "querystring.parse('w:%D6%D0;foo:bar', ';', ':')",
      "querystring.parse('a=1&b=2&c=3', null, null, { maxKeys: 2 })", "Object.getPrototypeOf(querystring.parse('a=1')) === null", "querystring.parse('a=%zz&b=%E2%82')",
      "querystring.stringify({ a: [1, 2], b: 'x y', c: '', d: null, e: true, f: 5n, g: {} })", "querystring.stringify({ w: '中文', foo: 'bar' }, ';', ':')",
      "querystring.escape('a b&c=ü')", "querystring.unescape('a%20b+c')", "querystring.unescape('%E2%82')", "querystring.encode({ a: 1 })", "querystring.decode('a=1')",
      "querystring.stringify('x')",
    ],
  },
  {
    name: 'string_decoder', env: 'node', module: 'string_decoder', binding: 'string_decoder',
    exprs: [
      "(() => { const d = new string_decoder.StringDecoder('utf8'); const euro = Buffer.from('€'); return d.write(euro.subarray(0, 1)) + '|' + d.write(euro.subarray(1)) + '|' + d.end(); })()",
      "(() => { const d = new string_decoder.StringDecoder('utf8'); return d.write(Buffer.from([0xe2, 0x82])) + '|' + d.end(); })()",
      "(() => { const d = new string_decoder.StringDecoder('hex'); return d.write(Buffer.from('ab')) + d.end(); })()",
      "(() => { const d = new string_decoder.StringDecoder('base64'); return d.write(Buffer.from('abcd')) + '|' + d.end(); })()",
      "(() => { const d = new string_decoder.StringDecoder('utf16le'); return d.write(Buffer.from([0x61, 0x00, 0x62])) + '|' + d.end(Buffer.from([0x00])); })()",
    ],
  },
  {
    name: 'Buffer', env: 'node', module: 'buffer', binding: 'buffer',
    exprs: [
      "Buffer.from('hello').toString('base64')", "Buffer.from('aGVsbG8=', 'base64').toString()", "Buffer.from('hello').toString('hex')", "Buffer.from([1, 2, 3]).toJSON()",
      "Buffer.from('hello?>').toString('base64url')", "Buffer.from('aGVsbG8_Pg', 'base64url').toString()", "Buffer.byteLength('aGVsbG8_Pg', 'base64url')", "Buffer.isEncoding('base64url')",
      "Buffer.concat([Buffer.from('a'), Buffer.from('bc')]).toString()", "Buffer.byteLength('€')", "Buffer.alloc(3, 'ab').toString()", "Buffer.isBuffer(Buffer.alloc(1))",
      "Buffer.from('abc').equals(Buffer.from('abc'))", "Buffer.compare(Buffer.from('a'), Buffer.from('b'))", "Buffer.from('hello world').subarray(0, 5).toString()",
      "(() => { const b = Buffer.alloc(8); b.writeUInt32BE(0xdeadbeef, 0); b.writeInt16LE(-2, 4); return [b.readUInt32BE(0), b.readInt16LE(4), b.toString('hex')]; })()",
      "(() => { const b = Buffer.alloc(8); b.writeDoubleLE(1.5); return b.readDoubleLE(0); })()", "(() => { const b = Buffer.alloc(8); b.writeBigInt64BE(5n); return String(b.readBigInt64BE(0)); })()",
      "Buffer.from('héllo', 'latin1').toString('latin1')", "Buffer.from('hi').toString('utf16le').length", "Buffer.from('abc').indexOf('c')", "Buffer.from('abc').includes('b')",
      "String(Buffer.from('xyz'))", "Buffer.from(new Uint8Array([104, 105])).toString()", "Buffer.from('ff', 'hex')[0]", "[...Buffer.from('ab')]", "JSON.stringify(Buffer.from('a'))",
      "Buffer.from('hello').toString('ascii', 1, 3)", "typeof buffer.Buffer", "buffer.Buffer === Buffer",
      "Buffer.from([0xe2, 0x82, 0x41, 0xff, 0xf0, 0x9f, 0x98, 0x80, 0xed, 0xa0, 0x80, 0xc0, 0xaf, 0xf0, 0x9f]).toString()", "Buffer.from('añ€😀').toString('utf8', 1, 6)",
    ],
  },
  {
    name: 'events', env: 'node', module: 'events', binding: 'events',
    exprs: [
      "(() => { const e = new events(); const out = []; e.on('x', (a) => out.push('on' + a)); e.once('x', (a) => out.push('once' + a)); e.prependListener('x', () => out.push('first')); e.emit('x', 1); e.emit('x', 2); return out; })()",
      "(() => { const e = new events.EventEmitter(); return [e.listenerCount('x'), e.emit('x'), e.getMaxListeners(), typeof events.once, e.eventNames()]; })()",
      "(() => { const e = new events(); try { e.emit('error', new Error('boom')); } catch (err) { return err.message; } })()",
      "(() => { const e = new events(); const h = () => {}; e.on('a', h); e.off('a', h); e.on('b', h); return [e.eventNames(), e.listeners('b').length]; })()",
      "(() => { class My extends events {} const m = new My(); let got; m.on('data', (d) => { got = d; }); m.emit('data', 5); return got; })()",
      "(() => { const e = new events(); let seen; e.on('newListener', (n) => { seen = n; }); e.on('z', () => {}); return seen; })()",
    ],
  },
  {
    name: 'crypto hashes and HMACs', env: 'node-crypto', module: 'crypto', binding: 'crypto',
    exprs: [
      "['md5', 'sha1', 'sha256', 'sha512', 'sha224', 'sha384', 'SHA256', 'RSA-SHA256', 'sha512-256', 'sha3-256', 'ripemd160', 'shake256', 'blake2b512'].map((a) => crypto.createHash(a).update('x').digest('hex'))",
      "crypto.createHash('shake128', { outputLength: 8 }).update('x').digest('hex')", "crypto.createHash('sha256').update('a').update(Buffer.from('b')).digest('base64')",
      "crypto.createHash('md5').update('héllo', 'latin1').digest('hex')", "crypto.createHash('sha256').update('x').digest('base64url')", "crypto.createHash('sha256').update('x').digest().length",
      "crypto.createHash('sha256').update(new Uint8Array([1, 2])).digest('hex')", "crypto.createHash('sha256').update('x').copy().digest('hex')",
      "crypto.createHmac('sha256', 'key').update('data').digest('hex')", "crypto.createHmac('sha1', Buffer.from('k')).update('d').digest('base64')",
      "crypto.createHmac('md5', 'k').update('d').digest('hex')", "crypto.createHmac('sha512', 'k').update('d').digest('hex')",
      "(() => { const h = crypto.createHash('sha1'); h.update('a'); h.digest(); try { h.digest(); } catch (e) { return e.code; } })()",
      "(() => { try { crypto.createHash('nope'); } catch (e) { return [e.name, e.message]; } })()", "crypto.pbkdf2Sync('pw', 'salt', 10, 16, 'sha256').toString('hex')",
      "crypto.timingSafeEqual(Buffer.from('ab'), Buffer.from('ab'))", "crypto.hash('sha1', 'x')", "crypto.getHashes().includes('sha256')",
    ],
  },
  {
    name: 'assert and assert/strict', env: 'node-assert', module: 'assert', binding: 'assert',
    exprs: [
      "(() => { assert.deepEqual({ a: 1 }, { a: '1' }); assert.deepStrictEqual(new Map([[1, { a: 1 }]]), new Map([[1, { a: 1 }]])); assert.strictEqual(NaN, NaN); return 'pass'; })()",
      "(() => { try { assert.deepStrictEqual({ a: 1 }, { a: '1' }); } catch (e) { return [e.name, e.code, e instanceof assert.AssertionError, e.operator, e.generatedMessage, e.actual, e.expected]; } })()",
      "(() => { try { assert.strict.deepEqual({ a: 1 }, { a: '1' }); } catch (e) { return [e.name, e.code, e.operator]; } })()",
      "(() => { try { assert.deepEqual({ a: [1, 2] }, { a: [1, 3] }); } catch (e) { return [e.name, e.code, e.operator]; } })()",
      "(() => { try { assert.equal(1, 2); } catch (e) { return [e.name, e.message, e.actual, e.expected, e.operator]; } })()",
      "(() => { try { assert.ok(0, 'zero'); } catch (e) { return [e.name, e.message]; } })()",
      "(() => { try { assert.throws(() => { throw new TypeError('x'); }, TypeError); assert.throws(() => {}); } catch (e) { return [e.name, e.message]; } })()",
      "(() => { try { assert.notDeepStrictEqual([1], [1]); } catch (e) { return [e.name, e.code, e.operator]; } })()",
      "(() => { try { assert.match('abc', /x/); } catch (e) { return [e.name, e.code, e.operator]; } })()",
      "(() => { try { assert.fail('boom'); } catch (e) { return [e.name, e.message, e.code]; } })()",
      "(() => { try { assert.deepEqual([1, 2], [1, 2, 3]); } catch (e) { return e.message.split('\\n')[0]; } })()",
      "typeof assert.rejects", "assert.strict.strict === assert.strict",
    ],
  },
];

/** JSON for both sides alike: bigints as text. */
const toJson = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x)) ?? 'undefined';

/** Each expression's result, or its error as [name, message]. */
function onHost(c: SameAsNode): unknown[] {
  const mod: unknown = hostRequire(`node:${c.module}`);
  return c.exprs.map((e) => {
    try {
      return JSON.parse(toJson(['ok', new Function(c.binding, `return (${e});`)(mod)])) as unknown;
    } catch (error) {
      return ['err', `${(error as Error).name}: ${(error as Error).message}`];
    }
  });
}

for (const c of selected(SAME_AS_NODE)) {
  test(`node environments: ${c.name} as Node's`, { timeout: 120_000 }, async () => {
    const tries = c.exprs.map((e) => `try { out.push(['ok', ${e}]); } catch (err) { out.push(['err', String(err && err.name) + ': ' + String(err && err.message)]); }`);
    const code = `const ${c.binding} = require('${c.module}'); const out = [];\n${tries.join('\n')}\nconsole.log(JSON.stringify(out, (k, x) => typeof x === 'bigint' ? x + 'n' : x));`;
    const result = await runWithEnvironments([c.env], code);
    assert.equal(result.error, undefined);
    const got = JSON.parse(result.logs[0] ?? '[]') as unknown[];
    const want = onHost(c);
    c.exprs.forEach((e, i) => assert.deepEqual(got[i], want[i], e));
  });
}

// ---- 2. What the environments model, through the harness ------------------------------------------------

interface Case {
  readonly name: string;
  readonly envs: readonly string[];
  readonly code: string;
  readonly logs: readonly string[];
  /** What the stand-in generator gives, by element id. */
  readonly values?: Record<string, unknown>;
  /** The uncaught error, `Name: message`. */
  readonly error?: string;
}

const CASES: readonly Case[] = [
  {
    name: '__dirname, __filename, module.exports === exports, require.main === module, global',
    envs: ['node'],
    code: 'console.log(__dirname, __filename, module.exports === exports, require.main === module, module.filename, global === globalThis)',
    logs: ['/app /app/snippet.js true true /app/snippet.js true'],
  },
  {
    name: 'process: argv, cwd(), chdir, platform, env with defaults and learnt values (as strings), hrtime',
    envs: ['node'],
    code: `console.log(process.argv.length, process.argv[0], process.argv[1], process.cwd(), process.platform, process.version.startsWith('v'));
      console.log(process.env.NODE_ENV, process.env.PORT, typeof process.env.PORT, process.env.DEBUG, process.env.API_KEY, 'MISSING' in process.env);
      process.env.COUNT = 5; console.log(typeof process.env.COUNT, Object.keys(process.env).includes('COUNT'));
      process.chdir('sub'); console.log(process.cwd(), typeof process.hrtime.bigint(), process.hrtime().length);`,
    values: { 'process.env.PORT': 8080, 'process.env.DEBUG': true, 'process.env.API_KEY': 'k-123' },
    logs: ['2 /usr/local/bin/node /app/snippet.js /app linux true', 'development 8080 string true k-123 false', 'string true', '/app/sub bigint 2'],
  },
  {
    name: 'process.stdout.write joins partial lines; exit listeners and beforeExit run at the end',
    envs: ['node'],
    code: `process.on('exit', (c) => console.log('exit', c)); process.on('beforeExit', () => console.log('beforeExit'));
      process.stdout.write('par'); process.stdout.write('tial\\nrest'); console.log('log');`,
    logs: ['partial', 'log', 'beforeExit', 'exit 0', 'rest'],
  },
  {
    name: 'timers and timers/promises on the virtual clock; util.promisify(setTimeout) as Node\'s custom form',
    envs: ['node'],
    code: `const { setTimeout: wait } = require('timers/promises'); const util = require('util');
      wait(20, 'tp').then((v) => console.log(v)); util.promisify(setTimeout)(10, 'pz').then((v) => console.log(v));
      require('timers').setTimeout(() => console.log('t'), 5);`,
    logs: ['t', 'pz', 'tp'],
  },
  {
    name: 'fs: a .json file the snippet reads holds JSON of the value the generator gives',
    envs: ['node-fs'],
    code: `const fs = require('fs'); const config = JSON.parse(fs.readFileSync('./config.json', 'utf8')); console.log(config.port + 1, config.name.toUpperCase());`,
    values: { 'fs.readFileSync("/app/config.json")': { port: 3000, name: 'demo' } },
    logs: ['3001 DEMO'],
  },
  {
    name: 'fs: with no value a .json file still parses, a .csv has a header; a listing the generator gives exists',
    envs: ['node-fs'],
    code: `const fs = require('fs'); console.log(JSON.stringify(JSON.parse(fs.readFileSync('/app/x.json', 'utf8'))), fs.readFileSync('data.csv', 'utf8').split('\\n')[0]);
      console.log(JSON.stringify(fs.readdirSync('/data')), fs.readFileSync('/data/a.txt', 'utf8'), fs.statSync('/data/b.txt').isFile());`,
    values: { 'fs.readdirSync("/data")': ['a.txt', 'b.txt'], 'fs.readFileSync("/data/a.txt")': 'line1\nline2' },
    logs: ['{} id,name', '["a.txt","b.txt"] line1\nline2 true'],
  },
  {
    name: 'fs: writeFileSync then readFileSync round-trips; existsSync; a removed file stays removed; append starts a missing file empty',
    envs: ['node-fs'],
    code: `const fs = require('fs');
      fs.writeFileSync('/tmp/out.txt', 'hello'); console.log(fs.readFileSync('/tmp/out.txt', 'utf8'), fs.existsSync('/tmp/out.txt'), fs.existsSync('/app/nodir'));
      fs.unlinkSync('/tmp/out.txt'); console.log(fs.existsSync('/tmp/out.txt'));
      try { fs.readFileSync('/tmp/out.txt'); } catch (e) { console.log(e.code); }
      fs.mkdirSync('/app/logs/deep', { recursive: true }); fs.appendFileSync('/app/logs/deep/a.log', 'x'); fs.appendFileSync('/app/logs/deep/a.log', 'y');
      console.log(fs.readFileSync('/app/logs/deep/a.log', 'utf8'), JSON.stringify(fs.readdirSync('/app/logs/deep')), Buffer.isBuffer(fs.readFileSync('/app/logs/deep/a.log')));
      fs.rmSync('/app/logs', { recursive: true }); console.log(fs.existsSync('/app/logs/deep/b.json'));`,
    logs: ['hello true false', 'false', 'ENOENT', 'xy ["a.log"] true', 'false'],
  },
  {
    name: 'fs.promises, fs/promises and callbacks',
    envs: ['node-fs'],
    code: `const fs = require('fs'); const fsp = require('fs/promises');
      (async () => { await fsp.writeFile('a.txt', 'A'); console.log(await fs.promises.readFile('/app/a.txt', 'utf8')); const s = await fsp.stat('a.txt'); console.log(s.size); })();
      fs.readFile('/app/notes.txt', 'utf8', (err, data) => console.log('cb', err, data));`,
    values: { 'fs.readFileSync("/app/notes.txt")': 'n' },
    logs: ['cb null n', 'A', '1'],
  },
  {
    name: 'child_process: nothing runs; exec gives empty strings, execSync an empty Buffer, children exit 0; promisify(exec) resolves { stdout, stderr }',
    envs: ['node'],
    code: `const cp = require('child_process'); const util = require('util');
      console.log(cp.execSync('touch /tmp/x').length, JSON.stringify(cp.execSync('ls', { encoding: 'utf8' })), cp.spawnSync('ls').status);
      cp.exec('rm -rf /', (err, stdout, stderr) => console.log('exec', err, typeof stdout, stdout.length));
      cp.spawn('ls').on('close', (code) => console.log('close', code));
      util.promisify(cp.exec)('ls').then((r) => console.log('promisified', JSON.stringify(r)));`,
    logs: ['0 "" 0', 'exec null string 0', 'close 0', 'promisified {"stdout":"","stderr":""}'],
  },
  {
    name: 'net: a listening server gets one connection after the snippet, with the learnt data; nothing listens',
    envs: ['node'],
    code: `const net = require('net');
      const server = net.createServer((sock) => { sock.on('data', (d) => { console.log('got', String(d)); sock.end('bye'); }); });
      server.listen(4000, () => console.log('listening', server.address().port));
      console.log(net.isIP('1.2.3.4'), net.isIP('::1'), net.isIP('x'));`,
    values: { 'socket.data': 'ping' },
    logs: ['4 6 0', 'listening 4000', 'got ping'],
  },
  {
    name: 'os: a fixed Linux machine',
    envs: ['node'],
    code: "const os = require('os'); console.log(os.platform(), os.type(), os.EOL === '\\n', os.cpus().length, os.homedir(), os.tmpdir(), typeof os.totalmem(), os.hostname());",
    logs: ['linux Linux true 4 /home/node /tmp number snipexec'],
  },
  {
    name: "crypto: a member of Node's crypto the model lacks is learnt from usage; one Node no longer has (createCipher) stays undefined",
    envs: ['node', 'node-crypto'],
    code: `const crypto = require('crypto'); const { createSign } = crypto;
      console.log(crypto.createCipheriv, createSign, crypto.pseudoRandomBytes(4).length, typeof crypto.createCipher, typeof crypto.noSuchThing);`,
    values: { 'require("crypto").createCipheriv': 'cipher', 'require("crypto").createSign': 'sign' },
    logs: ['cipher sign 4 undefined undefined'],
  },
  {
    name: "os, child_process, net: a member of Node's module the model lacks is learnt from usage; process.stdin.setRawMode as a terminal's",
    envs: ['node'],
    code: `console.log(require('net').getDefaultAutoSelectFamilyAttemptTimeout, require('child_process').execFile !== undefined, require('net').getDefaultAutoSelectFamily, typeof require('os').nothing);
      console.log(process.stdin.setRawMode(true) === process.stdin, process.stdin.isRaw);`,
    values: { 'require("net").getDefaultAutoSelectFamilyAttemptTimeout': 'sp', 'require("net").getDefaultAutoSelectFamily': 'gd' },
    logs: ['sp true gd undefined', 'true true'],
  },
  {
    name: 'crypto: a Hash is a stream: setEncoding, write, end, read; piped into, it gives its digest',
    envs: ['node', 'node-crypto'],
    code: `const crypto = require('crypto');
      const hash = crypto.createHash('sha1'); hash.setEncoding('hex'); hash.write('x'); hash.end(); console.log(hash.read(), hash.read());
      const h2 = crypto.createHash('md5'); h2.on('data', (d) => console.log('data', d.toString('hex'))); h2.on('finish', () => console.log('finish')); h2.end('x');`,
    logs: ['11f6ad8ec52a2984abaafd7c3b516503785c2072 null', 'finish', 'data 9dd4e461268c8034f5c8564e155c67a6'],
  },
];

for (const c of selected(CASES)) {
  test(`node environments: ${c.name}`, { timeout: 120_000 }, async () => {
    const result = await runWithEnvironments(c.envs, c.code, { values: c.values ?? {}, timers: true });
    assert.deepEqual(result.logs, c.logs);
    assert.equal(result.error?.text, c.error);
  });
}

// ---- 3. End to end through runSnippet -------------------------------------------------------------------

interface EndToEnd {
  readonly name: string;
  readonly code: string;
  readonly options?: Parameters<typeof runSnippet>[1];
  readonly check: (r: RunResult) => void | Promise<void>;
  /** Why the case is expected to fail for now. */
  readonly todo?: string;
}

const completes = (r: RunResult, environments: readonly string[]) => {
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.lines.uncovered, []);
  assert.deepEqual(r.environments?.loaded, environments);
};

const hostDigests = ['md5', 'sha1', 'sha256', 'sha512'].map((a) => `${a} ${createHash(a).update('x').digest('hex')} ${createHmac(a, 'key').update('data').digest('hex')}`);

const untouched = join(tmpdir(), `snipexec-node-env-${process.pid}`);

const END_TO_END: readonly EndToEnd[] = [
  {
    name: "require('path').join is the real one",
    code: "const path = require('path');\nconsole.log(path.join('a', 'b'));\n",
    check: (r) => {
      completes(r, ['node']);
      assert.equal(r.stdout, 'a/b\n');
      assert.equal(r.injections.length, 0, 'nothing injected: path is the environment\'s');
    },
  },
  {
    name: 'process.env.PORT used as a number is a numeric string',
    code: 'const port = process.env.PORT;\nconst next = Number(port) + 1;\nconsole.log(typeof port, /^\\d+$/.test(port), Number.isInteger(next));\n',
    check: (r) => {
      completes(r, ['node']);
      assert.equal(r.stdout, 'string true true\n');
    },
  },
  {
    name: '__dirname, __filename, module.exports, require.main === module, require.resolve, node: specifiers',
    code: "const path = require('path');\nmodule.exports = { file: path.basename(__filename) };\nif (require.main === module) {\n  console.log(__dirname, module.exports.file, exports === module.exports, require('node:path') === path, require.resolve('./lib/x.js'));\n}\n",
    check: (r) => {
      completes(r, ['node']);
      assert.equal(r.stdout, '/app snippet.js false true /app/lib/x.js\n');
    },
  },
  {
    name: 'process.argv and cwd()',
    code: "const args = process.argv.slice(2);\nconsole.log(process.argv.length, args.length, process.cwd());\n",
    check: (r) => {
      completes(r, ['node']);
      assert.equal(r.stdout, '2 0 /app\n');
    },
  },
  {
    name: 'process.exit(2) ends the run as completed with exitCode 2; the lines after are not covered',
    code: "console.log('a');\nif (process.argv.length > 1) {\n  process.exit(2);\n}\nconsole.log('b');\n",
    check: (r) => {
      assert.equal(r.status, 'completed', JSON.stringify(r.errors));
      assert.equal(r.exitCode, 2);
      assert.deepEqual(r.errors, []);
      assert.deepEqual(r.lines.uncovered, [5]);
      assert.equal(r.stdout, 'a\n');
    },
  },
  {
    name: "an 'exit' listener runs before the run ends, and the line that called exit stays covered",
    code: "process.on('exit', (code) => console.log('exit', code));\nconsole.log('a');\nprocess.exit(2);\nconsole.log('b');\n",
    check: (r) => {
      assert.equal(r.status, 'completed', JSON.stringify(r.errors));
      assert.equal(r.exitCode, 2);
      assert.equal(r.stdout, 'a\nexit 2\n');
      assert.deepEqual(r.lines.uncovered, [4]);
    },
  },
  {
    name: 'nextTick runs before promise callbacks, which run before timers, as Node orders them',
    code: "setTimeout(() => console.log('timeout'), 0);\nPromise.resolve().then(() => console.log('promise'));\nprocess.nextTick(() => console.log('tick'));\nqueueMicrotask(() => console.log('microtask'));\nconsole.log('sync');\n",
    check: (r) => {
      completes(r, ['node']);
      const host = spawnSync(process.execPath, ['-e', "setTimeout(() => console.log('timeout'), 0);\nPromise.resolve().then(() => console.log('promise'));\nprocess.nextTick(() => console.log('tick'));\nqueueMicrotask(() => console.log('microtask'));\nconsole.log('sync');\n"], { encoding: 'utf8' });
      assert.equal(r.stdout, host.stdout);
    },
  },
  {
    name: 'fs: a .json file the snippet JSON.parses holds JSON of the learnt shape, so the snippet completes',
    code: "const fs = require('fs');\nconst config = JSON.parse(fs.readFileSync('./config.json', 'utf8'));\nconsole.log(config.port + 1, config.name.toUpperCase());\n",
    check: (r) => {
      completes(r, ['node', 'node-fs']);
      assert.match(r.stdout, /^\d+ [A-Z]+\n$/);
      assert.ok(!r.errors.some((e) => e.attribution === 'snippet'));
    },
  },
  {
    name: "fs: a text file the snippet splits on '\\n' has lines",
    code: "const fs = require('fs');\nconst lines = fs.readFileSync('notes.txt', 'utf8').split('\\n');\nconsole.log(lines.length > 1, lines.every((l) => typeof l === 'string'));\n",
    check: (r) => {
      completes(r, ['node', 'node-fs']);
      assert.equal(r.stdout, 'true true\n');
    },
  },
  {
    name: 'fs: writeFileSync round-trips, fs.promises, existsSync and readdirSync',
    code: "const fs = require('fs');\nfs.writeFileSync('/tmp/out.txt', 'hello');\nconsole.log(fs.readFileSync('/tmp/out.txt', 'utf8'), fs.existsSync('/tmp/out.txt'), fs.readdirSync('/tmp').includes('out.txt'));\nfs.promises.readFile('/tmp/out.txt', 'utf8').then((t) => console.log('async', t));\n",
    check: (r) => {
      completes(r, ['node', 'node-fs']);
      assert.equal(r.stdout, 'hello true true\nasync hello\n');
    },
  },
  {
    name: "crypto: createHash and createHmac give the host's node:crypto digests",
    code: "const crypto = require('crypto');\nfor (const a of ['md5', 'sha1', 'sha256', 'sha512']) {\n  console.log(a, crypto.createHash(a).update('x').digest('hex'), crypto.createHmac(a, 'key').update('data').digest('hex'));\n}\n",
    check: (r) => {
      completes(r, ['node', 'node-crypto']);
      assert.equal(r.stdout, `${hostDigests.join('\n')}\n`);
    },
  },
  {
    name: 'crypto: randomUUID is a v4 UUID, randomBytes has the length asked for',
    code: "const crypto = require('crypto');\nconsole.log(crypto.randomUUID(), crypto.randomBytes(16).length, crypto.randomBytes(8).toString('hex').length);\n",
    check: (r) => {
      completes(r, ['node', 'node-crypto']);
      assert.match(r.stdout, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12} 16 16\n$/);
    },
  },
  {
    name: 'assert.deepEqual passes on loosely equal values; assert/strict fails with an AssertionError as Node\'s, at the snippet\'s line',
    code: "const assert = require('assert');\nassert.deepEqual({ a: 1 }, { a: '1' });\nconsole.log('loose ok');\nrequire('assert/strict').deepEqual({ a: 1 }, { a: '1' });\nconsole.log('after');\n",
    check: (r) => {
      assert.equal(r.status, 'stopped');
      assert.equal(r.stdout, 'loose ok\n');
      assert.equal(r.errors.length, 1);
      const [e] = r.errors;
      assert.equal(e?.type, 'AssertionError');
      assert.match(e?.message ?? '', /^Expected values to be strictly deep-equal:/);
      // Node reports a failed assertion where the snippet asserted: the error's stack starts there
      assert.equal(e?.line, 4);
      assert.equal(e?.attribution, 'snippet');
      assert.deepEqual(r.environments?.loaded, ['node', 'node-assert']);
    },
  },
  {
    name: 'an error raised inside environment code is attributed "environment"',
    // (path.join(null) is Node's own ERR_INVALID_ARG_TYPE, blamed on the snippet: test/probeArgs.test.ts)
    code: "const { EventEmitter } = require('events');\nconst p = EventEmitter.prototype.emit.call(null, 'x');\nconsole.log(p);\n",
    check: (r) => {
      assert.equal(r.status, 'stopped');
      assert.equal(r.errors.length, 1);
      assert.equal(r.errors[0]?.type, 'TypeError');
      assert.equal(r.errors[0]?.attribution, 'environment');
      assert.equal(r.errors[0]?.line, 2);
    },
  },
  {
    name: 'os, child_process and net are modelled: nothing reaches the host',
    code: `const { execSync, exec } = require('child_process');\nconst os = require('os');\nconst out = execSync('touch ${untouched}');\nexec('touch ${untouched}', (err, stdout) => console.log('exec', err, JSON.stringify(stdout)));\nrequire('net').connect(80, 'example.com', () => console.log('connected'));\nconsole.log(out.length, os.hostname(), os.userInfo().username);\n`,
    check: (r) => {
      completes(r, ['node']);
      assert.equal(r.stdout, '0 snipexec node\nexec null ""\nconnected\n');
      assert.equal(existsSync(untouched), false, 'the command ran on the host');
    },
  },
  {
    name: 'randomUUID is the same for the same seed, different for another',
    code: "console.log(require('crypto').randomUUID());\n",
    check: async (r) => {
      completes(r, ['node', 'node-crypto']);
      const again = await runSnippet("console.log(require('crypto').randomUUID());\n", { seed: 7 });
      const other = await runSnippet("console.log(require('crypto').randomUUID());\n", { seed: 8 });
      assert.equal(again.stdout, r.stdout);
      assert.notEqual(other.stdout, r.stdout);
    },
    options: { seed: 7 },
  },
  {
    name: 'a require of a computed name no environment has goes on with a learnt value',
    code: "const path = require('path');\nconst config = require(path.join(__dirname, 'config.json'));\nconsole.log(config.port + 1);\n",
    check: (r) => {
      completes(r, ['node']);
      assert.match(r.stdout, /^\d+\n$/);
    },
  },
  {
    name: 'the completed program of a computed require beside the node environment runs under node',
    code: "const path = require('path');\nconst config = require(path.join(__dirname, 'config.json'));\nconsole.log(config.port + 1);\n",
    check: async (r) => {
      completes(r, ['node']);
      assert.ok(r.program !== undefined);
      const run = await runWithNode(r.program, { timeoutMs: 30_000 });
      assert.equal(run.exitCode, 0, `${run.output}\n${r.program}`);
      assert.equal(run.output, r.stdout);
    },
  },
  {
    name: 'a static require of a module no environment has, beside the node environment: the completed program runs under node',
    code: "const path = require('path');\nconst pad = require('left-pad-not-installed');\nconsole.log(typeof pad, path.join('a', 'b'));\n",
    check: async (r) => {
      assert.equal(r.status, 'completed', JSON.stringify(r.errors));
      assert.ok(r.injections.some((i) => i.element === 'require("left-pad-not-installed")'), JSON.stringify(r.injections));
      assert.ok(r.program !== undefined);
      const run = await runWithNode(r.program, { timeoutMs: 30_000 });
      assert.equal(run.exitCode, 0, `${run.output}\n${r.program}`);
      assert.equal(run.output, r.stdout);
    },
  },
];

test.after(() => rmSync(untouched, { force: true }));

for (const c of selected(END_TO_END)) {
  test(`node environments end to end: ${c.name}`, { timeout: 180_000, ...(c.todo ? { todo: c.todo } : {}) }, async () => {
    await c.check(await runSnippet(c.code, { timeoutMs: 30_000, ...c.options }));
  });
}
