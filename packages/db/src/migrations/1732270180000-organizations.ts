import type { MigrationInterface, QueryRunner } from 'typeorm';
import { OwnerMonitorCounts1732270150000 } from './1732270150000-owner-monitor-counts';

/** The tables whose rows an organization holds (docs/organizations.md, "Tenancy"). */
const OWNED_BY_CREATOR = ['monitors', 'agents', 'status_pages', 'maintenance_windows'] as const;

/** Rows per organization in `organization_monitor_counts`, as `owner_monitor_counts` had. */
const SLOTS = 16;

/**
 * Tenancy moves from user to organization (docs/organizations.md).
 *
 * - `organizations` and `organization_members` (role `owner`, `admin`, `member` or `viewer`;
 *   `alerts` is the member's "email me this organization's alerts" setting). A user's personal
 *   organization is the one whose `personal_user_id` is theirs: exactly one per user, made by a
 *   trigger on `users` so every way a user is made (sign-in, login link, `pnpm cli user:create`,
 *   an operator's SQL) gets one.
 * - Every monitor, agent, status page, maintenance window, notification and API token gets an
 *   `organization_id`; the rows that exist move into their owner's personal organization, and
 *   `owner_id`/`user_id` stay as who made them. A row written without one (an operator's SQL, a
 *   writer older than this migration) lands in its creator's personal organization, or for a
 *   notification in its monitor's, by a BEFORE INSERT trigger: no writer can leave one out.
 * - `organization_invitations` (single-use links, stored as SHA-256) and `audit_log`.
 * - The monitor count the list reads its `total` from is kept per organization.
 *
 * Everything runs in the migration's transaction: nothing is half-moved if it fails.
 */
export class Organizations1732270180000 implements MigrationInterface {
  name = 'Organizations1732270180000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE organizations (
        id serial PRIMARY KEY,
        name varchar(100) NOT NULL,
        personal_user_id integer UNIQUE REFERENCES users (id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE organization_members (
        organization_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        role varchar(8) NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
        alerts boolean NOT NULL DEFAULT true,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (organization_id, user_id)
      )`);
    await q.query(`CREATE INDEX organization_members_user_idx ON organization_members (user_id, organization_id)`);
    await q.query(`
      CREATE TABLE organization_invitations (
        id serial PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        email varchar(320) NOT NULL,
        role varchar(8) NOT NULL CHECK (role IN ('owner', 'admin', 'member', 'viewer')),
        token_hash char(64) NOT NULL UNIQUE,
        invited_by integer REFERENCES users (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz,
        accepted_by integer REFERENCES users (id) ON DELETE SET NULL
      )`);
    await q.query(`CREATE INDEX organization_invitations_org_idx ON organization_invitations (organization_id, id)`);
    await q.query(`
      CREATE TABLE audit_log (
        id bigserial PRIMARY KEY,
        organization_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        actor_user_id integer REFERENCES users (id) ON DELETE SET NULL,
        actor_token_id integer,
        action varchar(64) NOT NULL,
        resource_type varchar(40) NOT NULL,
        resource_id varchar(64),
        changed_fields text[] NOT NULL DEFAULT '{}',
        ip varchar(45),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX audit_log_org_idx ON audit_log (organization_id, id DESC)`);
    await q.query(`CREATE INDEX audit_log_created_idx ON audit_log (created_at)`);

    await q.query(`
      CREATE FUNCTION personal_organization_create() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE org integer;
      BEGIN
        INSERT INTO organizations (name, personal_user_id)
        VALUES (left(coalesce(nullif(btrim(NEW.name), ''), NEW.email), 100), NEW.id) RETURNING id INTO org;
        INSERT INTO organization_members (organization_id, user_id, role) VALUES (org, NEW.id, 'owner');
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER users_personal_organization AFTER INSERT ON users
        FOR EACH ROW EXECUTE FUNCTION personal_organization_create()`);
    await q.query(`
      INSERT INTO organizations (name, personal_user_id)
      SELECT left(coalesce(nullif(btrim(name), ''), email), 100), id FROM users ORDER BY id`);
    await q.query(`
      INSERT INTO organization_members (organization_id, user_id, role)
      SELECT id, personal_user_id, 'owner' FROM organizations WHERE personal_user_id IS NOT NULL`);

    await q.query(`
      CREATE FUNCTION organization_of_creator() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.organization_id IS NULL THEN
          SELECT id INTO NEW.organization_id FROM organizations
           WHERE personal_user_id = (to_jsonb(NEW) ->> TG_ARGV[0])::int;
        END IF;
        RETURN NEW;
      END $$`);
    const creatorColumn: Record<string, string> = {
      monitors: 'owner_id',
      agents: 'owner_id',
      status_pages: 'owner_id',
      maintenance_windows: 'owner_id',
      api_tokens: 'user_id',
    };
    for (const [table, creator] of Object.entries(creatorColumn)) {
      await q.query(`ALTER TABLE ${table} ADD COLUMN organization_id integer REFERENCES organizations (id) ON DELETE CASCADE`);
      await q.query(
        `UPDATE ${table} t SET organization_id = o.id FROM organizations o WHERE o.personal_user_id = t.${creator}`,
      );
      await q.query(`ALTER TABLE ${table} ALTER COLUMN organization_id SET NOT NULL`);
      await q.query(`
        CREATE TRIGGER ${table}_organization BEFORE INSERT ON ${table}
          FOR EACH ROW WHEN (NEW.organization_id IS NULL) EXECUTE FUNCTION organization_of_creator('${creator}')`);
    }
    await q.query(`ALTER TABLE api_tokens ADD COLUMN scope varchar(5) NOT NULL DEFAULT 'write' CHECK (scope IN ('read', 'write'))`);

    await q.query(`ALTER TABLE notifications ADD COLUMN organization_id integer REFERENCES organizations (id) ON DELETE CASCADE`);
    await q.query(`UPDATE notifications n SET organization_id = m.organization_id FROM monitors m WHERE m.id = n.monitor_id`);
    await q.query(`ALTER TABLE notifications ALTER COLUMN organization_id SET NOT NULL`);
    await q.query(`
      CREATE FUNCTION notification_organization() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        SELECT organization_id INTO NEW.organization_id FROM monitors WHERE id = NEW.monitor_id;
        RETURN NEW;
      END $$`);
    await q.query(`
      CREATE TRIGGER notifications_organization BEFORE INSERT ON notifications
        FOR EACH ROW WHEN (NEW.organization_id IS NULL) EXECUTE FUNCTION notification_organization()`);

    // The list and lookup indexes are led by the organization now, as they were by the owner.
    for (const table of OWNED_BY_CREATOR) {
      await q.query(`CREATE INDEX ${table}_organization_idx ON ${table} (organization_id, id)`);
    }
    await q.query(`DROP INDEX monitors_owner_idx, status_pages_owner_idx, maintenance_windows_owner_idx, agents_owner_idx`);
    await q.query(`ALTER INDEX monitors_owner_status_idx RENAME TO monitors_organization_status_old_idx`);
    await q.query(`CREATE INDEX monitors_organization_status_idx ON monitors (organization_id, status, id)`);
    await q.query(`CREATE INDEX monitors_organization_created_idx ON monitors (organization_id, created_at)`);
    await q.query(`CREATE INDEX monitors_organization_updated_idx ON monitors (organization_id, updated_at)`);
    await q.query(`DROP INDEX monitors_organization_status_old_idx, monitors_owner_created_idx, monitors_owner_updated_idx`);
    await q.query(`CREATE INDEX monitors_owner_idx ON monitors (owner_id)`);
    await q.query(`CREATE INDEX agents_owner_idx ON agents (owner_id)`);
    await q.query(`DROP INDEX agents_owner_name_key`);
    await q.query(`CREATE UNIQUE INDEX agents_organization_name_key ON agents (organization_id, lower(name))`);
    await q.query(`CREATE INDEX notifications_organization_idx ON notifications (organization_id, id)`);
    await q.query(`CREATE INDEX notifications_organization_status_idx ON notifications (organization_id, status, id)`);
    await q.query(`CREATE INDEX api_tokens_organization_idx ON api_tokens (organization_id, user_id)`);

    await this.countMonitorsPerOrganization(q);
  }

  /** `owner_monitor_counts` (docs/capacity.md), re-keyed: the same triggers, by organization. */
  private async countMonitorsPerOrganization(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER monitors_count_truncate ON monitors`);
    await q.query(`DROP TRIGGER monitors_count_move ON monitors`);
    await q.query(`DROP TRIGGER monitors_count_delete ON monitors`);
    await q.query(`DROP TRIGGER monitors_count_insert ON monitors`);
    await q.query(
      `DROP FUNCTION owner_monitor_counts_clear(), owner_monitor_counts_move(), owner_monitor_counts_remove(), owner_monitor_counts_add()`,
    );
    await q.query(`DROP TABLE owner_monitor_counts`);
    await q.query(`
      CREATE TABLE organization_monitor_counts (
        organization_id integer NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
        slot smallint NOT NULL CHECK (slot BETWEEN 0 AND ${SLOTS - 1}),
        monitors integer NOT NULL CHECK (monitors >= 0),
        PRIMARY KEY (organization_id, slot)
      )`);
    await q.query(`
      CREATE FUNCTION organization_monitor_counts_add() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO organization_monitor_counts AS c (organization_id, slot, monitors)
        SELECT organization_id, id % ${SLOTS}, count(*) FROM inserted_monitors GROUP BY 1, 2 ORDER BY 1, 2
        ON CONFLICT (organization_id, slot) DO UPDATE SET monitors = c.monitors + EXCLUDED.monitors;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION organization_monitor_counts_remove() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE organization_monitor_counts c SET monitors = c.monitors - d.n
          FROM (SELECT organization_id, id % ${SLOTS} AS slot, count(*)::int AS n FROM deleted_monitors GROUP BY 1, 2) d
         WHERE c.organization_id = d.organization_id AND c.slot = d.slot;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION organization_monitor_counts_move() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        UPDATE organization_monitor_counts SET monitors = monitors - 1
         WHERE organization_id = OLD.organization_id AND slot = OLD.id % ${SLOTS};
        INSERT INTO organization_monitor_counts AS c (organization_id, slot, monitors) VALUES (NEW.organization_id, NEW.id % ${SLOTS}, 1)
        ON CONFLICT (organization_id, slot) DO UPDATE SET monitors = c.monitors + 1;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE FUNCTION organization_monitor_counts_clear() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        DELETE FROM organization_monitor_counts;
        RETURN NULL;
      END $$`);
    await q.query(`
      CREATE TRIGGER monitors_count_insert AFTER INSERT ON monitors
        REFERENCING NEW TABLE AS inserted_monitors FOR EACH STATEMENT EXECUTE FUNCTION organization_monitor_counts_add()`);
    await q.query(`
      CREATE TRIGGER monitors_count_delete AFTER DELETE ON monitors
        REFERENCING OLD TABLE AS deleted_monitors FOR EACH STATEMENT EXECUTE FUNCTION organization_monitor_counts_remove()`);
    await q.query(`
      CREATE TRIGGER monitors_count_move AFTER UPDATE OF organization_id ON monitors
        FOR EACH ROW WHEN (OLD.organization_id IS DISTINCT FROM NEW.organization_id) EXECUTE FUNCTION organization_monitor_counts_move()`);
    await q.query(`
      CREATE TRIGGER monitors_count_truncate AFTER TRUNCATE ON monitors
        FOR EACH STATEMENT EXECUTE FUNCTION organization_monitor_counts_clear()`);
    await q.query(
      `INSERT INTO organization_monitor_counts (organization_id, slot, monitors)
       SELECT organization_id, id % ${SLOTS}, count(*) FROM monitors GROUP BY 1, 2`,
    );
  }

  /** Back to one owner per row: each row stays with the user who made it. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TRIGGER monitors_count_truncate ON monitors`);
    await q.query(`DROP TRIGGER monitors_count_move ON monitors`);
    await q.query(`DROP TRIGGER monitors_count_delete ON monitors`);
    await q.query(`DROP TRIGGER monitors_count_insert ON monitors`);
    await q.query(
      `DROP FUNCTION organization_monitor_counts_clear(), organization_monitor_counts_move(), organization_monitor_counts_remove(), organization_monitor_counts_add()`,
    );
    await q.query(`DROP TABLE organization_monitor_counts`);
    await q.query(`DROP TRIGGER notifications_organization ON notifications`);
    await q.query(`DROP FUNCTION notification_organization()`);
    await q.query(`ALTER TABLE notifications DROP COLUMN organization_id`);
    await q.query(`ALTER TABLE api_tokens DROP COLUMN scope`);
    for (const table of [...OWNED_BY_CREATOR, 'api_tokens']) {
      await q.query(`DROP TRIGGER ${table}_organization ON ${table}`);
      await q.query(`ALTER TABLE ${table} DROP COLUMN organization_id`);
    }
    await q.query(`DROP FUNCTION organization_of_creator()`);
    await q.query(`DROP INDEX monitors_owner_idx, agents_owner_idx`);
    await q.query(`CREATE INDEX monitors_owner_idx ON monitors (owner_id, id)`);
    await q.query(`CREATE INDEX monitors_owner_status_idx ON monitors (owner_id, status, id)`);
    await q.query(`CREATE INDEX monitors_owner_created_idx ON monitors (owner_id, created_at)`);
    await q.query(`CREATE INDEX monitors_owner_updated_idx ON monitors (owner_id, updated_at)`);
    await q.query(`CREATE INDEX agents_owner_idx ON agents (owner_id, id)`);
    await q.query(`CREATE UNIQUE INDEX agents_owner_name_key ON agents (owner_id, lower(name))`);
    await q.query(`CREATE INDEX status_pages_owner_idx ON status_pages (owner_id, id)`);
    await q.query(`CREATE INDEX maintenance_windows_owner_idx ON maintenance_windows (owner_id, id)`);
    await q.query(`DROP TRIGGER users_personal_organization ON users`);
    await q.query(`DROP FUNCTION personal_organization_create()`);
    await q.query(`DROP TABLE audit_log, organization_invitations, organization_members, organizations`);
    await new OwnerMonitorCounts1732270150000().up(q);
  }
}
