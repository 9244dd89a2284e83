import { answer, startFakeSendGrid, type FakeSendGrid } from '@uptime/testing';
import { EmailSendError, type EmailChannel } from '../src/channels/email-channel';
import { aMonitorThatWentDown, deliveriesOf, notificationsOf } from './support/incident-fixtures';
import { useTestbed } from './support/testbed';

const sendGridError = (status: number, message: string) =>
  answer(status, JSON.stringify({ errors: [{ message }] }), { 'content-type': 'application/json' });

describe('email transport failures', () => {
  const bed = useTestbed();
  // The shared fake stays healthy; a test that needs SendGrid to fail gets a fake of its own.
  let broken: FakeSendGrid;
  beforeEach(async () => {
    broken = await startFakeSendGrid();
  });
  afterEach(() => broken.close());

  it('puts the delivery back and throws when SendGrid answers 500, then sends it once on retry', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { owner: { email: 'owner@example.test' } });
    broken.server.respond(sendGridError(500, 'internal error'));

    await expect(bed.processor(bed.sendGridAt(broken))(down.offline)).rejects.toThrow(/owner@example\.test failed transiently/);

    expect(broken.server.requests).toHaveLength(1);
    expect(await deliveriesOf(bed.ds, down.incident.id)).toEqual([
      expect.objectContaining({ status: 'pending', attempts: 1, last_error: 'SendGrid answered 500: internal error', sent_at: null }),
    ]);
    expect((await notificationsOf(bed.ds, down.incident.id))[0].email_sent_at).toBeNull();

    // The queue retries the job, possibly on another notifier; SendGrid is healthy again.
    await bed.processor()(down.offline);

    expect(bed.sendgrid.mails).toEqual([expect.objectContaining({ to: 'owner@example.test', subject: '[DOWN] Shop is down' })]);
    expect(await deliveriesOf(bed.ds, down.incident.id)).toEqual([
      expect.objectContaining({ status: 'sent', attempts: 2, last_error: null, sent_at: expect.any(Date) }),
    ]);
    const notifications = await notificationsOf(bed.ds, down.incident.id);
    expect(notifications).toHaveLength(1);
    expect(notifications[0].email_sent_at).toBeInstanceOf(Date);
  });

  it('marks the delivery failed and completes without a retry loop when SendGrid answers 400', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { monitor: { emailRecipients: ['not-an-address'] } });
    broken.server.respond(sendGridError(400, 'Does not contain a valid address.'));
    const process = bed.processor(bed.sendGridAt(broken));

    await expect(process(down.offline)).resolves.toBeUndefined();
    // A redelivery of the job does not try again either.
    await expect(process(down.offline)).resolves.toBeUndefined();

    expect(broken.server.requests).toHaveLength(1);
    expect(await deliveriesOf(bed.ds, down.incident.id)).toEqual([
      expect.objectContaining({
        recipient: 'not-an-address',
        status: 'failed',
        attempts: 1,
        last_error: 'SendGrid answered 400: Does not contain a valid address.',
      }),
    ]);
    const [notification] = await notificationsOf(bed.ds, down.incident.id);
    expect(notification).toMatchObject({ status: 'active', email_sent_at: null });
  });

  it('sends to the other recipients when one is refused, and retries none of them', async () => {
    const down = await aMonitorThatWentDown(bed.ds, { monitor: { emailRecipients: ['good@example.test', 'bad@example.test'] } });
    const sendGrid = bed.sendGridAt(bed.sendgrid);
    // SendGrid in front, an SMTP-like refusal for one mailbox.
    const refusingBad: EmailChannel = {
      send: async (mail) => {
        if (mail.to === 'bad@example.test') throw new EmailSendError('550 mailbox unavailable', true);
        await sendGrid.send(mail);
      },
    };

    await expect(bed.processor(refusingBad)(down.offline)).resolves.toBeUndefined();

    expect(bed.sendgrid.mails.map((m) => m.to)).toEqual(['good@example.test']);
    expect((await deliveriesOf(bed.ds, down.incident.id)).map((d) => [d.recipient, d.status])).toEqual([
      ['good@example.test', 'sent'],
      ['bad@example.test', 'failed'],
    ]);
    expect((await notificationsOf(bed.ds, down.incident.id))[0].email_sent_at).toBeInstanceOf(Date);
  });
});
