const list = document.getElementById('todos');
const input = document.getElementById('new-todo');
document.getElementById('add').onclick = function () {
  const text = input.value;
  if (!text) return;
  const li = document.createElement('li');
  li.textContent = text;
  li.classList.add('todo');
  list.appendChild(li);
  input.value = '';
};
