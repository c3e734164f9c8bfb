function Timer() {
  this.seconds = 0;
  setInterval(() => {
    this.seconds++;
    if (this.seconds === 3) console.log('three seconds');
  }, 1000);
}
new Timer();
