// An ESM program of three modules: indexes the words of a generated text and prints the most
// frequent ones and a few look-ups.
import { WordIndex } from './wordIndex.mjs';
import { sentences } from './text.mjs';

const index = new WordIndex();
for (const [n, sentence] of sentences(400, 7).entries()) index.add(n, sentence);
for (const [word, count] of index.mostFrequent(5)) console.log(`${word}: ${count}`);
for (const word of ['river', 'stone', 'absent']) console.log(`${word} in ${index.lookup(word).length} sentences`);
