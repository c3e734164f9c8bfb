const order = loadOrder();
if (order.paid === 'yes') {
  console.log('shipping', order.id);
} else {
  console.log('waiting for payment');
}
const note = null;
console.log(note.trim());
