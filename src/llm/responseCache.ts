import { writeFileAtomically } from '../core/writeFileAtomically.ts';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What the endpoint answered, as stored. */
export interface CachedReply {
  readonly text: string;
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** Everything that decides a reply: the cache key is its hash. */
export interface CacheKeyParts {
  readonly baseURL: string;
  readonly model: string;
  readonly temperature: number;
  readonly maxCompletionTokens: number;
  readonly messages: readonly { role: string; content: string }[];
}

/**
 * Replies on disk, one JSON file per request under `dir/ab/abcdef….json`, keyed by endpoint,
 * model, sampling settings and the (already redacted) messages. Writes go through a temporary
 * file and a rename, so a killed run leaves no half-written entry; an unreadable entry is a miss.
 */
export class ResponseCache {
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    mkdirSync(dir, { recursive: true });
  }

  static key(parts: CacheKeyParts): string {
    const canonical = JSON.stringify([parts.baseURL.replace(/\/+$/, ''), parts.model, parts.temperature, parts.maxCompletionTokens, parts.messages.map((m) => [m.role, m.content])]);
    return createHash('sha256').update(canonical).digest('hex');
  }

  get(key: string): CachedReply | undefined {
    try {
      const entry = JSON.parse(readFileSync(this.path(key), 'utf8')) as { reply?: CachedReply };
      const r = entry.reply;
      if (!r || typeof r.text !== 'string' || typeof r.promptTokens !== 'number' || typeof r.completionTokens !== 'number') return undefined;
      return r;
    } catch {
      return undefined;
    }
  }

  set(key: string, parts: CacheKeyParts, reply: CachedReply): void {
    const file = this.path(key);
    mkdirSync(join(this.dir, key.slice(0, 2)), { recursive: true });
    writeFileAtomically(file, JSON.stringify({ model: parts.model, baseURL: parts.baseURL, messages: parts.messages, reply }) + '\n');
    // Which endpoint the cache answers for, so an evaluation can replay it without one.
    const endpoint = join(this.dir, 'endpoint.json');
    if (!existsSync(endpoint)) writeFileSync(endpoint, JSON.stringify({ baseURL: withoutCredentials(parts.baseURL), model: parts.model }) + '\n');
  }

  private path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}

function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}
