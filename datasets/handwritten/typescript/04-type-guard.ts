type Shape = { kind: 'circle'; r: number } | { kind: 'square'; side: number };
function area(s: Shape): number {
  if (s.kind === 'circle') {
    return Math.PI * s.r ** 2;
  }
  return s.side * s.side;
}
const shapes: Shape[] = loadShapes();
const total = shapes.map(area).reduce((a, b) => a + b, 0);
console.log(total.toFixed(1));
