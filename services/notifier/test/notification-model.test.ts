import fc from 'fast-check';
import { statusChangedJobId, type StatusChangedJob } from '@uptime/queues';
import { aMonitor, aUser, resetDatabase } from '@uptime/testing';
import type { DataSource } from '@uptime/db';
import { EmailSendError, type EmailChannel } from '../src/channels/email-channel';
import type { PublishedEvent } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

jest.setTimeout(180_000);

/**
 * Model-based test of the notification state machine: the world (a monitor going down and coming
 * back, several times) advances while its status events are delivered duplicated, reordered,
 * concurrently, and again after transient send failures, as an at-least-once queue with several
 * notifiers does. Whatever the interleaving, each incident ends with exactly one downtime and one
 * recovery notification and exactly one email of each per recipient.
 */

type Command =
  | { kind: 'advance' }
  | { kind: 'deliver'; pick: number }
  | { kind: 'deliverTogether'; picks: [number, number] };

const command: fc.Arbitrary<Command> = fc.oneof(
  fc.constant<Command>({ kind: 'advance' }),
  fc.nat().map<Command>((pick) => ({ kind: 'deliver', pick })),
  fc.tuple(fc.nat(), fc.nat()).map<Command>((picks) => ({ kind: 'deliverTogether', picks })),
);

const RECIPIENTS = ['a@example.test', 'b@example.test'];

/** The world as the check-worker leaves it: incidents opened and closed, one status event per change. */
class World {
  readonly published: PublishedEvent[] = [];
  readonly incidents: { id: number; resolved: boolean }[] = [];

  constructor(
    private readonly ds: DataSource,
    readonly monitorId: number,
  ) {}

  async advance(): Promise<void> {
    const open = this.incidents.find((i) => !i.resolved);
    if (open) {
      await this.ds.query(
        `UPDATE incidents SET resolved_at = started_at + interval '90 seconds', duration = 90 WHERE id = $1`,
        [open.id],
      );
      open.resolved = true;
      await this.publish('offline', 'online', open.id);
      return;
    }
    const [row] = (await this.ds.query(
      `INSERT INTO incidents (monitor_id, started_at, status_code, response_time, error)
       VALUES ($1, now() - interval '1 hour' + $2 * interval '5 minutes', 503, 120, 'HTTP 503') RETURNING id`,
      [this.monitorId, this.incidents.length],
    )) as { id: number }[];
    this.incidents.push({ id: row.id, resolved: false });
    await this.publish('online', 'offline', row.id);
  }

  private async publish(from: 'online' | 'offline', to: 'online' | 'offline', incidentId: number): Promise<void> {
    const [row] = (await this.ds.query(
      `INSERT INTO status_events (monitor_id, from_status, to_status, incident_id, published_at) VALUES ($1, $2, $3, $4, now()) RETURNING id`,
      [this.monitorId, from, to, incidentId],
    )) as { id: string }[];
    const data: StatusChangedJob = { eventId: String(row.id), monitorId: this.monitorId, from, to, incidentId };
    this.published.push({ id: statusChangedJobId(data.eventId), data });
  }
}

describe('notification state machine under duplicated, reordered and redelivered events', () => {
  const bed = useTestbed();

  it('sends exactly one downtime and one recovery email per incident and recipient', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 14 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 }), async (commands, failures) => {
        await resetDatabase(bed.ds);
        bed.sendgrid.mails.length = 0;
        const owner = await aUser(bed.ds);
        const monitor = await aMonitor(bed.ds, owner, { name: 'Shop', emailRecipients: RECIPIENTS });
        const world = new World(bed.ds, monitor.id);

        // Transient SendGrid failures in a pattern fast-check chooses (and shrinks), played once:
        // fewer than the 10 attempts after which a delivery is given up (retry-schedule.ts).
        const sendGrid = bed.sendGridAt(bed.sendgrid);
        let sends = 0;
        const flaky: EmailChannel = {
          send: async (mail) => {
            const fails = failures[sends] ?? false;
            sends += 1;
            if (fails) throw new EmailSendError('connection reset', 'transient');
            await sendGrid.send(mail);
          },
        };
        // Two notifiers, as two processes would be.
        const notifiers = [bed.processor(flaky, { inFlightWaitMs: 2000 }), bed.processor(flaky, { inFlightWaitMs: 2000 })];
        // What the queue still owes: an event whose processing threw is delivered again.
        const owed = new Set<PublishedEvent>();
        const deliver = async (event: PublishedEvent, by: number): Promise<void> => {
          try {
            await notifiers[by % 2](event);
            owed.delete(event);
          } catch {
            owed.add(event);
          }
        };

        for (const c of commands) {
          if (c.kind === 'advance') {
            await world.advance();
            owed.add(world.published[world.published.length - 1]);
          } else if (world.published.length > 0) {
            const picks = c.kind === 'deliver' ? [c.pick] : c.picks;
            await Promise.all(picks.map((p, i) => deliver(world.published[p % world.published.length], i)));
          }
        }
        // The queue delivers everything at least once, retrying until each job succeeds.
        for (let round = 0; owed.size > 0; round += 1) {
          if (round > 40) throw new Error('events still owed after 40 rounds');
          for (const event of [...owed]) await deliver(event, round);
        }

        const notifications = (await bed.ds.query(
          `SELECT incident_id, type, status FROM notifications WHERE monitor_id = $1 ORDER BY incident_id, type`,
          [monitor.id],
        )) as { incident_id: number; type: string; status: string }[];
        const expected = world.incidents.flatMap((i) =>
          i.resolved
            ? [
                { incident_id: i.id, type: 'downtime', status: 'resolved' },
                { incident_id: i.id, type: 'recovery', status: 'resolved' },
              ]
            : [{ incident_id: i.id, type: 'downtime', status: 'active' }],
        );
        expect(notifications).toEqual(expected);

        const deliveries = (await bed.ds.query(
          `SELECT d.status, d.channel, d.attempts, d.last_error, n.type, n.incident_id FROM notification_deliveries d
             JOIN notifications n ON n.id = d.notification_id WHERE n.monitor_id = $1`,
          [monitor.id],
        )) as { status: string; channel: string }[];
        expect(deliveries).toHaveLength(expected.length * RECIPIENTS.length);
        expect(deliveries.filter((d) => d.status !== 'sent' || d.channel !== 'email')).toEqual([]);

        const count = (subject: string, to: string): number => bed.sendgrid.mails.filter((m) => m.subject === subject && m.to === to).length;
        const resolved = world.incidents.filter((i) => i.resolved).length;
        for (const to of RECIPIENTS) {
          expect(count('[DOWN] Shop is down', to)).toBe(world.incidents.length);
          expect(count('[UP] Shop is back up', to)).toBe(resolved);
        }
        expect(bed.sendgrid.mails).toHaveLength(expected.length * RECIPIENTS.length);
      }),
      { seed: 20261125, numRuns: Number(process.env.MODEL_RUNS ?? 25), endOnFailure: true },
    );
  });
});
