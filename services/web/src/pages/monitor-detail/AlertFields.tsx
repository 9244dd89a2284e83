import type { ComponentProps, ReactNode } from 'react';
import { CheckField, TextField } from '../../components/FormFields';

/** The messages of every error key under `prefix` (the API names each bad list item: email_recipients.2). */
export const messagesUnder = (errors: Record<string, string[]>, prefix: string): string[] =>
  Object.entries(errors)
    .filter(([k]) => k.startsWith(prefix))
    .flatMap(([, v]) => v);

/** One channel of the alert settings: its switch, its address, and what else it shows. */
export function ChannelFieldset({
  legend,
  toggle,
  address,
  children,
}: {
  legend: string;
  toggle: ComponentProps<typeof CheckField>;
  address: ComponentProps<typeof TextField>;
  children?: ReactNode;
}) {
  return (
    <fieldset className="plain">
      <legend>{legend}</legend>
      <CheckField {...toggle} />
      <TextField {...address} />
      {children}
    </fieldset>
  );
}
