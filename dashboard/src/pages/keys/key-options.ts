import type { KeyExpiration, Permission, WebsiteAccess } from '../../gql/graphql';

/** Permissions in the words of the specification, in the order the form lists them. */
export const PERMISSIONS: { value: Permission; label: string }[] = [
  { value: 'READ_ANALYTICS', label: 'Read analytics data' },
  { value: 'TRACK_EVENTS', label: 'Track events' },
  { value: 'MANAGE_WEBSITES', label: 'Manage websites' },
  { value: 'MANAGE_TEAM', label: 'Manage team' },
  { value: 'ADMIN', label: 'Admin access' },
];

export const DEFAULT_PERMISSIONS: Permission[] = ['READ_ANALYTICS', 'TRACK_EVENTS'];

export const permissionLabel = (permission: Permission): string =>
  PERMISSIONS.find((p) => p.value === permission)?.label ?? permission;

export const WEBSITE_ACCESS_LABELS: Record<WebsiteAccess, string> = {
  ALL: 'All websites',
  SELECTED: 'Selected websites only',
};

export const EXPIRATIONS: { value: KeyExpiration; label: string }[] = [
  { value: 'NEVER', label: 'Never' },
  { value: 'ONE_YEAR', label: '1 year' },
  { value: 'NINETY_DAYS', label: '90 days' },
  { value: 'CUSTOM', label: 'Custom date' },
];

export const DEFAULT_EXPIRATION: KeyExpiration = 'ONE_YEAR';
