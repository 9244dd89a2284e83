/**
 * The write operations (by OpenAPI operationId) that record no audit entry, each with its reason
 * (docs/audit-log.md). Every other POST, PUT, PATCH and DELETE of the document records one; the
 * test generated from the document (services/api/test/audit-log.test.ts) holds the routes to it.
 */
export const AUDIT_EXEMPTIONS: Readonly<Record<string, string>> = {
  refreshSession: 'extends the caller’s own session: signing in, not a change to the organization',
  signOut: 'ends the caller’s own session: signing out, not a change to the organization',
  updatePreferences: 'the caller’s own per-user settings, which belong to no organization',
  previewStatusPageIncidentMessage: 'renders a message being typed and stores nothing: no change to the organization',
  subscribeToStatusPage: 'a visitor (no caller) asks for emails about a public page: nobody acts in the organization, and the owner sees subscribers in their list',
};
