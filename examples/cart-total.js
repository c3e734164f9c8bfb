// A Stack Overflow-style answer: `cart` and `taxRate` come from code the answer does not show.
function lineTotal(item) {
  return item.price * item.quantity;
}

function cartTotal(items) {
  return items.reduce((sum, item) => sum + lineTotal(item), 0);
}

const total = cartTotal(cart.items) * (1 + taxRate);
console.log(total.toFixed(2));
