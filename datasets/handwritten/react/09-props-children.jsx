const Card = ({ title, children }) => (
  <div className="card">
    <h3>{title}</h3>
    <div className="body">{children}</div>
  </div>
);
const tree = <Card title="Hello"><p>Body text</p></Card>;
console.log(tree.props.title);
