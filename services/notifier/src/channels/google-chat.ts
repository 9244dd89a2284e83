import { clip, hexColour, type ChannelNotice } from './channel-notice';
import { hostProvider, type ServiceChannel } from './service-channel';

/** A message with one card (https://developers.google.com/workspace/chat/api/reference/rest/v1/cards). */
export interface GoogleChatMessage {
  /** What notifications and clients without cards show. */
  text: string;
  cardsV2: Array<{ cardId: string; card: { header: { title: string; subtitle: string }; sections: Array<{ widgets: Array<Record<string, unknown>> }> } }>;
}

/** Card text is Google Chat's HTML subset: what is not markup must be escaped. */
export const escapeChatHtml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function composeGoogleChat(notice: ChannelNotice): GoogleChatMessage {
  const widgets: Array<Record<string, unknown>> = [
    { textParagraph: { text: `<font color="${hexColour(notice.event)}"><b>${escapeChatHtml(clip(notice.headline, 1024))}</b></font>` } },
    ...notice.facts.map(([label, value]) => ({ decoratedText: { topLabel: escapeChatHtml(label), text: escapeChatHtml(clip(value, 1024)), wrapText: true } })),
    { buttonList: { buttons: [{ text: 'Open the monitor', onClick: { openLink: { url: notice.link } } }] } },
  ];
  return {
    text: clip(notice.title, 4096),
    cardsV2: [{ cardId: `${notice.alertKey}-${notice.event}`, card: { header: { title: clip(notice.title, 256), subtitle: clip(notice.monitor.url, 256) }, sections: [{ widgets }] } }],
  };
}

/** Google Chat: the space's webhook URL (key and token in its query) answers 200 with the message created. */
export const googleChatChannel: ServiceChannel<'google_chat'> = {
  service: 'Google Chat',
  providerOf: (config) => hostProvider('google_chat', config.webhook_url),
  requestOf: (config, notice) => ({
    url: config.webhook_url,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
    payload: composeGoogleChat(notice),
  }),
};
