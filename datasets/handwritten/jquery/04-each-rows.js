var total = 0;
$('table#cart tr').each(function () {
  var price = parseFloat($(this).find('.price').text());
  var qty = parseInt($(this).find('input.qty').val(), 10);
  if (!isNaN(price) && !isNaN(qty)) {
    total += price * qty;
  }
});
$('#total').html(total.toFixed(2));
