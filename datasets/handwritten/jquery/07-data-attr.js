$('.product').each(function (index, el) {
  var $el = $(el);
  var id = $el.data('id');
  var stock = $el.attr('data-stock');
  if (stock === '0') {
    $el.addClass('sold-out').find('button').prop('disabled', true);
  }
  console.log(index, id, stock);
});
