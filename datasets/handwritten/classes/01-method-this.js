class Counter {
  constructor(start) {
    this.value = start;
  }
  increment() {
    this.value++;
    return this;
  }
}
const c = new Counter(initial);
c.increment().increment();
console.log(c.value);
