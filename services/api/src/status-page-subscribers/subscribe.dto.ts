import { IsString } from 'class-validator';

/** `POST /api/v1/public/status-pages/{slug}/subscribers`: the address; its form is checked by `parseSubscriberEmail`. */
export class SubscribeDto {
  @IsString() email!: string;
}
