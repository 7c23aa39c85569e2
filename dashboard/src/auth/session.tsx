import { createContext, useContext, useMemo, useState, type ReactNode } from 'react';
import { graphql } from '../gql';
import type { MeQuery } from '../gql/graphql';
import { storedOrganizationId, storeOrganizationId } from './organization-choice';

export const MeDocument = graphql(`
  query Me {
    me {
      id
      email
      memberships {
        role
        organization {
          id
          name
          plan
        }
      }
    }
  }
`);

export type SignedInUser = NonNullable<MeQuery['me']>;
export type Membership = SignedInUser['memberships'][number];
export type Organization = Membership['organization'];

export interface Session {
  email: string;
  memberships: Membership[];
  /** The organization the pages show; null when the user belongs to none. */
  organization: Organization | null;
  selectOrganization(id: string): void;
}

const SessionContext = createContext<Session | null>(null);

export function SessionProvider({ user, children }: { user: SignedInUser; children: ReactNode }) {
  const [chosenId, setChosenId] = useState(storedOrganizationId);
  const session = useMemo<Session>(() => {
    const chosen = user.memberships.find((m) => m.organization.id === chosenId);
    return {
      email: user.email,
      memberships: user.memberships,
      organization: (chosen ?? user.memberships[0])?.organization ?? null,
      selectOrganization(id) {
        storeOrganizationId(id);
        setChosenId(id);
      },
    };
  }, [user, chosenId]);
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession is used outside RequireSession');
  return session;
}

/** The selected organization, for pages that RequireOrganization guards. */
export function useOrganization(): Organization {
  const { organization } = useSession();
  if (!organization) throw new Error('useOrganization is used outside RequireOrganization');
  return organization;
}
