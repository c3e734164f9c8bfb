const EventEmitter = require('events');
class Job extends EventEmitter {
  run() {
    this.emit('start');
    setTimeout(() => this.emit('done', 42), 5);
  }
}
const job = new Job();
job.on('done', result => console.log('result', result));
job.run();
