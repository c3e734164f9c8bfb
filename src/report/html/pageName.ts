import { createHash } from 'node:crypto';

/**
 * The file name of a snippet's page in a batch's HTML directory: the id's safe characters (cut
 * to 60) and a hash of the whole id, so two ids never share a file, none is `index.html`, and no
 * id (`../x`, `a/b`, `<b>`) can name a path outside the directory.
 */
export function htmlPageName(id: string): string {
  const safe = id.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '').slice(0, 60);
  const hash = createHash('sha256').update(id, 'utf8').digest('hex').slice(0, 10);
  return `${safe === '' ? 'snippet' : safe}-${hash}.html`;
}
