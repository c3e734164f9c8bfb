const cards = document.getElementsByClassName('card');
for (const card of cards) {
  const price = parseFloat(card.dataset.price);
  const qty = parseInt(card.getAttribute('data-qty'), 10);
  card.querySelector('.total').innerText = (price * qty).toFixed(2);
}
