window.addEventListener('resize', () => {
  const width = window.innerWidth;
  const nav = document.querySelector('nav');
  if (width < 768) {
    nav.classList.add('collapsed');
  } else {
    nav.classList.remove('collapsed');
  }
});
