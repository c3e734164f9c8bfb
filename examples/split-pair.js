const [first, second] = splitPair("left-right");
console.log(first.toUpperCase(), second.length);
