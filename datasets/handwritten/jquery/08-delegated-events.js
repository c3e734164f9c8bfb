$('#todo-list').on('click', 'li .remove', function (event) {
  event.stopPropagation();
  var $item = $(this).closest('li');
  var text = $item.find('span').text();
  $item.remove();
  console.log('removed', text);
});
