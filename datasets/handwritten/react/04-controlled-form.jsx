function NameForm({ onSubmit }) {
  const [name, setName] = useState('');
  const handleSubmit = (e) => {
    e.preventDefault();
    if (name.trim() === '') return;
    onSubmit(name);
    setName('');
  };
  return (
    <form onSubmit={handleSubmit}>
      <input value={name} onChange={e => setName(e.target.value)} />
    </form>
  );
}
const element = <NameForm onSubmit={n => console.log('hello', n)} />;
console.log(element.type.name);
