export { startNotifier, type Notifier, type NotifierDeps } from './notifier';
export {
  createStatusChangedProcessor,
  type QueuedJob,
  type StatusChangedProcessor,
  type StatusChangedProcessorDeps,
} from './status-changed.processor';
export { createEmailChannel } from './channels/create-email-channel';
export { EmailSendError, isPermanentSendError, type EmailChannel, type EmailMessage } from './channels/email-channel';
export { SendGridEmailChannel, type SendGridOptions } from './channels/sendgrid-email';
export { SmtpEmailChannel } from './channels/smtp-email';
export { LogEmailChannel } from './channels/log-email';
