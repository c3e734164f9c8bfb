const button = document.getElementById('increment');
const output = document.querySelector('#count');
let count = 0;
button.addEventListener('click', () => {
  count += 1;
  output.textContent = `Clicked ${count} times`;
});
