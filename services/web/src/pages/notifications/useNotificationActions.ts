import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, data } from '../../app/api';
import { errorMessage } from '../../app/errors';
import { useNotices } from '../../app/notices';

/** Acknowledge and resolve; every list and count that shows notifications is refreshed after. */
export function useNotificationActions() {
  const queryClient = useQueryClient();
  const notices = useNotices();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['notifications'] });
    void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
  };
  const acknowledge = useMutation({
    mutationFn: async (id: number) => (await data(api.post('/api/v1/notifications/{id}/acknowledge', { path: { id } }))).data,
    onSuccess: () => {
      notices.success('Notification acknowledged');
      refresh();
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  const resolve = useMutation({
    mutationFn: async (id: number) => (await data(api.post('/api/v1/notifications/{id}/resolve', { path: { id } }))).data,
    onSuccess: () => {
      notices.success('Notification resolved');
      refresh();
    },
    onError: (err) => notices.error(errorMessage(err)),
  });
  return { acknowledge, resolve };
}
