import { X509Certificate } from 'node:crypto';
import { runProbe } from '../src';
import type { ProbeOptions } from '../src/check-config';
import { aCheckConfig } from './support/check-config-builder';
import { targetRoutes } from './support/target-routes';
import { selfSignedCertificate, startTestServer, type TestServer, type TlsMaterial } from './support/test-servers';

const local: ProbeOptions = { allowPrivateTargets: true };
const DAY_MS = 86_400_000;

let tls: TlsMaterial;
let site: TestServer;
let tlsSite: TestServer;

beforeAll(async () => {
  // A certificate the test makes, expiring in 3 days (docs/alert-rules.md, "Certificate expiry").
  tls = selfSignedCertificate(3);
  site = await startTestServer(targetRoutes);
  tlsSite = await startTestServer(targetRoutes, { tls });
});

afterAll(async () => {
  await Promise.all([site.close(), tlsSite.close()]);
});

describe('certificate expiry', () => {
  it("records the leaf certificate's notAfter of an https check", async () => {
    const result = await runProbe(aCheckConfig(`${tlsSite.url}/text`, { verifySsl: false }), local);
    expect(result.ok).toBe(true);
    const notAfter = new Date(new X509Certificate(tls.cert).validTo);
    expect(result.certificateExpiresAt?.getTime()).toBe(notAfter.getTime());
    const daysLeft = (result.certificateExpiresAt!.getTime() - Date.now()) / DAY_MS;
    expect(daysLeft).toBeGreaterThan(2.9);
    expect(daysLeft).toBeLessThanOrEqual(3);
  });

  it('records none for http', async () => {
    const result = await runProbe(aCheckConfig(`${site.url}/text`), local);
    expect(result.ok).toBe(true);
    expect(result.certificateExpiresAt).toBeNull();
  });

  it('records none when verification refused the certificate, and the check fails', async () => {
    const result = await runProbe(aCheckConfig(`${tlsSite.url}/text`), local);
    expect(result.ok).toBe(false);
    expect(result.certificateExpiresAt).toBeNull();
  });
});
