import { Link } from 'react-router';
import { useDocumentTitle } from '../layout/use-document-title';

export function NotFoundPage() {
  useDocumentTitle('Page not found');
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. Go to your <Link to="/keys">API keys</Link>.
      </p>
    </>
  );
}
