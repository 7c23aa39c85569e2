import { useId } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useSession } from '../auth/session';
import { planName } from '../format/plan';

/** A select of the user's organizations; a user with one organization just sees its name. */
export function OrganizationSwitcher() {
  const { memberships, organization, selectOrganization } = useSession();
  const location = useLocation();
  const navigate = useNavigate();
  const selectId = useId();
  if (!organization) return null;
  if (memberships.length < 2) {
    return (
      <p className="organization-name">
        {organization.name} <span className="badge">{planName(organization.plan)}</span>
      </p>
    );
  }

  function choose(id: string) {
    selectOrganization(id);
    // A details page belongs to the organization left behind: go back to its section's list.
    const section = `/${location.pathname.split('/')[1] ?? ''}`;
    if (section !== location.pathname) void navigate(section);
  }

  return (
    <div className="organization-switcher">
      <label htmlFor={selectId}>Organization</label>
      <select
        id={selectId}
        value={organization.id}
        onChange={(event) => choose(event.target.value)}
      >
        {memberships.map(({ organization: org }) => (
          <option key={org.id} value={org.id}>
            {org.name} ({planName(org.plan)})
          </option>
        ))}
      </select>
    </div>
  );
}
