import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSnippet } from '../src/engine/runSnippet.ts';
import { runWithEnvironments } from './environmentHarness.ts';

/** Each case runs its snippet on browser + jquery in a bare isolate (harness), with virtual timers. */
interface Case {
  readonly name: string;
  readonly code: string;
  readonly logs: readonly string[];
  readonly values?: Record<string, unknown>;
  readonly error?: RegExp;
}

const CASES: readonly Case[] = [
  {
    name: 'a click handler runs with a jQuery event, preventDefault works (fired by the browser driver)',
    code: "$('#b').on('click', function (e) { e.preventDefault(); console.log(e.type, typeof e.originalEvent, e.isDefaultPrevented(), this.id, e instanceof $.Event) })",
    logs: ['click object true b true'],
  },
  {
    name: '.click(fn) registers like .on',
    code: "$('.btn').click(function () { console.log('clicked', $(this).hasClass('btn')) })",
    logs: ['clicked true'],
  },
  {
    name: '$(fn) and .ready run once the page is loaded, after the snippet',
    code: "$(function () { console.log('ready', typeof $) }); $(document).ready(() => console.log('ready 2')); console.log('snippet')",
    logs: ['snippet', 'ready function', 'ready 2'],
  },
  {
    name: '.val reads and writes, .each iterates, .find, .append, .text',
    code: "$('body').append('<ul id=\"l\"><li>a</li><li>b</li></ul><input id=\"i\" value=\"v\">'); $('#l').find('li').each(function (i) { console.log(i, $(this).text()) }); console.log($('#i').val()); $('#i').val('w'); console.log($('#i').val(), $('#l li').length)",
    logs: ['0 a', '1 b', 'v', 'w 2'],
  },
  {
    name: '.toggle hides and shows; :visible and :hidden follow display',
    code: "$('body').append('<p id=\"p\">x</p>'); console.log($('#p').is(':visible')); $('#p').toggle(); console.log($('#p').css('display'), $('#p').is(':hidden')); $('#p').toggle(); console.log($('#p').is(':visible'))",
    logs: ['true', 'none true', 'true'],
  },
  {
    name: 'classes, attributes, data, chaining',
    code: "const $d = $('<div>').addClass('a b').attr('title', 't').data('k', 1).removeClass('a'); console.log($d.attr('class'), $d.attr('title'), $d.data('k'), $d.is('.b'))",
    logs: ['b t 1 true'],
  },
  {
    name: 'trigger runs the handlers with a jQuery event that has no native event; the driver fires them again with a native one',
    code: "$('#x').on('custom', (e, a) => console.log(e.type, a, typeof e.originalEvent)); $('#x').trigger('custom', ['arg'])",
    logs: ['custom arg undefined', 'custom undefined object'],
  },
  {
    name: '$.getJSON completes through the modelled fetch with the learnt data; success and .done run',
    code: "$.getJSON('/api/users', function (data) { console.log(data[0].name) }).done((d) => console.log('done', d.length))",
    values: { 'fetch("/api/users").json()': [{ name: 'Ada' }] },
    logs: ['Ada', 'done 1'],
  },
  {
    name: '$.get and $.post with no dataType give the JSON value; .then runs',
    code: "$.get('/a', (d) => console.log('get', d.ok)); $.post('/b', { x: 1 }).then((d) => console.log('post', d.id))",
    values: { 'fetch("/a").json()': { ok: true }, 'fetch("/b").json()': { id: 7 } },
    logs: ['get true', 'post 7'],
  },
  {
    name: '$.ajax with dataType text gives text',
    code: "$.ajax({ url: '/t', dataType: 'text', success: (t) => console.log(typeof t, t) })",
    values: { 'fetch("/t").text()': 'hello' },
    logs: ['string hello'],
  },
  {
    name: 'JSONP calls the callback with the learnt data',
    code: "$.ajax({ url: 'https://other.example/p?a=1', dataType: 'jsonp' }).done((d) => console.log('jsonp', d.n))",
    values: { 'fetch("https://other.example/p?a=1").json()': { n: 3 } },
    logs: ['jsonp 3'],
  },
  {
    name: '$.getScript completes (the script is modelled as loaded, running nothing); cache: false asks for the same URL',
    code: "$.getScript('https://cdn.example/x.js', () => console.log('loaded')); $.ajax({ url: '/c', cache: false }).done((d) => console.log('c', d.v))",
    values: { 'fetch("/c").json()': { v: 1 } },
    logs: ['loaded', 'c 1'],
  },
  {
    name: 'a delegated handler runs: the driver fires at an element matching its selector, made under the delegating element',
    code: "$('#todo-list').on('click', 'li .remove', function (e) { e.stopPropagation(); const $li = $(this).closest('li'); console.log(this.className, $li.length, $li.parent().attr('id'), e.delegateTarget.id, e.currentTarget === this) })",
    logs: ['remove 1 todo-list todo-list true'],
  },
  {
    name: "delegation on the document: each selector gets its click, the document's own handler runs with each",
    code: "$(document).on('click', '.btn', function () { console.log('btn', this.tagName) }); $(document).on('click', 'a.more', function (e) { e.preventDefault(); console.log('more', this.tagName) }); $(document).on('click', function () { console.log('doc') })",
    logs: ['btn DIV', 'doc', 'more A', 'doc'],
  },
  {
    name: '.text(), .attr() and .data() read what the page has: learnt text and attributes of the queried elements',
    code: "$('table#cart tr').each(function () { console.log($(this).find('.price').text(), $(this).attr('data-id'), $(this).data('qty'), $(this).find('a').attr('href')) })",
    values: { 'element.getElementsByClassName("price").textContent': '4.5', 'document.querySelectorAll("table#cart tr").getAttribute("data-id")': '7', 'document.querySelectorAll("table#cart tr").getAttribute("data-qty")': '3', 'element.getElementsByTagName("a").getAttribute("href")': '/item/7' },
    logs: ['4.5 7 3 /item/7'],
  },
  {
    name: "require('jquery') is the same $",
    code: "console.log(require('jquery') === $, jQuery === $, window.$ === $)",
    logs: ['true true true'],
  },
  // jQuery 3.7.1, the last 3.x: the utilities and methods Stack Overflow answers use, which jQuery 4 removed
  {
    name: 'it is jQuery 3.7.1: $.trim, $.isArray, $.parseJSON, $.isFunction, $.type, $.isNumeric, $.camelCase, $.now, $.proxy work',
    code: "console.log($.fn.jquery, JSON.stringify($.trim('  a b \\t')), $.isArray([1]), $.isArray('x'), $.parseJSON('{\"k\":[1,2]}').k[1], $.isFunction(() => 1), $.type(/x/), $.type(null), $.isNumeric('4.5'), $.isNumeric('x'), $.camelCase('font-size'), typeof $.now(), $.proxy(function () { return this.n }, { n: 9 })())",
    logs: ['3.7.1 "a b" true false 2 true regexp null true false fontSize number 9'],
  },
  {
    name: '.bind and .unbind register and remove handlers; .delegate delegates',
    code: "$('#a').bind('click', function () { console.log('a', this.id) }); const h = () => console.log('never'); $('#c').bind('click', h).unbind('click', h); $('#list').delegate('li', 'click', function () { console.log('li', this.tagName) })",
    logs: ['a a', 'li LI'],
  },
  {
    name: '$.parseHTML without a context parses in a document of its own (document.implementation)',
    code: "const [p] = $.parseHTML('<p></p>'); const d = document.implementation.createHTMLDocument('t'); console.log(p.tagName, p.ownerDocument !== document, d.title, d.body.children.length, document.body.children.length)",
    logs: ['P true t 0 0'],
  },
  {
    name: '.live does not exist in jQuery 3 (removed in 1.9): calling it fails in the snippet, as in a browser',
    code: "$('.item').live('click', function () { console.log('live') })",
    logs: [],
    error: /TypeError: \$\(\.\.\.\)\.live is not a function/,
  },
  {
    name: 'an error in a handler is the snippet\'s',
    code: "$('#b').on('click', function () { null.x })",
    logs: [],
    error: /TypeError: Cannot read properties of null/,
  },
];

for (const c of CASES) {
  test(`jquery: ${c.name}`, { timeout: 60_000 }, async () => {
    const result = await runWithEnvironments(['jquery'], c.code, { timers: true, values: c.values ?? {} });
    if (c.error) {
      assert.match(result.error?.text ?? '', c.error);
      assert.match(result.error?.file ?? '', /^snipexec:snippet\b/);
    } else assert.equal(result.error, undefined, result.error?.text);
    assert.deepEqual(result.logs, c.logs);
  });
}

test('jquery: loads without creating elements in the page, and defines $, jQuery and the jquery module', { timeout: 60_000 }, async () => {
  const result = await runWithEnvironments(['jquery'], 'console.log(document.body.children.length, typeof $.fn.jquery)');
  assert.deepEqual(result.logs, ['0 string']);
  assert.ok(result.modules.includes('jquery'));
});

// End to end (trace mode): what only a learning run shows, with the runtime's recording probes.
test('jquery end to end: $.each, $.map and $.grep over a learnt response run their callbacks, so the elements are learnt', { timeout: 120_000 }, async () => {
  const code = "$.getJSON('/api/items', function (data) {\n  $.each(data.items, function (i, item) {\n    $('#list').append('<li>' + item.name.toUpperCase() + '</li>');\n  });\n  var ids = $.map(data.users, function (u) { return u.id * 2; });\n  var adults = $.grep(data.users, function (u) { return u.age >= 18; });\n  console.log($('#list li').length, ids.length, adults.length);\n});\n";
  const r = await runSnippet(code, { timeoutMs: 30_000 });
  assert.deepEqual(r.errors, []);
  assert.deepEqual(r.lines.uncovered, []);
  assert.match(r.stdout, /^[1-9]\d* [1-9]\d* \d+\n$/);
});

test('jquery end to end: HTML of several elements makes that many (the parsing fragment is emptied by textContent, as the DOM defines it)', { timeout: 60_000 }, async () => {
  const code = "console.log($('<p>a</p><b>b</b>').length, $('<li>1</li><li>2</li><li>3</li>').filter('li').length);\nconst f = document.createDocumentFragment();\nf.appendChild(document.createElement('i')).textContent = 'x';\nconsole.log(f.textContent);\nf.textContent = '';\nconsole.log(f.childNodes.length);\n";
  const r = await runSnippet(code);
  assert.equal(r.status, 'completed', JSON.stringify(r.errors));
  assert.equal(r.stdout, '2 3\nx\n0\n');
});
