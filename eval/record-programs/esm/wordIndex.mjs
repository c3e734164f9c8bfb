export function tokenize(text) {
  return text.toLowerCase().split(/[^a-z]+/).filter((w) => w !== '');
}

export class WordIndex {
  #where = new Map();

  add(id, text) {
    for (const word of tokenize(text)) this.note(word, id);
  }

  note(word, id) {
    const ids = this.#where.get(word) ?? [];
    if (ids.at(-1) !== id) ids.push(id);
    this.#where.set(word, ids);
  }

  lookup(word) {
    return this.#where.get(word.toLowerCase()) ?? [];
  }

  mostFrequent(n) {
    return [...this.#where].map(([word, ids]) => [word, ids.length]).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, n);
  }
}
