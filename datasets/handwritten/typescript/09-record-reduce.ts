type Order = { customer: string; amount: number };
const byCustomer: Record<string, number> = orders.reduce((acc: Record<string, number>, o: Order) => {
  acc[o.customer] = (acc[o.customer] || 0) + o.amount;
  return acc;
}, {});
for (const [name, sum] of Object.entries(byCustomer)) {
  console.log(name, sum);
}
