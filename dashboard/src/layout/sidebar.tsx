import { NavLink } from 'react-router';

const SECTIONS = [
  { to: '/keys', label: 'API Keys' },
  { to: '/websites', label: 'Websites' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/usage', label: 'Usage' },
] as const;

export function Sidebar() {
  return (
    <nav className="sidebar" aria-label="Main">
      <ul>
        {SECTIONS.map(({ to, label }) => (
          <li key={to}>
            <NavLink to={to}>{label}</NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
