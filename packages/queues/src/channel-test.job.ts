import { IsInt, Min } from 'class-validator';

/**
 * Payload of `channel-test` (on the status-changes queue, so every notifier handles it): send a
 * test message through one channel now. Produced by `POST /channels/{id}/test`, which waits for
 * the job's result, an `AlertTestResult` as the monitor's test send answers.
 */
export class ChannelTestJob {
  @IsInt() @Min(1) channelId!: number;
}
