import { channelToForm, emptyChannelForm, fieldHint, formToChannelCreate, formToChannelUpdate, channelFormFields } from '../src/pages/channels/channel-form-values';

describe('channel form values', () => {
  it('makes a create body of the typed fields: numbers, address lists, and no empty field', () => {
    const values = { ...emptyChannelForm('ntfy'), name: ' Phone ', config: { server_url: '', topic: 'alerts', token: '', priority: '4' } };
    expect(formToChannelCreate(values)).toEqual({ name: 'Phone', type: 'ntfy', config: { topic: 'alerts', priority: 4 }, is_default: false });
    const email = { ...emptyChannelForm('email'), name: 'Ops', config: { recipients: 'a@example.com, b@example.com' }, isDefault: true };
    expect(formToChannelCreate(email).config).toEqual({ recipients: ['a@example.com', 'b@example.com'] });
  });

  it('keeps a secret left empty on an update, and clears an emptied optional field', () => {
    const saved = {
      id: 3,
      name: 'Chat',
      type: 'mattermost' as const,
      config: { webhook_url_set: true, channel: 'ops', username: null },
      is_default: false,
      key: null,
      managed_by: null,
      config_fingerprints: {},
      created_at: '2026-12-01T00:00:00.000Z',
      updated_at: '2026-12-01T00:00:00.000Z',
    };
    const form = channelToForm(saved);
    expect(form.config).toEqual({ webhook_url: '', channel: 'ops', username: '' });
    expect(formToChannelUpdate({ ...form, config: { ...form.config, channel: '' } })).toEqual({
      name: 'Chat',
      config: { channel: null, username: null },
      is_default: false,
    });
  });

  it('says where to find each field, and that a secret is never shown again', () => {
    const [token] = channelFormFields('telegram');
    expect(fieldHint(token!)).toMatch(/@BotFather.*never shown again/);
  });
});
