const products = props.products;
const visible = products.filter(p => p.price < props.maxPrice);
const items = visible.map(p => (
  <li key={p.id} className={p.inStock ? 'in-stock' : 'sold-out'}>
    {p.name}: ${p.price.toFixed(2)}
  </li>
));
console.log(items.length, 'of', products.length, 'shown');
