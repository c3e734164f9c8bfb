const canvas = document.getElementById('chart');
const ctx = canvas.getContext('2d');
const values = [12, 19, 3, 5, 2];
const barWidth = canvas.width / values.length;
values.forEach((v, i) => {
  ctx.fillStyle = i % 2 ? '#36a' : '#6a3';
  ctx.fillRect(i * barWidth, canvas.height - v * 10, barWidth - 4, v * 10);
});
