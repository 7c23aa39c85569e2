import { Outlet } from 'react-router';
import { useSession } from '../auth/session';
import { OrganizationSwitcher } from './organization-switcher';
import { Sidebar } from './sidebar';
import { SignOutButton } from './sign-out-button';

export function AppLayout() {
  const { email } = useSession();
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <p className="brand">Analytics</p>
        <div className="app-header-account">
          <OrganizationSwitcher />
          <p className="user-email">{email}</p>
          <SignOutButton />
        </div>
      </header>
      <div className="app-body">
        <Sidebar />
        <main id="main" className="content" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </div>
  );
}
