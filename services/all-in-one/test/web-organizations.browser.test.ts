import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { hashApiToken } from '@uptime/db';
import { startBrowserApp, type BrowserApp } from './support/browser-app';
import type { InProcessStack } from './support/in-process-stack';
import { appDriver, collectPageProblems, openAppPage } from './support/web-browser';

jest.setTimeout(180_000);

const ADA = { id: '7001', email: 'ada@example.com', name: 'Ada Lovelace' };
const BOB = { id: '7002', email: 'bob@example.com', name: 'Bob Babbage' };

/**
 * Organizations in the web app (docs/web.md, "Organizations"): the switcher changes what every
 * page shows, the Members page invites, revokes, changes roles and removes, an invitee accepts
 * their link (signing in first), and a viewer's controls are disabled with the reason shown.
 * Headless Chromium against the real stack, by role and accessible name.
 */
describe('the web app: organizations', () => {
  let app: BrowserApp;
  let stack: InProcessStack;
  let page: Page;
  let appUrl: string;
  let acmeId: number;

  beforeAll(async () => {
    app = await startBrowserApp({ person: ADA });
    ({ stack, page, appUrl } = app);
  });

  afterAll(() => app?.close());

  afterEach(() => {
    expect(app.problems.splice(0)).toEqual([]);
  });

  const ada = appDriver(() => page);

  it('1. switches organization and shows only that organization’s monitors', async () => {
    await ada.signIn(appUrl);
    await ada.addMonitor('Home site', `${app.target.url}/home`);
    const res = await page.request.post(`${appUrl}/api/v1/organizations`, { data: { name: 'Acme' }, headers: { Origin: appUrl } });
    expect(res.status()).toBe(201);
    acmeId = ((await res.json()) as { data: { id: number } }).data.id;

    await page.reload();
    const switcher = page.getByRole('combobox', { name: 'Organization' });
    await switcher.selectOption({ label: 'Acme' });
    await ada.nav('Monitors');
    await page.getByText('No monitors', { exact: false }).first().waitFor();
    expect(await page.getByRole('link', { name: 'Home site', exact: true }).count()).toBe(0);
    await ada.addMonitor('Acme site', `${app.target.url}/acme`);
    const [row]: { organization_id: number }[] = await stack.ds.query(`SELECT organization_id FROM monitors WHERE name = 'Acme site'`);
    expect(row!.organization_id).toBe(acmeId);

    // Back in the personal organization, its own monitor only.
    await switcher.selectOption({ label: `${ADA.name} (personal)` });
    await ada.nav('Monitors');
    await page.getByRole('link', { name: 'Home site', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Acme site', exact: true }).count()).toBe(0);
    await switcher.selectOption({ label: 'Acme' });
    await ada.checkPage('organizations-switched');
  });

  it('2. invites by email and role, lists the invitation as pending, and revokes it', async () => {
    await ada.nav('Members');
    await page.getByRole('cell', { name: /Ada Lovelace/ }).waitFor();
    await page.getByLabel('Email', { exact: true }).fill('carol@example.com');
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await page.getByRole('button', { name: 'Invite', exact: true }).click();
    await ada.notice('Invitation sent to carol@example.com');
    const pending = page.getByRole('list', { name: 'Pending invitations' });
    await pending.getByText('carol@example.com').waitFor();
    const [invitation]: { role: string; organization_id: number }[] = await stack.ds.query(
      `SELECT role, organization_id FROM organization_invitations WHERE email = 'carol@example.com'`,
    );
    expect(invitation).toEqual({ role: 'admin', organization_id: acmeId });
    await ada.checkPage('organizations-members');

    await page.getByRole('button', { name: 'Revoke invitation of carol@example.com' }).click();
    await ada.notice('Invitation of carol@example.com revoked');
    await page.getByText('No pending invitations.').waitFor();
  });

  it('3. lets the invitee sign in from the link, accept, and land in the organization as a viewer whose controls are disabled with the reason', async () => {
    // The email's link carries a secret the server keeps only as a hash: this one is made here.
    const token = randomBytes(32).toString('base64url');
    const [ada_]: { id: number }[] = await stack.ds.query(`SELECT id FROM users WHERE email = $1`, [ADA.email]);
    await stack.ds.query(
      `INSERT INTO organization_invitations (organization_id, email, role, token_hash, invited_by, expires_at)
       VALUES ($1, 'Bob@Example.com', 'viewer', $2, $3, now() + interval '7 days')`,
      [acmeId, hashApiToken(token), ada_!.id],
    );
    app.github.signInAs({ ...BOB, emailVerified: true });
    const bobPage = await openAppPage(app.browser);
    const bobProblems = collectPageProblems(bobPage);
    const bob = appDriver(() => bobPage);
    try {
      await bobPage.goto(`${appUrl}/invitations/${token}`);
      await bobPage.getByRole('button', { name: 'Sign in with GitHub' }).click();
      await bob.heading().filter({ hasText: 'Invitation' }).waitFor();
      await bobPage.getByRole('button', { name: 'Accept invitation' }).click();
      await bob.notice('You joined Acme as viewer');
      await bob.heading().filter({ hasText: 'Monitors' }).waitFor();
      await bobPage.getByRole('link', { name: 'Acme site', exact: true }).waitFor();

      const add = bobPage.getByRole('button', { name: 'Add monitor' });
      expect(await add.isDisabled()).toBe(true);
      await bobPage.getByText('Viewers cannot change monitors').first().waitFor();
      await bobPage.getByRole('link', { name: 'Acme site', exact: true }).click();
      await bob.heading().filter({ hasText: 'Acme site' }).waitFor();
      const actions = bobPage.getByRole('region', { name: 'Actions' });
      expect(await actions.getByRole('button', { name: 'Delete' }).isDisabled()).toBe(true);
      expect(await actions.getByRole('button', { name: 'Pause' }).isDisabled()).toBe(true);
      await actions.getByText('Viewers cannot change monitors').waitFor();
      expect(await bobPage.getByRole('button', { name: 'Save alert settings' }).isDisabled()).toBe(true);
      expect(await bobPage.getByRole('button', { name: 'Create badge' }).isDisabled()).toBe(true);
      await bob.checkPage('organizations-viewer');

      await bob.nav('Members');
      expect(await bobPage.getByRole('button', { name: 'Invite' }).isDisabled()).toBe(true);
      await bobPage.getByText('Only admins and owners can invite, change or remove members.').waitFor();
      expect(await bobPage.getByRole('combobox', { name: `Role of ${ADA.email}` }).isDisabled()).toBe(true);

      // The link works once.
      const again = await bobPage.request.post(`${appUrl}/api/v1/invitations/accept`, { data: { token }, headers: { Origin: appUrl } });
      expect(again.status()).toBeGreaterThanOrEqual(400);
      expect(bobProblems).toEqual([]);
    } finally {
      await bobPage.context().close();
    }
  });

  it('4. changes the new member’s role and removes them', async () => {
    await ada.nav('Dashboard');
    await ada.nav('Members');
    const role = page.getByRole('combobox', { name: `Role of ${BOB.email}` });
    await role.waitFor();
    expect(await role.inputValue()).toBe('viewer');
    await role.selectOption('member');
    await ada.notice(`${BOB.email} updated`);
    const [member]: { role: string }[] = await stack.ds.query(
      `SELECT m.role FROM organization_members m JOIN users u ON u.id = m.user_id WHERE u.email = $1 AND m.organization_id = $2`,
      [BOB.email, acmeId],
    );
    expect(member!.role).toBe('member');

    await page.getByRole('button', { name: `Remove ${BOB.email}` }).click();
    await ada.notice(`${BOB.email} removed`);
    await role.waitFor({ state: 'detached' });
    const left: unknown[] = await stack.ds.query(
      `SELECT 1 FROM organization_members m JOIN users u ON u.id = m.user_id WHERE u.email = $1 AND m.organization_id = $2`,
      [BOB.email, acmeId],
    );
    expect(left).toEqual([]);
  });
});
