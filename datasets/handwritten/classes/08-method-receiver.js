const name = this.name || 'anonymous';
const items = this.items.filter(i => i.active);
this.render(items);
console.log(name, items.length);
