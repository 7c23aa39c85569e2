import { Outlet } from 'react-router';
import { useDocumentTitle } from '../layout/use-document-title';
import { useSession } from './session';

/** Pages about one organization's data need one to be selected. */
export function RequireOrganization() {
  const { organization } = useSession();
  if (organization) return <Outlet />;
  return <NoOrganization />;
}

function NoOrganization() {
  useDocumentTitle('No organization');
  return (
    <>
      <h1>No organization</h1>
      <p>
        Your account does not belong to an organization yet. Ask an owner of your team to add you.
      </p>
    </>
  );
}
