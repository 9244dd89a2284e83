import { useQuery } from '@tanstack/react-query';
import { api, data } from '../../app/api';
import { DeliveriesTable } from '../../components/DeliveriesTable';
import { QueryState } from '../../components/QueryState';

/** A notification's deliveries (GET /notifications/{id}), read when a person opens them. */
export function NotificationDeliveries({ id, monitorName }: { id: number; monitorName: string }) {
  const detail = useQuery({
    queryKey: ['notification', id],
    queryFn: async () => (await data(api.get('/api/v1/notifications/{id}', { path: { id } }))).data,
    refetchInterval: 15_000,
  });
  return (
    <QueryState query={detail} what="deliveries">
      {(n) => <DeliveriesTable deliveries={n.deliveries} caption={`Deliveries of the notification of ${monitorName}`} />}
    </QueryState>
  );
}
