class Temperature {
  constructor(celsius) { this._c = celsius; }
  get fahrenheit() { return this._c * 9 / 5 + 32; }
  set fahrenheit(f) { this._c = (f - 32) * 5 / 9; }
}
const t = new Temperature(sensor.read());
t.fahrenheit = t.fahrenheit + 10;
console.log(t._c.toFixed(1));
