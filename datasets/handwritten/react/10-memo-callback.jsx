const total = useMemo(() => cart.items.reduce((sum, i) => sum + i.price * i.qty, 0), [cart]);
const onCheckout = useCallback(() => {
  if (total === 0) {
    alert('Your cart is empty');
    return;
  }
  checkout(cart.id, total);
}, [cart, total]);
onCheckout();
console.log('total', total);
