// A TypeScript program of two modules (Node strips the types): a bank ledger with a class, a static
// factory, a program-defined error that is caught, and a few hundred transfers.
import { Account, InsufficientFunds } from './account.ts';

interface Transfer {
  readonly from: number;
  readonly to: number;
  readonly cents: number;
}

function transfers(count: number, accounts: number): Transfer[] {
  const out: Transfer[] = [];
  for (let i = 0; i < count; i++) out.push({ from: (i * 7) % accounts, to: (i * 11 + 3) % accounts, cents: 100 + ((i * 37) % 900) });
  return out;
}

function apply(accounts: readonly Account[], t: Transfer): boolean {
  const from = accounts[t.from];
  const to = accounts[t.to];
  if (from === undefined || to === undefined || from === to) return false;
  try {
    from.withdraw(t.cents);
  } catch (error) {
    if (error instanceof InsufficientFunds) return false;
    throw error;
  }
  to.deposit(t.cents);
  return true;
}

const accounts = Array.from({ length: 20 }, (_, i) => Account.open(`acct-${i}`, 500));
let done = 0;
for (const t of transfers(600, accounts.length)) if (apply(accounts, t)) done++;
console.log(`${done} transfers done; total ${accounts.reduce((n, a) => n + a.balance, 0)} cents`);
