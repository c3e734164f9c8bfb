import type { Category } from '../core/categories.ts';
import type { Usage } from '../instrument/usage.ts';

/**
 * What naming conventions say of a value: one home for the rules. A name guess is the weakest
 * evidence: how the code uses the value, and what the snippet declares, come before it.
 *
 * CATEGORY_BY_NAME: the categories a name suggests, best first; the first row that matches decides.
 * STRING_BY_NAME and NUMBER_BY_NAME: the string or number to give a value of that name, so the code
 * sees one of the kind it expects (a URL, an email address, an ISO date, an index of 0…).
 */
const CATEGORY_BY_NAME: readonly (readonly [RegExp, readonly Category[]])[] = [
  // Case-sensitive where a prefix or suffix is meant: `isOpen`, `userId`, not `island`, `valid`.
  [/^(is|has|should|can|did|was|enable|disable|allow)[A-Z_]/, ['boolean']],
  [/^(enabled|disabled|visible|done|ok|debug|verbose|force)$/i, ['boolean']],
  [/^(uuid|guid)$/i, ['string']],
  [/^(id|uid|pid)$/i, ['number', 'string']],
  [/.(Id|ID)$/, ['number', 'string']],
  [/^(n|i|j|k|count|index|idx|length|size|total|num|port|timeout|delay|limit|offset|max|min|width|height|age|year|x|y|status|statusCode)$/i, ['number']],
  [/.(Count|Index|Length|Size|Total|Num|Port|Ms|Timeout)$/, ['number']],
  [/^(el|elem|element|node|btn|button|input|form|container|canvas|div|span|target)$/i, ['element']],
  [/.(El|Element|Node|Button|Input)$/, ['element']],
  [/^(cb|callback|fn|func|handler|next|done|resolve|reject|listener)$/i, ['function']],
  // Not `e`: a lone `e` is as often an event.
  [/^(err|error|ex|exception)$/i, ['Error']],
  // Not `pattern`: as often a glob or a regex's source text as a RegExp.
  [/^(re|regex|regexp)$/i, ['RegExp']],
  [/^(date|now|timestamp|when)$/i, ['Date']],
  [/.Date$/, ['Date', 'string']],
  [/^(promise|p)$/i, ['promise']],
  [/^(name|str|text|msg|message|url|uri|href|path|file|filename|dir|title|label|key|token|email|password|username|host|html|body|query|word|line|content|data)$/i, ['string']],
  [/.(Name|Path|Url|URL|Str|Text|Message|Key|Dir|File|Email)$/, ['string']],
  [/^(items|list|arr|array|rows|results|values|keys|entries|elements|args|users|files|lines|words|nodes|records)$/i, ['array']],
  [/^(?=.{4,}$)(?!.*ss$).*(List|Array|Items|s)$/, ['array']],
  [/^[A-Z][a-z]/, ['class']],
];

const STRING_BY_NAME: readonly (readonly [RegExp, string])[] = [
  // A whole name in any case; a suffix only as a camelCase or SCREAMING_CASE word (`apiUrl`, `API_URL`),
  // never inside a word: `createdAt`, not `format`; `configFile`, not `profile`; `dbHost`, not `ghost`.
  [/^(url|uri|href|link|endpoint|baseurl|api|apiurl|website|homepage|src)$|.(Url|URL|Uri|URI)$/i, 'https://example.com/'],
  [/^(email|mail)$/i, 'user@example.com'],
  [/.(Email|EMAIL)$/, 'user@example.com'],
  [/^(host|hostname|domain)$/i, 'example.com'],
  [/.(Host|HOST)$/, 'example.com'],
  [/^(dir|folder|directory|cwd|root)$/i, '/tmp/example'],
  [/.(Dir|DIR)$/, '/tmp/example'],
  [/^(path|file|filename|filepath|fname)$/i, '/tmp/example.txt'],
  [/.(Path|PATH|File|FILE|Filename|FileName)$/, '/tmp/example.txt'],
  [/^(json|body|payload)$/i, '{"id":1,"name":"example"}'],
  [/.(Json|JSON)$/, '{"id":1,"name":"example"}'],
  [/^(html|markup|template)$/i, '<div>example</div>'],
  [/.(Html|HTML)$/, '<div>example</div>'],
  [/^(date|day|timestamp|time|when|created|updated)$/i, '2024-01-01T00:00:00.000Z'],
  [/.(Date|DATE|At)$/, '2024-01-01T00:00:00.000Z'],
  [/^(method|verb)$/i, 'GET'],
  [/^(color|colour)$/i, '#336699'],
  [/^(lang|locale|language)$/i, 'en'],
  // Not a lone `key`: a lookup key (of a table, a map, a cache) more often than a secret; it gets its own name.
  [/^(token|secret|apikey|password|pass)$/i, 'example-token'],
  [/.(Token|TOKEN|Key|KEY|Secret|SECRET)$/, 'example-token'],
  [/^(id|uuid|guid)$|Id$/, 'id-1'],
  [/^(sql|query)$/i, 'SELECT 1'],
  [/^(text|msg|message|content|str|string|line|data|chunk|input|output|s)$/i, 'example text'],
];

const NUMBER_BY_NAME: readonly (readonly [RegExp, number])[] = [
  [/^port$/i, 3000],
  [/.Port$/, 3000],
  [/^(i|j|k|idx|index|offset|start|from|position|pos)$|Index$|Offset$/, 0],
  [/^(timeout|delay|ms|interval|duration|wait)$|Ms$|Timeout$|Delay$/, 100],
  [/^(year)$/i, 2024],
  [/^(status|statusCode|code)$/, 200],
  [/^(n|count|length|size|total|num|limit|max|amount|qty|quantity|len)$/i, 3],
  [/.(Count|Length|Size|Total)$/, 3],
  [/^(width|height|w|h)$|Width$|Height$/, 100],
  [/^(id|uid|pid)$|Id$/, 1],
];

/** The last step of an access path: `a.b.userId` is `userId`. */
function lastName(name: string): string {
  return name.replace(/^.*[.\]]/, '');
}

/** The categories a name suggests, best first; empty when it says nothing. */
export function byName(name: string): Category[] {
  const n = lastName(name);
  for (const [re, categories] of CATEGORY_BY_NAME) if (re.test(n)) return [...categories];
  return [];
}

/**
 * The categories a name suggests for a value used so: none when the snippet declares the value a
 * type nothing resolves (`@param {ASTNode} node`, an imported type): a declaration outranks the
 * name even when it says no category, so such a node is no DOM node. (A declared type that has a
 * category comes before the name anyway.)
 */
export function guessedByName(name: string, usage: Usage): Category[] {
  return usage.declared?.type !== undefined && usage.declared.category === undefined ? [] : byName(name);
}

/** The string a value of this name gets, when the name suggests one. */
export function stringByName(name: string): string | undefined {
  const n = lastName(name);
  for (const [re, v] of STRING_BY_NAME) if (re.test(n)) return v;
  return undefined;
}

/** The number a value of this name gets, when the name suggests one. */
export function numberByName(name: string): number | undefined {
  const n = lastName(name);
  for (const [re, v] of NUMBER_BY_NAME) if (re.test(n)) return v;
  return undefined;
}
