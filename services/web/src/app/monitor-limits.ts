import { useQuery } from '@tanstack/react-query';
import { MONITOR_OWN_FIELDS } from '@uptime/probe/src/fields/monitor-own-fields';
import { api, data } from './api';

/**
 * The install's shortest check interval (MIN_CHECK_INTERVAL_SECONDS, answered by
 * `GET /api/v1/monitors/limits`): the floor of a monitor's interval and of the default one in the
 * preferences. Until it is known the declared bound applies and the API says the rest.
 */
export function useMinCheckInterval(): number {
  const limits = useQuery({
    queryKey: ['monitor-limits'],
    queryFn: async () => (await data(api.get('/api/v1/monitors/limits'))).data,
    staleTime: Infinity,
  });
  return limits.data?.min_check_interval ?? MONITOR_OWN_FIELDS.checkInterval.min;
}
