const el = document.querySelector<HTMLInputElement>('#age')!;
const age: number = parseInt(el.value, 10);
const profile = user?.profile ?? { age: 0 };
profile.age = age;
console.log(profile.age >= 18 ? 'adult' : 'minor');
