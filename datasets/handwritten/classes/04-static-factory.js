class Point {
  constructor(x, y) { this.x = x; this.y = y; }
  static fromArray([x, y]) { return new Point(x, y); }
  distanceTo(other) {
    return Math.hypot(this.x - other.x, this.y - other.y);
  }
}
const p = Point.fromArray(coords);
console.log(p.distanceTo(origin).toFixed(2));
