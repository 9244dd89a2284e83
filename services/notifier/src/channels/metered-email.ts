import type { ServiceMetrics } from '@uptime/observability';
import { isPermanentSendError, type EmailChannel, type EmailMessage } from './email-channel';

/** Counts what the transport did with each send: `emails_sent_total`, `emails_failed_total{reason}`. */
export class MeteredEmailChannel implements EmailChannel {
  constructor(
    private readonly inner: EmailChannel,
    private readonly metrics: Pick<ServiceMetrics, 'emailsSent' | 'emailsFailed'>,
  ) {}

  get provider(): string | undefined {
    return this.inner.provider;
  }

  get logsOnly(): boolean {
    return this.inner.logsOnly === true;
  }

  async send(mail: EmailMessage): Promise<void> {
    try {
      await this.inner.send(mail);
    } catch (err) {
      this.metrics.emailsFailed.inc({ reason: isPermanentSendError(err) ? 'permanent' : 'transient' });
      throw err;
    }
    this.metrics.emailsSent.inc();
  }
}
