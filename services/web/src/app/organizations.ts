import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api, chooseOrganization, data } from './api';
import { useUser } from './session';

export const organizationKeys = {
  list: ['organizations'] as const,
};

/** The organizations the user is a member of, with their role in each (the first 100). */
export function useOrganizations() {
  return useQuery({
    queryKey: organizationKeys.list,
    queryFn: async () => (await data(api.get('/api/v1/organizations', { query: { limit: 100 } }))).data,
    staleTime: 60_000,
  });
}

export type OrganizationRole = 'owner' | 'admin' | 'member' | 'viewer';
const ORDER: OrganizationRole[] = ['viewer', 'member', 'admin', 'owner'];
export const roleAtLeast = (role: OrganizationRole, needed: OrganizationRole): boolean => ORDER.indexOf(role) >= ORDER.indexOf(needed);

/** The organization the app acts in, as GET /auth/user names it, with the user's role there. */
export function useCurrentOrganization() {
  return useUser().data?.organization;
}

/**
 * Why the user may not change monitoring resources here, or null when they may: viewers read only
 * (docs/organizations.md, "Roles"). Controls that would be refused are disabled with this reason.
 */
export function useViewerReason(what = 'monitors'): string | null {
  const organization = useCurrentOrganization();
  return organization?.role === 'viewer' ? `Viewers cannot change ${what}` : null;
}

/** Switches the organization the app acts in and reloads everything read in the previous one. */
export function useSwitchOrganization(): (id: number) => void {
  const queryClient = useQueryClient();
  return useCallback(
    (id: number) => {
      chooseOrganization(id);
      void queryClient.resetQueries();
    },
    [queryClient],
  );
}
