class Repository<T extends { id: string }> {
  private items = new Map<string, T>();
  add(item: T): void {
    this.items.set(item.id, item);
  }
  find(id: string): T | undefined {
    return this.items.get(id);
  }
}
const repo = new Repository<Product>();
repo.add(product);
console.log(repo.find(product.id)?.name);
