import { Link } from 'react-router-dom';
import { usePageTitle } from '../components/usePageTitle';

export function NotFoundPage() {
  usePageTitle('Not found');
  return (
    <section className="card empty">
      <h1>Page not found</h1>
      <p>
        Nothing lives at this address. <Link to="/">Go to the dashboard</Link>.
      </p>
    </section>
  );
}
