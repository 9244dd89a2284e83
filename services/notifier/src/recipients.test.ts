import { recipientsOf } from './recipients';

describe('recipientsOf', () => {
  it('falls back to the owner when the monitor lists no recipients', () => {
    expect(recipientsOf({ emailRecipients: [], memberEmails: ['owner@example.test'] })).toEqual(['owner@example.test']);
  });

  it("falls back to every member with alerts on in a team's organization, each once, none when nobody has them on", () => {
    expect(recipientsOf({ emailRecipients: [], memberEmails: ['a@example.test', 'b@example.test', 'A@example.test'] })).toEqual([
      'a@example.test',
      'b@example.test',
    ]);
    expect(recipientsOf({ emailRecipients: [], memberEmails: [] })).toEqual([]);
  });

  it('uses the listed recipients instead of the owner, each once', () => {
    expect(
      recipientsOf({ emailRecipients: ['ops@example.test', ' OPS@example.test', '', 'dev@example.test'], memberEmails: ['owner@example.test'] }),
    ).toEqual(['ops@example.test', 'dev@example.test']);
  });
});
