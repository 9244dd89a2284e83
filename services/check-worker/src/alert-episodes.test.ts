import { decideEpisodes, isUnderExpiryLimit, type EpisodeCheck, type EpisodeState } from './alert-episodes';

const AT = new Date('2026-11-22T10:00:00.000Z');
const inDays = (days: number): Date => new Date(AT.getTime() + days * 86_400_000);
const state = (s: Partial<EpisodeState> = {}): EpisodeState => ({
  alertOnSlow: true,
  certificateExpiryDays: 14,
  openSlowEpisodeId: null,
  openCertificateEpisodeId: null,
  certificateExpiresAt: null,
  ...s,
});
const check = (c: Partial<EpisodeCheck> = {}): EpisodeCheck => ({
  slow: false,
  certificateExpiresAt: null,
  checkedAt: AT,
  maintenance: false,
  ...c,
});
const NOTHING = { opensSlow: false, closesSlow: false, opensCertificate: false, closesCertificate: false };

describe('isUnderExpiryLimit', () => {
  it('is true only with fewer than the limit days left, an expired certificate included, and never with 0 days', () => {
    expect(isUnderExpiryLimit(inDays(13.99), 14, AT)).toBe(true);
    expect(isUnderExpiryLimit(inDays(14), 14, AT)).toBe(false);
    expect(isUnderExpiryLimit(inDays(-2), 1, AT)).toBe(true);
    expect(isUnderExpiryLimit(inDays(-2), 0, AT)).toBe(false);
    expect(isUnderExpiryLimit(null, 365, AT)).toBe(false);
  });
});

describe('decideEpisodes', () => {
  it('opens a slow episode only when slow, none is open, alert_on_slow is on and outside maintenance', () => {
    expect(decideEpisodes(state(), check({ slow: true }))).toEqual({ ...NOTHING, opensSlow: true });
    expect(decideEpisodes(state({ alertOnSlow: false }), check({ slow: true }))).toEqual(NOTHING);
    expect(decideEpisodes(state({ openSlowEpisodeId: 3 }), check({ slow: true }))).toEqual(NOTHING);
    expect(decideEpisodes(state(), check({ slow: true, maintenance: true }))).toEqual(NOTHING);
  });

  it('closes the open slow episode at the first step that is not slow, in maintenance or with alerts off too', () => {
    expect(decideEpisodes(state({ openSlowEpisodeId: 3 }), check())).toEqual({ ...NOTHING, closesSlow: true });
    expect(decideEpisodes(state({ openSlowEpisodeId: 3, alertOnSlow: false }), check({ maintenance: true }))).toEqual({
      ...NOTHING,
      closesSlow: true,
    });
  });

  it('opens a certificate episode once under the limit, and keeps it while the certificate stays', () => {
    expect(decideEpisodes(state(), check({ certificateExpiresAt: inDays(3) }))).toEqual({ ...NOTHING, opensCertificate: true });
    expect(
      decideEpisodes(state({ openCertificateEpisodeId: 4, certificateExpiresAt: inDays(3) }), check({ certificateExpiresAt: inDays(3) })),
    ).toEqual(NOTHING);
    expect(decideEpisodes(state({ certificateExpiryDays: 0 }), check({ certificateExpiresAt: inDays(3) }))).toEqual(NOTHING);
    expect(decideEpisodes(state(), check({ certificateExpiresAt: inDays(3), maintenance: true }))).toEqual(NOTHING);
  });

  it('closes the certificate episode when the certificate changes, and opens another when the new one is under the limit too', () => {
    const open = state({ openCertificateEpisodeId: 4, certificateExpiresAt: inDays(3) });
    expect(decideEpisodes(open, check({ certificateExpiresAt: inDays(2) }))).toEqual({
      ...NOTHING,
      closesCertificate: true,
      opensCertificate: true,
    });
    expect(decideEpisodes(open, check({ certificateExpiresAt: inDays(90) }))).toEqual({ ...NOTHING, closesCertificate: true });
    expect(decideEpisodes(open, check({ certificateExpiresAt: null }))).toEqual({ ...NOTHING, closesCertificate: true });
  });
});
