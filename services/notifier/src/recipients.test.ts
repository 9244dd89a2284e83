import { recipientsOf } from './recipients';

describe('recipientsOf', () => {
  it('falls back to the owner when the monitor lists no recipients', () => {
    expect(recipientsOf({ emailRecipients: [], ownerEmail: 'owner@example.test' })).toEqual(['owner@example.test']);
  });

  it('uses the listed recipients instead of the owner, each once', () => {
    expect(
      recipientsOf({ emailRecipients: ['ops@example.test', ' OPS@example.test', '', 'dev@example.test'], ownerEmail: 'owner@example.test' }),
    ).toEqual(['ops@example.test', 'dev@example.test']);
  });
});
