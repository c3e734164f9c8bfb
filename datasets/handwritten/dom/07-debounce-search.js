function debounce(fn, ms) {
  let timer;
  return (...args) => {
    clearTimeout(timer);
    timer = setTimeout(() => fn(...args), ms);
  };
}
const search = document.getElementById('search');
search.addEventListener('input', debounce(e => {
  const q = e.target.value.toLowerCase();
  console.log('searching for', q);
}, 300));
